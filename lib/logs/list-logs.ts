import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { decodeCursor, encodeCursor, toPage } from "@/lib/api/pagination";
import { historyWindow, type TeamWindow } from "@/lib/logs/history-window";
import { currentSourceNames } from "@/lib/logs/current-source-names";
import { logToJson } from "@/lib/logs/log-to-json";
import type { ListLogsQuery } from "@/lib/schemas/logs";

/** Newest first by (started_at, id); every filter is an index prefix of the keyset. */
export async function listLogs(team: TeamWindow, query: ListLogsQuery) {
  const teamId = team.id;
  const { limit, cursor, ...filters } = query;
  const { cutoff } = historyWindow(team);
  const where: Prisma.OperationLogWhereInput = {
    teamId,
    sourceType: filters.source_type,
    status: filters.status,
    operationId: filters.operation_id,
    sourceId: filters.source_id,
    sourceRunId: filters.source_run_id,
    startedAt: {
      gte: BigInt(Math.max(cutoff, filters.started_after ?? 0)),
      ...(filters.started_before !== undefined && { lte: BigInt(filters.started_before) }),
    },
  };
  if (cursor) {
    const after = decodeCursor("logs", filters, cursor);
    const at = BigInt(after.at);
    // `startedAt <= at` bounds the index range; the OR only decides ties on that second.
    where.AND = [{ startedAt: { lte: at } }, { OR: [{ startedAt: { lt: at } }, { id: { lt: String(after.id) } }] }];
  }
  const rows = await db.operationLog.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const nameOf = await currentSourceNames(teamId, rows.slice(0, limit));
  return toPage(
    rows,
    limit,
    (r) => logToJson(r, nameOf(r)),
    (r) => ({ at: Number(r.startedAt), id: r.id }),
    (p) => encodeCursor("logs", filters, p),
  );
}
