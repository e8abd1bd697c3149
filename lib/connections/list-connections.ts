import "server-only";
import { db } from "@/lib/db/client";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";
import { visibleConnections } from "@/lib/connections/visible-connections";

export async function listConnections(teamId: string, userId: string, filters: { type?: string; external_id?: string }) {
  const rows = await db.connection.findMany({
    where: { ...visibleConnections(teamId, userId), type: filters.type, externalId: filters.external_id },
    select: connectionPublicSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((r) => connectionToJson(r));
}
