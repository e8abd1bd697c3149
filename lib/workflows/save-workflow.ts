import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError, badRequest, forbidden, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { checkBindableConnections } from "@/lib/connections/check-bindable-connections";
import { closestOperationIds, findOperation } from "@/lib/operations/registry";
import { inputSchema } from "@/lib/operations/run-operation";
import { inputIssueText } from "@/lib/operations/describe-input-issue";
import { templatedFields, templateProblems } from "@/lib/workflows/templates";
import { nextRunAfter, scheduleProblem, timezoneProblem } from "@/lib/workflows/schedule";
import { parseNodes } from "@/lib/workflows/workflow-json";
import { cancelWaitingApprovals, refuseQueuedRuns, writesWithoutApproval } from "@/lib/workflows/workflow-consent";
import { checkScheduleRoom, nodeCountProblem } from "@/lib/workflows/check-workflow-limits";
import { nodeControls, type WorkflowNode } from "@/lib/schemas/workflows";
import { conditionProblems } from "@/lib/workflows/conditions";
import { holdOwnerRole } from "@/lib/teams/hold-owner-role";
import {
  definitionOf,
  eventsSince,
  newWebhookToken,
  parseEvents,
  sameDefinition,
  triggerProblems,
  type TriggerType,
} from "@/lib/workflows/triggers";
import { recordVersion } from "@/lib/workflows/record-version";

// Saving a workflow (dashboard, CLI): everything a run could trip over that is known now is
// checked now, all of it in one answer: each node's operation, its connection (this team's, of a
// type the operation runs on, one the person may bind), its input against the operation's schema
// (fields holding a reference are checked when the node runs), the references themselves (an
// earlier node or a run variable, nothing else), the cron expression and the time zone.

export type WorkflowDraft = {
  name: string;
  nodes: WorkflowNode[];
  schedule: string | null;
  timezone: string | null;
  active: boolean;
  /** What starts it (CONTRACT §13); a schedule when `schedule` is set, else manual when left out. */
  trigger?: TriggerType;
  /** An event trigger's event types. */
  events?: string[] | null;
};
export type Actor = { teamId: string; userId: string };

type Checked = { nodes: WorkflowNode[]; connectionIds: string[]; writes: string[] };

