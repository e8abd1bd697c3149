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
 * for a rolled-up day, the entry's created_at otherwise — for a query to group (`?` placeholders,
 * turned into the engine's by `placeholders`). A day holding `from`, `to` or one of `cuts` (a
 * boundary the caller groups by) other than at midnight is read row by row, so that every row
 * falls on the right side of every boundary: from the ledger when only the service type matters
 * (`need: "type"`, type is then the only column set), from the attribution rows when only the
 * connection does ("connection"), from both joined otherwise. A join, or a table more, only where
 * it is needed: PostgreSQL plans the join over every ledger partition, and at 20,000,000 entries
 * starts parallel workers for it (40 ms for no rows).
 */
export function usageRows(
  teamId: string,
  from: number,
  to: number,
  { cuts = [], need = "both" }: { cuts?: number[]; need?: "type" | "connection" | "both" } = {},
) {
  const firstWhole = Math.ceil(from / DAY);
  const endWhole = Math.floor(to / DAY);
  // Days split by a boundary: read row by row.
  const split = [
    ...new Set(
      [from, to, ...cuts]
        .filter((t) => t % DAY !== 0 && t > from - DAY && t < to + DAY)
        .map((t) => Math.floor(t / DAY)),
    ),
  ];
  const ranges = split
    .map((d) => [Math.max(from, d * DAY), Math.min(to, (d + 1) * DAY)] as const)
    .filter(([a, b]) => a < b);
  const inner = split.filter((d) => d >= firstWhole && d < endWhole);
  const params: unknown[] = [teamId, firstWhole, endWhole, ...inner];
  let sql = `SELECT CAST(u."day" AS BIGINT) * ${DAY} AS "at", u."serviceType" AS "type",
      NULLIF(u."connectionId", '') AS "connectionId", u."credits" AS "credits"
    FROM "UsageDay" u
    WHERE u."teamId" = ? AND u."day" >= ? AND u."day" < ?${inner.length ? ` AND u."day" NOT IN (${inner.map(() => "?").join(", ")})` : ""}`;
  if (ranges.length) {
    const [t, select, table] =
      need === "type"
        ? ["e", `e."createdAt", e."serviceType", NULL, e."creditsUsed"`, `"CreditLedgerEntry" e`]
        : need === "connection"
          ? ["a", `a."createdAt", NULL, a."connectionId", a."credits"`, `"UsageAttribution" a`]
          : [
              "a",
              `a."createdAt", e."serviceType", a."connectionId", a."credits"`,
              `"UsageAttribution" a JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId" AND e."createdAt" = a."createdAt"`,
            ];
    sql += `
    UNION ALL
    SELECT ${select} FROM ${table}
    WHERE ${t}."teamId" = ? AND (${ranges.map(() => `(${t}."createdAt" >= ? AND ${t}."createdAt" < ?)`).join(" OR ")})`;
    params.push(teamId, ...ranges.flat());
  }
  return { sql: `(${sql})`, params };
}
