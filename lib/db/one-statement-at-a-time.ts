import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type Database from "better-sqlite3";
import { wrapAdapterFactory } from "@/lib/db/wrap-adapter";
import { fillSlot, NO_ROW_MATCHED, openingTransaction } from "@/lib/db/tx-connection";
import { runOnSqlite, sqliteRunner } from "@/lib/db/sqlite-rows";

// SQLite's Prisma adapter runs everything on one connection, and its lock covers only
// transactions: a query outside a transaction, made while one is open, ran inside it. Its write
// then stood or fell with a transaction it was no part of (a workflow run's claim rolled back with
// another run's failed step, and two instances ran the run at once), and it read what that
// transaction had not committed. Here every statement takes its turn: a query outside a
// transaction waits until the open one has ended, as it would on its own connection.
//
// Transactions begin IMMEDIATE: they take the database's write lock at BEGIN (waiting up to the
// busy timeout for another process's), so one that reads and then writes (Prisma's own upsert
// among them) never fails at its first write because another process committed after its read.

/** Set while a transaction's callback runs (lib/db/transaction.ts). */
export const insideTransaction = new AsyncLocalStorage<true>();

class QueryOutsideItsTransaction extends Error {
  constructor(sql: string) {
    super(
      `A query was made outside the open transaction from inside its callback (use its tx, not db): it would wait for that transaction to end. ${sql.slice(0, 120)}`,
    );
  }
}

/**
 * Who holds this process's connection and how many wait for it (lib/db/client.ts'
 * describeConnections); one per process, however many bundles hold a copy of this module.
 */
export const sqliteTurns = ((globalThis as { __patchbaySqliteTurns?: SqliteTurns }).__patchbaySqliteTurns ??= {
  holder: null,
  heldSince: null,
  waiting: 0,
});
type SqliteTurns = { holder: string | null; heldSince: number | null; waiting: number };

/** A first-come lock: `acquire` resolves with the release of the turn it waited for. */
function turnstile() {
  let last: Promise<void> = Promise.resolve();
  let held = false;
  return {
    get held() {
      return held;
    },
    acquire(what: string): Promise<() => void> {
      let release!: () => void;
      const done = new Promise<void>((r) => (release = r));
      sqliteTurns.waiting++;
      const turn = last.then(() => {
        held = true;
        sqliteTurns.waiting--;
        sqliteTurns.holder = what;
        sqliteTurns.heldSince = Date.now();
        let released = false;
        return () => {
          if (released) return;
          released = true;
          held = false;
          sqliteTurns.holder = sqliteTurns.heldSince = null;
          release();
        };
      });
      last = last.then(() => done);
      return turn;
    },
  };
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

const isBusy = (e: unknown) => {
  const err = e as { code?: string; cause?: { originalCode?: string } };
  return `${err?.cause?.originalCode ?? err?.code ?? ""}`.startsWith("SQLITE_BUSY");
};

/**
 * `run`, tried again while another process holds the database's write lock, until `busyMs` have
 * passed (then its SQLITE_BUSY stands: the database counts as unavailable). The connection's own
 * busy timeout is 0 (lib/db/client.ts): SQLite's busy handler sleeps inside the synchronous driver
 * call, and so froze this process's event loop, every request and run in it, for as long as
 * another process (a writer, the workflow worker, the CLI) held the lock. Here the wait is a timer.
 */
export async function whenFree<T>(busyMs: number, run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + busyMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 16)) {
    try {
      return await run();
    } catch (e) {
      if (!isBusy(e) || Date.now() + wait > deadline) throw e;
      await new Promise((r) => setTimeout(r, wait * (0.5 + Math.random())));
    }
  }
}

/** A statement of a batch; `mustMatch`: it must return a row, else the whole batch is undone. */
export type BatchStatement = { sql: string; values: readonly unknown[]; mustMatch?: boolean };

/**
 * This process's SQLite batches (lib/db/client.ts' runPipelined): set once Prisma has opened the
 * connection; one per process, however many bundles hold a copy of this module.
 */
export const sqliteBatches = ((globalThis as { __patchbaySqliteBatches?: SqliteBatches }).__patchbaySqliteBatches ??=
  {});
type SqliteBatches = { run?: (statements: BatchStatement[]) => Promise<unknown[][]> };

/**
 * `statements` (a transaction: BEGIN first, COMMIT last) run one after another without yielding,
 * BEGIN as BEGIN IMMEDIATE: the database's write lock is held for SQLite's own work only, not for
 * this process's event loop to come back to an interactive transaction, while other processes'
 * writers wait for it. The first failure, or a `mustMatch` statement that returned no row
 * (`NO_ROW_MATCHED`), rolls everything back and is thrown.
 */
