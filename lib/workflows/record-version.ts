import "server-only";
import type { Prisma } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";

// CONTRACT §13 versions: each save that changes what a workflow runs keeps its definition whole.

type Saved = {
  id: string;
  name: string;
  version: number;
  nodes: unknown;
  triggerType: string;
  schedule: string | null;
  timezone: string | null;
  events: string | null;
};

/** Records the workflow's definition as it was just saved, in the saving transaction. */
export async function recordVersion(tx: Tx, row: Saved, byUserId: string | null, at: number) {
  await tx.workflowVersion.create({
    data: {
      workflowId: row.id,
      version: row.version,
      name: row.name,
      nodes: row.nodes as Prisma.InputJsonValue,
      triggerType: row.triggerType,
      schedule: row.schedule,
      timezone: row.timezone,
      events: row.events,
      createdAt: BigInt(at),
      createdByUserId: byUserId,
    },
  });
}
