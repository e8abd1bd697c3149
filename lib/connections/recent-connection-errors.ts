import "server-only";
import { prepared } from "@/lib/db/read";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { logJsonText, selectLogs } from "@/lib/logs/log-to-json";
import { visibleConnectionOrThrow } from "@/lib/connections/visible-connection-or-throw";
import type { ConnectionErrorsJson } from "@/lib/schemas/connection-page";
import type { LogJson } from "@/lib/schemas/logs";

const RECENT = 10;

const findErrors = prepared((a: { teamId: string; connectionId: string; from: number; take: number }) =>
  selectLogs()
    .where("l.teamId", "=", a.teamId)
    .where("l.connectionId", "=", a.connectionId)
    .where("l.status", "=", "error")
    .where("l.startedAt", ">=", a.from)
    .orderBy("l.startedAt", "desc")
    .orderBy("l.id", "desc")
    .limit(a.take),
);

/**
 * The latest failed operations that ran on a connection, as the logs explorer shows them (and
 * within its history window, so each links to a log the explorer can open).
 */
export async function recentConnectionErrors(
  team: TeamWindow,
  userId: string,
  connectionId: string,
): Promise<ConnectionErrorsJson> {
  await visibleConnectionOrThrow(team.id, userId, connectionId);
  const rows = await findErrors({
    teamId: team.id,
    connectionId,
    from: historyWindow(team).cutoff,
    take: RECENT,
  });
  return { data: rows.map((r) => JSON.parse(logJsonText(r, userId)) as LogJson) };
}
