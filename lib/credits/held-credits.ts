import "server-only";
import type { Tx } from "@/lib/db/transaction";

// What a team has promised but not yet charged: a workflow run holds 1 + what it spent so far
// while it runs or waits (lib/workflows/credit-reservation.ts), and an agent turn that has not ended holds its own
// credit and the price of each operation it ran or is running (lib/agents/turn-credits.ts). Both
// producers refuse new spending against the balance less these holds, so concurrent runs and
// turns of one team overshoot by at most one operation's price.

/** Credits held by the team's running workflow runs and unfinished agent turns, less the ones excluded. */
export async function heldCredits(tx: Tx, teamId: string, exclude: { runId?: string; turnId?: string } = {}) {
  const runs = await tx.workflowRun.aggregate({
    where: {
      teamId,
      // Running, parked at an approval, or queued again after one: each holds what it spent so far.
      status: { in: ["running", "waiting_approval", "queued"] },
      reservedCredits: { gt: 0 },
      ...(exclude.runId && { id: { not: exclude.runId } }),
    },
    _sum: { reservedCredits: true },
  });
  const turns = await tx.agentTurn.aggregate({
    where: {
      teamId,
      status: { in: ["running", "waiting_approval"] },
      ...(exclude.turnId && { id: { not: exclude.turnId } }),
    },
    _sum: { operationCredits: true },
    _count: { _all: true },
  });
  // Each unfinished turn owes its own 1 credit beside its operations'.
  return (runs._sum.reservedCredits ?? 0) + (turns._sum.operationCredits ?? 0) + turns._count._all;
}
