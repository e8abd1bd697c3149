import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { authLinkStatus } from "@/lib/auth-links/auth-link-status";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { visibleConnections } from "@/lib/connections/visible-connections";

/** Spec §4.7: only links of the caller's team; the created connection when it is visible to the caller. */
export async function getAuthLinkStatusOrThrow(teamId: string, userId: string, authLinkId: string) {
  const link = await db.authLink.findFirst({ where: { id: authLinkId, teamId } });
  if (!link) throw notFound(`No auth link ${authLinkId} in this team.`);
  const connection = link.connectionId
    ? await db.connection.findFirst({ where: { ...visibleConnections(teamId, userId), id: link.connectionId }, select: connectionPublicSelect })
    : null;
  return {
    id: link.id,
    status: authLinkStatus(link),
    connection_type: link.connectionType,
    connection_id: link.connectionId,
    external_id: link.externalId,
    expires_at: link.expiresAt.getTime(),
    consumed_at: link.consumedAt?.getTime() ?? null,
    created_at: link.createdAt.getTime(),
    updated_at: link.updatedAt.getTime(),
    connections: connection ? [connectionToJson(connection)] : [],
  };
}
