import { historyDaysOf } from "@/lib/teams/plans";

export type TeamWindow = { id: string; plan: string; historyDays: number | null };

/** The oldest Unix second the team's plan lets it see (spec §4.10: older logs are stored but not returned). */
export function historyWindow(team: TeamWindow, nowSeconds = Math.floor(Date.now() / 1000)) {
  const days = historyDaysOf(team);
  return { days, cutoff: nowSeconds - days * 86_400 };
}
