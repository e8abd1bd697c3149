import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getLogOrThrow } from "@/lib/logs/get-log-or-throw";

export const GET = withAuth<{ log_id: string }>(async ({ team, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getLogOrThrow(team.id, params.log_id);
});
