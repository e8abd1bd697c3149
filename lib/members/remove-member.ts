import "server-only";
import { transaction } from "@/lib/db/transaction";
import { revokeGrantsWhere } from "@/lib/mcp-oauth/revoke-grant";
import { badRequest, forbidden, notFound } from "@/lib/errors/api-error";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { deactivateWorkflowsOfLeaver } from "@/lib/workflows/workflow-consent";
import { withdrawOwnerConsent } from "@/lib/members/withdraw-owner-consent";
import { cancelPendingApprovals } from "@/lib/approvals/cancel-approvals";

/**
 * Takes a user out of the team: an owner removes anyone, a member can only leave. The team
 * never loses its last owner (counted inside the transaction, as for role changes). The API keys
 * the user created for this team are revoked with it, since they act as that user; their private
 * connections stay stored and come back if they rejoin, but they are theirs alone: the workflows
 * that use them stop now (deactivated, with the reason and a workflow.deactivated event). What they
 * consented to as an owner ends too: the write workflows they activated stop and the MCP servers
 * they set to `allowed` go back to `approval` (whatever their role now: a demotion already did).
 */
export async function removeMember(
  principal: Principal,
  userId: string,
): Promise<{ user_id: string; removed: true; api_keys_revoked: number }> {
  const self = principal.user.id === userId;
  if (!self && principal.role !== "owner")
    throw forbidden("Only team owners can remove members; you can only leave the team yourself.");
  const teamId = principal.team.id;
  return transaction(async (tx) => {
    const membership = await tx.membership.findUnique({
      where: { teamId_userId: { teamId, userId } },
      select: { role: true, user: { select: { email: true } } },
    });
    if (!membership) throw notFound(`No member ${userId} in this team.`);
    if (membership.role === "owner") {
      const owners = await tx.membership.count({ where: { teamId, role: "owner" } });
      if (owners <= 1)
        throw badRequest(`${membership.user.email} is the team's only owner; make another member an owner first.`);
    }
    await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
    await cancelPendingApprovals(
      tx,
      { teamId, requestedById: userId },
      `Cancelled because ${membership.user.email}, who asked for it, is no longer in the team; nothing was written.`,
    );
    const { count } = await tx.apiKey.updateMany({
      where: { teamId, createdByUserId: userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    // The apps they allowed act as them: they end now (and would be refused at their next call anyway).
    const appsRevoked = await revokeGrantsWhere(
      tx,
      { teamId, userId },
      `${membership.user.email}, who allowed it, is no longer in the team`,
    );
    const leaver = { id: userId, email: membership.user.email };
    const workflowsOfLeaver = await deactivateWorkflowsOfLeaver(tx, teamId, leaver);
    const withdrawn = await withdrawOwnerConsent(tx, teamId, leaver, "left");
    await recordAuditEvent(tx, {
      teamId,
      action: self ? "member.leave" : "member.remove",
      target: { type: "user", id: userId },
      details: {
        email: membership.user.email,
        role: membership.role,
        keys_revoked: count,
        apps_revoked: appsRevoked,
        workflows_deactivated: workflowsOfLeaver + withdrawn.workflowsDeactivated,
        mcp_servers_downgraded: withdrawn.serversDowngraded,
      },
    });
    return { user_id: userId, removed: true as const, api_keys_revoked: count };
  });
}
