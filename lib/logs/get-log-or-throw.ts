import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { currentSourceNames } from "@/lib/logs/current-source-names";
import { logToJson } from "@/lib/logs/log-to-json";
import type { AgedOutDetailSchema } from "@/lib/schemas/logs";
import type { z } from "zod";

export async function getLogOrThrow(team: TeamWindow, logId: string) {
  const teamId = team.id;
  const row = await db.operationLog.findFirst({ where: { id: logId, teamId } });
  if (!row) throw notFound(`No log ${logId} in this team.`);
  const { days, cutoff } = historyWindow(team);
  if (Number(row.startedAt) < cutoff) {
    const detail: z.infer<typeof AgedOutDetailSchema> = { message: `This log is older than the plan's ${days}-day history window.`, history_days: days };
    throw notFound(detail);
  }
  const nameOf = await currentSourceNames(teamId, [row]);
  return logToJson(row, nameOf(row));
}
