import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { periodEndFrom } from "@/lib/teams/plans";

/** Starts a new billing period now: usage resets to zero and no ledger entry is written. */
export async function renewBillingPeriod(teamId: string) {
  const start = new Date();
  const found = await db.team.findUnique({ where: { id: teamId }, select: { id: true } });
  if (!found) throw notFound(`No team ${teamId}.`);
  const team = await db.team.update({
    where: { id: teamId },
    data: { creditsUsed: 0, billingPeriodStart: start, billingPeriodEnd: periodEndFrom(start) },
  });
  return { billing_period_end: Math.floor(team.billingPeriodEnd.getTime() / 1000) };
}
