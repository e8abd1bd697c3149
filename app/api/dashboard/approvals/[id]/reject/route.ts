import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { decideApprovalBodySchema } from "@/lib/schemas/approvals-dashboard";
import { rejectApproval } from "@/lib/approvals/decide-approval";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Rejects a pending request: nothing runs, nothing is charged. A decided or expired request is a 409. */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(decideApprovalBodySchema, req);
  return rejectApproval({ teamId: team.id, userId: user.id }, params.id, body.note);
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