async function checkDraft(actor: Actor, ownerUserId: string | null, draft: WorkflowDraft): Promise<Checked> {
  const tooMany = nodeCountProblem(draft.nodes.length);
  if (tooMany) throw badRequest(tooMany);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [i, node] of draft.nodes.entries()) {
    if (seen.has(node.id))
      problems.push(`nodes[${i}].id: ${node.id} is used by an earlier node; node ids must be unique`);
    seen.add(node.id);
  }
  const wanted = [...new Set(draft.nodes.map((n) => n.connection_id).filter((id): id is string => !!id))];
  const rows = wanted.length
    ? await db.connection.findMany({
        where: { ...visibleConnections(actor.teamId, actor.userId), id: { in: wanted } },
        select: { id: true, type: true, displayName: true },
      })
    : [];
  const connections = new Map(rows.map((c) => [c.id, c]));
  const writes: string[] = [];
  const nodes = draft.nodes.map((node, i) => {
    const at = `nodes[${i}]`;
    const op = findOperation(node.operation_id);
    if (!op) {
      problems.push(
        `${at}.operation_id: there is no operation ${JSON.stringify(node.operation_id.slice(0, 100))}; closest: ${closestOperationIds(node.operation_id).join(", ")}`,
      );
      return node;
    }
    const connectionId = node.connection_id ?? null;
    if (op.types.length === 0 && connectionId)
      problems.push(
        `${at}.connection_id: ${op.id} is a built-in utility and needs no connection; leave connection_id out`,
      );
    if (op.types.length > 0) {
      const connection = connectionId ? connections.get(connectionId) : undefined;
      if (!connectionId)
        problems.push(`${at}.connection_id: ${op.id} runs on a ${op.types.join(" or ")} connection; give one`);
      else if (!connection)
        problems.push(`${at}.connection_id: no connection ${connectionId.slice(0, 100)} that you can use in this team`);
      else if (!op.types.includes(connection.type))
        problems.push(
          `${at}.connection_id: ${connectionId} is a ${connection.type} connection; ${op.id} runs on ${op.types.join(", ")}`,
        );
      else if (op.kind === "write" && node.approval !== "required")
        writes.push(`${node.label} (${op.id}) writes to ${connection.displayName ?? connection.id}`);
    }
    if (node.approval === "required" && op.kind !== "write")
      problems.push(
        `${at}.approval: only a write waits for a person's approval; ${op.id} reads, so leave approval out`,
      );
    if (node.when !== undefined) problems.push(...conditionProblems(node.when, `${at}.when`));
    const templated = templatedFields(node.input);
    const parsed = inputSchema(op).safeParse(node.input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === "unrecognized_keys")
          problems.push(`${at}.input: ${op.id} has no field ${issue.keys.join(", ")}`);
        else if (!templated.has(String(issue.path[0])))
          problems.push(`${at}.input.${issue.path.join(".") || "(input)"}: ${inputIssueText(issue, node.input)}`);
      }
    }
    return {
      id: node.id,
      label: node.label,
      operation_id: op.id,
      ...(connectionId && { connection_id: connectionId }),
      input: node.input,
      ...nodeControls(node),
    };
  });
  problems.push(...templateProblems(draft.nodes));
  problems.push(...triggerProblems(draft));
  if (draft.schedule !== null) {
    const p = scheduleProblem(draft.schedule);
    if (p) problems.push(p);
  }
  if (draft.timezone !== null) {
    if (draft.schedule === null)
      problems.push("timezone: a time zone goes with a schedule; a manual workflow's dates are in UTC");
    else {
      const p = timezoneProblem(draft.timezone);
      if (p) problems.push(p);
    }
  }
  if (problems.length) throw badRequest(problems.join("; "));
  const connectionIds = await checkBindableConnections({
    teamId: actor.teamId,
    actorUserId: actor.userId,
    resourceOwnerUserId: ownerUserId,
    ids: wanted,
    resource: "workflow",
  });
  return { nodes, connectionIds, writes };
}

async function roleOf(actor: Actor) {
  const member = await db.membership.findUnique({
    where: { teamId_userId: { teamId: actor.teamId, userId: actor.userId } },
    select: { role: true },
  });
  if (!member) throw badRequest(`User ${actor.userId} is not a member of team ${actor.teamId}.`);
  return member.role;
}

const mayNotActivate = (writes: string[]) =>
  forbidden(
    `Only a team owner can activate a workflow with write nodes, because its runs write without an approval: ${writes.join("; ")}. Save it inactive and ask an owner to activate it.`,
  );

/** A workflow that writes runs its writes without asking anyone: only an owner may set it running. */
async function checkMayActivate(actor: Actor, writes: string[]) {
  if (!writes.length || (await roleOf(actor)) === "owner") return;
  throw mayNotActivate(writes);
}

/**
 * The same, again in the saving transaction, holding the actor's membership: an owner demoted
 * between the check above and this save's commit does not leave a workflow running on a consent
 * that their demotion has already withdrawn.
 */
async function checkStillOwner(tx: Tx, actor: Actor, writes: string[]) {
  if (!(await holdOwnerRole(tx, actor.teamId, actor.userId))) throw mayNotActivate(writes);
}

const nextRunAt = (draft: Pick<WorkflowDraft, "active" | "schedule" | "timezone">, now = new Date()) => {
  if (!draft.active || !draft.schedule) return null;
  const next = nextRunAfter(draft.schedule, draft.timezone, now);
  return next ? BigInt(next.getTime()) : null;
};

