import "server-only";
import { db } from "@/lib/db/client";
import type { Period } from "@/lib/clients/billing-periods";
import { usageByDay } from "@/lib/credits/daily-usage";
import type { DailyUsage } from "@/lib/schemas/dashboard";

type Row = { day: bigint | number; type: string; credits: bigint | number | string };

/**
 * A client's credits per UTC day and service type over `period` (the Overview's chart, for one
 * client): its attribution rows joined to their ledger entries for the service type. The No
 * client group (externalId null) also holds what ran on no connection.
 */
export async function clientDailyUsage(
  teamId: string,
  userId: string,
  externalId: string | null,
  period: Period,
): Promise<DailyUsage> {
  const from = BigInt(period.start);
  const to = BigInt(period.end);
  const rows =
    externalId === null
      ? await db.$queryRaw<Row[]>`
          SELECT a."createdAt" / 86400 AS "day", e."serviceType" AS "type", SUM(a."credits") AS "credits"
          FROM "UsageAttribution" a
          JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId"
          LEFT JOIN "Connection" c ON c."id" = a."connectionId"
          WHERE a."teamId" = ${teamId} AND a."createdAt" >= ${from} AND a."createdAt" < ${to}
            AND (a."connectionId" IS NULL OR (c."id" IS NOT NULL AND c."externalId" IS NULL
              AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ${userId})))
          GROUP BY a."createdAt" / 86400, e."serviceType"`
      : await db.$queryRaw<Row[]>`
          SELECT a."createdAt" / 86400 AS "day", e."serviceType" AS "type", SUM(a."credits") AS "credits"
          FROM "UsageAttribution" a
          JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId"
          JOIN "Connection" c ON c."id" = a."connectionId"
          WHERE a."teamId" = ${teamId} AND a."createdAt" >= ${from} AND a."createdAt" < ${to}
            AND c."externalId" = ${externalId} AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ${userId})
          GROUP BY a."createdAt" / 86400, e."serviceType"`;
  return usageByDay(rows, period.start, period.end);
}
