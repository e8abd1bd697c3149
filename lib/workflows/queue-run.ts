import "server-only";
import { db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError, forbidden, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { jobSignal } from "@/lib/db/commit-signals";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { parseNodes } from "@/lib/workflows/workflow-json";
import type { RunState } from "@/lib/workflows/run-records";
import type { TriggerData } from "@/lib/workflows/templates";
import { othersPrivateConnections, writesWithoutApproval } from "@/lib/workflows/workflow-consent";
import { connectionProblems } from "@/lib/workflows/connection-problems";

// Queuing a run (CONTRACT §9, §13): by hand (Run now, `workflow run`), by an API call, by a
// webhook. The run takes its snapshot here; the runner of some instance starts it. A trigger key
// (a caller's Idempotency-Key, an event's id) makes the run once per workflow: the key is unique
// per workflow, so of two requests with the same key one creates the run and the other reads it.

/** How long an Idempotency-Key answers with its first run. */
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

type RunTrigger = "manual" | "schedule" | "webhook" | "event" | "api" | "replay";

type SnapshotSource = {
  nodes: unknown;
  schedule: string | null;
  timezone: string | null;
  createdByUserId: string | null;
};

/** A private connection a run's snapshot names with its owner. */
type PrivateConnection = { id: string; teamId: string; type: string; ownerUserId: string | null };

const connectionIdsOf = (nodes: ReturnType<typeof parseNodes>) => [
  ...new Set(nodes.map((n) => n.connection_id).filter((c): c is string => !!c)),
];

/**
 * The private connections the nodes of these workflows use, in one read: the scheduler's batch of
 * due workflows passes them to `runSnapshot` (`known`) instead of one read per run.
 */
export async function privateConnectionsOf(workflows: { nodes: unknown }[]): Promise<PrivateConnection[]> {
  const ids = [...new Set(workflows.flatMap((w) => connectionIdsOf(parseNodes(w.nodes))))];
  if (!ids.length) return [];
  return db.connection.findMany({
    where: { id: { in: ids }, ownerUserId: { not: null } },
    select: { id: true, teamId: true, type: true, ownerUserId: true },
  });
}

/**
 * The definition a run executes, taken when it is queued: an edit after that never changes what
 * it does. With it, who allowed its writes (`writesBy`), the owners of the private connections it
 * uses (so its logs and details stay theirs) and what started it. `client` is the caller's
 * transaction when it has one; `known`, the private connections read already (`privateConnectionsOf`).
 */
export async function runSnapshot(
  teamId: string,
  workflow: SnapshotSource,
  writesBy: string | null,
  extra: { trigger?: TriggerData; chain?: string[]; client?: Tx; known?: PrivateConnection[] } = {},
): Promise<string> {
  const nodes = parseNodes(workflow.nodes);
  const ids = connectionIdsOf(nodes);
  const client = extra.client ?? db;
  const owned = !ids.length
    ? []
    : extra.known
      ? extra.known.filter((c) => c.teamId === teamId && ids.includes(c.id))
      : await client.connection.findMany({
          where: { teamId, id: { in: ids }, ownerUserId: { not: null } },
          select: { id: true, type: true, ownerUserId: true },
        });
  const state: RunState = {
    nodes,
    timezone: workflow.schedule ? workflow.timezone : null,
    owner_user_id: workflow.createdByUserId,
    writes_by: writesBy,
    private_owners: Object.fromEntries(owned.map((c) => [c.id, { owner: c.ownerUserId!, type: c.type }])),
    ...(extra.trigger && { trigger: extra.trigger }),
    ...(extra.chain && { chain: extra.chain }),
    steps: [],
  };
  return JSON.stringify(state);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "P2002";

/**
 * The run an earlier request with this trigger key started within the idempotency window, or
 * null; a key older than the window is released so that it starts a new run.
 */
export async function runOfKey(workflowId: string, triggerKey: string): Promise<string | null> {
  const row = await db.workflowRun.findUnique({
    where: { workflowId_triggerKey: { workflowId, triggerKey } },
    select: { id: true, createdAt: true },
  });
  if (!row) return null;
  if (Number(row.createdAt) > Date.now() - IDEMPOTENCY_WINDOW_MS) return row.id;
  await db.workflowRun.updateMany({ where: { id: row.id, triggerKey }, data: { triggerKey: null } });
  return null;
}

export type QueueOptions = {
  trigger?: Exclude<RunTrigger, "schedule" | "event" | "replay">;
  triggerData?: TriggerData;
  /** `webhook:<key>` or `api:<key>`: a second request with it answers the first run and starts nothing. */
  triggerKey?: string;
  /** Refuse (409) an inactive workflow: an API call or a webhook starts active workflows only. */
  requireActive?: boolean;
};

/**
 * Queues a run of a workflow now (Run now, `workflow run`, `POST /v1/workflows/{id}/runs`, a
 * webhook). `by.userId` is who starts it (its logs' user); a webhook's run is its creator's.
 * Returns the run id and whether this call created it (false: the trigger key's earlier run).
 */
export async function enqueueRun(
  teamId: string,
  workflowId: string,
  by: { userId: string | null; viaCli?: boolean },
  options: QueueOptions = {},
): Promise<{ run_id: string; created: boolean }> {
  const trigger = options.trigger ?? "manual";
  const workflow = await db.workflow.findFirst({
    where: { id: workflowId, teamId },
    select: {
      id: true,
      name: true,
      active: true,
      nodes: true,
      schedule: true,
      timezone: true,
      version: true,
      createdByUserId: true,
      activatedByUserId: true,
    },
  });
  if (!workflow) throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  if (options.requireActive && !workflow.active)
    throw new ApiError(409, `Workflow ${workflowId} is inactive: activate it to start runs this way.`);
  if (options.triggerKey) {
    const earlier = await runOfKey(workflowId, options.triggerKey);
    if (earlier) return { run_id: earlier, created: false };
  }
  const user = by.userId
    ? await db.user.findUnique({ where: { id: by.userId }, select: { id: true, email: true } })
    : null;
  const nodes = parseNodes(workflow.nodes);
  const byPerson = !by.viaCli && trigger !== "webhook";
  if (byPerson) {
    // A private connection is its owner's alone: a workflow on one is run by hand by that owner only.
    const others = await othersPrivateConnections(
      teamId,
      nodes.map((n) => n.connection_id ?? ""),
      by.userId,
    );
    if (others.length)
      throw forbidden(
        `This workflow runs on a teammate's private connection (${others.map((c) => c.type).join(", ")}), which is theirs alone: only its owner can run it by hand or read its runs.`,
      );
    // A node whose connection is known to fail (deleted, or waiting for re-authorization) would
    // only charge the run to fail at once: a person's Run now is refused first, saying which and
    // why. The command line, the schedule and webhooks run it, and the run records the failure.
    const problems = await connectionProblems(
      teamId,
      nodes.flatMap((n) => (n.connection_id ? [n.connection_id] : [])),
      by.userId ?? "",
    );
    if (problems.size) {
      const which = nodes
        .filter((n) => n.connection_id && problems.has(n.connection_id))
        .map((n) => `${n.label || n.id}: ${problems.get(n.connection_id!)}`);
      throw new ApiError(409, `Not started, nothing charged: ${which.join("; ")}.`);
    }
  }
  // An active workflow's writes were allowed by the owner who activated it; an inactive one's
  // (or one no owner activated, such as a simulated one) need an owner to run it by hand.
  const writes = writesWithoutApproval(nodes).length > 0;
  let writesBy: string | null = workflow.active ? workflow.activatedByUserId : null;
  const isOwner = async (userId: string | null) =>
    (
      await db.membership.findUnique({
        where: { teamId_userId: { teamId, userId: userId ?? "" } },
        select: { role: true },
      })
    )?.role === "owner";
  // The owner who activated it may have stopped being one: their consent went with the role.
  if (writes && writesBy && byPerson && !(await isOwner(writesBy))) writesBy = null;
  if (by.viaCli) writesBy = "operator";
  else if (writes && !writesBy && byPerson) {
    if (!(await isOwner(by.userId))) {
      throw forbidden(
        `This workflow ${workflow.active ? "has write nodes that no team owner has activated (or whose activating owner is no longer one)" : "is inactive and has write nodes"}: only a team owner can run it by hand. Ask an owner to run or activate it.`,
      );
    }
    writesBy = by.userId;
  }
  const now = Date.now();
  const id = newId("run");
  const state = await runSnapshot(teamId, workflow, writesBy, { trigger: options.triggerData });
  try {
    await transaction(async (tx) => {
      await tx.workflowRun.create({
        data: {
          id,
          teamId,
          workflowId,
          workflowName: workflow.name,
          trigger,
          triggerKey: options.triggerKey ?? null,
          version: workflow.version,
          userId: user?.id ?? null,
          userEmail: user?.email ?? null,
          status: "queued",
          dueAt: BigInt(now),
          createdAt: BigInt(now),
          state,
        },
      });
      jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
    });
  } catch (e) {
    // The same key at the same moment: the other request created the run.
    if (!options.triggerKey || !isUniqueViolation(e)) throw e;
    const earlier = await runOfKey(workflowId, options.triggerKey);
    if (!earlier) throw e;
    return { run_id: earlier, created: false };
  }
  return { run_id: id, created: true };
}
