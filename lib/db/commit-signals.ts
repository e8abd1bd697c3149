// How a committed transaction wakes this process's job loops (lib/jobs/job-loop.ts): a write of
// due work (a webhook delivery, a workflow run) marks its signal `wanted`, `transaction()` calls
// afterCommit() once the commit is done, and the loop (when this process runs one) set `kick`.
// No imports: lib/db/transaction.ts uses it.

export type Signal = { wanted: boolean; kick?: () => void };
type Signals = Record<string, Signal>;

/** One set per process, however many bundles hold a copy of this module. */
const signals: Signals = ((globalThis as { __patchbayJobSignals?: Signals }).__patchbayJobSignals ??= {});

/** The signal of one job kind ("webhooks", "workflow-runs"). */
export function jobSignal(name: string): Signal {
  return (signals[name] ??= { wanted: false });
}

/** Work written in the transaction that just committed starts now, not at the next poll. */
export function afterCommit() {
  for (const signal of Object.values(signals)) {
    if (!signal.wanted) continue;
    signal.wanted = false;
    signal.kick?.();
  }
}
