import "server-only";
import { prepared, read } from "@/lib/db/read";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { AGENT_TURNS_JOB } from "@/lib/jobs/job-names";
import { logger } from "@/lib/observability/logger";
import { failAbandonedTurns, resumeTurn } from "@/lib/agents/run-turn";

// Every instance continues the turns whose approval request was decided, expired or cancelled
// (CONTRACT §11: within 15 s): at once in the instance where the decision committed (its signal),
// within a poll anywhere else (the CLI's approval, another instance's). A turn is claimed by a
// conditional update, so exactly one instance continues it; the model calls run beside the loop.

const POLL_MS = 3_000;
const continuing = new Set<string>();

/** How many decided turns one poll starts; the rest wait for the next. */
const BATCH = 200;

/**
 * The waiting turns whose approval request was decided, has expired or is gone. Turns whose request
 * is still pending are left in the database: a poll that read the first 200 waiting turns and then
 * looked at their requests never reached a decided one behind 200 pending ones (approvals wait
 * for hours), and its agent never continued.
 */
const decidedTurns = prepared((a: { now: number; limit: number }) =>
  read
    .selectFrom("AgentTurn as t")
    .leftJoin("Approval as a", "a.id", "t.waitingApprovalId")
    .select("t.id")
    .where("t.status", "=", "waiting_approval")
    .where("t.waitingApprovalId", "is not", null)
    .where((eb) =>
      eb.or([
        eb("a.id", "is", null),
        // effectiveStatus (lib/approvals/approval-json.ts): neither pending before its expiry nor running.
        eb.and([
          eb("a.status", "<>", "running"),
          eb.or([eb("a.status", "<>", "pending"), eb("a.expiresAt", "<=", a.now)]),
        ]),
      ]),
    )
    .limit(a.limit),
);

async function continueDecidedTurns() {
  await failAbandonedTurns();
  const decided = await decidedTurns({ now: Math.floor(Date.now() / 1000), limit: BATCH });
  for (const { id } of decided) {
    if (continuing.has(id)) continue;
    continuing.add(id);
    void resumeTurn(id)
      .catch((e: unknown) => logger.error("agent turn could not continue", { error: e, turn_id: id }))
      .finally(() => continuing.delete(id));
  }
}

export function startAgentTurns() {
  startJobLoop({ name: AGENT_TURNS_JOB, pollMs: POLL_MS, work: continueDecidedTurns });
}
