export const PLANS = ["free", "pro", "team"] as const;
export type Plan = (typeof PLANS)[number];

/** Defaults per plan; a team may override its credits limit and history window. */
export const PLAN_DEFAULTS: Record<Plan, { creditsLimit: number; historyDays: number }> = {
  free: { creditsLimit: 1_000, historyDays: 1 },
  pro: { creditsLimit: 20_000, historyDays: 7 },
  team: { creditsLimit: 100_000, historyDays: 30 },
};

function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function historyDaysOf(team: { plan: string; historyDays: number | null }): number {
  return team.historyDays ?? PLAN_DEFAULTS[isPlan(team.plan) ? team.plan : "free"].historyDays;
}

/** One billing period: a calendar month from its start. */
export function periodEndFrom(start: Date): Date {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
