import "server-only";
import { db } from "@/lib/db/client";
import type { Tx } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { findOperation } from "@/lib/operations/registry";
import type { WorkflowNode } from "@/lib/schemas/workflows";
import type { RunState } from "@/lib/workflows/run-records";
import { referencedNodes } from "@/lib/workflows/templates";
import { cancelPendingApprovals } from "@/lib/approvals/cancel-approvals";

// The consent a workflow runs on (SECURITY.md, "Workflows"): its writes run without asking
// anyone because a team owner set it running, and a private connection in it is its owner's
// alone. What follows from that for every path that changes, runs or shows a workflow lives here.

/** The nodes whose operation writes to a provider. */
export const writeNodes = (nodes: WorkflowNode[]) =>
  nodes.filter((n) => findOperation(n.operation_id)?.kind === "write");

/**
 * The write nodes that run on the owner's consent, without asking anyone: every write node but
 * those with `approval: "required"`, whose writes each wait for a person's yes (CONTRACT §13).
 */
export const writesWithoutApproval = (nodes: WorkflowNode[]) =>
  writeNodes(nodes).filter((n) => n.approval !== "required");

/**
 * Stops workflows whose consent is gone, in the caller's transaction: each is deactivated with
 * its reason (shown on its page), one audit event and one `workflow.deactivated` webhook.
 */
export async function deactivateWorkflows(
  tx: Tx,
  teamId: string,
  workflows: { id: string; name: string }[],
  reason: string,
) {
  if (!workflows.length) return;
  await tx.workflow.updateMany({
    where: { teamId, id: { in: workflows.map((w) => w.id) } },
    data: { active: false, nextRunAt: null, deactivatedReason: reason },
  });
  await refuseQueuedRuns(
    tx,
    teamId,
    workflows.map((w) => w.id),
    `Not started: ${reason}`,
  );
  await cancelWaitingApprovals(
    tx,
    teamId,
    workflows.map((w) => w.id),
    "Patchbay stopped the workflow",
  );
  for (const w of workflows) {
    await recordAuditEvent(tx, {
      teamId,
      action: "workflow.deactivate",
      target: { type: "workflow", id: w.id },
      details: { name: w.name, reason },
    });
    await emitWebhookEvent(tx, teamId, "workflow.deactivated", { workflow: { id: w.id, name: w.name }, reason });
  }
}

/**
 * A workflow stopped or deleted while runs of it wait for a person's approval: those requests are
 * cancelled (CONTRACT §13), and each run stops at its node with the reason `cancelled`.
 */
export async function cancelWaitingApprovals(tx: Tx, teamId: string, workflowIds: string[], why: string) {
  if (!workflowIds.length) return 0;
  return cancelPendingApprovals(
    tx,
    { teamId, workflowId: { in: workflowIds } },
    `Cancelled: ${why} while this write waited for approval. Nothing was written.`,
  );
}

/**
 * A stopped workflow's runs that have not started do not start: they end `refused` with the
 * reason (`scheduledOnly`: a plain stop leaves the runs a person queued by hand).
 */
export async function refuseQueuedRuns(
  tx: Tx,
  teamId: string,
  workflowIds: string[],
  reason: string,
  scheduledOnly = false,
) {
  if (!workflowIds.length) return;
  await tx.workflowRun.updateMany({
    where: { teamId, workflowId: { in: workflowIds }, status: "queued", ...(scheduledOnly && { trigger: "schedule" }) },
    data: { status: "refused", error: reason, credits: 0, completedAt: BigInt(Date.now()) },
  });
}

/**
 * The private connections among `connectionIds` that are not `viewerUserId`'s: a workflow that
 * uses one is run by hand and read in detail only by that connection's owner.
 */
