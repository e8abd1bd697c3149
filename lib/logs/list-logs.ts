import "server-only";
import { decodeCursor, encodeCursor, toPage } from "@/lib/api/pagination";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { logToJson, selectLogs } from "@/lib/logs/log-to-json";
import type { ListLogsQuery } from "@/lib/schemas/logs";

/** Newest first by (started_at, id); every filter is an index prefix of the keyset. */
export async function listLogs(team: TeamWindow, query: ListLogsQuery) {
  const { limit, cursor, ...filters } = query;
  const { cutoff } = historyWindow(team);
  let q = selectLogs()
    .where("l.teamId", "=", team.id)
    .where("l.startedAt", ">=", Math.max(cutoff, filters.started_after ?? 0));
  if (filters.started_before !== undefined) q = q.where("l.startedAt", "<=", filters.started_before);
  if (filters.source_type !== undefined) q = q.where("l.sourceType", "=", filters.source_type);
  if (filters.status !== undefined) q = q.where("l.status", "=", filters.status);
  if (filters.operation_id !== undefined) q = q.where("l.operationId", "=", filters.operation_id);
  if (filters.source_id !== undefined) q = q.where("l.sourceId", "=", filters.source_id);
  if (filters.source_run_id !== undefined) q = q.where("l.sourceRunId", "=", filters.source_run_id);
  if (cursor) {
    const after = decodeCursor("logs", filters, cursor);
    const id = String(after.id);
    // `startedAt <= at` bounds the index range; the OR only decides ties on that second.
    q = q.where("l.startedAt", "<=", after.at).where((eb) => eb.or([eb("l.startedAt", "<", after.at), eb("l.id", "<", id)]));
  }
  const rows = await q.orderBy("l.startedAt", "desc").orderBy("l.id", "desc").limit(limit + 1).execute();
  return toPage(
    rows,
    limit,
    logToJson,
    (r) => ({ at: r.startedAt, id: r.id }),
    (p) => encodeCursor("logs", filters, p),
  );
}
