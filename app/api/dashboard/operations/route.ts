import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { db } from "@/lib/db/client";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { availableOperations, operationJson } from "@/lib/operations/operation-json";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The operations catalogue, each entry with the viewer's connections that can run it. */
export const GET = withSession(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const connections = await db.connection.findMany({
    where: visibleConnections(team.id, user.id),
    select: { id: true, type: true, displayName: true, externalId: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return {
    data: availableOperations().map((op) => ({
      ...operationJson(op),
      connections: connections
        .filter((c) => op.types.includes(c.type))
        .map((c) => ({ id: c.id, type: c.type, display_name: c.displayName, external_id: c.externalId })),
    })),
  };
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