export async function othersPrivateConnections(teamId: string, connectionIds: string[], viewerUserId: string | null) {
  const ids = [...new Set(connectionIds)];
  if (!ids.length) return [];
  return db.connection.findMany({
    where: { teamId, id: { in: ids }, ownerUserId: { not: null, ...(viewerUserId && { notIn: [viewerUserId] }) } },
    select: { id: true, type: true, ownerUserId: true },
  });
}

/**
 * Why a node may not use its connection now, or null: a private connection runs only in a
 * workflow of its owner, and only while that owner is a member of the team. Checked at run time,
 * so a member who left takes her connection with her at once. `ownerIsMember`: whether the
 * workflow's owner is a member, when the caller read it already (lib/workflows/node-reads.ts).
 */
export async function privateConnectionProblem(
  teamId: string,
  connection: { id: string; type: string; ownerUserId: string | null },
  workflowOwnerId: string | null,
  ownerIsMember?: boolean,
): Promise<string | null> {
  if (connection.ownerUserId === null) return null;
  if (connection.ownerUserId !== workflowOwnerId) {
    return `Connection ${connection.id} (${connection.type}) is private to another member, and a private connection runs only in its owner's own workflows; rebind the node to a shared connection.`;
  }
  const member =
    ownerIsMember ??
    (await db.membership.findUnique({
      where: { teamId_userId: { teamId, userId: connection.ownerUserId } },
      select: { role: true },
    }));
  if (!member)
    return `Connection ${connection.id} (${connection.type}) is private to a member who has left the team; it is theirs alone, so the workflow cannot use it. Rebind the node to a shared connection.`;
  return null;
}

/**
 * Whose private data each node of a run handles, by node id (null: nobody's): a node on a private
 * connection is its owner's, and so is a node whose input refers to such a node's output, however
 * many nodes away (a utility that formats it, a shared connection it is sent to). Their logs are
 * written private to that owner, so the rest of the team reads that they ran, not the data
 * (lib/logs/log-to-json.ts). From the run's snapshot, so it holds after a connection is deleted.
 */
export function privateOwnersOfNodes(state: Pick<RunState, "nodes" | "private_owners">) {
  const owners = new Map<string, { owner: string; via: "connection" | "input" }>();
  for (const node of state.nodes ?? []) {
    const own = node.connection_id ? state.private_owners?.[node.connection_id]?.owner : undefined;
    if (own) owners.set(node.id, { owner: own, via: "connection" });
    else {
      const from = [...referencedNodes([node.input, node.when ?? null, node.for_each ?? null])]
        .map((id) => owners.get(id))
        .find(Boolean);
      if (from) owners.set(node.id, { owner: from.owner, via: "input" });
    }
  }
  return owners;
}

/**
 * When a member leaves: the active workflows that use their private connections stop (those
 * connections are theirs alone and leave with them), in the removal's transaction.
 */
export async function deactivateWorkflowsOfLeaver(tx: Tx, teamId: string, user: { id: string; email: string }) {
  const privateIds = (
    await tx.connection.findMany({ where: { teamId, ownerUserId: user.id }, select: { id: true } })
  ).map((c) => c.id);
  if (!privateIds.length) return 0;
  const workflows = await tx.workflow.findMany({
    where: { teamId, active: true, connections: { some: { connectionId: { in: privateIds } } } },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
  await deactivateWorkflows(
    tx,
    teamId,
    workflows,
    `Deactivated because ${user.email} left the team, and a private connection of theirs that it used is theirs alone; rebind its nodes to a shared connection, then activate it.`,
  );
  return workflows.length;
}

/**
 * When the team owner who activated workflows stops being one (demoted, removed, or left): the
 * active ones whose writes run on their consent stop, in the caller's transaction. Returns how
 * many stopped.
 */
export async function deactivateWorkflowsActivatedBy(tx: Tx, teamId: string, userId: string, reason: string) {
  const workflows = await tx.workflow.findMany({
    where: { teamId, active: true, activatedByUserId: userId },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
  await deactivateWorkflows(tx, teamId, workflows, reason);
  return workflows.length;
}
