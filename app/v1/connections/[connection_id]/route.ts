import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { getConnectionQuerySchema } from "@/lib/schemas/connections";
import { noParamsSchema } from "@/lib/schemas/common";
import { getConnectionsOrThrow } from "@/lib/connections/get-connections-or-throw";
import { deleteConnection } from "@/lib/connection-changes/delete-connection";

type Params = { connection_id: string };

export const GET = withAuth<Params>(async ({ team, user, params, searchParams }) => {
  const { lookup_by } = parseQuery(getConnectionQuerySchema, searchParams);
  return getConnectionsOrThrow(team.id, user.id, params.connection_id, lookup_by);
});

export const DELETE = withAuth<Params>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return deleteConnection(team.id, user.id, params.connection_id);
});

const notAllowed = methodNotAllowed("GET, DELETE");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
