import "server-only";
import { prepared, read } from "@/lib/db/read";
import { notFound } from "@/lib/errors/api-error";
import { historyWindow } from "@/lib/logs/history-window";

const findTeam = prepared((a: { teamId: string }) =>
  read.selectFrom("Team").select(["id", "plan", "historyDays"]).where("id", "=", a.teamId),
);

/** The team's plan and where its log history window starts, for the explorer's note. */
export async function getTeamHistoryWindow(teamId: string) {
  const [team] = await findTeam({ teamId });
  if (!team) throw notFound(`No team ${teamId}.`);
  const { days, cutoff } = historyWindow(team);
  return { plan: team.plan, days, cutoff };
}
