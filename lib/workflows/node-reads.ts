import "server-only";
import { prepared, read } from "@/lib/db/read";
import { holdColumns } from "@/lib/credits/held-credits";
import type { Room } from "@/lib/credits/out-of-credits";
import { nodeConnectionOf, type NodeConnection } from "@/lib/operations/run-operation";
import { sawLastUsed } from "@/lib/logs/record-operations";

// What a workflow node that costs credits reads before it runs, in one statement: the team's
// balance and holds (the credit check), its connection with the stored credentials, whether the
// workflow's owner is still a member (a private connection runs only for its owner), and for a
// write the member who allowed the run's writes and the workflow's state (the write's consent).
// They were up to six round trips per node; each part is the same read the checks made alone.
// The connection's last use comes along, so that the node's log need not move it again.

const findNodeFacts = prepared(
  (a: { teamId: string; connectionId?: string; ownerId?: string; writerId?: string; workflowId?: string }) =>
    read
      .selectFrom("Team as t")
      .select(["t.creditsLimit", "t.creditsUsed", "t.billingPeriodEnd"])
      .select(holdColumns)
      .$if(a.connectionId !== undefined, (q) =>
        q
          .leftJoin("Connection as c", (j) => j.on("c.id", "=", a.connectionId!).onRef("c.teamId", "=", "t.id"))
          .select([
            "c.id as connectionId",
            "c.type as connectionType",
            "c.displayName as connectionName",
            "c.externalId as connectionExternalId",
            "c.ownerUserId as connectionOwnerId",
            "c.readsVersion as connectionReadsVersion",
            "c.credentials as connectionCredentials",
            "c.needsReauthAt as connectionNeedsReauthAt",
            "c.lastUsedAt as connectionLastUsedAt",
          ]),
      )
      .$if(a.ownerId !== undefined, (q) =>
        q
          .leftJoin("Membership as om", (j) => j.on("om.userId", "=", a.ownerId!).onRef("om.teamId", "=", "t.id"))
          .select("om.role as ownerRole"),
      )
      .$if(a.writerId !== undefined, (q) =>
        q
          .leftJoin("Membership as wm", (j) => j.on("wm.userId", "=", a.writerId!).onRef("wm.teamId", "=", "t.id"))
          .leftJoin("User as wu", "wu.id", "wm.userId")
          .select(["wm.role as writerRole", "wu.email as writerEmail"]),
      )
      .$if(a.workflowId !== undefined, (q) =>
        q
          .leftJoin("Workflow as w", (j) => j.on("w.id", "=", a.workflowId!).onRef("w.teamId", "=", "t.id"))
          .select(["w.active as workflowActive", "w.deactivatedReason", "w.updatedAt as workflowUpdatedAt"]),
      )
      .where("t.id", "=", a.teamId),
);

/** What a node read before it ran; a part it did not ask for is undefined. */
export type NodeFacts = {
  /** The team's balance and holds; undefined when the team is gone. */
  room: Room | undefined;
  /** The node's connection and credentials (null: no such connection in the team). */
  connection?: NodeConnection | null;
  /** Whether the workflow's owner is a member of the team. */
  ownerIsMember?: boolean;
  /** The member who allowed the run's writes (null: no longer in the team). */
  writer?: { role: string; email: string } | null;
  /** The workflow's state now (null: deleted). */
  workflow?: { active: boolean; deactivatedReason: string | null; updatedAt: number } | null;
};

export async function readNodeFacts(
  teamId: string,
  need: { connectionId?: string; ownerId?: string; writerId?: string; workflowId?: string },
): Promise<NodeFacts> {
  const [row] = await findNodeFacts({ teamId, ...need });
  if (!row) return { room: undefined };
  const facts: NodeFacts = {
    room: {
      creditsLimit: row.creditsLimit,
      creditsUsed: row.creditsUsed,
      billingPeriodEnd: row.billingPeriodEnd,
      runs: row.runs,
      turns: row.turns,
    },
  };
  if (need.connectionId !== undefined && row.connectionId != null)
    sawLastUsed(row.connectionId, row.connectionLastUsedAt == null ? null : Number(row.connectionLastUsedAt));
  if (need.connectionId !== undefined)
    facts.connection =
      row.connectionId == null
        ? null
        : nodeConnectionOf({
            id: row.connectionId,
            type: row.connectionType!,
            displayName: row.connectionName ?? null,
            externalId: row.connectionExternalId ?? null,
            ownerUserId: row.connectionOwnerId ?? null,
            readsVersion: Number(row.connectionReadsVersion),
            credentials: row.connectionCredentials!,
            needsReauthAt: row.connectionNeedsReauthAt ?? null,
          });
  if (need.ownerId !== undefined) facts.ownerIsMember = row.ownerRole != null;
  if (need.writerId !== undefined)
    facts.writer =
      row.writerRole == null ? null : { role: String(row.writerRole), email: String(row.writerEmail ?? "") };
  if (need.workflowId !== undefined)
    facts.workflow =
      row.workflowActive == null
        ? null
        : {
            active: Boolean(row.workflowActive),
            deactivatedReason: row.deactivatedReason ?? null,
            updatedAt: Number(row.workflowUpdatedAt),
          };
  return facts;
}
