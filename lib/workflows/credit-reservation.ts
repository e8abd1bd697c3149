import "server-only";
import { transaction } from "@/lib/db/transaction";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { heldCredits } from "@/lib/credits/held-credits";
import { preparedInTx, write } from "@/lib/db/write";

// Credits held, not hoped for (CONTRACT §13). While a run is running or parked it holds 1 + the
// credits of its succeeded nodes against its team's balance, until its ledger entry is written. A
// run is refused when the balance less what the team's other runs hold is used up, and before
// each node or iteration that costs credits it checks the balance less every hold (its own
// included): so a team ends at most one operation's price below zero per running run.

// A write that changes nothing, to take the team row's lock before reading the holds.
const lockTeam = preparedInTx((a: { teamId: string }) =>
  write
    .updateTable("Team")
    .set((eb) => ({ creditsUsed: eb.ref("creditsUsed") }))
    .where("id", "=", a.teamId)
    .returning(["creditsLimit", "creditsUsed"]),
);
const holdFor = preparedInTx((a: { runId: string; claims: number; credits: number }) =>
  write
    .updateTable("WorkflowRun")
    .set({ reservedCredits: a.credits })
    .where("id", "=", a.runId)
    .where("claims", "=", a.claims),
);

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
    const [team] = await lockTeam(tx, { teamId });
    if (!team) return "This run's team no longer exists.";
    // Other running runs' holds, and what unfinished agent turns ran or hold (lib/agents/turn-credits.ts).
    const held = await heldCredits(tx, teamId, { runId: run.id });
    const remaining = team.creditsLimit - team.creditsUsed;
    if (remaining - held <= 0) {
      return remaining <= 0
        ? `This team has no credits left (${team.creditsUsed} of ${team.creditsLimit} used this period; the balance is ${remaining}). Usage resets when the billing period ends (${new Date(balance.billing_period_end * 1000).toISOString()}); an owner can change the plan before that.`
        : `This team's ${remaining} remaining credits are held by workflow runs and agent turns already under way (${held} credits at most); this run was refused rather than spend credits that are not there. Run it again once they end.`;
    }
    // Conditional on the claim: a run whose claim was lost holds nothing, and its next write fails.
    await holdFor(tx, { runId: run.id, claims: run.claims, credits: Math.max(1, credits) });
    return null;
  });
}
