import "server-only";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/security/ids";
import { PLAN_DEFAULTS, periodEndFrom, type Plan } from "@/lib/teams/plans";

/** `periodStartedAt`: when the current billing period began (default now; the demo starts mid-period). */
export async function createTeam(input: {
  name: string;
  plan?: Plan;
  creditsLimit?: number;
  historyDays?: number;
  periodStartedAt?: Date;
}) {
  const plan = input.plan ?? "team";
  const start = input.periodStartedAt ?? new Date();
  return db.team.create({
    data: {
      id: newId("team"),
      name: input.name,
      plan,
      creditsLimit: input.creditsLimit ?? PLAN_DEFAULTS[plan].creditsLimit,
      historyDays: input.historyDays ?? null,
      billingPeriodStart: start,
      billingPeriodEnd: periodEndFrom(start),
    },
  });
}
