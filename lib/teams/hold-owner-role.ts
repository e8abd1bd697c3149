import "server-only";
import type { Tx } from "@/lib/db/transaction";

/**
 * Whether `userId` is an owner of the team, holding their membership row until the caller's
 * transaction ends: a consent given as an owner (activating a write workflow, `allowed` on an MCP
 * server) is written only while they are one, and a demotion or removal running at the same time
 * either waits for it (and then withdraws it) or is seen here. A role read before the transaction
 * could be stale by the time the consent is written.
 */
export async function holdOwnerRole(tx: Tx, teamId: string, userId: string): Promise<boolean> {
  const { count } = await tx.membership.updateMany({
    where: { teamId, userId, role: "owner" },
    data: { role: "owner" },
  });
  return count === 1;
}
