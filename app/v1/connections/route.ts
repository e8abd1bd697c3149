import { READ_ONLY, withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { createConnectionBodySchema, listConnectionsQuerySchema } from "@/lib/schemas/connections";
import { noParamsSchema } from "@/lib/schemas/common";
import { listConnections } from "@/lib/connections/list-connections";
import { createConnectionFromCredentials } from "@/lib/connection-changes/create-connection-from-credentials";

export const GET = withAuth(async ({ team, user, searchParams }) => {
  const query = parseQuery(listConnectionsQuerySchema, searchParams);
  return listConnections(team.id, user.id, query);
}, READ_ONLY);

export const POST = withAuth(async (ctx) => {
  parseQuery(noParamsSchema, ctx.searchParams);
  const body = await parseJsonBody(createConnectionBodySchema, ctx.req);
  return createConnectionFromCredentials(ctx, body);
});

const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