/** Every check a new workflow passes before it is written. */
async function checkNew(actor: Actor, draft: WorkflowDraft) {
  await roleOf(actor);
  const checked = await checkDraft(actor, actor.userId, draft);
  if (draft.active) await checkMayActivate(actor, checked.writes);
  if (draft.active && draft.schedule) await checkScheduleRoom(actor.teamId, null);
  return checked;
}

export async function createWorkflow(actor: Actor, draft: WorkflowDraft, by: { cli?: boolean } = {}) {
  const checked = await checkNew(actor, draft);
  const id = newId("wf");
  const activatedBy = draft.active && checked.writes.length ? actor.userId : null;
  const definition = definitionOf({ ...draft, nodes: checked.nodes });
  const token = definition.triggerType === "webhook" ? newWebhookToken() : null;
  const now = Date.now();
  const created = await transaction(async (tx) => {
    if (activatedBy) await checkStillOwner(tx, actor, checked.writes);
    const row = await tx.workflow.create({
      data: {
        id,
        teamId: actor.teamId,
        name: draft.name,
        active: draft.active,
        nodes: checked.nodes as Prisma.InputJsonValue,
        schedule: definition.schedule,
        timezone: definition.timezone,
        triggerType: definition.triggerType,
        events: definition.events,
        eventsSince: eventsSince(null, { ...definition, active: draft.active }, now),
        webhookTokenHash: token?.hash ?? null,
        version: 1,
        nextRunAt: nextRunAt(draft),
        createdByUserId: actor.userId,
        activatedByUserId: activatedBy,
        connections: { create: checked.connectionIds.map((connectionId) => ({ connectionId })) },
      },
    });
    await recordVersion(tx, row, by.cli ? null : actor.userId, now);
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "workflow.create",
      target: { type: "workflow", id },
      details: { name: draft.name, nodes: checked.nodes.length, active: draft.active },
    });
    return row;
  });
  return Object.assign(created, { webhookToken: token?.token ?? null });
}

async function findWorkflow(teamId: string, id: string) {
  const row = await db.workflow.findFirst({ where: { id, teamId } });
  if (!row) throw notFound(`No workflow ${id.slice(0, 255)} in this team.`);
  return row;
}

/**
 * Claims the row as it was read, in the saving transaction: a concurrent change (a stop, a
 * member's edit, a deactivation by Patchbay, the scheduler taking its slot, which moves
 * `nextRunAt` but keeps `updatedAt`) makes this save start again rather than undo it.
 */
async function unchangedSince(
  tx: Tx,
  row: { id: string; active: boolean; updatedAt: Date; nextRunAt: bigint | null },
  doing: string,
) {
  const { count } = await tx.workflow.updateMany({
    where: { id: row.id, active: row.active, updatedAt: row.updatedAt, nextRunAt: row.nextRunAt },
    data: { updatedAt: new Date() },
  });
  if (count === 0) throw new ApiError(409, `The workflow changed while you were ${doing}; reload it and try again.`);
}

/**
 * An active workflow that writes runs what an owner set running. A member may rename it or stop
 * it, but a change to what it runs (nodes, connections, schedule, time zone) while it is active
 * is an owner's: otherwise a member could point an owner's consent at another account or another
 * time. One rule for every path: the dashboard's PATCH and rebind, and the CLI's rebind.
 */
async function checkMayChangeRunning(actor: Actor, row: { active: boolean; nodes: unknown }, what: string) {
  const writes = writesWithoutApproval(parseNodes(row.nodes));
  if (!row.active || !writes.length || (await roleOf(actor)) === "owner") return;
  throw forbidden(
    `This workflow is active and writes (${writes.map((n) => `${n.label} (${n.operation_id})`).join("; ")}), so only a team owner can change its ${what} while it runs: its writes run on the consent of the owner who activated it. Deactivate it first and save your change; an owner then activates it again.`,
  );
}

type WorkflowRow = Awaited<ReturnType<typeof findWorkflow>>;

