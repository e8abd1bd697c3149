import "server-only";
import { db } from "@/lib/db/client";
import { listMcpTokens } from "@/lib/mcp-servers/mcp-servers";
import type { McpTokenJson } from "@/lib/schemas/dashboard";

type Actor = Parameters<typeof listMcpTokens>[0];

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** A server's tokens as the dashboard shows them: prefix, creator's email, times; never the token. */
export async function listMcpServerTokens(actor: Actor, serverId: string): Promise<McpTokenJson[]> {
  const rows = await listMcpTokens(actor, serverId);
  const creatorIds = [...new Set(rows.map((t) => t.createdByUserId).filter((id): id is string => !!id))];
  const creators = new Map(
    (await db.user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, email: true } })).map((u) => [
      u.id,
      u,
    ]),
  );
  return rows.map((t) => ({
    id: t.id,
    prefix: t.prefix,
    name: t.name,
    created_by: t.createdByUserId ? (creators.get(t.createdByUserId) ?? null) : null,
    created_at: seconds(t.createdAt)!,
    last_used_at: seconds(t.lastUsedAt),
    revoked_at: seconds(t.revokedAt),
  }));
}
