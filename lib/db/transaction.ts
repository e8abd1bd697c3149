import "server-only";
import { db, type Db } from "@/lib/db/client";
import { afterCommit } from "@/lib/db/commit-signals";
import { insideTransaction } from "@/lib/db/one-statement-at-a-time";
import { bindTransaction, commitWithDeferred, openingTransaction, type TxSlot } from "@/lib/db/tx-connection";

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

// Enough to outlast a busy stretch: a PostgreSQL transaction may be aborted by a concurrent one
// again and again, and SQLite's BEGIN gives up once another process has held the database for
// the busy timeout.
const MAX_ATTEMPTS = 25;

/**
 * An interactive transaction that is retried whole when the database says "busy": SQLite could
 * not take the write lock within the busy timeout (SQLITE_BUSY, seen through Prisma as P1008
 * "Operation has timed out"; its transactions begin IMMEDIATE, lib/db/one-statement-at-a-time.ts),
 * or PostgreSQL aborted it on a serialization conflict or deadlock. A failed transaction rolled
 * back completely, so running the callback again is safe.
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      // The slot receives the transaction's connection for its direct writes (lib/db/tx-connection.ts).
      const slot: TxSlot = {};
      const result = await openingTransaction.run(slot, () =>
        db.$transaction(
          (tx) => {
            bindTransaction(tx, slot);
            return insideTransaction.run(true, async () => {
              const done = await fn(tx);
              // Writes held for the next statement (lib/db/tx-connection.ts) go with the commit.
              await commitWithDeferred(slot);
              return done;
            });
          },
          { maxWait: 10_000, timeout: 30_000 },
        ),
      );
      // Work this transaction wrote (webhook deliveries, workflow runs) is due now: wake its loop.
      afterCommit();
      return result;
    } catch (e) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(e)) throw e;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(500, 10 * 2 ** attempt)));
    }
  }
}

function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { code?: string } };
  if (e?.code === "P1008" || e?.code === "P2034") return true; // timed out (SQLite busy) / write conflict or deadlock
  return /SQLITE_BUSY|database is locked|could not serialize|deadlock detected/i.test(
    `${e?.message ?? ""} ${e?.meta?.code ?? ""}`,
  );
}
