import "server-only";
import { prepared, read } from "@/lib/db/read";
import { notFound } from "@/lib/errors/api-error";
import { historyWindow } from "@/lib/logs/history-window";

const findTeam = prepared((a: { teamId: string }) =>
  read.selectFrom("Team").select(["id", "plan", "historyDays"]).where("id", "=", a.teamId),
);

// One row at most, read through the (teamId, startedAt, id) index.
const findOlderLog = prepared((a: { teamId: string; before: number }) =>
  read
    .selectFrom("OperationLog")
    .select("id")
    .where("teamId", "=", a.teamId)
    .where("startedAt", "<", a.before)
    .limit(1),
);

/**
 * The team's plan, where its log history window starts, and whether the window hides anything:
 * the explorer says older logs are hidden only when there are some.
 */
export async function getTeamHistoryWindow(teamId: string) {
  const [team] = await findTeam({ teamId });
  if (!team) throw notFound(`No team ${teamId}.`);
  const { days, cutoff } = historyWindow(team);
  const older = (await findOlderLog({ teamId, before: cutoff })).length > 0;
  return { plan: team.plan, days, cutoff, older };
}
