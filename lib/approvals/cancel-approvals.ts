import "server-only";
import type { Approval, Prisma } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { approvalWebhookJson } from "@/lib/approvals/approval-json";
import { jobSignal } from "@/lib/db/commit-signals";
import { AGENT_TURNS_JOB } from "@/lib/jobs/job-names";
import { settleWorkflowStep } from "@/lib/workflows/approval-step";

const seconds = () => Math.floor(Date.now() / 1000);

/**
 * Stores request `row` as cancelled for `reason` (kept in its `error`, what the agent and the
 * dashboard show) and queues its approval.resolved, in the caller's transaction. Nobody decided
 * it: decided_by stays empty, decided_at is when it ended. `from` is the status it must still have.
 */
export async function markCancelled(
  tx: Tx,
  id: string,
  from: "pending" | "running",
  reason: string,
): Promise<Approval | null> {
  const { count } = await tx.approval.updateMany({
    where: { id, status: from },
    data: { status: "cancelled", error: reason, decidedById: null, decidedByEmail: null, decidedAt: BigInt(seconds()) },
  });
  if (count === 0) return null;
  const row = await tx.approval.findUniqueOrThrow({ where: { id } });
  await emitWebhookEvent(tx, row.teamId, "approval.resolved", { approval: approvalWebhookJson(row) });
  if (row.conversationId) agentsWaiting();
  // A workflow run waiting for it stops at that node (CONTRACT §13).
  await settleWorkflowStep(tx, row, { status: "stop", reason: "cancelled" });
  return row;
}

/**
 * An agent's request was just decided, expired or cancelled in a transaction: once it commits, this
 * process's agent loop continues the turn that waits for it (lib/agents), without waiting for its poll.
 */
export function agentsWaiting() {
  jobSignal(AGENT_TURNS_JOB).wanted = true;
}

/**
 * Cancels every request matching `where` that still waits for a decision, because the permission
 * it was filed under has just gone (a write policy turned off, a server, token or connection
 * removed, a requester out of the team). Called inside the transaction of that change, so a
 * request is never approved against a permission that no longer exists. A request already past
 * its expiry is left to the sweeper (it reads `expired`). Returns how many were cancelled.
 */
export async function cancelPendingApprovals(
  tx: Tx,
  where: Prisma.ApprovalWhereInput,
  reason: string,
): Promise<number> {
  const waiting = await tx.approval.findMany({
    where: { ...where, status: "pending", expiresAt: { gt: BigInt(seconds()) } },
    select: { id: true },
  });
  let cancelled = 0;
  for (const { id } of waiting) if (await markCancelled(tx, id, "pending", reason)) cancelled++;
  return cancelled;
}
