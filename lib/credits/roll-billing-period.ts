import "server-only";
import type { Db } from "@/lib/db/client";
import { periodEndFrom } from "@/lib/teams/plans";

type Tx = Pick<Db, "team">;

/**
 * When the stored period has ended, moves it forward to the period containing `now` and resets
 * usage. Conditional on the old end, so concurrent callers roll it exactly once.
 */
export async function rollBillingPeriodIfEnded(tx: Tx, team: { id: string; billingPeriodEnd: Date }, now = new Date()) {
  if (team.billingPeriodEnd > now) return false;
  let start = team.billingPeriodEnd;
  let end = periodEndFrom(start);
  while (end <= now) {
    start = end;
    end = periodEndFrom(start);
  }
  const { count } = await tx.team.updateMany({
    where: { id: team.id, billingPeriodEnd: team.billingPeriodEnd },
    data: { creditsUsed: 0, billingPeriodStart: start, billingPeriodEnd: end },
  });
  return count > 0;
}
