import "server-only";
import { db } from "@/lib/db/client";
import { decodeCursor, encodeCursor } from "@/lib/db/pagination";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { usageGroups } from "@/lib/clients/usage";
import { billingPeriods } from "@/lib/clients/billing-periods";
import { creditsPerClientByPeriod } from "@/lib/clients/client-credits";
import { clientKey } from "@/lib/clients/client-key";
import type { ClientConnection, ClientRow, ClientSort, ClientsPage, ListClientsQuery } from "@/lib/schemas/clients";
import type { ConnectionHealth } from "@/lib/schemas/connections";

const DAY = 86_400;

/** Worse first: a client is as healthy as its least healthy connection. */
const HEALTH_RANK: Record<ConnectionHealth, number> = { needs_reauth: 2, unreachable: 1, healthy: 0 };

/** What a client is sorted by and in which direction first (names A→Z, numbers and times high→low). */
const SORTS: Record<ClientSort, { value: (r: ClientRow) => number | string; asc: boolean }> = {
  name: { value: (r) => (r.external_id ?? "").toLowerCase(), asc: true },
  credits: { value: (r) => r.credits, asc: false },
  operations: { value: (r) => r.operations_7d, asc: false },
  errors: { value: (r) => r.errors_7d, asc: false },
  last_activity: { value: (r) => r.last_activity ?? -1, asc: false },
  connections: { value: (r) => r.connections.length, asc: false },
};

/** Name order for ties: No client first, then external ids case-insensitively, then exactly. */
function byName(a: ClientRow, b: ClientRow) {
  if (a.external_id === b.external_id) return 0;
  if (a.external_id === null) return -1;
  if (b.external_id === null) return 1;
  const x = a.external_id.toLowerCase();
  const y = b.external_id.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.external_id < b.external_id ? -1 : 1;
}

/**
 * Every client of the team as the user sees it, one row per external_id (null: connections
 * without one, and what ran on no connection): its connections with their health, credits this
 * billing period and the three before it, operations and errors of the last 7 days, last
 * activity and pending auth links. Aggregated in the database per client, then searched, filtered,
 * sorted and paged here (the cursor is the offset, bound to the filters).
 */
export async function listClients(teamId: string, userId: string, query: ListClientsQuery): Promise<ClientsPage> {
  const now = Math.floor(Date.now() / 1000);
  const periods = await billingPeriods(teamId, 3);
  const [connections, credits, week, pending] = await Promise.all([
    db.connection.findMany({
      where: visibleConnections(teamId, userId),
      select: {
        id: true,
        type: true,
        displayName: true,
        externalId: true,
        health: true,
        healthError: true,
        lastUsedAt: true,
      },
      orderBy: [{ type: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    }),
    creditsPerClientByPeriod(teamId, userId, periods),
    usageGroups(teamId, userId, { group_by: "external_id", from: now - 7 * DAY, to: now + 1 }),
    db.authLink.groupBy({
      by: ["externalId"],
      where: {
        teamId,
        consumedAt: null,
        expiresAt: { gt: new Date() },
        OR: [{ isPrivate: false }, { createdByUserId: userId }],
      },
      _count: { _all: true },
    }),
  ]);

  const rows = new Map<string | null, ClientRow>();
  const rowOf = (externalId: string | null) => {
    let row = rows.get(externalId);
    if (!row)
      rows.set(
        externalId,
        (row = {
          id: clientKey(externalId),
          external_id: externalId,
          connections: [],
          health: null,
          credits: 0,
          trend: [0, 0, 0],
          operations_7d: 0,
          errors_7d: 0,
          last_activity: null,
          pending_links: 0,
        }),
      );
    return row;
  };
  for (const c of connections) {
    const row = rowOf(c.externalId);
    const connection: ClientConnection = {
      id: c.id,
      type: c.type,
      display_name: c.displayName,
      health: c.health as ConnectionHealth,
      health_error: c.healthError,
    };
    row.connections.push(connection);
    if (row.health === null || HEALTH_RANK[connection.health] > HEALTH_RANK[row.health]) row.health = connection.health;
    const used = c.lastUsedAt === null ? null : Number(c.lastUsedAt);
    if (used !== null && (row.last_activity === null || used > row.last_activity)) row.last_activity = used;
  }
  for (const p of pending) rowOf(p.externalId).pending_links = p._count._all;
  // Keys with a visible connection already have a row; only the null group can arrive with usage alone.
  for (const [key, byPeriod] of credits) {
    if (key !== null && !rows.has(key)) continue;
    if (key === null && !rows.has(null) && !byPeriod.some(Boolean)) continue;
    const row = rowOf(key);
    row.trend = byPeriod.slice(0, 3);
    row.credits = byPeriod[3];
  }
  for (const g of week) {
    if (g.key !== null && !rows.has(g.key)) continue;
    if (g.key === null && !rows.has(null) && !g.operations) continue;
    const row = rowOf(g.key);
    row.operations_7d = g.operations;
    row.errors_7d = g.errors;
  }

  const needle = query.q?.trim().toLowerCase();
  const matching = [...rows.values()].filter((r) => {
    if (
      query.health === "healthy"
        ? r.health !== "healthy"
        : query.health && !r.connections.some((c) => c.health === query.health)
    )
      return false;
    if (!needle) return true;
    if ((r.external_id ?? "no client").toLowerCase().includes(needle)) return true;
    return r.connections.some((c) => `${c.display_name ?? ""} ${c.type}`.toLowerCase().includes(needle));
  });
  const sort = SORTS[query.sort ?? "name"];
  const asc = query.order ? query.order === "asc" : sort.asc;
  matching.sort((a, b) => {
    const x = sort.value(a);
    const y = sort.value(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return (asc ? order : -order) || byName(a, b);
  });

  const filters = { q: query.q, health: query.health, sort: query.sort, order: query.order };
  const start = query.cursor ? decodeCursor("clients", filters, query.cursor).at : 0;
  const data = matching.slice(start, start + query.limit);
  const end = start + data.length;
  const hasMore = end < matching.length;
  return {
    data,
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor("clients", filters, { at: end, id: "" }) : null,
    total: matching.length,
    period: periods[3],
  };
}