/** Every check a change of what a workflow runs (or its activation) passes before it is written. */
async function checkChange(actor: Actor, row: WorkflowRow, patch: Partial<WorkflowDraft>, changesDefinition: boolean) {
  const rowTrigger = row.triggerType as TriggerType;
  // A schedule set or cleared says the trigger too; another trigger clears the schedule.
  const trigger: TriggerType =
    patch.trigger ??
    (patch.schedule === undefined
      ? rowTrigger
      : patch.schedule !== null
        ? "schedule"
        : rowTrigger === "schedule"
          ? "manual"
          : rowTrigger);
  const schedule =
    patch.schedule !== undefined
      ? patch.schedule
      : trigger === "schedule" || patch.trigger === undefined
        ? row.schedule
        : null;
  const draft: WorkflowDraft = {
    name: patch.name ?? row.name,
    nodes: patch.nodes ?? parseNodes(row.nodes),
    schedule,
    timezone: patch.timezone !== undefined ? patch.timezone : schedule === null ? null : row.timezone,
    active: patch.active ?? row.active,
    trigger,
    events: patch.events !== undefined ? patch.events : trigger === rowTrigger ? parseEvents(row.events) : null,
  };
  const what = [
    patch.nodes !== undefined && "nodes",
    patch.schedule !== undefined && "schedule",
    patch.timezone !== undefined && "time zone",
    (patch.trigger !== undefined || patch.events !== undefined) && "trigger",
  ]
    .filter(Boolean)
    .join(", ");
  if (changesDefinition && draft.active) await checkMayChangeRunning(actor, row, what);
  const checked = await checkDraft(actor, row.createdByUserId, draft);
  if (draft.active && (changesDefinition || !row.active)) await checkMayActivate(actor, checked.writes);
  if (draft.active && draft.schedule && !(row.active && row.schedule)) await checkScheduleRoom(actor.teamId, row.id);
  return { draft, checked };
}

/**
 * What saving `draft` as a new workflow (`workflowId` null) or over workflow `workflowId` would be
 * refused for, in the words a save answers with (a 400's problems one by one); [] when it would
 * save. The same checks as createWorkflow and updateWorkflow, nothing written.
 */
export async function saveProblems(actor: Actor, draft: WorkflowDraft, workflowId: string | null): Promise<string[]> {
  try {
    if (workflowId === null) await checkNew(actor, draft);
    else {
      const row = await findWorkflow(actor.teamId, workflowId);
      await roleOf(actor);
      await checkChange(actor, row, draft, true);
    }
    return [];
  } catch (e) {
    if (!(e instanceof ApiError) || typeof e.detail !== "string") throw e;
    return e.status === 400 ? e.detail.split("; ") : [e.detail];
  }
}

/** An inactive workflow's schedule does not run: its scheduled runs that have not started end `refused`. */
const refuseScheduledRuns = (tx: Tx, teamId: string, id: string) =>
  refuseQueuedRuns(tx, teamId, [id], "Not started: the workflow was deactivated before this run began.", true);

