import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";

/**
 * The team's active workflows that use a connection: exactly the ones DELETE
 * /v1/connections/{id} deactivates, so the confirmation can name them. 404 for a connection the
 * caller cannot see, like the delete itself.
 */
export async function listActiveWorkflowsOfConnection(teamId: string, userId: string, connectionId: string) {
  const connection = await db.connection.findFirst({
    where: { ...visibleConnections(teamId, userId), id: connectionId },
    select: { id: true },
  });
  if (!connection) throw notFound(`No connection ${connectionId} in this team.`);
  const workflows = await db.workflow.findMany({
    where: { teamId, active: true, connections: { some: { connectionId } } },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return workflows;
}
