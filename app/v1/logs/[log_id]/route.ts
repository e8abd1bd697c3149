import { READ_ONLY, withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getLogOrThrow } from "@/lib/logs/get-log-or-throw";

export const GET = withAuth<{ log_id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getLogOrThrow(team, user.id, params.log_id);
}, READ_ONLY);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
