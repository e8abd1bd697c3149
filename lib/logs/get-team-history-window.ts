import "server-only";
import { read } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { historyWindow } from "@/lib/logs/history-window";

/** The team's plan and where its log history window starts, for the explorer's note. */
export async function getTeamHistoryWindow(teamId: string) {
  const team = await read.selectFrom("Team").select(["id", "plan", "historyDays"]).where("id", "=", teamId).executeTakeFirst();
  if (!team) throw notFound(`No team ${teamId}.`);
  const { days, cutoff } = historyWindow(team);
  return { plan: team.plan, days, cutoff };
}
