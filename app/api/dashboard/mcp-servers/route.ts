import { withAuth } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createMcpServerBodySchema } from "@/lib/schemas/dashboard";
import { listMcpServers } from "@/lib/mcp/list-mcp-servers";
import { createMcpServer } from "@/lib/mcp/mcp-servers";

export const GET = withAuth(async ({ team, user, role, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMcpServers({ teamId: team.id, userId: user.id, role }) };
});

/** The signed-in user owns the new server. */
export const POST = withAuth(async ({ team, user, role, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(createMcpServerBodySchema, req);
  const created = await createMcpServer({ teamId: team.id, ownerUserId: user.id, name: body.name, isPrivate: body.is_private, connectionIds: body.connection_ids });
  const [server] = await listMcpServers({ teamId: team.id, userId: user.id, role }, created.id);
  return server;
});
