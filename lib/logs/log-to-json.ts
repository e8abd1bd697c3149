import type { LogJson } from "@/lib/schemas/logs";
import type { OperationLog } from "@/lib/db/generated/sqlite/client";

const parse = (text: string | null) => (text === null ? null : JSON.parse(text));

/** `currentName`: the parent's name now, when it still exists (spec §2.5 LogSource.name). */
export function logToJson(row: OperationLog, currentName?: string | null): LogJson {
  return {
    id: row.id,
    operation_id: row.operationId,
    operation_version: row.operationVersion,
    status: row.status as LogJson["status"],
    source: {
      type: row.sourceType as LogJson["source"]["type"],
      id: row.sourceId,
      run_id: row.sourceRunId,
      name: currentName ?? row.sourceName,
    },
    user: { id: row.userId, email: row.userEmail },
    started_at: Number(row.startedAt),
    completed_at: row.completedAt === null ? null : Number(row.completedAt),
    credits_used: row.creditsUsed,
    cache_hit: row.cacheHit,
    input: parse(row.input),
    output: parse(row.output),
    metadata: parse(row.metadata) ?? {},
  };
}
