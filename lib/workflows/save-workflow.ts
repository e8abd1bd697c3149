import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { badRequest, forbidden, notFound } from "@/lib/api/errors";
import { newId } from "@/lib/security/ids";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { checkBindableConnections } from "@/lib/connections/check-bindable-connections";
import { closestOperationIds, findOperation } from "@/lib/operations/registry";
import { inputSchema } from "@/lib/operations/run-operation";
import { templatedFields, templateProblems } from "@/lib/workflows/templates";
import { nextRunAfter, scheduleProblem, timezoneProblem } from "@/lib/workflows/schedule";
import { parseNodes } from "@/lib/workflows/workflow-json";
import type { WorkflowNode } from "@/lib/schemas/workflows";

// Saving a workflow (dashboard, CLI): everything a run could trip over that is known now is
// checked now, all of it in one answer: each node's operation, its connection (this team's, of a
// type the operation runs on, one the person may bind), its input against the operation's schema
// (fields holding a reference are checked when the node runs), the references themselves (an
// earlier node or a run variable, nothing else), the cron expression and the time zone.

export type WorkflowDraft = { name: string; nodes: WorkflowNode[]; schedule: string | null; timezone: string | null; active: boolean };
export type Actor = { teamId: string; userId: string };

type Checked = { nodes: WorkflowNode[]; connectionIds: string[]; writes: string[] };

async function checkDraft(actor: Actor, ownerUserId: string | null, draft: WorkflowDraft): Promise<Checked> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, node] of draft.nodes.entries()) {
    if (seen.has(node.id)) problems.push(`nodes[${i}].id: ${node.id} is used by an earlier node; node ids must be unique`);
    seen.add(node.id);
  }
  const wanted = [...new Set(draft.nodes.map((n) => n.connection_id).filter((id): id is string => !!id))];
  const rows = wanted.length
    ? await db.connection.findMany({ where: { ...visibleConnections(actor.teamId, actor.userId), id: { in: wanted } }, select: { id: true, type: true, displayName: true } })
    : [];
  const connections = new Map(rows.map((c) => [c.id, c]));
  const writes: string[] = [];
  const nodes = draft.nodes.map((node, i) => {
    const at = `nodes[${i}]`;
    const op = findOperation(node.operation_id);
    if (!op) {
      problems.push(`${at}.operation_id: there is no operation ${JSON.stringify(node.operation_id.slice(0, 100))}; closest: ${closestOperationIds(node.operation_id).join(", ")}`);
      return node;
    }
    const connectionId = node.connection_id ?? null;
    if (op.types.length === 0 && connectionId) problems.push(`${at}.connection_id: ${op.id} is a built-in utility and needs no connection; leave connection_id out`);
    if (op.types.length > 0) {
      const connection = connectionId ? connections.get(connectionId) : undefined;
      if (!connectionId) problems.push(`${at}.connection_id: ${op.id} runs on a ${op.types.join(" or ")} connection; give one`);
      else if (!connection) problems.push(`${at}.connection_id: no connection ${connectionId.slice(0, 100)} that you can use in this team`);
      else if (!op.types.includes(connection.type)) problems.push(`${at}.connection_id: ${connectionId} is a ${connection.type} connection; ${op.id} runs on ${op.types.join(", ")}`);
      else if (op.kind === "write") writes.push(`${node.label} (${op.id}) writes to ${connection.displayName ?? connection.id}`);
    }
    const templated = templatedFields(node.input);
    const parsed = inputSchema(op).safeParse(node.input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === "unrecognized_keys") problems.push(`${at}.input: ${op.id} has no field ${issue.keys.join(", ")}`);
        else if (!templated.has(String(issue.path[0]))) problems.push(`${at}.input.${issue.path.join(".") || "(input)"}: ${issue.message}`);
      }
    }
    return { id: node.id, label: node.label, operation_id: op.id, ...(connectionId && { connection_id: connectionId }), input: node.input };
  });
  problems.push(...templateProblems(draft.nodes));
  if (draft.schedule !== null) {
    const p = scheduleProblem(draft.schedule);
    if (p) problems.push(p);
  }
  if (draft.timezone !== null) {
    if (draft.schedule === null) problems.push("timezone: a time zone goes with a schedule; a manual workflow's dates are in UTC");
    else {
      const p = timezoneProblem(draft.timezone);
      if (p) problems.push(p);
    }
  }
  if (problems.length) throw badRequest(problems.join("; "));
  const connectionIds = await checkBindableConnections({ teamId: actor.teamId, actorUserId: actor.userId, resourceOwnerUserId: ownerUserId, ids: wanted, resource: "workflow" });
  return { nodes, connectionIds, writes };
}

