import "server-only";
import { notFound } from "@/lib/errors/api-error";
import { connectionToJson } from "@/lib/connections/connection-to-json";
import { findVisibleConnections } from "@/lib/connections/visible-connections";

/** Spec §4.4: always a list; an ID matches one, an external ID may match several. */
export async function getConnectionsOrThrow(
  teamId: string,
  userId: string,
  key: string,
  lookupBy: "id" | "external_id",
) {
  const rows = await findVisibleConnections(
    lookupBy === "id" ? { teamId, userId, id: key } : { teamId, userId, externalId: key },
  );
  if (!rows.length)
    throw notFound(
      lookupBy === "id" ? `No connection ${key} in this team.` : `No connection with external_id ${key} in this team.`,
    );
  return rows.map((r) => connectionToJson(r));
}
