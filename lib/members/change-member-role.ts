import "server-only";
import { transaction } from "@/lib/db/transaction";
import { badRequest, notFound } from "@/lib/errors/api-error";
import type { MemberJson } from "@/lib/schemas/dashboard";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { withdrawOwnerConsent } from "@/lib/members/withdraw-owner-consent";

/**
 * Sets a member's role. A team never loses its last owner: demoting the only owner is refused,
 * counted inside the transaction so two owners demoting each other at once cannot both succeed.
 * A demoted owner's consents end with the role change: the write workflows they activated stop and
 * the MCP servers they set to `allowed` go back to `approval` (lib/members/withdraw-owner-consent.ts).
 */
export async function changeMemberRole(teamId: string, userId: string, role: MemberJson["role"]): Promise<MemberJson> {
  return transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { teamId_userId: { teamId, userId } },
      select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
    });
    if (!membership) throw notFound(`No member ${userId} in this team.`);
    if (membership.role === "owner" && role !== "owner") {
      const owners = await tx.membership.count({ where: { teamId, role: "owner" } });
      if (owners <= 1)
        throw badRequest(`${membership.user.email} is the team's only owner; make another member an owner first.`);
    }
    if (membership.role !== role) {
      await tx.membership.update({ where: { teamId_userId: { teamId, userId } }, data: { role } });
      const withdrawn =
        membership.role === "owner"
          ? await withdrawOwnerConsent(tx, teamId, membership.user, "demoted")
          : { workflowsDeactivated: undefined, serversDowngraded: undefined };
      await recordAuditEvent(tx, {
        teamId,
        action: "member.role_change",
        target: { type: "user", id: userId },
        details: {
          email: membership.user.email,
          from: membership.role,
          to: role,
          workflows_deactivated: withdrawn.workflowsDeactivated,
          mcp_servers_downgraded: withdrawn.serversDowngraded,
        },
      });
    }
    return {
      user_id: membership.user.id,
      email: membership.user.email,
      name: membership.user.name,
      role,
      joined_at: Math.floor(membership.createdAt.getTime() / 1000),
    };
  });
}