export async function updateWorkflow(actor: Actor, id: string, patch: Partial<WorkflowDraft>) {
  const row = await findWorkflow(actor.teamId, id);
  await roleOf(actor);
  const changesDefinition =
    patch.nodes !== undefined ||
    patch.schedule !== undefined ||
    patch.timezone !== undefined ||
    patch.trigger !== undefined ||
    patch.events !== undefined;
  const activating = patch.active === true && !row.active;
  if (!changesDefinition && !activating) {
    // A rename or a stop: nothing new runs, so anyone in the team may, an owner always (even when
    // a node's connection is one they cannot see, a teammate's private one). It never sets a
    // workflow running: a rename keeps whatever `active` is in the database when it commits, so a
    // stop made meanwhile (by Patchbay or a person) holds.
    const stopping = patch.active === false;
    return transaction(async (tx) => {
      const { count } = await tx.workflow.updateMany({
        where: { id, teamId: actor.teamId },
        data: { name: patch.name ?? row.name, ...(stopping && { active: false, nextRunAt: null }) },
      });
      if (count === 0) throw notFound(`No workflow ${id.slice(0, 255)} in this team.`);
      const updated = await tx.workflow.findUniqueOrThrow({ where: { id } });
      if (!updated.active) await refuseScheduledRuns(tx, actor.teamId, id);
      if (stopping && row.active) await cancelWaitingApprovals(tx, actor.teamId, [id], "the workflow was deactivated");
      const changed = (Object.keys(patch) as (keyof WorkflowDraft)[]).filter((k) => patch[k] !== undefined);
      await recordAuditEvent(tx, {
        teamId: actor.teamId,
        action: "workflow.update",
        target: { type: "workflow", id },
        details: { name: updated.name, changed: changed.join(", "), active: updated.active },
      });
      return updated;
    });
  }
  const { draft, checked } = await checkChange(actor, row, patch, changesDefinition);
  // This save (re)activates it on the actor's consent when it sets it running or changes what it runs.
  const activates = draft.active && (changesDefinition || !row.active);
  const definition = definitionOf({ ...draft, nodes: checked.nodes });
  const newVersion = !sameDefinition(
    definitionOf({ ...row, trigger: row.triggerType, events: parseEvents(row.events), nodes: parseNodes(row.nodes) }),
    definition,
  );
  const token =
    definition.triggerType === "webhook" && (row.triggerType !== "webhook" || !row.webhookTokenHash)
      ? newWebhookToken()
      : null;
  const now = Date.now();
  const saved = await transaction(async (tx) => {
    await unchangedSince(tx, row, "saving");
    if (activates && checked.writes.length) await checkStillOwner(tx, actor, checked.writes);
    const updated = await tx.workflow.update({
      where: { id },
      data: {
        name: draft.name,
        active: draft.active,
        nodes: checked.nodes as Prisma.InputJsonValue,
        schedule: definition.schedule,
        timezone: definition.timezone,
        triggerType: definition.triggerType,
        events: definition.events,
        eventsSince: eventsSince(row, { ...definition, active: draft.active }, now),
        webhookTokenHash: definition.triggerType === "webhook" ? (token?.hash ?? row.webhookTokenHash) : null,
        version: newVersion ? row.version + 1 : row.version,
        // A new schedule or a reactivation starts from now; an unchanged one keeps its next slot.
        nextRunAt:
          draft.active &&
          row.active &&
          draft.schedule === row.schedule &&
          draft.timezone === row.timezone &&
          row.nextRunAt !== null
            ? row.nextRunAt
            : nextRunAt(draft),
        ...(draft.active && { deactivatedReason: null }),
        ...(activates && { activatedByUserId: checked.writes.length ? actor.userId : null }),
        connections: { deleteMany: {}, create: checked.connectionIds.map((connectionId) => ({ connectionId })) },
      },
    });
    // A save that leaves it inactive (a stop that also edits it, or an edit of a stopped one)
    // refuses its queued scheduled runs, as a plain stop does; a still-active workflow's queued
    // runs go on with the definition they were queued with.
    if (!draft.active) await refuseScheduledRuns(tx, actor.teamId, id);
    if (!draft.active && row.active)
      await cancelWaitingApprovals(tx, actor.teamId, [id], "the workflow was deactivated");
    if (newVersion) await recordVersion(tx, updated, actor.userId, now);
    const changed = (Object.keys(patch) as (keyof WorkflowDraft)[]).filter((k) => patch[k] !== undefined);
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "workflow.update",
      target: { type: "workflow", id },
      details: { name: draft.name, changed: changed.join(", "), active: draft.active, version: updated.version },
    });
    return updated;
  });
  return Object.assign(saved, { webhookToken: token?.token ?? null });
}

