import "server-only";
import { newId } from "@/lib/security/ids";
import { recordOperations, type OperationRecord } from "@/lib/logs/record-operations";
import type { WorkflowNode } from "@/lib/workflows/create-workflow";

export type NodeOutcome = {
  node: WorkflowNode;
  status: OperationRecord["status"];
  startedAt: number;
  completedAt: number | null;
  retryAttempts: number;
  input?: unknown;
  output?: unknown;
};

/**
 * Writes one workflow run: a log per executed node (sharing a run id) and a single ledger
 * entry for the run's credits, atomically (spec §2.7). A run with no executed node writes
 * nothing (spec §4.10).
 */
export async function recordWorkflowRun(input: {
  teamId: string;
  workflow: { id: string; name: string };
  user: { id: string; email: string } | null;
  outcomes: NodeOutcome[];
}) {
  if (!input.outcomes.length) return { runId: null, logIds: [], ledgerEntryId: null };
  const runId = newId("run");
  const source = { type: "workflow" as const, id: input.workflow.id, runId, name: input.workflow.name };
  const logs: OperationRecord[] = input.outcomes.map((o) => ({
    operationId: o.node.operation_id,
    operationVersion: o.node.operation_version,
    status: o.status,
    source,
    user: input.user,
    startedAt: o.startedAt,
    completedAt: o.completedAt,
    creditsUsed: o.status === "skipped" ? 0 : o.node.credits,
    input: o.input,
    output: o.output,
    metadata: { node_id: o.node.id, node_label: o.node.label, retry_attempts: o.retryAttempts },
  }));
  const credits = logs.reduce((sum, l) => sum + (l.creditsUsed ?? 0), 0);
  const result = await recordOperations(input.teamId, logs, {
    credits,
    service: { type: "workflow", id: input.workflow.id, name: input.workflow.name },
    user: input.user,
    at: input.outcomes[0].startedAt,
  });
  return { runId, ...result };
}
