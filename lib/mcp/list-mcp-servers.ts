import "server-only";
import { db } from "@/lib/db/client";
import type { McpServerJson } from "@/lib/schemas/dashboard";

/** The team's MCP servers the user may see: shared ones and the user's own private ones. */
export async function listMcpServers(teamId: string, userId: string): Promise<McpServerJson[]> {
  const rows = await db.mcpServer.findMany({
    where: { teamId, OR: [{ isPrivate: false }, { ownerUserId: userId }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, ownerUserId: true, isPrivate: true, createdAt: true, _count: { select: { connections: true } } },
  });
  const ownerIds = [...new Set(rows.map((r) => r.ownerUserId).filter((id): id is string => !!id))];
  const owners = new Map((await db.user.findMany({ where: { id: { in: ownerIds } }, select: { id: true, email: true } })).map((u) => [u.id, u]));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner: r.ownerUserId ? (owners.get(r.ownerUserId) ?? null) : null,
    is_private: r.isPrivate,
    connection_permissions: r._count.connections,
    created_at: Math.floor(r.createdAt.getTime() / 1000),
  }));
}
