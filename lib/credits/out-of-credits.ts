import "server-only";
import { transaction } from "@/lib/db/transaction";
import { prepared, read } from "@/lib/db/read";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { heldCredits, holdColumns } from "@/lib/credits/held-credits";

const findRoom = prepared((a: { teamId: string }) =>
  read
    .selectFrom("Team as t")
    .select(["t.creditsLimit", "t.creditsUsed", "t.billingPeriodEnd"])
    .select(holdColumns)
    .where("t.id", "=", a.teamId),
);

/** A team's balance and holds as one read of `holdColumns` gave them. */
export type Room = {
  creditsLimit: number;
  creditsUsed: number;
  billingPeriodEnd: number;
  runs: number | string | null;
  turns: number | string | null;
};

/**
 * Why the next operation that costs credits may not run, or null (CONTRACT §13): the team's
 * remaining credits less what every running or waiting run holds (this one's 1 + what it spent
 * included) and what unfinished agent turns hold is used up. So a team ends at most one
 * operation's price below zero per running run. `unsaved`: what the asking run holds beyond what
 * its row says yet (a step whose end is saved with the next one: lib/workflows/run-workflow.ts).
 */
export async function outOfCredits(teamId: string, unsaved = 0): Promise<string | null> {
  const [room] = await findRoom({ teamId });
  return refusalOf(teamId, room, unsaved);
}

/** outOfCredits on a `room` the caller read already (undefined: the team is gone). */
export async function refusalOf(teamId: string, room: Room | undefined, unsaved = 0): Promise<string | null> {
  let remaining: number;
  let held: number;
  let periodEnd: number;
  if (room && room.billingPeriodEnd > Date.now()) {
    remaining = room.creditsLimit - room.creditsUsed;
    held = Number(room.runs ?? 0) + Number(room.turns ?? 0);
    periodEnd = Math.floor(room.billingPeriodEnd / 1000);
  } else {
    // The period has ended (or the team is gone): the balance rolls it first, then the holds.
    const balance = await getCreditBalance(teamId);
    remaining = balance.credits_remaining;
    held = await transaction((tx) => heldCredits(tx, teamId));
    periodEnd = balance.billing_period_end;
  }
  held += unsaved;
  if (remaining - held > 0) return null;
  return `Out of credits: this team has ${remaining} credits left this period, and running workflow runs and agent turns hold ${held} of them (this run's spending so far included), so this operation was not run. Usage resets when the billing period ends (${new Date(periodEnd * 1000).toISOString()}); an owner can change the plan before that.`;
}
