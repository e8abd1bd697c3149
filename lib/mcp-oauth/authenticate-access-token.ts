import "server-only";
import { db } from "@/lib/db/client";
import { prepared, read } from "@/lib/db/read";
import { unauthorized } from "@/lib/errors/api-error";
import { sha256Hex } from "@/lib/security/hashing";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { mcpResource } from "@/lib/mcp-oauth/metadata";
import { revokeGrant } from "@/lib/mcp-oauth/revoke-grant";

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * An OAuth access token on /mcp: it acts exactly as an MCP token of its grant's server created by
 * the member who consented. Looked up by its SHA-256 with its grant, server and membership in one
 * query at every request, so a revocation or a member leaving holds at once on every instance.
 * A token for another resource (another APP_URL) is refused.
 */
export async function authenticateAccessToken(token: string): Promise<McpPrincipal> {
  const [row] = await findAccessToken({ hash: sha256Hex(token) });
  if (!row || row.kind !== "access") throw unauthorized("Invalid access token.");
  if (row.revokedAt !== null) throw unauthorized("This app's access was revoked; sign in again.");
  if (row.expiresAt <= Date.now()) throw unauthorized("This access token expired; refresh it.");
  if (row.resource !== mcpResource())
    throw unauthorized(`This access token was issued for ${row.resource}, not ${mcpResource()}.`);
  if (row.email === null) {
    await revokeGrant(row.grantId, "its member left the team");
    throw unauthorized("The person who allowed this app is no longer a member of the team, so it no longer works.");
  }
  const now = Date.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    void db.oAuthGrant.update({ where: { id: row.grantId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return {
    via: "oauth",
    tokenId: row.grantId,
    server: {
      id: row.serverId,
      name: row.serverName,
      teamId: row.teamId,
      ownerUserId: row.ownerUserId,
      writePolicy: row.writePolicy,
    },
    user: { id: row.userId, email: row.email },
  };
}

/**
 * The token, its grant, the grant's server and the consenting member's membership, in one
 * round trip (the membership and its user by left join: none when she left the team).
 */
const findAccessToken = prepared((a: { hash: string }) =>
  read
    .selectFrom("OAuthToken as t")
    .innerJoin("OAuthGrant as g", "g.id", "t.grantId")
    .innerJoin("McpServer as s", "s.id", "g.mcpServerId")
    .leftJoin("Membership as m", (j) => j.onRef("m.teamId", "=", "g.teamId").onRef("m.userId", "=", "g.userId"))
    .leftJoin("User as u", "u.id", "m.userId")
    .select([
      "t.kind",
      "t.expiresAt",
      "g.id as grantId",
      "g.teamId",
      "g.userId",
      "g.resource",
      "g.revokedAt",
      "g.lastUsedAt",
      "s.id as serverId",
      "s.name as serverName",
      "s.ownerUserId",
      "s.writePolicy",
      "u.email",
    ])
    .where("t.hash", "=", a.hash),
);
