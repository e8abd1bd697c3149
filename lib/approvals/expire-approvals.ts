import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { approvalWebhookJson } from "@/lib/approvals/approval-json";
import { agentsWaiting } from "@/lib/approvals/cancel-approvals";
import { settleWorkflowStep } from "@/lib/workflows/approval-step";

// Every instance looks for approval requests past their expiry every few seconds and stores them
// as expired with their `approval.resolved` event (CONTRACT §8: within 15 s of expires_at). Each
// is moved by a conditional update, so two instances never expire (or announce) one twice, and a
// request approved at the last moment is never expired. Reads show `expired` from the first
// second anyway (effectiveStatus).

const SWEEP_MS = 3_000;
const BATCH = 200;
/**
 * A write still `running` this long after its approval lost its instance mid-call: it is marked
 * failed (it may or may not have reached the provider), never run again.
 */
const STUCK_RUNNING_SECONDS = 15 * 60;

/** Stores `data` on request `id` if it still matches `where`, with its approval.resolved; whether it did. */
async function resolve(
  id: string,
  where: Prisma.ApprovalWhereInput,
  data: Prisma.ApprovalUpdateManyMutationInput,
): Promise<boolean> {
  return transaction(async (tx) => {
    const { count } = await tx.approval.updateMany({ where: { id, ...where }, data });
    if (count === 0) return false;
    const row = await tx.approval.findUniqueOrThrow({ where: { id } });
    await emitWebhookEvent(tx, row.teamId, "approval.resolved", { approval: approvalWebhookJson(row) });
    if (row.conversationId) agentsWaiting();
    // A workflow run waiting for it stops at that node, or goes on from a write that failed.
    await settleWorkflowStep(
      tx,
      row,
      row.status === "expired"
        ? { status: "stop", reason: "expired" }
        : { status: "error", error: row.error ?? "The write failed.", approvedBy: row.decidedById },
    );
    return true;
  });
}

async function expireDueApprovals(now = Math.floor(Date.now() / 1000)): Promise<number> {
  const due = { status: "pending", expiresAt: { lte: BigInt(now) } };
  let expired = 0;
  for (const { id } of await db.approval.findMany({
    where: due,
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: BATCH,
  })) {
    if (await resolve(id, due, { status: "expired" })) expired++;
  }
  const stuck = { status: "running", decidedAt: { lte: BigInt(now - STUCK_RUNNING_SECONDS) } };
  for (const { id } of await db.approval.findMany({ where: stuck, select: { id: true }, take: BATCH })) {
    await resolve(
      id,
      { status: "running" },
      {
        status: "failed",
        error:
          "The instance running this approved write stopped before it finished; it may or may not have reached the provider, and it is not run again. Check the account before asking again.",
      },
    );
  }
  return expired;
}

/** Every instance's sweep, on its job loop (lib/jobs/job-loop.ts). */
export function startApprovalSweeper() {
  startJobLoop({ name: "approval-expiry", pollMs: SWEEP_MS, work: async () => void (await expireDueApprovals()) });
}
