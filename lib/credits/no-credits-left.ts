import "server-only";
import { getCreditBalance } from "@/lib/credits/get-credit-balance";

/** The refusal for a team with nothing left to spend, or null. */
export async function noCreditsLeft(teamId: string): Promise<string | null> {
  const balance = await getCreditBalance(teamId);
  if (balance.credits_remaining > 0) return null;
  return `This team has no credits left (${balance.credits_used} of ${balance.credits_limit} used this period; the balance is ${balance.credits_remaining}). Usage resets when the billing period ends${balance.billing_period_end ? ` (${new Date(balance.billing_period_end * 1000).toISOString()})` : ""}; an owner can change the plan before that.`;
}
