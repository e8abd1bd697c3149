import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { decideApprovalBodySchema } from "@/lib/schemas/approvals-dashboard";
import { approveApproval } from "@/lib/approvals/decide-approval";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * Approves a pending request and runs its write once, now; answers with the request after the run.
 * A decided or expired request is a 409.
 */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(decideApprovalBodySchema, req);
  return approveApproval({ teamId: team.id, userId: user.id }, params.id, body.note);
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
