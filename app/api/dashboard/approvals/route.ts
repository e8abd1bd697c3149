import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { listApprovalsQuerySchema } from "@/lib/schemas/approvals-dashboard";
import { listApprovals } from "@/lib/approvals/list-approvals";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * The team's approval requests, newest first, with how many wait for this member's decision. Every
 * member sees them; another member's private connection's only redacted.
 */
export const GET = withSession(async ({ team, user, searchParams }) => {
  const q = parseQuery(listApprovalsQuerySchema, searchParams);
  return listApprovals(
    { teamId: team.id, userId: user.id },
    { status: q.status, operationId: q.operation_id, mcpServerId: q.mcp_server_id, cursor: q.cursor, limit: q.limit },
  );
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
