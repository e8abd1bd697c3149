import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { placeholders } from "@/lib/jobs/claim";
import { runnerOf } from "@/lib/db/tx-connection";

// The ledger's credits rolled up per team, UTC day, service type and connection (model UsageDay),
// kept exact in each charge's own transaction. The aggregates of the Overview, the Clients page and
// GET /v1/usage read whole days from the rollup and only the part days at their ranges' edges
// (and at any boundary inside, such as a billing period's start) from the attribution rows, so
// they read a few hundred rows whatever the ledger holds, and the sums are the ledger's to the credit.

const DAY = 86_400;

/** The rollup's day of an instant (Unix seconds): days since the epoch, UTC. */
export const usageDay = (at: number) => Math.floor(at / DAY);

/** One charge's portions added to its day (`at`: the entry's created_at, Unix seconds). */
export async function addUsageDays(
  tx: Tx,
  teamId: string,
  serviceType: string,
  at: number,
  portions: { connectionId: string | null; credits: number }[],
) {
  if (!portions.length) return;
  const day = usageDay(at);
  // One row per connection (the portions are merged by connection already), so no key repeats.
  await runnerOf(tx)(
    placeholders(`INSERT INTO "UsageDay" ("teamId", "day", "serviceType", "connectionId", "credits")
      VALUES ${portions.map(() => "(?, ?, ?, ?, ?)").join(", ")}
      ON CONFLICT ("teamId", "day", "serviceType", "connectionId")
      DO UPDATE SET "credits" = "UsageDay"."credits" + excluded."credits"`),
    portions.flatMap((p) => [teamId, day, serviceType, p.connectionId ?? "", p.credits]),
  );
}

/**
 * A team's credits in [from, to) as rows of (at, type, connectionId, credits) — `at` a day's start
 * for a rolled-up day — for a query to group (`?` placeholders, turned into the engine's by
 * `placeholders`). A day holding `from`, `to` or one of `cuts` (a boundary the caller groups by)
 * other than at midnight is read from the rows themselves, one stretch between two boundaries at a
 * time and summed there (`at` is then the stretch's start), so that every row falls on the right
 * side of every boundary: from the ledger when only the service type matters (`need: "type"`, type
 * is then the only column set), from the attribution rows when only the connection does
 * ("connection"), from both joined otherwise. A join, or a table more, only where it is needed:
 * PostgreSQL plans the join over every ledger partition, and at 20,000,000 entries starts
 * parallel workers for it (40 ms for no rows).
 */
export function usageRows(
  teamId: string,
  from: number,
  to: number,
  { cuts = [], need = "both" }: { cuts?: number[]; need?: "type" | "connection" | "both" } = {},
) {
  const firstWhole = Math.ceil(from / DAY);
  const endWhole = Math.floor(to / DAY);
  // Days split by a boundary: read from the rows.
  const split = [
    ...new Set(
      [from, to, ...cuts]
        .filter((t) => t % DAY !== 0 && t > from - DAY && t < to + DAY)
        .map((t) => Math.floor(t / DAY)),
    ),
  ];
  // Each split day's part of [from, to), cut again at every boundary inside it.
  const bounds = [...new Set([from, to, ...cuts])].sort((a, b) => a - b);
  const stretches = split.flatMap((d) => {
    const edges = [Math.max(from, d * DAY), ...bounds, Math.min(to, (d + 1) * DAY)]
      .filter((t) => t >= Math.max(from, d * DAY) && t <= Math.min(to, (d + 1) * DAY))
      .sort((a, b) => a - b);
    return edges
      .slice(1)
      .map((b, k) => [edges[k], b] as const)
      .filter(([a, b]) => a < b);
  });
  const inner = split.filter((d) => d >= firstWhole && d < endWhole);
  const params: unknown[] = [teamId, firstWhole, endWhole, ...inner];
  let sql = `SELECT CAST(u."day" AS BIGINT) * ${DAY} AS "at", u."serviceType" AS "type",
      NULLIF(u."connectionId", '') AS "connectionId", u."credits" AS "credits"
    FROM "UsageDay" u
    WHERE u."teamId" = ? AND u."day" >= ? AND u."day" < ?${inner.length ? ` AND u."day" NOT IN (${inner.map(() => "?").join(", ")})` : ""}`;
  const [t, select, groupBy, table] =
    need === "type"
      ? ["e", `e."serviceType", NULL, SUM(e."creditsUsed")`, `e."serviceType"`, `"CreditLedgerEntry" e`]
      : need === "connection"
        ? ["a", `NULL, a."connectionId", SUM(a."credits")`, `a."connectionId"`, `"UsageAttribution" a`]
        : [
            "a",
            `e."serviceType", a."connectionId", SUM(a."credits")`,
            `e."serviceType", a."connectionId"`,
            `"UsageAttribution" a JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId" AND e."createdAt" = a."createdAt"`,
          ];
  // One SELECT per stretch: an OR of ranges is no index condition, and PostgreSQL's generic plan
  // then read every row of the team in each partition the ranges touched (800,000 index entries
  // for the Clients page's part days at 20,000,000 entries, 125 ms) to keep 32,000; and summed
  // where they are read, so the query above joins and groups a few rows per stretch, not each entry.
  for (const [a, b] of stretches) {
    sql += `
    UNION ALL
    SELECT CAST(? AS BIGINT), ${select} FROM ${table}
    WHERE ${t}."teamId" = ? AND ${t}."createdAt" >= ? AND ${t}."createdAt" < ? GROUP BY ${groupBy}`;
    params.push(a, teamId, a, b);
  }
  return { sql: `(${sql})`, params };
}
