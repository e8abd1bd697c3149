import "server-only";
import { transaction, type Tx } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { cancelPendingApprovals } from "@/lib/approvals/cancel-approvals";
import type { Actor } from "@/lib/observability/request-context";

/**
 * Ends grant `grantId` and so every token it issued (each is checked against its grant at every
 * use, on every instance, so no cache holds it alive); writes it left pending are cancelled.
 * Returns false when it was revoked already.
 */
export async function revokeGrant(grantId: string, reason: string, actor?: Actor): Promise<boolean> {
  return transaction((tx) => revokeGrantIn(tx, grantId, reason, actor));
}

/** The grants of one member in a team (she left), or of one MCP server (it is deleted), in the caller's transaction. */
export async function revokeGrantsWhere(
  tx: Tx,
  where: { teamId: string; userId?: string; mcpServerId?: string },
  reason: string,
) {
  const grants = await tx.oAuthGrant.findMany({ where: { ...where, revokedAt: null }, select: { id: true } });
  for (const g of grants) await revokeGrantIn(tx, g.id, reason);
  return grants.length;
}

async function revokeGrantIn(tx: Tx, grantId: string, reason: string, actor?: Actor): Promise<boolean> {
  const { count } = await tx.oAuthGrant.updateMany({
    where: { id: grantId, revokedAt: null },
    data: { revokedAt: new Date(), revokedReason: reason },
  });
  if (!count) return false;
  const grant = await tx.oAuthGrant.findUniqueOrThrow({
    where: { id: grantId },
    select: {
      teamId: true,
      mcpServerId: true,
      user: { select: { email: true } },
      client: { select: { id: true, name: true } },
      mcpServer: { select: { name: true } },
    },
  });
  await cancelPendingApprovals(
    tx,
    { teamId: grant.teamId, oauthGrantId: grantId },
    `Cancelled because the app that asked (${grant.client.name ?? grant.client.id}) lost its access: ${reason}; nothing was written.`,
  );
  await recordAuditEvent(tx, {
    teamId: grant.teamId,
    action: "oauth_grant.revoke",
    target: { type: "oauth_grant", id: grantId },
    details: {
      client: grant.client.name ?? grant.client.id,
      client_id: grant.client.id,
      mcp_server_id: grant.mcpServerId,
      mcp_server: grant.mcpServer.name,
      granted_by: grant.user.email,
      reason,
    },
    actor,
  });
  return true;
}
