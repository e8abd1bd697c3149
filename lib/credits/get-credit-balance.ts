import "server-only";
import { db } from "@/lib/db/client";
import { prepared, read } from "@/lib/db/read";
import { notFound } from "@/lib/errors/api-error";
import { rollBillingPeriodIfEnded } from "@/lib/credits/roll-billing-period";

const findBalance = prepared((a: { teamId: string }) =>
  read
    .selectFrom("Team")
    .select(["id", "plan", "creditsLimit", "creditsUsed", "billingPeriodEnd"])
    .where("id", "=", a.teamId),
);

export async function getCreditBalance(teamId: string) {
  let [team] = await findBalance({ teamId });
  if (!team) throw notFound("Team not found.");
  // A period that has ended is rolled (a write, through Prisma) and read again.
  if (await rollBillingPeriodIfEnded(db, { id: team.id, billingPeriodEnd: new Date(team.billingPeriodEnd) }))
    [team] = await findBalance({ teamId });
  return {
    credits_limit: team.creditsLimit,
    credits_used: team.creditsUsed,
    credits_remaining: team.creditsLimit - team.creditsUsed,
    billing_period_end: Math.floor(team.billingPeriodEnd / 1000),
    tier: team.plan,
  };
}
