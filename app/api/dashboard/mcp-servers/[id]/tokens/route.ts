import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createMcpTokenBodySchema } from "@/lib/schemas/dashboard";
import { listMcpServerTokens } from "@/lib/mcp-servers/list-mcp-server-tokens";
import { createMcpToken } from "@/lib/mcp-servers/mcp-servers";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession<{ id: string }>(async ({ team, user, role, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMcpServerTokens({ teamId: team.id, userId: user.id, role }, params.id) };
});

/** The token is in this response only; it is stored as a hash. */
export const POST = withSession<{ id: string }>(async ({ team, user, role, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(createMcpTokenBodySchema, req);
  const created = await createMcpToken({ teamId: team.id, userId: user.id, role }, params.id, body.name);
  return {
    id: created.id,
    prefix: created.prefix,
    name: created.name,
    created_at: Math.floor(created.createdAt.getTime() / 1000),
    token: created.token,
  };
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
