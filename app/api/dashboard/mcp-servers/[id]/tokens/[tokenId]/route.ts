import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { revokeMcpToken } from "@/lib/mcp-servers/mcp-servers";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Revokes one token of the server: the MCP endpoint refuses it from then on. */
export const DELETE = withSession<{ id: string; tokenId: string }>(
  async ({ team, user, role, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return revokeMcpToken({ teamId: team.id, userId: user.id, role }, params.id, params.tokenId);
  },
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
