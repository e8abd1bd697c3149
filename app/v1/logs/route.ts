import { READ_ONLY, withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { listLogsQuerySchema } from "@/lib/schemas/logs";
import { listLogs } from "@/lib/logs/list-logs";

export const GET = withAuth(
  async ({ team, user, searchParams }) => listLogs(team, user.id, parseQuery(listLogsQuerySchema, searchParams)),
  READ_ONLY,
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
