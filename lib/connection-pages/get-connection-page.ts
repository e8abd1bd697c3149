import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { connectionFacts } from "@/lib/connections/connection-facts";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { staleConnectionDays } from "@/lib/config/limits";
import { consentTextFor } from "@/lib/operations/consent-text";
import { findConnectionType } from "@/lib/platforms/registry";
import type { ConnectionPageJson } from "@/lib/schemas/connection-page";

/**
 * What the connection page shows above its spend and errors: the connection's facts, its
 * duplicates by name, what it lets Patchbay do (the connect page's consent words), and what uses
 * it: the workflows whose nodes name it, the MCP servers that include it, and the agent
 * conversations whose operations ran on it. Only what the user may see is listed: another
 * member's private MCP server or unshared conversation is left out.
 */
export async function getConnectionPage(
  teamId: string,
  userId: string,
  connectionId: string,
): Promise<ConnectionPageJson> {
  const [facts] = await connectionFacts(teamId, userId, { ids: [connectionId] });
  if (!facts) throw notFound(`No connection ${connectionId.slice(0, 255)} in this team.`);
  const [duplicates, workflows, servers, conversations] = await Promise.all([
    facts.duplicate_of.length
      ? db.connection.findMany({
          where: { ...visibleConnections(teamId, userId), id: { in: facts.duplicate_of } },
          select: { id: true, type: true, displayName: true, externalId: true },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        })
      : [],
    db.workflow.findMany({
      where: { teamId, connections: { some: { connectionId } } },
      select: { id: true, name: true, active: true },
      orderBy: [{ active: "desc" }, { name: "asc" }, { id: "asc" }],
    }),
    db.mcpServer.findMany({
      where: {
        teamId,
        OR: [{ isPrivate: false }, { ownerUserId: userId }],
        connections: { some: { connectionId } },
      },
      select: { id: true, name: true, isPrivate: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
    }),
    agentConversationsOf(teamId, userId, connectionId),
  ]);
  const def = findConnectionType(facts.type);
  const consent = def ? consentTextFor(def) : { reads: [], writes: [], scopes: [] as const, scopesSetOnApp: false };
  return {
    ...facts,
    type_name: def?.name ?? facts.type,
    duplicates: duplicates.map((d) => ({
      id: d.id,
      type: d.type,
      display_name: d.displayName,
      external_id: d.externalId,
    })),
    stale_after_days: staleConnectionDays(),
    consent: {
      provider_name: def?.oauth?.providerName ?? def?.name ?? facts.type,
      reads: consent.reads,
      writes: consent.writes,
      scopes: consent.scopes,
      scopes_set_on_app: consent.scopesSetOnApp,
    },
    uses: {
      workflows,
      mcp_servers: servers.map((s) => ({ id: s.id, name: s.name, is_private: s.isPrivate })),
      conversations,
    },
  };
}

/** The readable conversations (shared, or the user's own) with agent operations on the connection, latest first. */
async function agentConversationsOf(teamId: string, userId: string, connectionId: string) {
  const used = await db.operationLog.groupBy({
    by: ["sourceId"],
    where: { teamId, connectionId, sourceType: "agent", sourceId: { not: null } },
    _max: { startedAt: true },
  });
  const lastUse = new Map(used.map((u) => [u.sourceId!, Number(u._max.startedAt ?? 0)]));
  if (!lastUse.size) return [];
  const rows = await db.agentConversation.findMany({
    where: { teamId, id: { in: [...lastUse.keys()] }, OR: [{ shared: true }, { userId }] },
    select: { id: true, title: true },
  });
  return rows
    .map((r) => ({ id: r.id, title: r.title, last_used_at: lastUse.get(r.id) ?? 0 }))
    .sort((a, b) => b.last_used_at - a.last_used_at || a.id.localeCompare(b.id))
    .slice(0, 20);
}
