import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { revokeMcpToken } from "@/lib/mcp/mcp-servers";

/** Revokes one token of the server: the MCP endpoint refuses it from then on. */
export const DELETE = withAuth<{ id: string; tokenId: string }>(async ({ team, user, role, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return revokeMcpToken({ teamId: team.id, userId: user.id, role }, params.id, params.tokenId);
});