function runAtOnce(client: Database.Database, statements: BatchStatement[]): unknown[][] {
  if (!/^begin$/i.test(statements[0]?.sql ?? "") || !/^commit$/i.test(statements[statements.length - 1].sql))
    throw new Error("A SQLite batch is one transaction: BEGIN first, COMMIT last.");
  const rows: unknown[][] = [];
  try {
    for (const st of statements) {
      const out = runOnSqlite(client, /^begin$/i.test(st.sql) ? "BEGIN IMMEDIATE" : st.sql, st.values);
      if (st.mustMatch && out.length === 0)
        throw Object.assign(new Error("A statement that must match a row matched none."), { code: NO_ROW_MATCHED });
      rows.push(out);
    }
    return rows;
  } catch (e) {
    if (client.inTransaction) runOnSqlite(client, "ROLLBACK", []);
    throw e;
  }
}

function oneAtATime(adapter: SqlDriverAdapter, busyMs: number): SqlDriverAdapter {
  const lock = turnstile();
  const client = (adapter as unknown as { client?: Database.Database }).client;
  // The direct writes' runner (lib/db/tx-connection.ts), handed to each transaction while it is open.
  const runner = client && typeof client.prepare === "function" ? sqliteRunner(client) : undefined;
  if (client && runner)
    sqliteBatches.run = async (statements) => {
      if (lock.held && insideTransaction.getStore()) throw new QueryOutsideItsTransaction(statements[1]?.sql ?? "");
      const release = await lock.acquire(statements[1]?.sql ?? "a batch");
      try {
        // Only BEGIN IMMEDIATE waits for another process; a failure after it has rolled back.
        return await whenFree(busyMs, async () => runAtOnce(client, statements));
      } finally {
        release();
      }
    };
  const alone = async <T>(query: SqlQuery, run: () => Promise<T>): Promise<T> => {
    if (lock.held && insideTransaction.getStore()) throw new QueryOutsideItsTransaction(query.sql);
    const release = await lock.acquire(query.sql);
    try {
      return await whenFree(busyMs, run);
    } finally {
      release();
    }
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => alone(query, () => adapter.queryRaw(query)),
    executeRaw: (query) => alone(query, () => adapter.executeRaw(query)),
    executeScript: (script) => alone(statement(script), () => adapter.executeScript(script)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
      // SQLite's transactions are serializable already; anything else is refused as the adapter does.
      if (isolationLevel && isolationLevel !== "SERIALIZABLE") return adapter.startTransaction(isolationLevel);
      // Prisma's own transaction (an upsert through db) inside a callback would wait for itself too.
      if (lock.held && insideTransaction.getStore()) throw new QueryOutsideItsTransaction("BEGIN");
      // The turn is held from BEGIN until COMMIT or ROLLBACK, whichever way they end.
      const turn = await lock.acquire("BEGIN IMMEDIATE (a transaction)");
      try {
        await whenFree(busyMs, () => adapter.executeRaw(statement("BEGIN IMMEDIATE")));
      } catch (e) {
        turn();
        throw e;
      }
      const slot = openingTransaction.getStore();
      const release = () => {
        if (slot) slot.run = undefined;
        turn();
      };
      try {
        fillSlot(slot, runner);
      } catch (e) {
        await adapter.executeRaw(statement("ROLLBACK")).catch(() => 0);
        turn();
        throw e;
      }
      const end = async (query: SqlQuery) => {
        try {
          return await adapter.executeRaw(query);
        } catch (e) {
          // A COMMIT that failed leaves the transaction open: end it before the next turn.
          if (/^COMMIT/i.test(query.sql)) await adapter.executeRaw(statement("ROLLBACK")).catch(() => 0);
          throw e;
        } finally {
          release();
        }
      };
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        // Prisma sends COMMIT and ROLLBACK as statements, then calls commit() or rollback().
        options: { usePhantomQuery: false },
        queryRaw: (query) => adapter.queryRaw(query),
        executeRaw: (query) => (/^(COMMIT|ROLLBACK)\b/i.test(query.sql) ? end(query) : adapter.executeRaw(query)),
        commit: async () => release(),
        rollback: async () => release(),
      };
    },
  };
}

/**
 * The SQLite adapter with one statement or transaction at a time on its connection, waiting up to
 * `busyMs` for another process's write lock without blocking this one (the adapter's own busy
 * timeout must be 0).
 */
export const oneStatementAtATime = (factory: SqlMigrationAwareDriverAdapterFactory, busyMs: number) =>
  wrapAdapterFactory(factory, (adapter) => oneAtATime(adapter, busyMs));
