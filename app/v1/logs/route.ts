import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { listLogsQuerySchema } from "@/lib/schemas/logs";
import { listLogs } from "@/lib/logs/list-logs";

export const GET = withAuth(async ({ team, searchParams }) => listLogs(team.id, parseQuery(listLogsQuerySchema, searchParams)));
