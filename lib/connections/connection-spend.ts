import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { usageRows } from "@/lib/credits/usage-days";
import { placeholders } from "@/lib/jobs/claim";
import { visibleConnectionOrThrow } from "@/lib/connections/visible-connection-or-throw";
import type { ConnectionSpendJson } from "@/lib/schemas/connection-page";

const DAY = 86_400;

/**
 * A connection's spend in the team's current billing period: the credits its attribution rows
 * carry (written with each ledger entry, CONTRACT §12; whole days read from their rollup,
 * lib/credits/usage-days.ts), in total and per UTC day, one entry per day of the period like the
 * Overview's chart. Summed in the database (times are Unix seconds, so integer division by 86400
 * is the day on both engines).
 */
export async function connectionSpend(
  teamId: string,
  userId: string,
  connectionId: string,
): Promise<ConnectionSpendJson> {
  await visibleConnectionOrThrow(teamId, userId, connectionId);
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: { billingPeriodStart: true, billingPeriodEnd: true },
  });
  if (!team) throw notFound("Team not found.");
  const start = Math.floor(team.billingPeriodStart.getTime() / 1000);
  const end = Math.floor(team.billingPeriodEnd.getTime() / 1000);
  const source = usageRows(teamId, start, end, { need: "connection" });
  const rows = await db.$queryRawUnsafe<{ day: bigint | number; credits: bigint | number | string | null }[]>(
    placeholders(`SELECT s."at" / ${DAY} AS "day", SUM(s."credits") AS "credits"
      FROM ${source.sql} s WHERE s."connectionId" = ? GROUP BY s."at" / ${DAY}`),
    ...source.params,
    connectionId,
  );
  const firstDay = Math.floor(start / DAY);
  const lastDay = Math.floor((end - 1) / DAY);
  const days: ConnectionSpendJson["days"] = [];
  for (let d = firstDay; d <= lastDay; d++) days.push({ day: d * DAY, credits: 0 });
  let credits = 0;
  for (const row of rows) {
    const value = Number(row.credits ?? 0);
    credits += value;
    const bucket = days[Number(row.day) - firstDay];
    if (bucket) bucket.credits += value;
  }
  return { period_start: start, period_end: end, credits, days };
}
