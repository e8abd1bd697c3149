import "server-only";
import { db } from "@/lib/db/client";
import type { ApiKeyJson } from "@/lib/schemas/dashboard";

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** The team's API keys, newest first, revoked ones included (their history matters); never the key itself. */
export async function listApiKeys(teamId: string): Promise<ApiKeyJson[]> {
  const rows = await db.apiKey.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      prefix: true,
      name: true,
      createdAt: true,
      lastUsedAt: true,
      revokedAt: true,
      createdBy: { select: { id: true, email: true } },
    },
  });
  return rows.map((k) => ({
    id: k.id,
    prefix: k.prefix,
    name: k.name,
    created_by: k.createdBy,
    created_at: seconds(k.createdAt)!,
    last_used_at: seconds(k.lastUsedAt),
    revoked_at: seconds(k.revokedAt),
  }));
}
