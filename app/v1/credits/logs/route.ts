import { READ_ONLY, withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { listCreditLogsQuerySchema } from "@/lib/schemas/credits";
import { listCreditLogs } from "@/lib/credits/list-credit-logs";

export const GET = withAuth(
  async ({ team, user, searchParams }) =>
    listCreditLogs(team.id, user.id, parseQuery(listCreditLogsQuerySchema, searchParams)),
  READ_ONLY,
);

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