export async function deleteWorkflow(actor: Actor, id: string) {
  const row = await findWorkflow(actor.teamId, id);
  await transaction(async (tx) => {
    await cancelWaitingApprovals(tx, actor.teamId, [id], "the workflow was deleted");
    await tx.workflow.delete({ where: { id } });
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "workflow.delete",
      target: { type: "workflow", id },
      details: { name: row.name },
    });
  });
  return row;
}

/**
 * Points every node that uses connection `from` at connection `to` (an API-key connection
 * replaced by a new one, spec §4.4): `to` must be one the person may bind, of a type each of
 * those nodes' operations runs on. `from` may already be deleted.
 */
export async function rebindWorkflow(
  by: { teamId: string; userId: string | null },
  id: string,
  from: string,
  to: string,
) {
  const row = await findWorkflow(by.teamId, id);
  // The operator's command line acts as the workflow's creator: their private connections and the team's shared ones.
  const actor = { teamId: by.teamId, userId: by.userId ?? row.createdByUserId ?? "" };
  const nodes = parseNodes(row.nodes);
  const rebound = nodes.filter((n) => n.connection_id === from);
  if (!rebound.length) return { row, nodesRebound: 0 };
  await checkMayChangeRunning(actor, row, "connections");
  const target = await db.connection.findFirst({
    where: { ...visibleConnections(actor.teamId, actor.userId), id: to },
    select: { id: true, type: true },
  });
  if (!target) throw badRequest(`to: no connection ${to.slice(0, 255)} that you can use in this team.`);
  for (const node of rebound) {
    const op = findOperation(node.operation_id);
    if (op && !op.types.includes(target.type))
      throw badRequest(
        `to: ${to} is a ${target.type} connection; node ${node.id} (${op.id}) runs on ${op.types.join(", ")}.`,
      );
  }
  const connectionIds = await checkBindableConnections({
    teamId: actor.teamId,
    actorUserId: actor.userId,
    resourceOwnerUserId: row.createdByUserId,
    ids: [to],
    resource: "workflow",
  });
  const next = nodes.map((n) => (n.connection_id === from ? { ...n, connection_id: connectionIds[0] } : n));
  const used = [...new Set(next.map((n) => n.connection_id).filter((c): c is string => !!c))];
  // A deleted connection's join row went with it; only existing ones are joined again.
  const kept = (
    await db.connection.findMany({ where: { teamId: actor.teamId, id: { in: used } }, select: { id: true } })
  ).map((c) => c.id);
  const updated = await transaction(async (tx) => {
    await unchangedSince(tx, row, "rebinding it");
    const saved = await tx.workflow.update({
      where: { id },
      data: {
        nodes: next as Prisma.InputJsonValue,
        version: row.version + 1,
        connections: { deleteMany: {}, create: kept.map((connectionId) => ({ connectionId })) },
      },
    });
    await recordVersion(tx, saved, by.userId, Date.now());
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "workflow.rebind",
      target: { type: "workflow", id },
      details: { name: row.name, from, to, nodes: rebound.length },
    });
    return saved;
  });
  return { row: updated, nodesRebound: rebound.length };
}

/**
 * A new URL for a webhook-triggered workflow: the old token stops matching at once (its hash is
 * replaced in one update). Anyone in the team may, as anyone may stop it. Returns the new token.
 */
export async function rotateWebhookToken(actor: Actor, id: string) {
  const row = await findWorkflow(actor.teamId, id);
  await roleOf(actor);
  if (row.triggerType !== "webhook")
    throw badRequest(
      `Workflow ${id} is started by ${row.triggerType === "event" ? "events" : `its ${row.triggerType} trigger`}, not a webhook: it has no URL to rotate.`,
    );
  const token = newWebhookToken();
  await transaction(async (tx) => {
    await tx.workflow.update({ where: { id }, data: { webhookTokenHash: token.hash } });
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: "workflow.rotate_webhook",
      target: { type: "workflow", id },
      details: { name: row.name },
    });
  });
  return token.token;
}
