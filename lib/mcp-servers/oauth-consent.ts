import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { ApiError, forbidden } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { findConnectionType } from "@/lib/platforms/registry";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { createMcpServer } from "@/lib/mcp-servers/mcp-servers";
import type { WritePolicy } from "@/lib/schemas/write-policy";
import type { AuthorizeRequest } from "@/lib/mcp-oauth/authorize-request";
import { responseRedirect } from "@/lib/mcp-oauth/authorize-request";
import { issueCode } from "@/lib/mcp-oauth/tokens";

// The consent page's choices and the person's decision (CONTRACT §10, "authorize"). What a
// grant may reach is exactly what an MCP token of its server, created by this person, reaches.

type Member = { id: string; teams: { id: string; name: string; role: "owner" | "member" }[] };

/**
 * The teams to pick from, and in `teamId` (default: the team she joined first) the servers and
 * connections she may use; with `clientId`, the server she already allowed that client on in the
 * team (`granted`), which the page offers first and a repeated Allow keeps.
 */
export async function consentChoices(user: Member, teamId: string | null, clientId?: string) {
  const team = user.teams.find((t) => t.id === teamId) ?? user.teams[0] ?? null;
  if (!team) return { teams: [], team: null, servers: [], platforms: [], granted: null };
  const [servers, connections, granted] = await Promise.all([
    // Servers she could mint a token on: her own, and shared ones when she is a team owner.
    db.mcpServer.findMany({
      where: {
        teamId: team.id,
        OR: [{ ownerUserId: user.id }, ...(team.role === "owner" ? [{ isPrivate: false }] : [])],
      },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      select: { id: true, name: true, isPrivate: true, writePolicy: true, _count: { select: { connections: true } } },
    }),
    // Connections she can see: the team's shared ones and her own private ones.
    db.connection.findMany({
      where: { teamId: team.id, OR: [{ ownerUserId: null }, { ownerUserId: user.id }] },
      orderBy: [{ type: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      select: { id: true, type: true, displayName: true, externalId: true, ownerUserId: true },
    }),
    clientId ? activeGrant(user.id, team.id, clientId) : null,
  ]);
  const byType = new Map<string, { type: string; name: string; logo: string | null; connections: typeof mapped }>();
  const mapped = connections.map((c) => ({
    id: c.id,
    name: c.displayName ?? c.externalId ?? c.id,
    isPrivate: c.ownerUserId !== null,
  }));
  connections.forEach((c, i) => {
    const def = findConnectionType(c.type);
    const group = byType.get(c.type) ?? {
      type: c.type,
      name: def?.name ?? c.type,
      logo: def?.logo ?? null,
      connections: [],
    };
    group.connections.push(mapped[i]);
    byType.set(c.type, group);
  });
  return {
    teams: user.teams,
    team,
    servers: servers.map((s) => ({
      id: s.id,
      name: s.name,
      isPrivate: s.isPrivate,
      writePolicy: s.writePolicy,
      connections: s._count.connections,
    })),
    platforms: [...byType.values()].sort((a, b) => a.name.localeCompare(b.name)),
    // Only a server she may still use: one she lost access to is not offered, nor kept.
    granted: granted && servers.some((s) => s.id === granted.mcpServerId) ? granted : null,
  };
}

/** Her grant to `clientId` in the team that still holds (the latest, should there be several). */
function activeGrant(userId: string, teamId: string, clientId: string) {
  return db.oAuthGrant.findFirst({
    where: { userId, teamId, clientId, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, mcpServerId: true, resource: true, createdAt: true, mcpServer: { select: { name: true } } },
  });
}

export type Decision =
  | { allow: false }
  | {
      allow: true;
      teamId: string;
      server:
        | { kind: "existing"; id: string }
        | { kind: "new"; name: string; connectionIds: string[]; writePolicy: WritePolicy };
    };

/**
 * The person's answer: *Deny* sends the client `access_denied`; *Allow* makes the grant (and
 * the new server, when she asked for one) and a code, then sends the client back with it.
 * A choice she may not make (a team she is not in, a server she cannot use, `allowed` as a
 * member) is an ApiError for the consent page to show; nothing is created.
 * Allowing a client she has already allowed in the team (Back → Allow, or the client signing in
 * again) is idempotent: "a new server" keeps the server of her grant, and a grant she already
 * holds on the chosen server gets a new code rather than a twin.
 */
export async function decide(user: Member, request: AuthorizeRequest, decision: Decision): Promise<string> {
  if (!decision.allow)
    return responseRedirect(request.redirectUri, {
      error: "access_denied",
      error_description: "The person declined.",
      state: request.state,
    });
  const team = user.teams.find((t) => t.id === decision.teamId);
  if (!team) throw forbidden("You are not a member of that team.");
  let serverId: string;
  const wanted = decision.server;
  const choices = await consentChoices(user, team.id, request.client.id);
  if (wanted.kind === "existing") {
    const server = choices.servers.find((s) => s.id === wanted.id);
    if (!server) throw forbidden("You cannot connect apps to that MCP server (it is not yours to share).");
    serverId = server.id;
  } else if (choices.granted) {
    serverId = choices.granted.mcpServerId;
  } else {
    const created = await createMcpServer({
      teamId: team.id,
      ownerUserId: user.id,
      name: wanted.name,
      isPrivate: true,
      connectionIds: wanted.connectionIds,
      writePolicy: wanted.writePolicy,
    });
    serverId = created.id;
  }
  const kept =
    choices.granted?.mcpServerId === serverId && choices.granted.resource === request.resource ? choices.granted : null;
  const code = await transaction(async (tx) => {
    if (kept) {
      const still = await tx.oAuthGrant.findFirst({ where: { id: kept.id, revokedAt: null }, select: { id: true } });
      if (still) return issueCode(tx, kept.id, request.redirectUri, request.codeChallenge);
    }
    const grantId = newId("ogr");
    const server = await tx.mcpServer.findUnique({ where: { id: serverId }, select: { name: true } });
    if (!server) throw new ApiError(409, "That MCP server was deleted meanwhile; choose another.");
    await tx.oAuthGrant.create({
      data: {
        id: grantId,
        clientId: request.client.id,
        teamId: team.id,
        userId: user.id,
        mcpServerId: serverId,
        resource: request.resource,
      },
    });
    await tx.oAuthClient.updateMany({ where: { id: request.client.id, usedAt: null }, data: { usedAt: new Date() } });
    await recordAuditEvent(tx, {
      teamId: team.id,
      action: "oauth_grant.create",
      target: { type: "oauth_grant", id: grantId },
      details: {
        client: request.client.name,
        client_id: request.client.id,
        verified_document: request.client.kind === "cimd",
        redirect_host: new URL(request.redirectUri).host,
        mcp_server_id: serverId,
        mcp_server: server.name,
      },
    });
    return issueCode(tx, grantId, request.redirectUri, request.codeChallenge);
  });
  return responseRedirect(request.redirectUri, { code, state: request.state });
}
