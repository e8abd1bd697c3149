import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { rollBillingPeriodIfEnded } from "@/lib/credits/roll-billing-period";
import { SERVICE_TYPES } from "@/lib/schemas/credits";
import { usageRows } from "@/lib/credits/usage-days";
import { placeholders } from "@/lib/jobs/claim";
import type { DailyUsage, UsageDay } from "@/lib/schemas/dashboard";

const DAY = 86_400;

/**
 * Credits charged per UTC day and service type over the current billing period, one entry per
 * day of the period (future days hold zeros, so a chart shows how much of the period is left),
 * from the day rollup (lib/credits/usage-days.ts). Times are Unix seconds, so integer division by
 * 86400 is the day bucket on both SQLite and PostgreSQL and the grouping stays in the database.
 */
export async function getDailyUsage(teamId: string, now = new Date()): Promise<DailyUsage> {
  const select = { id: true, billingPeriodStart: true, billingPeriodEnd: true } as const;
  let team = await db.team.findUnique({ where: { id: teamId }, select });
  if (!team) throw notFound("Team not found.");
  if (await rollBillingPeriodIfEnded(db, team, now))
    team = (await db.team.findUnique({ where: { id: teamId }, select }))!;
  const start = Math.floor(team.billingPeriodStart.getTime() / 1000);
  const end = Math.floor(team.billingPeriodEnd.getTime() / 1000);

  const source = usageRows(teamId, start, end, { need: "type" });
  const rows = await db.$queryRawUnsafe<{ day: bigint | number; type: string; credits: bigint | number | string }[]>(
    placeholders(`SELECT s."at" / ${DAY} AS "day", s."type" AS "type", SUM(s."credits") AS "credits"
      FROM ${source.sql} s GROUP BY s."at" / ${DAY}, s."type"`),
    ...source.params,
  );

  return usageByDay(rows, start, end, now);
}

/**
 * Rows of (UTC day number, service type, credits) as the chart reads them: one entry per day of
 * [start, end) (future days hold zeros) with totals per service type. Shared by the Overview and
 * a client's page.
 */
export function usageByDay(
  rows: { day: bigint | number; type: string; credits: bigint | number | string }[],
  start: number,
  end: number,
  now = new Date(),
): DailyUsage {
  const firstDay = Math.floor(start / DAY);
  const lastDay = Math.floor((end - 1) / DAY);
  const days: UsageDay[] = [];
  for (let d = firstDay; d <= lastDay; d++)
    days.push({ day: d * DAY, workflow: 0, agent: 0, copilot: 0, mcp: 0, total: 0 });
  const totals = { workflow: 0, agent: 0, copilot: 0, mcp: 0 };
  for (const row of rows) {
    const bucket = days[Number(row.day) - firstDay];
    const type = row.type as (typeof SERVICE_TYPES)[number];
    if (!bucket || !SERVICE_TYPES.includes(type)) continue;
    const credits = Number(row.credits);
    bucket[type] += credits;
    bucket.total += credits;
    totals[type] += credits;
  }
  return { period_start: start, period_end: end, now: Math.floor(now.getTime() / 1000), days, totals };
}
