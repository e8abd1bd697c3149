import "server-only";
import { db } from "@/lib/db/client";
import { unauthorized } from "@/lib/errors/api-error";
import { sha256Hex } from "@/lib/security/hashing";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { mcpResource } from "@/lib/mcp-oauth/metadata";
import { revokeGrant } from "@/lib/mcp-oauth/revoke-grant";

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * An OAuth access token on /mcp: it acts exactly as an MCP token of its grant's server created by
 * the member who consented. Looked up by its SHA-256 with its grant and server in one query, and
 * the membership checked at every request, so a revocation or a member leaving holds at once on
 * every instance. A token for another resource (another APP_URL) is refused.
 */
export async function authenticateAccessToken(token: string): Promise<McpPrincipal> {
  const row = await db.oAuthToken.findUnique({
    where: { hash: sha256Hex(token) },
    select: {
      kind: true,
      expiresAt: true,
      grant: {
        select: {
          id: true,
          teamId: true,
          resource: true,
          revokedAt: true,
          lastUsedAt: true,
          userId: true,
          mcpServer: { select: { id: true, name: true, teamId: true, ownerUserId: true, writePolicy: true } },
        },
      },
    },
  });
  if (!row || row.kind !== "access") throw unauthorized("Invalid access token.");
  const { grant } = row;
  if (grant.revokedAt) throw unauthorized("This app's access was revoked; sign in again.");
  if (row.expiresAt.getTime() <= Date.now()) throw unauthorized("This access token expired; refresh it.");
  if (grant.resource !== mcpResource())
    throw unauthorized(`This access token was issued for ${grant.resource}, not ${mcpResource()}.`);
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId: grant.teamId, userId: grant.userId } },
    select: { user: { select: { id: true, email: true } } },
  });
  if (!membership) {
    await revokeGrant(grant.id, "its member left the team");
    throw unauthorized("The person who allowed this app is no longer a member of the team, so it no longer works.");
  }
  const now = Date.now();
  if (!grant.lastUsedAt || now - grant.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    void db.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { via: "oauth", tokenId: grant.id, server: grant.mcpServer, user: membership.user };
}
