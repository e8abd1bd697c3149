import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";
import type { BulkDeletePreviewJson } from "@/lib/schemas/connection-page";

/**
 * What deleting these connections would do, for the confirmation: the connections (all of them
 * visible to the user, else 404 naming the ones that are not) and the team's active workflows
 * that use any of them, which the delete deactivates.
 */
export async function previewConnectionsDelete(
  teamId: string,
  userId: string,
  connectionIds: string[],
): Promise<BulkDeletePreviewJson> {
  const ids = [...new Set(connectionIds)];
  const rows = await db.connection.findMany({
    where: { ...visibleConnections(teamId, userId), id: { in: ids } },
    select: { id: true, type: true, displayName: true, externalId: true },
  });
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw notFound(
      `No connection ${missing
        .slice(0, 5)
        .map((id) => id.slice(0, 255))
        .join(", ")}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""} in this team.`,
    );
  const workflows = await db.workflow.findMany({
    where: { teamId, active: true, connections: { some: { connectionId: { in: ids } } } },
    select: {
      id: true,
      name: true,
      connections: { where: { connectionId: { in: ids } }, select: { connectionId: true } },
    },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  return {
    connections: rows
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
      .map((r) => ({ id: r.id, type: r.type, display_name: r.displayName, external_id: r.externalId })),
    workflows: workflows.map((w) => ({
      id: w.id,
      name: w.name,
      connection_ids: w.connections.map((c) => c.connectionId).sort((a, b) => order.get(a)! - order.get(b)!),
    })),
  };
}