async function roleOf(actor: Actor) {
  const member = await db.membership.findUnique({ where: { teamId_userId: { teamId: actor.teamId, userId: actor.userId } }, select: { role: true } });
  if (!member) throw badRequest(`User ${actor.userId} is not a member of team ${actor.teamId}.`);
  return member.role;
}

/** A workflow that writes runs its writes without asking anyone: only an owner may set it running. */
async function checkMayActivate(actor: Actor, writes: string[]) {
  if (!writes.length || (await roleOf(actor)) === "owner") return;
  throw forbidden(`Only a team owner can activate a workflow with write nodes, because its runs write without an approval: ${writes.join("; ")}. Save it inactive and ask an owner to activate it.`);
}

const nextRunAt = (draft: Pick<WorkflowDraft, "active" | "schedule" | "timezone">, now = new Date()) => {
  if (!draft.active || !draft.schedule) return null;
  const next = nextRunAfter(draft.schedule, draft.timezone, now);
  return next ? BigInt(next.getTime()) : null;
};

export async function createWorkflow(actor: Actor, draft: WorkflowDraft) {
  await roleOf(actor);
  const checked = await checkDraft(actor, actor.userId, draft);
  if (draft.active) await checkMayActivate(actor, checked.writes);
  const id = newId("wf");
  return transaction(async (tx) => {
    const row = await tx.workflow.create({
      data: {
        id,
        teamId: actor.teamId,
        name: draft.name,
        active: draft.active,
        nodes: checked.nodes as Prisma.InputJsonValue,
        schedule: draft.schedule,
        timezone: draft.schedule ? draft.timezone : null,
        nextRunAt: nextRunAt(draft),
        createdByUserId: actor.userId,
        connections: { create: checked.connectionIds.map((connectionId) => ({ connectionId })) },
      },
    });
    await recordAuditEvent(tx, { teamId: actor.teamId, action: "workflow.create", target: { type: "workflow", id }, details: { name: draft.name, nodes: checked.nodes.length, active: draft.active } });
    return row;
  });
}

async function findWorkflow(teamId: string, id: string) {
  const row = await db.workflow.findFirst({ where: { id, teamId } });
  if (!row) throw notFound(`No workflow ${id.slice(0, 255)} in this team.`);
  return row;
}

