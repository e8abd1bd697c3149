import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/api/parse";
import { listLogsQuerySchema } from "@/lib/schemas/logs";
import { listLogs } from "@/lib/logs/list-logs";

export const GET = withAuth(async ({ team, searchParams }) => listLogs(team, parseQuery(listLogsQuerySchema, searchParams)));

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
