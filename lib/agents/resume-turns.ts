import "server-only";
import { db } from "@/lib/db/client";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { AGENT_TURNS_JOB } from "@/lib/jobs/job-names";
import { effectiveStatus } from "@/lib/approvals/approval-json";
import { logger } from "@/lib/observability/logger";
import { failAbandonedTurns, resumeTurn } from "@/lib/agents/run-turn";

// Every instance continues the turns whose approval request was decided, expired or cancelled
// (CONTRACT §11: within 15 s): at once in the instance where the decision committed (its signal),
// within a poll anywhere else (the CLI's approval, another instance's). A turn is claimed by a
// conditional update, so exactly one instance continues it; the model calls run beside the loop.

const POLL_MS = 3_000;
const continuing = new Set<string>();

async function continueDecidedTurns() {
  await failAbandonedTurns();
  const waiting = await db.agentTurn.findMany({
    where: { status: "waiting_approval" },
    select: { id: true, waitingApprovalId: true },
    take: 200,
  });
  const approvals = await db.approval.findMany({
    where: { id: { in: waiting.map((t) => t.waitingApprovalId ?? "") } },
    select: { id: true, status: true, expiresAt: true },
  });
  for (const turn of waiting) {
    const approval = approvals.find((a) => a.id === turn.waitingApprovalId);
    const status = approval ? effectiveStatus(approval) : "cancelled";
    if (status === "pending" || status === "running" || continuing.has(turn.id)) continue;
    continuing.add(turn.id);
    void resumeTurn(turn.id)
      .catch((e: unknown) => logger.error("agent turn could not continue", { error: e, turn_id: turn.id }))
      .finally(() => continuing.delete(turn.id));
  }
}

export function startAgentTurns() {
  startJobLoop({ name: AGENT_TURNS_JOB, pollMs: POLL_MS, work: continueDecidedTurns });
}
