import "server-only";
import { prepared } from "@/lib/db/read";
import { notFound } from "@/lib/errors/api-error";
import { JsonText } from "@/lib/http/json";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { logJsonText, selectLogs } from "@/lib/logs/log-to-json";
import type { AgedOutDetailSchema } from "@/lib/schemas/logs";
import type { z } from "zod";

const findLog = prepared((a: { id: string; teamId: string }) =>
  selectLogs().where("l.id", "=", a.id).where("l.teamId", "=", a.teamId),
);

export async function getLogOrThrow(team: TeamWindow, viewerId: string, logId: string) {
  const [row] = await findLog({ id: logId, teamId: team.id });
  if (!row) throw notFound(`No log ${logId} in this team.`);
  const { days, cutoff } = historyWindow(team);
  if (row.startedAt < cutoff) {
    const detail: z.infer<typeof AgedOutDetailSchema> = {
      message: `This log is older than the plan's ${days}-day history window.`,
      history_days: days,
    };
    throw notFound(detail);
  }
  return new JsonText(logJsonText(row, viewerId));
}
