import "server-only";
import type { Approval } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";
import { jobSignal } from "@/lib/db/commit-signals";
import { toLogRow } from "@/lib/logs/record-operations";
import { findOperation } from "@/lib/operations/registry";
import { nodeLogRecord, parseRunState, type RunIdentity } from "@/lib/workflows/run-records";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";

// The approval step of a workflow run (CONTRACT §13), on the deciding side: a run parked at a
// write that waits for a person (lib/workflows/run-workflow.ts files the request and parks it)
// learns the decision here, in the transaction that records it. The node's `start` log becomes
// its final log, the run's state takes the step's outcome, and the run is queued again, so the
// runner of any instance continues it at its next poll (a second at most).

/** What became of the write a parked run waits for. */
export type StepDecision =
  | { status: "success"; output: unknown; credits: number; cacheHit: boolean; approvedBy: string }
  | { status: "error"; error: string; approvedBy: string | null }
  | { status: "stop"; reason: "rejected" | "expired" | "cancelled" };

/**
 * Records `decision` on the run request `approval` belongs to and queues the run again; nothing
 * when it is not a workflow's request, or its run is gone (the workflow was deleted) or no longer
 * waits for it.
 */
export async function settleWorkflowStep(tx: Tx, approval: Approval, decision: StepDecision) {
  if (!approval.workflowRunId) return;
  const run = await tx.workflowRun.findUnique({ where: { id: approval.workflowRunId } });
  if (!run || run.status !== "waiting_approval") return;
  const state = parseRunState(run.state);
  const step = state.steps.find((s) => s.approval_id === approval.id);
  const node = state.nodes?.find((n) => n.id === step?.node_id);
  if (!step || !node || step.status !== "start") return;
  const now = Date.now();
  step.completed_ms = Math.max(now, step.started_ms);
  if (decision.status === "success") {
    step.status = "success";
    step.credits = decision.credits;
    step.cache_hit = decision.cacheHit;
    step.approved_by = decision.approvedBy;
  } else if (decision.status === "error") {
    step.status = "error";
    step.error = decision.error;
    if (decision.approvedBy) step.approved_by = decision.approvedBy;
  } else {
    step.status = "stop";
    step.reason = decision.reason;
  }
  const identity: RunIdentity = {
    id: run.id,
    teamId: run.teamId,
    workflowId: run.workflowId,
    workflowName: run.workflowName,
    user: run.userId ? { id: run.userId, email: run.userEmail ?? "" } : null,
  };
  const output =
    decision.status === "success"
      ? decision.output
      : decision.status === "error"
        ? { error: decision.error }
        : { reason: decision.reason };
  const row = toLogRow(
    run.teamId,
    step.log_id,
    nodeLogRecord(identity, node, step, {
      operationVersion: findOperation(node.operation_id)?.operationVersion ?? null,
      output,
    }),
  );
  await tx.operationLog.update({
    where: { id: step.log_id },
    data: {
      status: row.status,
      completedAt: row.completedAt,
      creditsUsed: row.creditsUsed,
      output: row.output,
      metadata: row.metadata,
    },
  });
  const held = 1 + state.steps.reduce((sum, s) => sum + (s.status === "success" ? s.credits : 0), 0);
  const { count } = await tx.workflowRun.updateMany({
    where: { id: run.id, status: "waiting_approval" },
    data: { status: "queued", dueAt: BigInt(now), state: JSON.stringify(state), reservedCredits: held },
  });
  if (count) jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
}
