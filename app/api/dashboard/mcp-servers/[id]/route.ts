import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { updateMcpServerBodySchema } from "@/lib/schemas/dashboard";
import { listMcpServers } from "@/lib/mcp-servers/list-mcp-servers";
import { deleteMcpServer, updateMcpServer } from "@/lib/mcp-servers/mcp-servers";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Rename, share or make private, and replace the saved connection permissions. */
export const PATCH = withSession<{ id: string }>(async ({ team, user, role, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(updateMcpServerBodySchema, req);
  const actor = { teamId: team.id, userId: user.id, role };
  await updateMcpServer(actor, params.id, {
    name: body.name,
    isPrivate: body.is_private,
    connectionIds: body.connection_ids,
    writePolicy: body.write_policy,
  });
  const [server] = await listMcpServers(actor, params.id);
  return server;
});

/** Deletes the server with its tokens and permissions. */
export const DELETE = withSession<{ id: string }>(async ({ team, user, role, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return deleteMcpServer({ teamId: team.id, userId: user.id, role }, params.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("PATCH, DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT };
