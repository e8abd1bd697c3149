import "server-only";
import { prepared } from "@/lib/db/read";
import { logIdSeconds } from "@/lib/logs/log-id-time";
import { notFound } from "@/lib/errors/api-error";
import { JsonText } from "@/lib/http/json";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { logJsonText, selectLogs } from "@/lib/logs/log-to-json";
import type { AgedOutDetailSchema } from "@/lib/schemas/logs";
import type { z } from "zod";

const findLog = prepared((a: { id: string; teamId: string; from?: number; to?: number }) => {
  const q = selectLogs().where("l.id", "=", a.id).where("l.teamId", "=", a.teamId);
  // The time the id carries (lib/logs/log-id-time.ts) names the partition to probe on PostgreSQL.
  return a.from === undefined || a.to === undefined
    ? q
    : q.where("l.startedAt", ">=", a.from).where("l.startedAt", "<=", a.to);
});

/**
 * How far a log's started_at may be from the time its id carries: a workflow step's id is made as
 * the step is planned, its start follows within moments (or another instance's clock's skew).
 */
const NEAR = 86_400;

/** One index probe in one partition for an id that carries its time; every partition's for an older id. */
async function findLogById(id: string, teamId: string) {
  const near = logIdSeconds(id);
  if (near === null) return findLog({ id, teamId });
  const found = await findLog({ id, teamId, from: near - NEAR, to: near + NEAR });
  return found.length ? found : findLog({ id, teamId });
}

export async function getLogOrThrow(team: TeamWindow, viewerId: string, logId: string) {
  const [row] = await findLogById(logId, team.id);
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
