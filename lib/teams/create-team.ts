import "server-only";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/security/ids";
import { PLAN_DEFAULTS, periodEndFrom, type Plan } from "@/lib/teams/plans";

export async function createTeam(input: { name: string; plan?: Plan; creditsLimit?: number; historyDays?: number }) {
  const plan = input.plan ?? "team";
  const start = new Date();
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
