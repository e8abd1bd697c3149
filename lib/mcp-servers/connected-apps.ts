import "server-only";
import { db } from "@/lib/db/client";
import { forbidden, notFound } from "@/lib/errors/api-error";
import { findMcpServer } from "@/lib/mcp-servers/mcp-servers";
import { clientName } from "@/lib/mcp-oauth/clients";
import { revokeGrant } from "@/lib/mcp-oauth/revoke-grant";

// Connected apps, as the dashboard lists them: per MCP server (who may see the server sees its
// apps) and per person (their own grants). A grant is revoked by the person who gave it, the
// server's owner, or a team owner for a shared server: those who could revoke its tokens.

type Actor = { teamId: string; userId: string; role: "owner" | "member" | null; email?: string };

const GRANT_SELECT = {
  id: true,
  createdAt: true,
  lastUsedAt: true,
  userId: true,
  user: { select: { email: true } },
  // redirectUris: a client registered without a name is known by where it returns people.
  client: { select: { id: true, kind: true, name: true, redirectUris: true } },
  mcpServer: { select: { id: true, name: true, ownerUserId: true, isPrivate: true } },
} as const;

type GrantRow = {
  id: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  userId: string;
  user: { email: string };
  client: { id: string; kind: string; name: string | null; redirectUris: string };
  mcpServer: { id: string; name: string; ownerUserId: string | null; isPrivate: boolean };
};

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function grantJson(g: GrantRow, actor: Actor) {
  return {
    id: g.id,
    client: { id: g.client.id, name: clientName(g.client), verified: g.client.kind === "cimd" },
    mcp_server: { id: g.mcpServer.id, name: g.mcpServer.name },
    granted_by: { id: g.userId, email: g.user.email },
    created_at: seconds(g.createdAt)!,
    last_used_at: seconds(g.lastUsedAt),
    can_revoke: mayRevoke(g, actor),
  };
}

const mayRevoke = (g: GrantRow, actor: Actor) =>
  g.userId === actor.userId ||
  g.mcpServer.ownerUserId === actor.userId ||
  (actor.role === "owner" && !g.mcpServer.isPrivate);

/** The apps connected to server `serverId` (which the actor must be able to see). */
export async function listServerGrants(actor: Actor, serverId: string) {
  await findMcpServer(actor, serverId);
  const rows = await db.oAuthGrant.findMany({
    where: { mcpServerId: serverId, teamId: actor.teamId, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: GRANT_SELECT,
  });
  return rows.map((g) => grantJson(g, actor));
}

/** The apps the actor allowed in this team, on any server. */
export async function listMyGrants(actor: Actor) {
  const rows = await db.oAuthGrant.findMany({
    where: { userId: actor.userId, teamId: actor.teamId, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: GRANT_SELECT,
  });
  return rows.map((g) => grantJson(g, actor));
}

export async function revokeGrantAs(actor: Actor, grantId: string) {
  const g = await db.oAuthGrant.findFirst({
    where: {
      id: grantId,
      teamId: actor.teamId,
      revokedAt: null,
      // Someone else's private server is not even named.
      OR: [{ userId: actor.userId }, { mcpServer: { isPrivate: false } }, { mcpServer: { ownerUserId: actor.userId } }],
    },
    select: GRANT_SELECT,
  });
  if (!g) throw notFound(`No connected app ${grantId} in this team.`);
  if (!mayRevoke(g, actor))
    throw forbidden("Only the person who allowed this app, the server's owner or a team owner can revoke it.");
  await revokeGrant(grantId, `revoked by ${actor.email ?? actor.userId} in the dashboard`, {
    kind: "session",
    userId: actor.userId,
    email: actor.email ?? null,
  });
  return { id: grantId, revoked: true as const };
}
