import "server-only";
import { db } from "@/lib/db/client";
import type { Period } from "@/lib/clients/billing-periods";
import { usageRows } from "@/lib/credits/usage-days";
import { placeholders } from "@/lib/jobs/claim";
import { usageByDay } from "@/lib/credits/daily-usage";
import type { DailyUsage } from "@/lib/schemas/dashboard";

type Row = { day: bigint | number; type: string; credits: bigint | number | string };

/**
 * A client's credits per UTC day and service type over `period` (the Overview's chart, for one
 * client), from the day rollup (lib/credits/usage-days.ts). The No client group (externalId null)
 * also holds what ran on no connection.
 */
export async function clientDailyUsage(
  teamId: string,
  userId: string,
  externalId: string | null,
  period: Period,
): Promise<DailyUsage> {
  const source = usageRows(teamId, period.start, period.end);
  // The No client group (externalId null) also holds what ran on no connection.
  const whose =
    externalId === null
      ? `(s."connectionId" IS NULL OR (c."id" IS NOT NULL AND c."externalId" IS NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?)))`
      : `(c."externalId" = ? AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?))`;
  const rows = await db.$queryRawUnsafe<Row[]>(
    placeholders(`SELECT s."at" / 86400 AS "day", s."type" AS "type", SUM(s."credits") AS "credits"
      FROM ${source.sql} s LEFT JOIN "Connection" c ON c."id" = s."connectionId"
      WHERE ${whose}
      GROUP BY s."at" / 86400, s."type"`),
    ...source.params,
    ...(externalId === null ? [userId] : [externalId, userId]),
  );
  return usageByDay(rows, period.start, period.end);
}
