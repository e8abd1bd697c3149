import "server-only";
import { db } from "@/lib/db/client";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { staleConnectionDays } from "@/lib/config/limits";
import type { ConnectionHealth } from "@/lib/schemas/connections";
import type { ConnectionFactsJson } from "@/lib/schemas/connection-page";

// What the dashboard shows beside each connection (issue 50): its health, when it was checked and
// last used, whether it is stale (no operation for STALE_CONNECTION_DAYS, counted from its creation
// when never used), and the other visible connections of the same type and provider account.

/** Facts of every connection the user sees (optionally only those of one external id: `""` = none). */
export async function connectionFacts(
  teamId: string,
  userId: string,
  filter: { externalId?: string | null; ids?: string[] } = {},
): Promise<ConnectionFactsJson[]> {
  const rows = await db.connection.findMany({
    where: {
      ...visibleConnections(teamId, userId),
      ...(filter.externalId !== undefined && { externalId: filter.externalId }),
      ...(filter.ids && { id: { in: filter.ids } }),
    },
    select: {
      id: true,
      type: true,
      displayName: true,
      externalId: true,
      ownerUserId: true,
      accountId: true,
      health: true,
      healthError: true,
      checkedAt: true,
      lastUsedAt: true,
      createdAt: true,
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  // Duplicates are found among all the user's visible connections, whatever the filter.
  const accounts = [...new Set(rows.flatMap((r) => (r.accountId ? [r.accountId] : [])))];
  const siblings = accounts.length
    ? await db.connection.findMany({
        where: { ...visibleConnections(teamId, userId), accountId: { in: accounts } },
        select: { id: true, type: true, accountId: true },
      })
    : [];
  const staleBefore = Date.now() / 1000 - staleConnectionDays() * 86_400;
  return rows.map((r) => {
    const lastUsed = r.lastUsedAt === null ? null : Number(r.lastUsedAt);
    const created = Math.floor(r.createdAt.getTime() / 1000);
    return {
      id: r.id,
      type: r.type,
      display_name: r.displayName,
      external_id: r.externalId,
      is_private: r.ownerUserId !== null,
      health: r.health as ConnectionHealth,
      health_error: r.healthError,
      checked_at: r.checkedAt === null ? null : Math.floor(Number(r.checkedAt) / 1000),
      last_used_at: lastUsed,
      stale: (lastUsed ?? created) < staleBefore,
      duplicate_of: r.accountId
        ? siblings.filter((s) => s.id !== r.id && s.type === r.type && s.accountId === r.accountId).map((s) => s.id)
        : [],
      created_at: created,
    };
  });
}
