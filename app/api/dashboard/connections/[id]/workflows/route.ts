import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listActiveWorkflowsOfConnection } from "@/lib/workflows/list-active-workflows-of-connection";

export const GET = withAuth<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listActiveWorkflowsOfConnection(team.id, user.id, params.id);
});
