import { parseRunState } from "@/lib/workflows/run-records";
import { replayChoices } from "@/lib/workflows/replay-choices";

// A run as the dashboard shows it: its status, trigger, who started it, when, how long, its
// credits, and per node the status, duration, retries and log id (the log holds the input and
// output; the Logs page filtered by source_run_id shows the same rows).

type RunRow = {
  id: string;
  workflowId: string;
  workflowName: string;
  trigger: string;
  slotAt: bigint | null;
  userEmail: string | null;
  status: string;
  dueAt: bigint;
  startedAt: bigint | null;
  completedAt: bigint | null;
  credits: number | null;
  error: string | null;
  failedNodeId: string | null;
  claims: number;
  state: string;
  version: number | null;
  replayOf: string | null;
};

const ms = (v: bigint | null) => (v === null ? null : Number(v));

function runJson(row: RunRow) {
  const state = parseRunState(row.state);
  return {
    /** Where Retry from this step may start, when the run ended error or stopped (the server checks again). */
    replay: ["error", "stopped"].includes(row.status) ? replayChoices(state) : null,
    id: row.id,
    workflow_id: row.workflowId,
    workflow_name: row.workflowName,
    trigger: row.trigger,
    slot_at: ms(row.slotAt),
    started_by: row.userEmail,
    status: row.status,
    due_at: ms(row.dueAt)!,
    started_at: ms(row.startedAt),
    completed_at: ms(row.completedAt),
    duration_ms: row.startedAt !== null && row.completedAt !== null ? Number(row.completedAt - row.startedAt) : null,
    credits: row.credits,
    error: row.error,
    failed_node_id: row.failedNodeId,
    taken_over: row.claims > 1,
    version: row.version,
    replay_of: row.replayOf,
    /** What started it: a webhook's body, an API call's input, an event (CONTRACT §13). */
    trigger_data: state.trigger ?? null,
    /** The nodes whose outputs a replay took from the run it replays (not run again, no log). */
    replayed_nodes: Object.keys(state.given ?? {}),
    nodes: state.steps.map((s) => {
      const node = state.nodes?.find((n) => n.id === s.node_id);
      return {
        node_id: s.node_id,
        label: node?.label ?? s.node_id,
        operation_id: node?.operation_id ?? null,
        log_id: s.log_id,
        status: s.status,
        started_at: s.started_ms,
        completed_at: s.completed_ms,
        duration_ms: s.completed_ms === null ? null : s.completed_ms - s.started_ms,
        retry_attempts: s.retry_attempts,
        credits: s.status === "success" ? s.credits : 0,
        cache_hit: s.cache_hit ?? false,
        error: s.error ?? null,
        iteration: s.iteration ?? null,
        iterations: s.iterations ?? null,
        reason: s.reason ?? null,
        approval_id: s.approval_id ?? null,
      };
    }),
  };
}

/** What a person who may not see a run's data reads in its place, naming the private connections' types. */
export const hiddenRunSentence = (types: string[]) =>
  `Hidden: this run used a teammate's private connection (${[...new Set(types)].join(", ")}), whose data is theirs alone.`;

/**
 * Whose private connections a run used, so its data is hidden from `viewerUserId`: from its
 * snapshot (kept when a connection is deleted), or null when it used none of another member's.
 */
function hiddenFrom(row: Pick<RunRow, "state">, viewerUserId: string): string | null {
  const owners = parseRunState(row.state).private_owners ?? {};
  const types = Object.values(owners)
    .filter((o) => o.owner !== viewerUserId)
    .map((o) => o.type);
  return types.length ? hiddenRunSentence(types) : null;
}

/** A run as `viewerUserId` may see it: a teammate's private run keeps its statuses, not its errors' words. */
export function runJsonFor(row: RunRow, viewerUserId: string) {
  const run = runJson(row);
  const redacted = hiddenFrom(row, viewerUserId);
  if (!redacted) return { ...run, redacted: null };
  return {
    ...run,
    redacted,
    error: run.error === null ? null : "Hidden: it ran on a teammate's private connection.",
    nodes: run.nodes.map((n) => ({ ...n, error: n.error === null ? null : "Hidden." })),
  };
}
