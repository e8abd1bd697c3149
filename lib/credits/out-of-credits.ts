import "server-only";
import { transaction } from "@/lib/db/transaction";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";
import { heldCredits } from "@/lib/credits/held-credits";

/**
 * Why the next operation that costs credits may not run, or null (CONTRACT §13): the team's
 * remaining credits less what every running or waiting run holds (this one's 1 + what it spent
 * included) and what unfinished agent turns hold is used up. So a team ends at most one
 * operation's price below zero per running run.
 */
export async function outOfCredits(teamId: string): Promise<string | null> {
  const balance = await getCreditBalance(teamId); // rolls an ended billing period first
  const held = await transaction((tx) => heldCredits(tx, teamId));
  if (balance.credits_remaining - held > 0) return null;
  return `Out of credits: this team has ${balance.credits_remaining} credits left this period, and running workflow runs and agent turns hold ${held} of them (this run's spending so far included), so this operation was not run. Usage resets when the billing period ends (${new Date(balance.billing_period_end * 1000).toISOString()}); an owner can change the plan before that.`;
}
