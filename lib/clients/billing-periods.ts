import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { rollBillingPeriodIfEnded } from "@/lib/credits/roll-billing-period";

export type Period = { start: number; end: number };

/** `date` moved `months` calendar months back, its day clamped to the target month's last day. */
function monthsBack(date: Date, months: number): Date {
  const d = new Date(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The team's current billing period and the `previous` ones before it, oldest first, in Unix
 * seconds. Only the current period is stored (Team.billingPeriodStart/End); the earlier ones are
 * the plan's monthly periods counted back from its start, so they meet without gaps or overlaps.
 */
export async function billingPeriods(teamId: string, previous = 3, now = new Date()): Promise<Period[]> {
  const select = { id: true, billingPeriodStart: true, billingPeriodEnd: true } as const;
  let team = await db.team.findUnique({ where: { id: teamId }, select });
  if (!team) throw notFound("Team not found.");
  if (await rollBillingPeriodIfEnded(db, team, now))
    team = (await db.team.findUnique({ where: { id: teamId }, select }))!;
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
  const periods: Period[] = [{ start: seconds(team.billingPeriodStart), end: seconds(team.billingPeriodEnd) }];
  for (let k = 1; k <= previous; k++)
    periods.unshift({ start: seconds(monthsBack(team.billingPeriodStart, k)), end: periods[0].start });
  return periods;
}
