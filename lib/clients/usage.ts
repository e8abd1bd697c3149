import "server-only";
import { db } from "@/lib/db/client";
import { decodeCursor, encodeCursor } from "@/lib/db/pagination";
import type { UsageQuery, UsageRow } from "@/lib/schemas/usage";
import { usageRows } from "@/lib/credits/usage-days";
import { logCountRows } from "@/lib/logs/log-hours";
import { placeholders } from "@/lib/jobs/claim";

// CONTRACT §12: usage per client (external_id) or per connection, over the connections the
// caller sees. Credits are sums of the attribution rows written with each ledger entry
// (lib/credits/charge-credits.ts), whole days read from their rollup (lib/credits/usage-days.ts);
// operations and errors are counts of the logs that ran on a connection, whole hours read from
// theirs (lib/logs/log-hours.ts): both grouped in the database, then merged by key.

type Grouped = {
  key: string | null;
  credits?: bigint | number | string | null;
  operations?: unknown;
  errors?: unknown;
};

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * Usage of one team in [from, to) (Unix seconds), grouped by `group_by`, as the user sees it: a
 * portion attributed to a connection they cannot see (another member's private one, or a deleted
 * one) is left out; what has no connection, or a connection without external_id, is the null key.
 */
export async function usageGroups(
  teamId: string,
  userId: string | null,
  q: Pick<UsageQuery, "group_by" | "from" | "to">,
): Promise<UsageRow[]> {
  const byClient = q.group_by === "external_id";
  // userId null: the operator (every connection of the team).
  const who = userId ?? "";
  const everyone = userId === null ? 1 : 0;
  const keyColumn = byClient ? `c."externalId"` : `s."connectionId"`;
  // Rows of a source summed per key, over the connections the user sees.
  const grouped = (source: { sql: string; params: unknown[] }, sums: string) =>
    db.$queryRawUnsafe<Grouped[]>(
      placeholders(`SELECT ${keyColumn} AS "key", ${sums}
        FROM ${source.sql} s LEFT JOIN "Connection" c ON c."id" = s."connectionId"
        WHERE s."connectionId" IS NULL
          OR (c."id" IS NOT NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ? OR 1 = ?))
        GROUP BY ${keyColumn}`),
      ...source.params,
      who,
      everyone,
    );
  const [credits, logs] = await Promise.all([
    grouped(usageRows(teamId, q.from, q.to, { need: "connection" }), `SUM(s."credits") AS "credits"`),
    grouped(logCountRows(teamId, q.from, q.to), `SUM(s."operations") AS "operations", SUM(s."errors") AS "errors"`),
  ]);
  const rows = new Map<string | null, UsageRow>();
  const rowOf = (key: string | null) => {
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, credits: 0, operations: 0, errors: 0 }));
    return row;
  };
  for (const g of credits) rowOf(g.key).credits += num(g.credits);
  for (const g of logs) {
    const row = rowOf(g.key);
    row.operations += num(g.operations);
    row.errors += num(g.errors);
  }
  return [...rows.values()].sort(byKey);
}

/** null first, then keys in code-unit order: the order pages walk. */
const byKey = (a: { key: string | null }, b: { key: string | null }) =>
  a.key === b.key ? 0 : a.key === null ? -1 : b.key === null ? 1 : a.key < b.key ? -1 : 1;

/** GET /v1/usage: one page of the groups, keyset by key (the cursor is bound to group_by, from and to). */
export async function listUsage(teamId: string, userId: string | null, q: UsageQuery) {
  const filters = { group_by: q.group_by, from: q.from, to: q.to };
  const all = await usageGroups(teamId, userId, q);
  let start = 0;
  if (q.cursor) {
    const after = decodeCursor("usage", filters, q.cursor);
    const last = { key: after.at === 0 ? null : String(after.id) };
    start = all.findIndex((r) => byKey(r, last) > 0);
    if (start < 0) start = all.length;
  }
  const data = all.slice(start, start + q.limit);
  const hasMore = start + q.limit < all.length;
  const last = data[data.length - 1];
  return {
    data,
    has_more: hasMore,
    next_cursor:
      hasMore && last ? encodeCursor("usage", filters, { at: last.key === null ? 0 : 1, id: last.key ?? "" }) : null,
  };
}
