import "server-only";
import { connectionToJson } from "@/lib/connections/connection-to-json";
import { findVisibleConnections } from "@/lib/connections/visible-connections";

export async function listConnections(
  teamId: string,
  userId: string,
  filters: { type?: string; external_id?: string },
) {
  const rows = await findVisibleConnections({ teamId, userId, type: filters.type, externalId: filters.external_id });
  return rows.map((r) => connectionToJson(r));
}
