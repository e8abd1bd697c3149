import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { visibleConnections } from "@/lib/connections/visible-connections";

/** Spec §4.4: always a list; an ID matches one, an external ID may match several. */
export async function getConnectionsOrThrow(teamId: string, userId: string, key: string, lookupBy: "id" | "external_id") {
  const rows = await db.connection.findMany({
    where: { ...visibleConnections(teamId, userId), ...(lookupBy === "id" ? { id: key } : { externalId: key }) },
    select: connectionPublicSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (!rows.length) throw notFound(lookupBy === "id" ? `No connection ${key} in this team.` : `No connection with external_id ${key} in this team.`);
  return rows.map((r) => connectionToJson(r));
}
