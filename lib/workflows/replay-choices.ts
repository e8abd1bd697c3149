import { findOperation } from "@/lib/operations/registry";
import type { RunState } from "@/lib/workflows/run-records";

// Where a replay of a run may start (CONTRACT §13): after the last node whose write succeeded
// (in the run or any run it continued), up to the first node that failed or stopped. Shared by
// the replay itself and the run view's *Retry from this step*.

export type ReplayChoices = {
  /** The node a replay starts at by default: the first that failed or stopped; null if none did. */
  default_from: string | null;
  /** Every node a replay may start at, in order. */
  from: string[];
  /** The last node whose write succeeded (never sent again), or null. */
  last_write: string | null;
};

export function replayChoices(state: RunState): ReplayChoices {
  const nodes = state.nodes ?? [];
  const bad = new Set(state.steps.filter((s) => s.status === "error" || s.status === "stop").map((s) => s.node_id));
  const failedAt = nodes.findIndex((n) => bad.has(n.id));
  const written = writtenNodes(state);
  const lastWrite = Math.max(-1, ...nodes.map((n, i) => (written.has(n.id) ? i : -1)));
  const end = failedAt >= 0 ? failedAt : -1;
  const from = nodes.slice(lastWrite + 1, end + 1).map((n) => n.id);
  return {
    default_from: failedAt > lastWrite ? nodes[failedAt].id : null,
    from,
    last_write: lastWrite >= 0 ? nodes[lastWrite].id : null,
  };
}

/** The nodes whose write succeeded in this run or in one it continued (a replay's `written`). */
export function writtenNodes(state: RunState): Set<string> {
  const nodes = state.nodes ?? [];
  const written = new Set(state.written ?? []);
  for (const s of state.steps)
    if (
      s.status === "success" &&
      findOperation(nodes.find((n) => n.id === s.node_id)?.operation_id ?? "")?.kind === "write"
    )
      written.add(s.node_id);
  return written;
}
