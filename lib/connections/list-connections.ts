import "server-only";
import { connectionToJson } from "@/lib/connections/connection-to-json";
import { selectVisibleConnections } from "@/lib/connections/visible-connections";

export async function listConnections(teamId: string, userId: string, filters: { type?: string; external_id?: string }) {
  let q = selectVisibleConnections(teamId, userId);
  if (filters.type !== undefined) q = q.where("type", "=", filters.type);
  if (filters.external_id !== undefined) q = q.where("externalId", "=", filters.external_id);
  const rows = await q.execute();
  return rows.map((r) => connectionToJson(r));
}
