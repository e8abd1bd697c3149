import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { parseNodes } from "@/lib/workflows/workflow-json";
import { parseEvents, triggerJson, type TriggerType } from "@/lib/workflows/triggers";
import { updateWorkflow, type Actor } from "@/lib/workflows/save-workflow";

// Versions (CONTRACT §13): every save that changes what a workflow runs (nodes, trigger, schedule,
// zone; a rebind too) is the next version, kept whole, so a run can show what it executed and a
// person can look back at, compare with and restore any earlier one.

async function workflowOf(teamId: string, id: string) {
  const row = await db.workflow.findFirst({ where: { id, teamId }, select: { id: true, version: true } });
  if (!row) throw notFound(`No workflow ${id.slice(0, 255)} in this team.`);
  return row;
}

/** `workflow versions`: newest first; `nodes` the count, `created_by` the user id (null for the CLI). */
export async function listVersions(teamId: string, id: string) {
  await workflowOf(teamId, id);
  const rows = await db.workflowVersion.findMany({
    where: { workflowId: id },
    orderBy: { version: "desc" },
    include: { workflow: false },
  });
  const users = await db.user.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.createdByUserId).filter((u): u is string => !!u))] } },
    select: { id: true, email: true },
  });
  const email = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => {
    const nodes = parseNodes(r.nodes);
    return {
      version: r.version,
      created_at: Math.floor(Number(r.createdAt) / 1000),
      created_by: r.createdByUserId,
      created_by_email: r.createdByUserId ? (email.get(r.createdByUserId) ?? null) : null,
      name: r.name,
      nodes,
      trigger: triggerJson(r),
    };
  });
}

/**
 * Restore: saves version `version`'s nodes and trigger as the next version, under the rules of
 * any save (a member cannot set an owner's writes running; every check of a save applies).
 */
export async function restoreVersion(actor: Actor, id: string, version: number) {
  await workflowOf(actor.teamId, id);
  const v = await db.workflowVersion.findUnique({ where: { workflowId_version: { workflowId: id, version } } });
  if (!v) throw notFound(`Workflow ${id} has no version ${version}.`);
  return updateWorkflow(actor, id, {
    nodes: parseNodes(v.nodes),
    trigger: v.triggerType as TriggerType,
    schedule: v.schedule,
    timezone: v.timezone,
    events: parseEvents(v.events),
  });
}
