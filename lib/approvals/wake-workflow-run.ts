import "server-only";
import type { Approval } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";
import { jobSignal } from "@/lib/db/commit-signals";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";

/**
 * A workflow run's approval step (CONTRACT §13) was decided, expired or cancelled in `tx`: the run
 * parked waiting for it is queued again, so the runner of any instance continues it at its next
 * poll and reads the outcome from the request itself (lib/workflows/run-workflow.ts). Nothing for
 * a request of an MCP server or an agent, or a run that no longer waits (deleted with its workflow).
 */
export async function wakeWorkflowRun(tx: Tx, row: Pick<Approval, "workflowRunId">) {
  if (!row.workflowRunId) return;
  const { count } = await tx.workflowRun.updateMany({
    where: { id: row.workflowRunId, status: "waiting_approval" },
    data: { status: "queued", dueAt: BigInt(Date.now()) },
  });
  if (count) jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
}
