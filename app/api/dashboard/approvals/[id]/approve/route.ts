import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { approveApprovalBodySchema } from "@/lib/schemas/approvals-dashboard";
import { approveApproval } from "@/lib/approvals/decide-approval";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * Approves a pending request and runs its write once, now; answers with the request after the run.
 * A decided or expired request is a 409, and so is one whose before-state is no longer the one the
 * person saw (`seen_before`; without it, the state it was filed with): nothing runs then.
 */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(approveApprovalBodySchema, req);
  return approveApproval({ teamId: team.id, userId: user.id }, params.id, body.note, { seenBefore: body.seen_before });
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
