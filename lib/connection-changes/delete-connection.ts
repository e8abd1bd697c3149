import "server-only";
import { transaction, type Tx } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors/api-error";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { cancelPendingApprovals } from "@/lib/approvals/cancel-approvals";

/**
 * Deletes a connection the caller can see (spec §4.5) and, in the same transaction, deactivates the
 * team's active workflows that use it, and writes the connection.deleted event. The join rows
 * (workflow and MCP server permissions) go with the connection.
 */
export async function deleteConnection(teamId: string, userId: string, connectionId: string) {
  return transaction(async (tx) => (await deleteConnectionIn(tx, teamId, userId, connectionId)).connection);
}

/** The delete inside the caller's transaction (a bulk delete runs several in one). */
export async function deleteConnectionIn(tx: Tx, teamId: string, userId: string, connectionId: string) {
  const row = await tx.connection.findFirst({
    where: { ...visibleConnections(teamId, userId), id: connectionId },
    select: connectionPublicSelect,
  });
  if (!row) throw notFound(`No connection ${connectionId} in this team.`);
  const deactivatedIds = (
    await tx.workflow.findMany({
      where: { teamId, active: true, connections: { some: { connectionId } } },
      select: { id: true },
      orderBy: { id: "asc" },
    })
  ).map((w) => w.id);
  if (deactivatedIds.length) {
    const reason = `Deactivated because connection ${row.displayName ?? connectionId} (${row.type}) it used was deleted; rebind its nodes to another connection, then activate it.`;
    await tx.workflow.updateMany({
      where: { id: { in: deactivatedIds } },
      data: { active: false, nextRunAt: null, deactivatedReason: reason },
    });
  }
  await tx.connection.delete({ where: { id: connectionId } });
  await cancelPendingApprovals(
    tx,
    { teamId, connectionId },
    `Cancelled because its connection ${row.displayName ?? connectionId} (${row.type}) was deleted; nothing was written.`,
  );
  await recordAuditEvent(tx, {
    teamId,
    action: "connection.delete",
    target: { type: "connection", id: connectionId },
    details: { type: row.type, name: row.displayName, workflows_deactivated: deactivatedIds.length },
  });
  const connection = connectionToJson(row);
  await emitWebhookEvent(tx, teamId, "connection.deleted", { connection, deactivated_workflow_ids: deactivatedIds });
  return { connection, deactivatedIds };
}
