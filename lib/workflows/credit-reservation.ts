import "server-only";
import { transaction } from "@/lib/db/transaction";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { heldCredits } from "@/lib/credits/held-credits";

// Credits held, not hoped for (CONTRACT §13). While a run is running or parked it holds 1 + the
// credits of its succeeded nodes against its team's balance, until its ledger entry is written. A
// run is refused when the balance less what the team's other runs hold is used up, and before
// each node or iteration that costs credits it checks the balance less every hold (its own
// included): so a team ends at most one operation's price below zero per running run.

/**
 * Holds `credits` for the run, or answers why it is refused. The team row is written first in
 * the transaction, so concurrent holds of one team are taken one after another (a row lock on
 * PostgreSQL, the write lock on SQLite) and each sees the ones before it.
 */
export async function reserveCredits(
  teamId: string,
  run: { id: string; claims: number },
  credits: number,
): Promise<string | null> {
  const balance = await getCreditBalance(teamId); // rolls an ended billing period first
  return transaction(async (tx) => {
    const team = await tx.team.update({
      where: { id: teamId },
      data: { creditsUsed: { increment: 0 } },
      select: { creditsLimit: true, creditsUsed: true },
    });
    // Other running runs' holds, and what unfinished agent turns ran or hold (lib/agents/turn-credits.ts).
    const held = await heldCredits(tx, teamId, { runId: run.id });
    const remaining = team.creditsLimit - team.creditsUsed;
    if (remaining - held <= 0) {
      return remaining <= 0
        ? `This team has no credits left (${team.creditsUsed} of ${team.creditsLimit} used this period; the balance is ${remaining}). Usage resets when the billing period ends (${new Date(balance.billing_period_end * 1000).toISOString()}); an owner can change the plan before that.`
        : `This team's ${remaining} remaining credits are held by workflow runs and agent turns already under way (${held} credits at most); this run was refused rather than spend credits that are not there. Run it again once they end.`;
    }
    // Conditional on the claim: a run whose claim was lost holds nothing, and its next write fails.
    await tx.workflowRun.updateMany({
      where: { id: run.id, claims: run.claims },
      data: { reservedCredits: Math.max(1, credits) },
    });
    return null;
  });
}
