import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// The chain an event carries (CONTRACT §13 event trigger): the workflows whose runs led to the
// code that emits it, the current run's last. A workflow run executes inside its chain, so the
// events it causes (its own workflow.run_failed, an approval it files, a connection it finds
// broken) are written with it, and lib/workflows/event-triggers.ts starts no workflow already in it.

const storage = new AsyncLocalStorage<string[]>();

/** Runs `fn` as part of `chain` (the workflow ids of the runs that led here, the current one last). */
export const withChain = <T>(chain: string[], fn: () => Promise<T>) => storage.run(chain, fn);

/** The chain of the run this code executes for; [] outside any run. */
export const currentChain = (): string[] => storage.getStore() ?? [];
