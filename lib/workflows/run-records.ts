import "server-only";
import { recordOperations, type OperationRecord } from "@/lib/logs/record-operations";
import type { Charge } from "@/lib/credits/charge-credits";
import type { WorkflowNode } from "@/lib/schemas/workflows";
import type { TriggerData } from "@/lib/workflows/templates";

// The one recording path of workflow runs, real (lib/workflows/run-workflow.ts) and simulated
// (lib/activity/simulate-activity.ts): the log of a node and the charge of a run are built here,
// so the two can never drift apart (CONTRACT §9).

/** The run a log or a charge belongs to. */
export type RunIdentity = {
  id: string;
  teamId: string;
  workflowId: string;
  workflowName: string;
  user: { id: string; email: string } | null;
};

/** What a run knows of one node: in its state while it runs, in the node's log once written. */
export type StepState = {
  node_id: string;
  log_id: string;
  /** `stop`: a flow.stop that ran, or an approval step rejected, expired or cancelled (CONTRACT §13). */
  status: "start" | "success" | "error" | "skipped" | "stop";
  started_ms: number;
  completed_ms: number | null;
  retry_attempts: number;
  credits: number;
  cache_hit?: boolean;
  error?: string;
  /** In a for_each node: which item (0-based) of how many; absent on a loop's `empty` or list error step. */
  iteration?: number;
  iterations?: number;
  /**
   * Why it was skipped (`condition`, `empty`) or stopped (`rejected`, `expired`, `cancelled`, or
   * flow.stop's reason).
   */
  reason?: string;
  /** An approval step: its request, and who approved it. */
  approval_id?: string;
  approved_by?: string;
};

/**
 * A run's state. `nodes`, `timezone` and `owner_user_id` are the workflow as it was when the run
 * was queued (its snapshot: an edit after that never changes what this run does); `steps` grow
 * as it runs.
 */
export type RunState = {
  nodes?: WorkflowNode[];
  timezone?: string | null;
  owner_user_id?: string | null;
  /**
   * Who allowed this run's writes: the owner who activated the workflow, an owner who ran it by
   * hand, or "operator" (the admin CLI); null when nobody did (its write nodes are refused).
   * Absent in runs queued before it was recorded.
   */
  writes_by?: string | null;
  /** The private connections among its nodes' and their owners when it was queued: their data is theirs to read. */
  private_owners?: Record<string, { owner: string; type: string }>;
  /** What started the run (`{{trigger.…}}`): a webhook's body, an API call's input, an event. */
  trigger?: TriggerData;
  /**
   * An event-started run's chain (lib/workflows/trigger-chain.ts): the workflows whose runs led to
   * it, its own last.
   */
  chain?: string[];
  /**
   * A replay's outputs of the nodes before the one it starts at, taken from the run it replays
   * (those nodes neither run nor log again), and the nodes whose writes succeeded in any run it
   * continues (never run again).
   */
  given?: Record<string, unknown>;
  written?: string[];
  /**
   * Every step so far, in the order they ran: one per node, or one per item of a loop node
   * (`iteration`), or one for a loop whose list was empty or could not be read.
   */
  steps: StepState[];
};

export const parseRunState = (text: string): RunState => {
  try {
    const state = JSON.parse(text) as RunState;
    return { ...state, steps: Array.isArray(state.steps) ? state.steps : [] };
  } catch {
    return { steps: [] };
  }
};

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * One node's operation log: source {type: workflow, id, run_id, name}; metadata {node_id,
 * node_label, retry_attempts, connection_id?}.
 */
export function nodeLogRecord(
  run: RunIdentity,
  node: WorkflowNode,
  step: StepState,
  io: { operationVersion: number | null; input?: unknown; output?: unknown; privateTo?: string | null },
): OperationRecord {
  return {
    privateTo: io.privateTo ?? null,
    connectionId: node.connection_id ?? null,
    operationId: node.operation_id,
    operationVersion: io.operationVersion,
    status: step.status,
    source: { type: "workflow", id: run.workflowId, runId: run.id, name: run.workflowName },
    user: run.user,
    startedAt: seconds(step.started_ms),
    completedAt: step.completed_ms === null ? null : seconds(step.completed_ms),
    creditsUsed: step.status === "success" ? step.credits : 0,
    cacheHit: step.cache_hit ?? false,
    input: io.input,
    output: io.output,
    metadata: {
      node_id: node.id,
      node_label: node.label,
      retry_attempts: step.retry_attempts,
      ...(node.connection_id && { connection_id: node.connection_id }),
      ...(step.iteration !== undefined && { iteration: step.iteration, iterations: step.iterations }),
      ...(step.approval_id && { approval_id: step.approval_id }),
      ...(step.approved_by && { approved_by: step.approved_by }),
    },
  };
}

