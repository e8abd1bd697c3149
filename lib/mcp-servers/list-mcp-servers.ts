import "server-only";
import { db } from "@/lib/db/client";
import { appUrl } from "@/lib/config/env";
import type { McpServerJson } from "@/lib/schemas/dashboard";
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
    };
  });
}
