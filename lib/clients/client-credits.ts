import "server-only";
import { db } from "@/lib/db/client";
import type { Period } from "@/lib/clients/billing-periods";

type Row = { key: string | null } & Record<`c${number}`, bigint | number | string | null>;

/**
 * Credits attributed per client (external_id; null: no client or no connection) in each of four
 * consecutive periods, in one pass over the attribution rows, as GET /v1/usage counts them: over
 * the user's visible connections, a deleted or another member's private connection's share left out.
 */
export async function creditsPerClientByPeriod(
  teamId: string,
  userId: string,
  periods: Period[],
): Promise<Map<string | null, number[]>> {
  if (periods.length !== 4) throw new Error("creditsPerClientByPeriod takes four periods");
  const [b0, b1, b2, b3, b4] = [...periods.map((p) => BigInt(p.start)), BigInt(periods[3].end)];
  const rows = await db.$queryRaw<Row[]>`
    SELECT c."externalId" AS "key",
      SUM(CASE WHEN a."createdAt" < ${b1} THEN a."credits" ELSE 0 END) AS "c0",
      SUM(CASE WHEN a."createdAt" >= ${b1} AND a."createdAt" < ${b2} THEN a."credits" ELSE 0 END) AS "c1",
      SUM(CASE WHEN a."createdAt" >= ${b2} AND a."createdAt" < ${b3} THEN a."credits" ELSE 0 END) AS "c2",
      SUM(CASE WHEN a."createdAt" >= ${b3} THEN a."credits" ELSE 0 END) AS "c3"
    FROM "UsageAttribution" a LEFT JOIN "Connection" c ON c."id" = a."connectionId"
    WHERE a."teamId" = ${teamId} AND a."createdAt" >= ${b0} AND a."createdAt" < ${b4}
      AND (a."connectionId" IS NULL
        OR (c."id" IS NOT NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ${userId})))
    GROUP BY c."externalId"`;
  return new Map(rows.map((r) => [r.key, [r.c0, r.c1, r.c2, r.c3].map((v) => Number(v ?? 0))]));
}
