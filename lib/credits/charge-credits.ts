import "server-only";
import type { Db } from "@/lib/db/client";
import type { SERVICE_TYPES } from "@/lib/schemas/credits";

type Tx = Pick<Db, "team" | "creditLedgerEntry">;

export type Charge = {
  teamId: string;
  credits: number;
  service: { type: (typeof SERVICE_TYPES)[number]; id: string | null; name: string | null };
  user: { id: string; email: string } | null;
  at: number; // Unix seconds
};

/**
 * Adds one ledger entry and moves the period's usage in the same transaction. The increment's
 * returned row is the balance right after this charge, so the snapshot is exact even with
 * concurrent writers. The balance may go below zero: an overshooting run is not rolled back.
 */
export async function chargeCredits(tx: Tx, charge: Charge) {
  const team = await tx.team.update({
    where: { id: charge.teamId },
    data: { creditsUsed: { increment: charge.credits } },
    select: { creditsLimit: true, creditsUsed: true },
  });
  return tx.creditLedgerEntry.create({
    data: {
      teamId: charge.teamId,
      creditsUsed: charge.credits,
      creditsRemaining: team.creditsLimit - team.creditsUsed,
      serviceType: charge.service.type,
      serviceId: charge.service.id,
      serviceName: charge.service.name,
      userId: charge.user?.id ?? null,
      userEmail: charge.user?.email ?? null,
      createdAt: BigInt(charge.at),
    },
  });
}