/** A run's credits: 1 for the run, plus each node that succeeded (a cache hit costs 0). */
const runCredits = (steps: StepState[]) =>
  1 + steps.reduce((sum, s) => sum + (s.status === "success" ? s.credits : 0), 0);

/**
 * The run's single ledger entry (service workflow), dated when it started; attributed (CONTRACT §12)
 * by its nodes: each step's credits (a loop's per iteration) to its node's connection, the run's own
 * credit to its first node's.
 */
export function runCharge(
  run: RunIdentity,
  nodes: WorkflowNode[],
  steps: StepState[],
  startedMs: number,
): Omit<Charge, "teamId"> {
  const connectionOf = new Map(nodes.map((n) => [n.id, n.connection_id ?? null]));
  return {
    credits: runCredits(steps),
    attribution: [
      { connectionId: nodes[0]?.connection_id ?? null, credits: 1 },
      ...steps
        .filter((s) => s.status === "success" && s.credits)
        .map((s) => ({ connectionId: connectionOf.get(s.node_id) ?? null, credits: s.credits })),
    ],
    service: { type: "workflow", id: run.workflowId, name: run.workflowName },
    user: run.user,
    at: seconds(startedMs),
    runId: run.id,
  };
}

/** The `skipped` steps of the nodes after a failed one. */
export function skippedSteps(nodes: WorkflowNode[], from: number, at: number, newLogId: () => string): StepState[] {
  return nodes.slice(from).map((n) => ({
    node_id: n.id,
    log_id: newLogId(),
    status: "skipped" as const,
    started_ms: at,
    completed_ms: at,
    retry_attempts: 0,
    credits: 0,
  }));
}

/**
 * A run written at once (`activity simulate`): its run row, its node logs and its ledger entry, in
 * one transaction, built by the same functions as a real run's. A simulated run whose last step
 * reads `start` is still going (no lease, so no runner takes it); unlike a real run, which is
 * charged when it ends, it is charged when written, so every simulated run has its one entry.
 */
export async function recordFinishedRun(
  run: RunIdentity,
  nodes: WorkflowNode[],
  steps: StepState[],
  io: { operationVersion: number | null; input?: unknown; output?: unknown }[],
  trigger: string,
) {
  const failed = steps.findIndex((s) => s.status === "error");
  const startedMs = steps[0].started_ms;
  const logs = steps.map((step, i) => nodeLogRecord(run, nodes[i], step, io[i]));
  const running = steps[steps.length - 1].status === "start";
  const charge = runCharge(run, nodes, steps, startedMs);
  return recordOperations(run.teamId, logs, charge, async (tx, written) => {
    steps.forEach((s, i) => (s.log_id = written.logIds[i]));
    await tx.workflowRun.create({
      data: {
        id: run.id,
        teamId: run.teamId,
        workflowId: run.workflowId,
        workflowName: run.workflowName,
        trigger,
        userId: run.user?.id ?? null,
        userEmail: run.user?.email ?? null,
        status: running ? "running" : failed >= 0 ? "error" : "success",
        dueAt: BigInt(startedMs),
        startedAt: BigInt(startedMs),
        completedAt: running ? null : BigInt(steps[steps.length - 1].completed_ms ?? startedMs),
        nodeIndex: running ? steps.length - 1 : nodes.length,
        state: JSON.stringify({ nodes, steps } satisfies RunState),
        credits: charge.credits,
        error: failed >= 0 ? (steps[failed].error ?? null) : null,
        failedNodeId: failed >= 0 ? nodes[failed].id : null,
        createdAt: BigInt(startedMs),
      },
    });
  });
}
