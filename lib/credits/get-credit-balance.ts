import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { rollBillingPeriodIfEnded } from "@/lib/credits/roll-billing-period";

export async function getCreditBalance(teamId: string) {
  const select = { id: true, plan: true, creditsLimit: true, creditsUsed: true, billingPeriodEnd: true } as const;
  let team = await db.team.findUnique({ where: { id: teamId }, select });
  if (!team) throw notFound("Team not found.");
  if (await rollBillingPeriodIfEnded(db, team)) team = (await db.team.findUnique({ where: { id: teamId }, select }))!;
  return {
    credits_limit: team.creditsLimit,
    credits_used: team.creditsUsed,
    credits_remaining: team.creditsLimit - team.creditsUsed,
    billing_period_end: Math.floor(team.billingPeriodEnd.getTime() / 1000),
    tier: team.plan,
  };
}
