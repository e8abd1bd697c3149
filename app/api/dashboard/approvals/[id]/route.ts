import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getApproval } from "@/lib/approvals/list-approvals";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getApproval({ teamId: team.id, userId: user.id }, params.id);
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
