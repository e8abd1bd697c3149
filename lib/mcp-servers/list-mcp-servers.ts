import "server-only";
import { db } from "@/lib/db/client";
import { appUrl } from "@/lib/config/env";
import type { McpServerJson, McpServerLastUse } from "@/lib/schemas/dashboard";
import { clientName } from "@/lib/mcp-oauth/clients";
import { historyWindow } from "@/lib/logs/history-window";
import type { WritePolicy } from "@/lib/schemas/write-policy";

type Viewer = { teamId: string; userId: string; role: "owner" | "member" | null };

/**
 * The team's MCP servers the viewer may see (shared ones and the viewer's own private ones),
 * or just the one `only` names. Permitted connections private to someone else keep their id
 * and type but not their name: a shared server must not reveal another member's connections.
 */
export async function listMcpServers(viewer: Viewer, only?: string): Promise<McpServerJson[]> {
  const rows = await db.mcpServer.findMany({
    where: {
      teamId: viewer.teamId,
      OR: [{ isPrivate: false }, { ownerUserId: viewer.userId }],
      ...(only ? { id: only } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      name: true,
      ownerUserId: true,
      isPrivate: true,
      writePolicy: true,
      createdAt: true,
      connections: {
        select: { connection: { select: { id: true, type: true, displayName: true, ownerUserId: true } } },
      },
      _count: { select: { tokens: { where: { revokedAt: null } } } },
    },
  });
  const ownerIds = [...new Set(rows.map((r) => r.ownerUserId).filter((id): id is string => !!id))];
  const owners = new Map(
    (await db.user.findMany({ where: { id: { in: ownerIds } }, select: { id: true, email: true } })).map((u) => [
      u.id,
      u,
    ]),
  );
  const ids = rows.map((r) => r.id);
  const [lastUses, calls] = await Promise.all([lastUseOf(ids), callsThrough(viewer.teamId, ids)]);
  const mcpUrl = `${appUrl()}/mcp`;
  return rows.map((r) => {
    const connections = r.connections
      .map(({ connection: c }) => {
        const visible = c.ownerUserId === null || c.ownerUserId === viewer.userId;
        return {
          id: c.id,
          type: c.type,
          display_name: visible ? c.displayName : null,
          is_private: c.ownerUserId !== null,
          visible_to_you: visible,
        };
      })
      .sort(
        (a, b) => (a.display_name ?? "\uffff").localeCompare(b.display_name ?? "\uffff") || a.id.localeCompare(b.id),
      );
    return {
      id: r.id,
      name: r.name,
      owner: r.ownerUserId ? (owners.get(r.ownerUserId) ?? null) : null,
      is_private: r.isPrivate,
      connection_permissions: connections.length,
      connections,
      active_tokens: r._count.tokens,
      mcp_url: mcpUrl,
      can_manage: r.ownerUserId === viewer.userId || viewer.role === "owner",
      write_policy: r.writePolicy as WritePolicy,
      created_at: Math.floor(r.createdAt.getTime() / 1000),
      last_used: lastUses.get(r.id) ?? null,
      calls: { count: calls.counts.get(r.id) ?? 0, since: calls.since },
    };
  });
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Each server's latest use: whichever of its tokens or signed-in apps (revoked ones included:
 * their calls happened) was used last, to the minute (lastUsedAt's resolution), and what it was.
 */
async function lastUseOf(serverIds: string[]): Promise<Map<string, McpServerLastUse>> {
  const [tokens, grants] = await Promise.all([
    db.mcpToken.findMany({
      where: { mcpServerId: { in: serverIds }, lastUsedAt: { not: null } },
      select: { mcpServerId: true, name: true, prefix: true, lastUsedAt: true },
    }),
    db.oAuthGrant.findMany({
      where: { mcpServerId: { in: serverIds }, lastUsedAt: { not: null } },
      select: {
        mcpServerId: true,
        lastUsedAt: true,
        user: { select: { email: true } },
        client: { select: { id: true, kind: true, name: true, redirectUris: true } },
      },
    }),
  ]);
  const latest = new Map<string, McpServerLastUse>();
  const keep = (serverId: string, use: McpServerLastUse) => {
    const held = latest.get(serverId);
    if (!held || use.at > held.at) latest.set(serverId, use);
  };
  for (const t of tokens)
    keep(t.mcpServerId, { at: seconds(t.lastUsedAt!), via: "token", name: t.name, prefix: t.prefix });
  for (const g of grants)
    keep(g.mcpServerId, { at: seconds(g.lastUsedAt!), via: "app", name: clientName(g.client), by: g.user.email });
  return latest;
}

/** The MCP calls logged through each server within the team's log history window: what its logs link lists. */
async function callsThrough(teamId: string, serverIds: string[]) {
  const team = await db.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { id: true, plan: true, historyDays: true },
  });
  const { cutoff } = historyWindow(team);
  const groups = serverIds.length
    ? await db.operationLog.groupBy({
        by: ["sourceId"],
        where: { teamId, sourceType: "mcp", sourceId: { in: serverIds }, startedAt: { gte: BigInt(cutoff) } },
        _count: { _all: true },
      })
    : [];
  return { since: cutoff, counts: new Map(groups.map((g) => [g.sourceId!, g._count._all])) };
}
