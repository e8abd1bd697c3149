import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { heldCredits } from "@/lib/credits/held-credits";

// An agent turn is charged once, when it ends (CONTRACT §11), but it may not spend what the team
// does not have: before each operation the turn holds its price against the balance less what
// the team's other running workflow runs and unfinished turns hold, and is refused when nothing
// is left. The hold is the turn's stored `operationCredits` (what it ran, plus what runs now),
// so a team's concurrent turns see each other's, and one turn overshoots by at most one price.

/**
 * Holds `price` for the operation the turn is about to run, given the credits its operations
 * already cost (`spent`), or answers why it may not run. Taken under the team row's lock, as a
 * workflow run's hold is, so concurrent holds of one team are counted one after another.
 */
export async function holdOperationCredits(
  teamId: string,
  turnId: string,
  spent: number,
  price: number,
): Promise<string | null> {
  return transaction(async (tx) => {
    const team = await tx.team.update({
      where: { id: teamId },
      data: { creditsUsed: { increment: 0 } },
      select: { creditsLimit: true, creditsUsed: true },
    });
    const remaining = team.creditsLimit - team.creditsUsed;
    const others = await heldCredits(tx, teamId, { turnId });
    // This turn owes its own credit and what its operations cost so far.
    const left = remaining - others - (1 + spent);
    if (left <= 0)
      return remaining <= 0
        ? `This team has no credits left (${team.creditsUsed} of ${team.creditsLimit} used this period); nothing more runs in this turn.`
        : `This team's remaining ${remaining} credits are spent or held: this turn has used ${1 + spent} and other runs and turns under way hold ${others}. Nothing more runs in this turn; ask again once they end.`;
    await tx.agentTurn.update({ where: { id: turnId }, data: { operationCredits: spent + price } });
    return null;
  });
}

/** The operation ran (or failed): the turn's hold becomes what its operations really cost. */
export async function settleOperationCredits(turnId: string, spent: number) {
  await db.agentTurn.updateMany({
    where: { id: turnId, status: "running" },
    data: { operationCredits: spent },
  });
}
