import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { changeRoleBodySchema } from "@/lib/schemas/dashboard";
import { noParamsSchema } from "@/lib/schemas/common";
import { changeMemberRole } from "@/lib/members/change-member-role";
import { removeMember } from "@/lib/members/remove-member";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const PATCH = withSession<{ userId: string }>(
  async ({ team, params, req }) => {
    const { role } = await parseJsonBody(changeRoleBodySchema, req);
    return changeMemberRole(team.id, params.userId, role);
  },
  { ownerOnly: true },
);

/** An owner removes a member; a member may remove only themselves (leave). */
export const DELETE = withSession<{ userId: string }>(async ({ params, searchParams, ...principal }) => {
  parseQuery(noParamsSchema, searchParams);
  return removeMember(principal, params.userId);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("PATCH, DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT };
