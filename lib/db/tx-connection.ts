import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// The hot writes (lib/db/write.ts) run on the driver connection of the transaction they belong to,
// without Prisma, whose per-statement work costs several times the indexed write itself. Prisma's
// transaction object does not expose that connection, so the connection is handed over here:
// `transaction()` (lib/db/transaction.ts) opens each transaction inside a slot of its own, the
// adapter's startTransaction (lib/db/one-statement-at-a-time.ts, lib/db/pg-transaction-ends.ts)
// puts its connection's runner in the slot after BEGIN and takes it out at the end, and the
// callback's `tx` is bound to the slot.

/** Runs one statement on the transaction's connection and returns its rows (values decoded as the reads' are). */
export type TxRunner = (sql: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>;

/** A write nobody reads back (an INSERT of new rows, an UPDATE of a log's end), held for the next statement. */
export type Deferred = { sql: string; values: readonly unknown[] };

export type TxSlot = {
  run?: TxRunner;
  deferred?: Deferred[];
  /** PostgreSQL: sends a last statement and COMMIT written at once (one round trip), throwing if either fails. */
  commitWith?: (last: Deferred) => Promise<void>;
  /** Set once `commitWith` committed: the transaction's own COMMIT is then not sent again. */
  committed?: boolean;
  /** `captureDeferred`'s slot: writes are collected on either engine. */
  capturing?: boolean;
};

// One per process, like the client (lib/db/client.ts): Next bundles this module into several
// chunks, and the adapter of the one client must see the slots every chunk's transaction() opens.
const shared = ((globalThis as unknown as { __patchbayTxSlots?: Shared }).__patchbayTxSlots ??= {
  opening: new AsyncLocalStorage<TxSlot>(),
  slots: new WeakMap<object, TxSlot>(),
});
type Shared = { opening: AsyncLocalStorage<TxSlot>; slots: WeakMap<object, TxSlot> };

/** The slot of the transaction being opened: read by the adapters' startTransaction. */
export const openingTransaction = shared.opening;

const slots = shared.slots;

/**
 * Puts an opened transaction's runner in its slot. A slot belongs to one transaction() call: one
 * already filled means the context carried another transaction's slot, and its statements would
 * have gone to the wrong connection, so that is refused (the transaction fails, nothing is written).
 */
export function fillSlot(slot: TxSlot | undefined, run: TxRunner | undefined) {
  if (!slot || !run) return;
  if (slot.run) throw new Error("Two transactions were opened with one slot (lib/db/tx-connection.ts).");
  slot.run = run;
}

export function bindTransaction(tx: object, slot: TxSlot) {
  slots.set(tx, slot);
}

/** The table a deferred or carrying write changes, and whether it is an UPDATE (null: neither). */
function writeTarget(sql: string): { table: string; update: boolean } | null {
  const m = /^\s*(insert\s+into|update)\s+"([^"]+)"/i.exec(sql);
  return m ? { table: m[2], update: m[1].toLowerCase() === "update" } : null;
}

/**
 * Whether `sql` may carry the deferred writes, all of them running in its one snapshot: an
 * INSERT (new rows, which no write before it could have changed; an upsert only of a table none
 * of them writes); or, when the caller says it `carriesDeferred` (it reads none of the rows they
 * write), a SELECT, or an UPDATE of a table none of them writes.
 */
function canCarry(sql: string, deferred: Deferred[], carriesDeferred: boolean) {
  const target = writeTarget(sql);
  const otherTables = () => deferred.every((d) => writeTarget(d.sql)?.table !== target!.table);
  if (target && !target.update) return !/\bon\s+conflict\b/i.test(sql) || otherTables();
  if (!carriesDeferred) return false;
  return target ? otherTables() : /^\s*select\b/i.test(sql);
}

/**
 * The runner of `tx`'s connection, while its transaction is open. Writes deferred on it
 * (`deferInTx`) go first: inside the statement itself when it can carry them (`canCarry`), else
 * alone.
 */
export function runnerOf(tx: object, { carriesDeferred = false } = {}): TxRunner {
  const slot = openSlot(tx);
  const run = slot.run;
  if (!slot.deferred?.length) return run;
  return async (sql, parameters) => {
    const deferred = slot.deferred!.splice(0);
    if (canCarry(sql, deferred, carriesDeferred)) {
      const one = combined([...deferred, { sql, values: parameters }]);
      return run(one.sql, one.values);
    }
    const one = combined(deferred);
    await run(one.sql, one.values);
    return run(sql, parameters);
  };
}

/** The slot of `tx` while its transaction is open. */
function openSlot(tx: object): TxSlot & { run: TxRunner } {
  const slot = slots.get(tx);
  if (!slot?.run)
    throw new Error("A write was made on a transaction that is not open (or not opened by transaction()).");
  return slot as TxSlot & { run: TxRunner };
}

/**
 * PostgreSQL: holds a write nobody reads back (its `$n` parameters numbered from 1) until the
 * transaction's next statement, or its end (`flushDeferred`), and sends them as one: each
 * statement is a round trip, and a change's audit event, webhook event and deliveries need no
 * answer. Nothing that reads runs before them: a statement on the connection, through this
 * module or Prisma's, sends them first.
 */
export async function deferInTx(tx: object, statement: Deferred) {
  const slot = openSlot(tx);
  // An UPDATE sent in one statement with another write of its table could miss a row that one
  // inserts, or change a row twice: those go first, alone.
  const target = writeTarget(statement.sql);
  if (target?.update && slot.deferred?.some((d) => writeTarget(d.sql)?.table === target.table))
    await flushDeferred(slot);
  (slot.deferred ??= []).push(statement);
}

/** Sends the slot's deferred writes now, as one statement (before another statement, or the commit). */
export async function flushDeferred(slot: TxSlot | undefined) {
  if (!slot?.run || !slot.deferred?.length) return;
  const one = combined(slot.deferred.splice(0));
  await slot.run(one.sql, one.values);
}

/**
 * The end of a transaction's callback: what is still deferred goes now, as one statement, and
 * where the engine can (`commitWith`), with the COMMIT written behind it, so a transaction whose
 * last writes were deferred ends in one round trip instead of two. A failure of either is thrown
 * here, inside the callback, as any statement's would be (the server has rolled back).
 */
export async function commitWithDeferred(slot: TxSlot | undefined) {
  if (!slot?.run || !slot.deferred?.length) return;
  const one = combined(slot.deferred.splice(0));
  if (!slot.commitWith) return void (await slot.run(one.sql, one.values));
  await slot.commitWith(one);
  slot.committed = true;
}

/**
 * Statements as one: all but the last as data-modifying WITH queries of the last, their
 * parameters renumbered after the ones before. Every part runs, with one snapshot: none sees
 * another's rows, which new rows' INSERTs do not need (their foreign keys are checked at the
 * statement's end, when all are in).
 */
export function combined(statements: Deferred[]): Deferred {
  if (statements.length === 1) return statements[0];
  const { parts, values } = renumbered(statements);
  const last = parts.pop()!;
  return { sql: `with ${parts.map((p, i) => `"deferred_${i}" as (${p})`).join(", ")} ${last}`, values };
}

/** The statements' texts with their parameters renumbered after the ones before, and all their values. */
function renumbered(statements: Deferred[]) {
  const values: unknown[] = [];
  const parts = statements.map((s) => {
    const shift = values.length;
    values.push(...s.values);
    return shift ? s.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`) : s.sql;
  });
  return { parts, values };
}

/** Whether `tx` is `captureDeferred`'s: its writes are collected, not sent, on SQLite too. */
export const capturing = (tx: object) => slots.get(tx)?.capturing === true;

/** Thrown by a capturing slot's runner: the callback needed a statement sent, so it is not one statement. */
class NeedsConnection extends Error {}

/**
 * The writes `fn` defers (`deferInTx`; on SQLite too, on this `tx`) on the `tx` it is given,
 * collected rather than sent; null when `fn` needed a statement run (one that is not deferred, or
 * a flush), and then nothing was sent. A caller whose whole transaction would be these writes and
 * one last statement sends them at once: on PostgreSQL as one statement with no BEGIN and no
 * COMMIT (`allOrNothing`), on SQLite as one batch (lib/db/client.ts' runPipelined).
 */
export async function captureDeferred(fn: (tx: object) => Promise<void>): Promise<Deferred[] | null> {
  // Not a Prisma transaction: a callback that uses it as one (tx.operationLog…) needs a connection too.
  const tx = new Proxy(
    {},
    {
      get() {
        throw new NeedsConnection();
      },
    },
  );
  const run: TxRunner = () => Promise.reject(new NeedsConnection());
  const slot: TxSlot = { run, deferred: [], capturing: true };
  slots.set(tx, slot);
  try {
    await fn(tx);
    return slot.deferred ?? [];
  } catch (e) {
    if (e instanceof NeedsConnection) return null;
    throw e;
  } finally {
    slots.delete(tx);
  }
}

/** SQLSTATE of the division by zero `allOrNothing` makes when its last statement matched no row. */
export const NO_ROW_MATCHED = "22012";

/**
 * `deferred`, then `last` (an UPDATE … RETURNING), as one statement that writes everything or
 * nothing: a statement outside a transaction is atomic by itself, and when `last` matches no row
 * its count divides one, an error (`NO_ROW_MATCHED`) that undoes the deferred writes with it.
 * They all run in one snapshot, as `combined` ones do: none may write a row another one writes.
 */
export function allOrNothing(
  deferred: Deferred[],
  last: Deferred,
  /**
   * More WITH queries after them (their parameters numbered from `first`), of which those named
   * in `mustMatch` must return a row too, else the statement fails as above.
   */
  more?: (first: number) => { ctes: string; values: unknown[]; mustMatch: string[] },
): Deferred {
  const { parts, values } = renumbered([...deferred, last]);
  const ctes = parts.map((p, i) => `"${i === parts.length - 1 ? "matched" : `deferred_${i}`}" as (${p})`);
  const checked = ["matched"];
  if (more) {
    const extra = more(values.length + 1);
    ctes.push(extra.ctes);
    values.push(...extra.values);
    checked.push(...extra.mustMatch);
  }
  const counts = checked.map((name) => `1 / (select count(*) from "${name}") as "${name}"`);
  return { sql: `with ${ctes.join(", ")} select ${counts.join(", ")}`, values };
}

/**
 * Whether `e` is a broken unique key, however it was sent: through Prisma (P2002) or a statement
 * sent without it (PostgreSQL's SQLSTATE 23505).
 */
export const isUniqueViolation = (e: unknown) => ["P2002", "23505"].includes((e as { code?: string })?.code ?? "");

/** A unique key the statement broke, as Prisma reports it (P2002), so callers that retry on it keep working. */
export class UniqueViolation extends Error {
  readonly code = "P2002";
  constructor(cause: Error) {
    super(`Unique constraint failed: ${cause.message}`, { cause });
  }
}
