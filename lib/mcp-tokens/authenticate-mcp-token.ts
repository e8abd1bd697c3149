import "server-only";
import { db } from "@/lib/db/client";
import { unauthorized } from "@/lib/errors/api-error";
import { sha256Hex } from "@/lib/security/hashing";
import { MCP_TOKEN_PATTERN } from "@/lib/mcp-tokens/mcp-token-format";

/**
 * Who calls /mcp: one MCP server of a team, through one of its tokens or an OAuth grant (its id is
 * then `tokenId`), acting as the token's creator or the member who consented.
 */
export type McpPrincipal = {
  via: "mcp_token" | "oauth";
  tokenId: string;
  server: { id: string; name: string; teamId: string; ownerUserId: string | null; writePolicy: string };
  user: { id: string; email: string } | null;
};

const LAST_USED_RESOLUTION_MS = 60_000;
const HOW =
  "sign in with OAuth (this answer's WWW-Authenticate header says where), or send `Authorization: Bearer <MCP token>` (create one in the dashboard under Settings → MCP servers)";

/**
 * Resolves `Authorization: Bearer <MCP token>` by the token's SHA-256 (a unique index, so no
 * comparison runs over the secret). An API key is not an MCP token. A token stops working when
 * it is revoked, its server is deleted, or the member who created it leaves the team.
 */
export async function authenticateMcpToken(authorization: string | null): Promise<McpPrincipal> {
  if (!authorization) throw unauthorized(`Missing Authorization header; ${HOW}.`);
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized(`Malformed Authorization header; ${HOW}.`);
  const token = match[1];
  if (!MCP_TOKEN_PATTERN.test(token)) {
    throw unauthorized(
      token.startsWith("pbk_") ? "That is an API key; /mcp takes an MCP token (pbm_…)." : "Invalid MCP token.",
    );
  }
  const row = await db.mcpToken.findUnique({
    where: { hash: sha256Hex(token) },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      createdByUserId: true,
      mcpServer: { select: { id: true, name: true, teamId: true, ownerUserId: true, writePolicy: true } },
    },
  });
  if (!row) throw unauthorized("Invalid MCP token.");
  if (row.revokedAt) throw unauthorized("This MCP token was revoked.");
  const server = row.mcpServer;
  let user: McpPrincipal["user"] = null;
  if (row.createdByUserId) {
    const membership = await db.membership.findUnique({
      where: { teamId_userId: { teamId: server.teamId, userId: row.createdByUserId } },
      select: { user: { select: { id: true, email: true } } },
    });
    if (!membership)
      throw unauthorized("This MCP token's creator is no longer a member of the team, so it no longer works.");
    user = membership.user;
  }
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    void db.mcpToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { via: "mcp_token", tokenId: row.id, server, user };
}
