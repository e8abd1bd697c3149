import "server-only";
import { transaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * *Rename* on the connection page: a new display name for a connection the user sees. Only the
 * label changes (credentials, external_id and visibility stay); the audit log keeps both names.
 */
export async function renameConnection(teamId: string, userId: string, connectionId: string, displayName: string) {
  const name = displayName.trim();
  await transaction(async (tx) => {
    const row = await tx.connection.findFirst({
      where: { ...visibleConnections(teamId, userId), id: connectionId },
      select: { id: true, type: true, displayName: true },
    });
    if (!row) throw notFound(`No connection ${connectionId.slice(0, 255)} in this team.`);
    if (row.displayName === name) return;
    await tx.connection.update({ where: { id: row.id }, data: { displayName: name } });
    await recordAuditEvent(tx, {
      teamId,
      action: "connection.rename",
      target: { type: "connection", id: row.id },
      details: { type: row.type, from: row.displayName, name },
    });
  });
}