export async function updateWorkflow(actor: Actor, id: string, patch: Partial<WorkflowDraft>) {
  const row = await findWorkflow(actor.teamId, id);
  const schedule = patch.schedule !== undefined ? patch.schedule : row.schedule;
  const draft: WorkflowDraft = {
    name: patch.name ?? row.name,
    nodes: patch.nodes ?? parseNodes(row.nodes),
    schedule,
    timezone: patch.timezone !== undefined ? patch.timezone : schedule === null ? null : row.timezone,
    active: patch.active ?? row.active,
  };
  const checked = await checkDraft(actor, row.createdByUserId, draft);
  if (draft.active && (patch.nodes !== undefined || !row.active)) await checkMayActivate(actor, checked.writes);
  return transaction(async (tx) => {
    const updated = await tx.workflow.update({
      where: { id },
      data: {
        name: draft.name,
        active: draft.active,
        nodes: checked.nodes as Prisma.InputJsonValue,
        schedule: draft.schedule,
        timezone: draft.schedule ? draft.timezone : null,
        // A new schedule or a reactivation starts from now; an unchanged one keeps its next slot.
        nextRunAt: draft.active && row.active && draft.schedule === row.schedule && draft.timezone === row.timezone && row.nextRunAt !== null ? row.nextRunAt : nextRunAt(draft),
        ...(draft.active && { deactivatedReason: null }),
        connections: { deleteMany: {}, create: checked.connectionIds.map((connectionId) => ({ connectionId })) },
      },
    });
    const changed = (Object.keys(patch) as (keyof WorkflowDraft)[]).filter((k) => patch[k] !== undefined);
    await recordAuditEvent(tx, { teamId: actor.teamId, action: "workflow.update", target: { type: "workflow", id }, details: { name: draft.name, changed: changed.join(", "), active: draft.active } });
    return updated;
  });
}

export async function deleteWorkflow(actor: Actor, id: string) {
  const row = await findWorkflow(actor.teamId, id);
  await transaction(async (tx) => {
    await tx.workflow.delete({ where: { id } });
    await recordAuditEvent(tx, { teamId: actor.teamId, action: "workflow.delete", target: { type: "workflow", id }, details: { name: row.name } });
  });
  return row;
}

/**
 * Points every node that uses connection `from` at connection `to` (an API-key connection
 * replaced by a new one, spec §4.4): `to` must be one the person may bind, of a type each of
 * those nodes' operations runs on. `from` may already be deleted.
 */
export async function rebindWorkflow(by: { teamId: string; userId: string | null }, id: string, from: string, to: string) {
  const row = await findWorkflow(by.teamId, id);
  // The operator's command line acts as the workflow's creator: their private connections and the team's shared ones.
  const actor = { teamId: by.teamId, userId: by.userId ?? row.createdByUserId ?? "" };
  const nodes = parseNodes(row.nodes);
  const rebound = nodes.filter((n) => n.connection_id === from);
  if (!rebound.length) return { row, nodesRebound: 0 };
  const target = await db.connection.findFirst({ where: { ...visibleConnections(actor.teamId, actor.userId), id: to }, select: { id: true, type: true } });
  if (!target) throw badRequest(`to: no connection ${to.slice(0, 255)} that you can use in this team.`);
  for (const node of rebound) {
    const op = findOperation(node.operation_id);
    if (op && !op.types.includes(target.type)) throw badRequest(`to: ${to} is a ${target.type} connection; node ${node.id} (${op.id}) runs on ${op.types.join(", ")}.`);
  }
  const connectionIds = await checkBindableConnections({ teamId: actor.teamId, actorUserId: actor.userId, resourceOwnerUserId: row.createdByUserId, ids: [to], resource: "workflow" });
  const next = nodes.map((n) => (n.connection_id === from ? { ...n, connection_id: connectionIds[0] } : n));
  const used = [...new Set(next.map((n) => n.connection_id).filter((c): c is string => !!c))];
  // A deleted connection's join row went with it; only existing ones are joined again.
  const kept = (await db.connection.findMany({ where: { teamId: actor.teamId, id: { in: used } }, select: { id: true } })).map((c) => c.id);
  const updated = await transaction(async (tx) => {
    const saved = await tx.workflow.update({ where: { id }, data: { nodes: next as Prisma.InputJsonValue, connections: { deleteMany: {}, create: kept.map((connectionId) => ({ connectionId })) } } });
    await recordAuditEvent(tx, { teamId: actor.teamId, action: "workflow.rebind", target: { type: "workflow", id }, details: { name: row.name, from, to, nodes: rebound.length } });
    return saved;
  });
  return { row: updated, nodesRebound: rebound.length };
}
