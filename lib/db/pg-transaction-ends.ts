import "server-only";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { PoolClient } from "pg";
import { pipelinedOn } from "@/lib/db/pg-named-statements";
import { wrapAdapterFactory } from "@/lib/db/wrap-adapter";
import {
  fillSlot,
  flushDeferred,
  openingTransaction,
  UniqueViolation,
  type TxRunner,
  type TxSlot,
} from "@/lib/db/tx-connection";

// Prisma sends a transaction's COMMIT or ROLLBACK as a statement and only then calls the
// adapter's commit() or rollback(), which gives the pool its connection back. When that statement
// fails (the database restarted, or killed the connection, mid-transaction) Prisma never makes
// the second call: the connection stayed checked out for good. After a few such ends the pool was
// empty and every request waited out its connection timeout ("timeout exceeded when trying to
// connect"; found by CI killing connections under load). Here a transaction's connection goes
// back whichever way its end went: a failed end is followed by a ROLLBACK (a connection still
// open must not carry the transaction to its next user) and then the release, which drops a
// connection that is closed.

const rollbackStatement: SqlQuery = { sql: "ROLLBACK", args: [], argTypes: [] };

/** A broken unique key as Prisma reports it (P2002). */
const asPrismaReports = (e: unknown) =>
  (e as { code?: string }).code === "23505" ? new UniqueViolation(e as Error) : e;

/**
 * Statements run directly on the open transaction's pooled connection (lib/db/tx-connection.ts),
 * with the pool's type parsers (the reads' decoding); a broken unique key is reported as Prisma does.
 */
const pgRunner =
  (client: PoolClient): TxRunner =>
  async (sql, parameters) => {
    try {
      return (await client.query<Record<string, unknown>>({ text: sql, values: parameters as unknown[] })).rows;
    } catch (e) {
      throw asPrismaReports(e);
    }
  };

/** The transaction's last statement and its COMMIT, written at once (lib/db/tx-connection.ts' commitWithDeferred). */
const pgCommitWith = (client: PoolClient) => async (last: { sql: string; values: readonly unknown[] }) => {
  try {
    // After a failed statement the server answers COMMIT with a rollback, not an error.
    await pipelinedOn(client, [last, { sql: "COMMIT", values: [] }]);
  } catch (e) {
    throw asPrismaReports(e);
  }
};

function releasedWhateverTheEnd(tx: Transaction, slot: TxSlot | undefined): Transaction {
  let released = false;
  const client = (tx as unknown as { client?: PoolClient }).client;
  if (client && typeof client.query === "function") {
    fillSlot(slot, pgRunner(client));
    if (slot) slot.commitWith = pgCommitWith(client);
  }
  const release = async (how: "commit" | "rollback") => {
    if (released) return;
    released = true;
    if (slot) {
      slot.run = undefined;
      slot.commitWith = undefined;
    }
    await (how === "commit" ? tx.commit() : tx.rollback());
  };
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    // Writes deferred on the connection (lib/db/tx-connection.ts) go before Prisma's statements.
    queryRaw: async (query) => {
      await flushDeferred(slot);
      return tx.queryRaw(query);
    },
    async executeRaw(query) {
      const end = /^\s*(COMMIT|ROLLBACK)\b/i.exec(query.sql);
      if (!end) await flushDeferred(slot);
      if (!end || tx.options.usePhantomQuery) return tx.executeRaw(query);
      // The callback's last statement carried the COMMIT (commitWithDeferred): it is not sent twice.
      if (slot?.committed && end[1].toUpperCase() === "COMMIT") return 0;
      try {
        // A commit sends what is still deferred first (transaction() has sent it already); a rollback drops it.
        if (end[1].toUpperCase() === "COMMIT") await flushDeferred(slot);
        else slot?.deferred?.splice(0);
        return await tx.executeRaw(query);
      } catch (e) {
        await tx.executeRaw(rollbackStatement).catch(() => 0);
        await release("rollback").catch(() => undefined);
        throw e;
      }
    },
    commit: () => release("commit"),
    rollback: () => release("rollback"),
  };
}

function adapterWithEnds(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel?: IsolationLevel) {
      const slot = openingTransaction.getStore();
      const tx = await adapter.startTransaction(isolationLevel);
      try {
        return releasedWhateverTheEnd(tx, slot);
      } catch (e) {
        await tx.executeRaw(rollbackStatement).catch(() => 0);
        await tx.rollback().catch(() => undefined);
        throw e;
      }
    },
  };
}

/** The PostgreSQL adapter whose transactions give their connection back however they end. */
export const transactionsReleaseTheirConnection = (factory: SqlMigrationAwareDriverAdapterFactory) =>
  wrapAdapterFactory(factory, adapterWithEnds);
