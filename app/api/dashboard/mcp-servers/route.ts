import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createMcpServerBodySchema } from "@/lib/schemas/dashboard";
import { listMcpServers } from "@/lib/mcp-servers/list-mcp-servers";
import { createMcpServer } from "@/lib/mcp-servers/mcp-servers";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession(async ({ team, user, role, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMcpServers({ teamId: team.id, userId: user.id, role }) };
});

/** The signed-in user owns the new server. */
export const POST = withSession(async ({ team, user, role, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(createMcpServerBodySchema, req);
  // A member asking for `allowed` is refused in createMcpServer.
  const created = await createMcpServer({
    teamId: team.id,
    ownerUserId: user.id,
    name: body.name,
    isPrivate: body.is_private,
    connectionIds: body.connection_ids,
    writePolicy: body.write_policy,
  });
  const [server] = await listMcpServers({ teamId: team.id, userId: user.id, role }, created.id);
  return server;
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
