// How a committed transaction wakes this process's webhook dispatcher: a write of deliveries
// marks `wanted`, `transaction()` calls afterCommit() once the commit is done, and the
// dispatcher (when this process runs one) sets `kick`. No imports: lib/db/transaction.ts uses it.

type Signal = { wanted: boolean; kick?: () => void };

/** One per process, however many bundles hold a copy of this module. */
export const dispatchSignal: Signal = ((globalThis as { __patchbayWebhookSignal?: Signal }).__patchbayWebhookSignal ??= { wanted: false });

/** Deliveries written in the transaction that just committed are sent now, not at the next poll. */
export function afterCommit() {
  if (!dispatchSignal.wanted) return;
  dispatchSignal.wanted = false;
  dispatchSignal.kick?.();
}
