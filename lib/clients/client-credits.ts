import "server-only";
import { db } from "@/lib/db/client";
import type { Period } from "@/lib/clients/billing-periods";
import { usageRows } from "@/lib/credits/usage-days";
import { placeholders } from "@/lib/jobs/claim";

type Row = { key: string | null } & Record<`c${number}`, bigint | number | string | null>;

/**
 * Credits attributed per client (external_id; null: no client or no connection) in each of four
 * consecutive periods, in one pass over the day rollup (lib/credits/usage-days.ts), as GET /v1/usage counts them: over
 * the user's visible connections, a deleted or another member's private connection's share left out.
 */
export async function creditsPerClientByPeriod(
  teamId: string,
  userId: string,
  periods: Period[],
): Promise<Map<string | null, number[]>> {
  if (periods.length !== 4) throw new Error("creditsPerClientByPeriod takes four periods");
  const [b0, b1, b2, b3, b4] = [...periods.map((p) => p.start), periods[3].end];
  const source = usageRows(teamId, b0, b4, { cuts: [b1, b2, b3], need: "connection" });
  const rows = await db.$queryRawUnsafe<Row[]>(
    placeholders(`SELECT c."externalId" AS "key",
      SUM(CASE WHEN s."at" < ? THEN s."credits" ELSE 0 END) AS "c0",
      SUM(CASE WHEN s."at" >= ? AND s."at" < ? THEN s."credits" ELSE 0 END) AS "c1",
      SUM(CASE WHEN s."at" >= ? AND s."at" < ? THEN s."credits" ELSE 0 END) AS "c2",
      SUM(CASE WHEN s."at" >= ? THEN s."credits" ELSE 0 END) AS "c3"
    FROM ${source.sql} s LEFT JOIN "Connection" c ON c."id" = s."connectionId"
    WHERE s."connectionId" IS NULL
      OR (c."id" IS NOT NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?))
    GROUP BY c."externalId"`),
    b1,
    b1,
    b2,
    b2,
    b3,
    b3,
    ...source.params,
    userId,
  );
  return new Map(rows.map((r) => [r.key, [r.c0, r.c1, r.c2, r.c3].map((v) => Number(v ?? 0))]));
}
