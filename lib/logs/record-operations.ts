import "server-only";
import { type Db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { newOrderedId } from "@/lib/security/ids";
import { chargeCredits, type Charge } from "@/lib/credits/charge-credits";
import { storedBodyText } from "@/lib/logs/stored-body";
import type { LOG_SOURCE_TYPES, LOG_STATUSES } from "@/lib/schemas/logs";
import type { Insertable } from "kysely";
import type { ReadDb } from "@/lib/db/read-types";
import { deferredInTx, preparedInTx, write } from "@/lib/db/write";

export type OperationRecord = {
  operationId: string;
  operationVersion?: number | null;
  status: (typeof LOG_STATUSES)[number];
  source: { type: (typeof LOG_SOURCE_TYPES)[number]; id: string | null; runId?: string | null; name: string | null };
  user: { id: string; email: string } | null;
  startedAt: number; // Unix seconds
  completedAt: number | null;
  creditsUsed?: number;
  cacheHit?: boolean;
  input?: unknown;
  output?: unknown;
  metadata?: Record<string, unknown>;
  /** The member whose private connection it ran on: only they read its input and output. */
  privateTo?: string | null;
  /** The connection it ran on (CONTRACT §12: a connection's operations and errors, its last use). */
  connectionId?: string | null;
};

// Every producer's input and output are stored through here, each at most LOG_BODY_MAX_BYTES
// (a larger one as a truncation marker, lib/logs/stored-body.ts): no call can fill the disk.
const toText = (v: unknown) => storedBodyText(v);

/**
 * The one write path for activity: the operation logs of one run and its (single) credit
 * charge commit together or not at all, so a crash never leaves a charged run without logs
 * or logs without their charge.
 */
export async function recordOperations(
  teamId: string,
  logs: OperationRecord[],
  charge?: Omit<Charge, "teamId">,
  /** What else commits with them (an approval's outcome that points at its log). */
  within?: (tx: Tx, written: { logIds: string[] }) => Promise<void>,
) {
  return transaction(async (tx) => {
    const ids: string[] = [];
    if (logs.length) {
      const rows = logs.map((log) => {
        const id = newOrderedId("log", log.startedAt * 1000);
        ids.push(id);
        return toLogRow(teamId, id, log);
      });
      await (tx as unknown as Db).operationLog.createMany({ data: rows });
      await markConnectionsUsed(tx, logs);
    }
    // A charge for a single call (an MCP tool call, an approved write) points at its log.
    const logId = charge && !charge.runId && ids.length === 1 ? ids[0] : null;
    const entry = charge ? await chargeCredits(tx, { logId, ...charge, teamId }) : null;
    if (within) await within(tx, { logIds: ids });
    return { logIds: ids, ledgerEntryId: entry?.id ?? null };
  });
}

export function toLogRow(teamId: string, id: string, log: OperationRecord): LogRow {
  return {
    id,
    teamId,
    operationId: log.operationId,
    operationVersion: log.operationVersion ?? null,
    status: log.status,
    sourceType: log.source.type,
    sourceId: log.source.id,
    sourceRunId: log.source.runId ?? null,
    sourceName: log.source.name,
    userId: log.user?.id ?? null,
    userEmail: log.user?.email ?? null,
    startedAt: log.startedAt,
    completedAt: log.completedAt,
    creditsUsed: log.creditsUsed ?? 0,
    cacheHit: log.cacheHit ?? false,
    input: toText(log.input),
    output: toText(log.output),
    metadata: JSON.stringify(log.metadata ?? {}),
    privateToUserId: log.privateTo ?? null,
    connectionId: log.connectionId ?? null,
  };
}

type LogRow = Insertable<ReadDb["OperationLog"]> & { cacheHit: boolean };

// Both held and sent with the transaction's next statement (lib/db/write.ts): a workflow node's
// log rides in the statement that saves its run's state.
const insertLog = deferredInTx((row: LogRow) => write.insertInto("OperationLog").values(row));

/** Writes one operation log in `tx` (a workflow node's start, or its only write). */
export const writeLog = (tx: Tx, row: LogRow) => insertLog(tx, row);

type LogEnd = Pick<LogRow, "status" | "completedAt" | "output" | "metadata"> &
  Partial<Pick<LogRow, "creditsUsed" | "cacheHit" | "input">>;

const updateLog = deferredInTx((a: LogEnd & { id: string }) => {
  const { id, ...set } = a;
  return write.updateTable("OperationLog").set(set).where("id", "=", id);
});

/** Completes a log written at its start with how it ended. */
export const completeLog = (tx: Tx, id: string, end: LogEnd) => updateLog(tx, { id, ...end });

const moveLastUsed = preparedInTx((a: { id: string; at: number; before: number }) =>
  write
    .updateTable("Connection")
    .set({ lastUsedAt: a.at })
    .where("id", "=", a.id)
    .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<", a.before)]))
    .returning("id"),
);

/** Once a minute at most per connection, so a busy connection's row is not a hot spot. */
const LAST_USED_STEP_S = 60;

/**
 * What this process knows a connection's `lastUsedAt` to be at least: what it last wrote there
 * (the column only grows, in steps of LAST_USED_STEP_S) or last read there (`sawLastUsed`). A use
 * within a step of that needs no statement. At the top of the hour that was one statement per
 * workflow node. A write in a transaction that rolled back makes a later one wait for at most a
 * step more.
 */
const lastUsedKnown = new Map<string, number>();

const knowLastUsed = (id: string, at: number) => {
  if (at <= (lastUsedKnown.get(id) ?? -Infinity)) return;
  if (lastUsedKnown.size > 10_000) lastUsedKnown.clear();
  lastUsedKnown.set(id, at);
};

/**
 * A connection's `lastUsedAt` as a read of its row found it. Another process (the web process
 * beside the workflow worker, another instance) may have moved it: until then, every use in this
 * one sent an UPDATE that matched nothing, since the row was already within a step.
 */
export const sawLastUsed = (id: string, at: number | null) => {
  if (at !== null && Number.isFinite(at)) knowLastUsed(id, at);
};

/**
 * Moves `lastUsedAt` of the connections these logs ran on (a connection's "last used", and what
 * makes it stale after STALE_CONNECTION_DAYS). Written only when it moves by a minute or more.
 */
export async function markConnectionsUsed(tx: Tx, logs: Pick<OperationRecord, "connectionId" | "startedAt">[]) {
  const latest = new Map<string, number>();
  for (const log of logs)
    if (log.connectionId) latest.set(log.connectionId, Math.max(latest.get(log.connectionId) ?? 0, log.startedAt));
  for (const [id, at] of latest) {
    if ((lastUsedKnown.get(id) ?? -Infinity) >= at - LAST_USED_STEP_S) continue;
    // A raw statement: a use is not a change of the connection, so its updated_at stays.
    const moved = await moveLastUsed(tx, { id, at, before: at - LAST_USED_STEP_S });
    if (moved.length) knowLastUsed(id, at);
  }
}
