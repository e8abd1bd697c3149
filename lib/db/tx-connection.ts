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

export type TxSlot = { run?: TxRunner };

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

/** The runner of `tx`'s connection, while its transaction is open. */
export function runnerOf(tx: object): TxRunner {
  const run = slots.get(tx)?.run;
  if (!run) throw new Error("A write was made on a transaction that is not open (or not opened by transaction()).");
  return run;
}

/** A unique key the statement broke, as Prisma reports it (P2002), so callers that retry on it keep working. */
export class UniqueViolation extends Error {
  readonly code = "P2002";
  constructor(cause: Error) {
    super(`Unique constraint failed: ${cause.message}`, { cause });
  }
}
