import { withAuth } from "@/lib/api/with-auth";
import { parseJsonBody } from "@/lib/api/parse";
import { changeRoleBodySchema } from "@/lib/schemas/dashboard";
import { changeMemberRole } from "@/lib/members/change-member-role";

export const PATCH = withAuth<{ userId: string }>(
  async ({ team, params, req }) => {
    const { role } = await parseJsonBody(changeRoleBodySchema, req);
    return changeMemberRole(team.id, params.userId, role);
  },
  { ownerOnly: true },
);
