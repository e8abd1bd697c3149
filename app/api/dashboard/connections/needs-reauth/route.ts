import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listConnectionsNeedingReauth } from "@/lib/connections/list-connections-needing-reauth";

export const GET = withAuth(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listConnectionsNeedingReauth(team.id, user.id);
});
