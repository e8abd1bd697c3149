import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// The chain of an event-started run (CONTRACT §13 event trigger): the workflows whose runs led to
// it, itself last. A run executes inside its chain, so an event it causes (its own
// workflow.run_failed, an approval it files, a connection it finds broken) carries the chain, and
// that event starts no workflow already in it, nor any once it holds MAX_CHAIN runs.

export const MAX_CHAIN = 3;

const storage = new AsyncLocalStorage<string[]>();

/** Runs `fn` as part of `chain` (the workflow ids of the runs that led here, the current one last). */
export const withChain = <T>(chain: string[], fn: () => Promise<T>) => storage.run(chain, fn);

/** The chain of the run this code executes for; [] outside any run. */
export const currentChain = (): string[] => storage.getStore() ?? [];

/** Whether an event emitted within `chain` may start a run of workflow `workflowId`. */
export const chainAllows = (chain: string[], workflowId: string) =>
  chain.length < MAX_CHAIN && !chain.includes(workflowId);
