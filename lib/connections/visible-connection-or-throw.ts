import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";

/**
 * A connection the user sees (the team's shared ones and their own private ones), or 404: another
 * member's private connection is as absent to them as another team's.
 */
export async function visibleConnectionOrThrow(teamId: string, userId: string, connectionId: string) {
  const row = await db.connection.findFirst({
    where: { ...visibleConnections(teamId, userId), id: connectionId },
    select: { id: true, type: true, displayName: true, externalId: true },
  });
  if (!row) throw notFound(`No connection ${connectionId.slice(0, 255)} in this team.`);
  return row;
}
