import "server-only";
import { db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError, forbidden, notFound } from "@/lib/errors/api-error";
import { newId, newOrderedId } from "@/lib/security/ids";
import { toLogRow } from "@/lib/logs/record-operations";
import { chargeCredits } from "@/lib/credits/charge-credits";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { jobSignal } from "@/lib/db/commit-signals";
import { keepLease } from "@/lib/jobs/job-loop";
import { findOperation } from "@/lib/operations/registry";
import { connectionForRun, describeFailure, executeOperation, inputSchema } from "@/lib/operations/run-operation";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { describeZodError } from "@/lib/errors/api-error";
import { logger } from "@/lib/observability/logger";
import { resolveInput, TemplateError } from "@/lib/workflows/templates";
import { parseNodes } from "@/lib/workflows/workflow-json";
import {
  nodeLogRecord,
  parseRunState,
  runCharge,
  skippedSteps,
  type RunIdentity,
  type RunState,
  type StepState,
} from "@/lib/workflows/run-records";
import { leaseMs, MAX_RETRIES, retryBaseMs } from "@/lib/workflows/config";
import {
  othersPrivateConnections,
  privateConnectionProblem,
  privateOwnersOfNodes,
  writesWithoutApproval,
} from "@/lib/workflows/workflow-consent";
import { releaseCredits, reserveCredits } from "@/lib/workflows/credit-reservation";
import type { WorkflowNode } from "@/lib/schemas/workflows";
import { connectionProblems } from "@/lib/workflows/connection-problems";

// One workflow run, from its claim to its ledger entry (CONTRACT §9). Nodes run in order; each
// is one operation log, written `start` before its operation runs and completed after, in the
// same transaction as the run's progress (the node it is on), so an instance that dies mid-run
// leaves exactly what the next one needs: the run is taken over once its lease lapses and
// continues at that node. A node that was in flight is run again if that is safe (a read, a
// utility, a write that sets a state); any other write may have reached its provider and is not
// repeated: the node fails and says so. Every write of a run is conditional on its claim, so an
// instance that lost its lease cannot write over the one that took over.

export const RUNS = "workflow-runs";

/**
 * The definition a run executes, taken when it is queued: an edit after that never changes what
 * it does. With it, who allowed its writes (`writesBy`) and the owners of the private
 * connections it uses, so its logs and details stay theirs.
 */
export async function runSnapshot(
  teamId: string,
  workflow: { nodes: unknown; schedule: string | null; timezone: string | null; createdByUserId: string | null },
  writesBy: string | null,
): Promise<string> {
  const nodes = parseNodes(workflow.nodes);
  const ids = [...new Set(nodes.map((n) => n.connection_id).filter((c): c is string => !!c))];
  const owned = ids.length
    ? await db.connection.findMany({
        where: { teamId, id: { in: ids }, ownerUserId: { not: null } },
        select: { id: true, type: true, ownerUserId: true },
      })
    : [];
  const state: RunState = {
    nodes,
    timezone: workflow.schedule ? workflow.timezone : null,
    owner_user_id: workflow.createdByUserId,
    writes_by: writesBy,
    private_owners: Object.fromEntries(owned.map((c) => [c.id, { owner: c.ownerUserId!, type: c.type }])),
    steps: [],
  };
  return JSON.stringify(state);
}

/** Queues a run of a workflow now (Run now, `workflow run`); the runner of some instance starts it. */
export async function enqueueRun(teamId: string, workflowId: string, by: { userId: string | null; viaCli?: boolean }) {
  const workflow = await db.workflow.findFirst({
    where: { id: workflowId, teamId },
    select: {
      id: true,
      name: true,
      active: true,
      nodes: true,
      schedule: true,
      timezone: true,
      createdByUserId: true,
      activatedByUserId: true,
    },
  });
  if (!workflow) throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  const user = by.userId
    ? await db.user.findUnique({ where: { id: by.userId }, select: { id: true, email: true } })
    : null;
  const nodes = parseNodes(workflow.nodes);
  if (!by.viaCli) {
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
  }
  // A node whose connection is known to fail (deleted, or waiting for re-authorization) would only
  // charge the run to fail at once: a person's Run now is refused first, saying which and why. The
  // command line and the schedule run it, and the run records the failure.
  if (!by.viaCli) {
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
  if (by.viaCli) writesBy = "operator";
  else if (writes && !writesBy) {
    const member = await db.membership.findUnique({
      where: { teamId_userId: { teamId, userId: by.userId ?? "" } },
      select: { role: true },
    });
    if (member?.role !== "owner") {
      throw forbidden(
        `This workflow ${workflow.active ? "has write nodes that no team owner has activated" : "is inactive and has write nodes"}: only a team owner can run it by hand. Ask an owner to run or activate it.`,
      );
    }
    writesBy = by.userId;
  }
  const now = Date.now();
  const id = newId("run");
  const state = await runSnapshot(teamId, workflow, writesBy);
  await transaction(async (tx) => {
    await tx.workflowRun.create({
      data: {
        id,
        teamId,
        workflowId,
        workflowName: workflow.name,
        trigger: "manual",
        userId: user?.id ?? null,
        userEmail: user?.email ?? null,
        status: "queued",
        dueAt: BigInt(now),
        createdAt: BigInt(now),
        state,
      },
    });
    jobSignal(RUNS).wanted = true;
  });
  return { run_id: id };
}

class LostClaim extends Error {}

/** Applies `data` to the run while this instance's claim holds; else the whole transaction rolls back. */
async function own(tx: Tx, claim: Claim, data: Parameters<Tx["workflowRun"]["updateMany"]>[0]["data"]) {
  const { count } = await tx.workflowRun.updateMany({ where: { id: claim.id, claims: claim.claims }, data });
  if (count === 0) throw new LostClaim();
}

export type Claim = { id: string; claims: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Whether a failed attempt is tried again: the provider could not be reached or answered that it
 * could not serve. Not a write that is not safe to repeat when no answer came after it may have
 * arrived (a timeout): it may have been applied, and sending it again could post the message or
 * change the budget twice.
 */
const retryable = (e: unknown, op: Operation) =>
  (e instanceof ProviderUnavailable && !(e.maybeApplied && !safeToRepeat(op))) ||
  (e instanceof ApiError && (e.status === 429 || e.status >= 500));

type NodeResult = { ok: true; output: unknown; credits: number; cacheHit: boolean } | { ok: false; error: string };

/** Runs one node's operation, retrying a retryable failure with backoff; `step.retry_attempts` counts the retries. */
async function runNode(
  teamId: string,
  ownerUserId: string | null,
  node: WorkflowNode,
  op: Operation | undefined,
  input: Record<string, unknown>,
  step: StepState,
): Promise<NodeResult> {
  if (!op)
    return {
      ok: false,
      error: `Operation ${node.operation_id} is not in the catalogue; edit the node to use another one.`,
    };
  const parsed = inputSchema(op).safeParse(input);
  if (!parsed.success) return { ok: false, error: `Invalid input for ${op.id}: ${describeZodError(parsed.error)}.` };
  let connection = null;
  if (op.types.length) {
    if (!node.connection_id)
      return {
        ok: false,
        error: `Node ${node.id} has no connection: choose a ${op.types.join(" or ")} connection for it in the editor.`,
      };
    connection = await connectionForRun(teamId, node.connection_id);
    if (!connection)
      return {
        ok: false,
        error: `Connection ${node.connection_id} no longer exists; rebind the workflow to another ${op.types.join(" or ")} connection.`,
      };
    if (!op.types.includes(connection.type))
      return {
        ok: false,
        error: `Connection ${connection.id} is a ${connection.type} connection; ${op.id} runs on ${op.types.join(", ")}.`,
      };
    const problem = await privateConnectionProblem(teamId, connection, ownerUserId);
    if (problem) return { ok: false, error: problem };
  }
  for (let attempt = 0; ; attempt++) {
    try {
      if (!connection)
        return { ok: true, output: await op.run(null as never, parsed.data), credits: 0, cacheHit: false };
      const r = await executeOperation(teamId, op, connection, parsed.data);
      return { ok: true, output: r.result, credits: r.credits, cacheHit: r.cacheHit };
    } catch (e) {
      if (attempt < MAX_RETRIES && retryable(e, op)) {
        step.retry_attempts = attempt + 1;
        await sleep(retryBaseMs() * 3 ** attempt * (1 + Math.random() * 0.2));
        continue;
      }
      return { ok: false, error: describeFailure(e) };
    }
  }
}

/**
 * Why a write node may not run now, or null: nobody allowed this run's writes, the owner who did
 * is no longer a team owner (demoted, removed, or left), or Patchbay stopped the workflow after
 * the run was queued because the consent it ran on went (a member left with her private
 * connection, a connection it writes to was given another account's credentials). Checked before
 * every write, so a run that was already queued or under way then writes nothing more.
 */
async function writeConsentProblem(
  run: { teamId: string; workflowId: string; createdAt: bigint },
  state: RunState,
): Promise<string | null> {
  if ("writes_by" in state && !state.writes_by)
    return "No team owner has allowed this workflow's writes: an owner activates it, or runs it by hand.";
  if (state.writes_by && state.writes_by !== "operator") {
    const member = await db.membership.findUnique({
      where: { teamId_userId: { teamId: run.teamId, userId: state.writes_by } },
      select: { role: true, user: { select: { email: true } } },
    });
    if (member?.role !== "owner")
      return `Not written: ${member ? `${member.user.email}, the team owner who allowed this run's writes, is no longer a team owner` : "the team owner who allowed this run's writes is no longer in the team"}, and a workflow writes without approval only on an owner's consent. A team owner activates it again, or runs it by hand.`;
  }
  const wf = await db.workflow.findUnique({
    where: { id: run.workflowId },
    select: { active: true, deactivatedReason: true, updatedAt: true },
  });
  if (wf && !wf.active && wf.deactivatedReason && wf.updatedAt.getTime() >= Number(run.createdAt))
    return `Not written: Patchbay stopped this workflow after the run was queued. ${wf.deactivatedReason}`;
  return null;
}

/** The most a run of `nodes` can cost: 1 for the run and each node's price (a cache hit costs less). */
const maxRunCost = (nodes: WorkflowNode[]) =>
  1 + nodes.reduce((sum, n) => sum + (findOperation(n.operation_id)?.credits ?? 0), 0);

/** Whether a node found in flight after a takeover may be run again. */
const safeToRepeat = (op: Operation | undefined) => !op || op.kind === "read" || op.idempotent === true;

/** The outputs of the nodes a run completed before it was taken over, from their logs. */
async function outputsOf(state: RunState): Promise<Record<string, unknown>> {
  const done = state.steps.filter((s) => s.status === "success");
  if (!done.length) return {};
  const logs = await db.operationLog.findMany({
    where: { id: { in: done.map((s) => s.log_id) } },
    select: { id: true, output: true },
  });
  const byLog = new Map(logs.map((l) => [l.id, l.output === null ? null : JSON.parse(l.output)]));
  return Object.fromEntries(done.map((s) => [s.node_id, byLog.get(s.log_id) ?? null]));
}

/** Executes a claimed run to its end (or until its claim is lost). */
export async function executeRun(claim: Claim): Promise<void> {
  const run = await db.workflowRun.findUnique({ where: { id: claim.id } });
  if (!run || run.claims !== claim.claims) return;
  const stopLease = keepLease(
    () =>
      db.workflowRun.updateMany({
        where: { id: claim.id, claims: claim.claims },
        data: { leaseUntil: BigInt(Date.now() + leaseMs()) },
      }),
    leaseMs() / 3,
  );
  try {
    await execute(claim, run);
  } catch (e) {
    if (!(e instanceof LostClaim)) logger.error("workflow run failed inside Patchbay", { run_id: claim.id, error: e });
  } finally {
    stopLease();
  }
}

async function execute(claim: Claim, run: NonNullable<Awaited<ReturnType<typeof db.workflowRun.findUnique>>>) {
  const identity: RunIdentity = {
    id: run.id,
    teamId: run.teamId,
    workflowId: run.workflowId,
    workflowName: run.workflowName,
    user: run.userId ? { id: run.userId, email: run.userEmail ?? "" } : null,
  };
  const startedMs = Number(run.startedAt ?? Date.now());
  let state = parseRunState(run.state);
  if (!state.nodes) {
    // Queued before runs carried their snapshot: the workflow as it is now.
    const workflow = await db.workflow.findUnique({
      where: { id: run.workflowId },
      select: {
        nodes: true,
        timezone: true,
        schedule: true,
        createdByUserId: true,
        active: true,
        activatedByUserId: true,
      },
    });
    if (!workflow) return; // deleted meanwhile: its runs went with it
    state = parseRunState(await runSnapshot(run.teamId, workflow, workflow.active ? workflow.activatedByUserId : null));
  }
  if (!state.steps.length && run.nodeIndex === 0 && run.reservedCredits === 0) {
    // First claim: the run holds the most it can cost against the team's balance, or is refused
    // when nothing is left once the other running runs' holds are counted (CONTRACT §9, narrowed
    // so that concurrent runs overshoot by at most one run's cost in all).
    const refusal = await reserveCredits(run.teamId, { id: claim.id, claims: claim.claims }, maxRunCost(state.nodes!));
    if (refusal) {
      await transaction((tx) =>
        own(tx, claim, {
          status: "refused",
          error: refusal,
          credits: 0,
          completedAt: BigInt(Date.now()),
          leaseUntil: null,
          state: JSON.stringify(state),
        }),
      );
      return;
    }
  }
  const nodes = state.nodes!;
  const privateOwners = privateOwnersOfNodes(state);
  const outputs = run.nodeIndex > 0 ? await outputsOf(state) : {};
  const ctx = { startedAt: new Date(startedMs), timezone: state.timezone ?? null, outputs };
  let failedAt = -1;
  let failure = "";
  for (let i = run.nodeIndex; i < nodes.length; i++) {
    // Other runs (and, in-process, requests) get the event loop between nodes.
    await new Promise((r) => setImmediate(r));
    const node = nodes[i];
    const op = findOperation(node.operation_id);
    let input: Record<string, unknown> = node.input;
    let templateError: string | null = null;
    try {
      input = resolveInput(node.input, ctx) as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      templateError = e.message;
    }
    const io = {
      operationVersion: op?.operationVersion ?? null,
      input,
      privateTo: privateOwners.get(node.id)?.owner ?? null,
    };
    let step = state.steps[i];
    const resumed = step?.status === "start";
    if (!resumed) {
      step = {
        node_id: node.id,
        log_id: newOrderedId("log"),
        status: "start",
        started_ms: Math.max(Date.now(), state.steps[i - 1]?.completed_ms ?? 0),
        completed_ms: null,
        retry_attempts: 0,
        credits: 0,
      };
      state.steps[i] = step;
      await transaction(async (tx) => {
        await own(tx, claim, { nodeIndex: i, state: JSON.stringify(state) });
        await tx.operationLog.create({
          data: toLogRow(run.teamId, step.log_id, nodeLogRecord(identity, node, step, io)),
        });
      });
    }
    const withdrawn = op?.kind === "write" ? await writeConsentProblem(run, state) : null;
    const result: NodeResult = templateError
      ? { ok: false, error: `The input could not be filled in: ${templateError}.` }
      : withdrawn
        ? { ok: false, error: withdrawn }
        : resumed && !safeToRepeat(op)
          ? {
              ok: false,
              error: `The instance running this node stopped while ${op!.id} was being sent; it may have reached the provider, and a write that is not safe to repeat is not sent again. Check the account before running the workflow again.`,
            }
          : await runNode(run.teamId, state.owner_user_id ?? null, node, op, input, step);
    step.completed_ms = Math.max(Date.now(), step.started_ms);
    if (result.ok) {
      step.status = "success";
      step.credits = result.credits;
      step.cache_hit = result.cacheHit;
      outputs[node.id] = result.output;
    } else {
      step.status = "error";
      step.error = result.error;
    }
    const record = nodeLogRecord(identity, node, step, {
      ...io,
      output: result.ok ? result.output : { error: result.error },
    });
    const row = toLogRow(run.teamId, step.log_id, record);
    await transaction(async (tx) => {
      await own(tx, claim, { nodeIndex: i + 1, state: JSON.stringify(state) });
      await tx.operationLog.update({
        where: { id: step.log_id },
        data: {
          status: row.status,
          completedAt: row.completedAt,
          creditsUsed: row.creditsUsed,
          cacheHit: row.cacheHit,
          input: row.input,
          output: row.output,
          metadata: row.metadata,
        },
      });
    });
    if (!result.ok) {
      failedAt = i;
      failure = result.error;
      break;
    }
  }
  await finish(claim, identity, state, startedMs, failedAt, failure);
}

/**
 * A failed node's error as the whole team may read it (`workflow.run_failed` goes to every
 * endpoint of the team): a node on a private connection may fail with its provider's words about
 * that account, and one fed a private node's output may repeat it, which only the connection's
 * owner reads, as in the logs (lib/logs/log-to-json.ts); the team reads that it failed there.
 */
function teamReadableError(state: RunState, node: WorkflowNode, error: string): string {
  const via = privateOwnersOfNodes(state).get(node.id)?.via;
  if (!via) return error;
  const type = node.connection_id ? state.private_owners?.[node.connection_id]?.type : undefined;
  return via === "connection"
    ? `Node ${node.id} failed on a private ${type} connection; its owner can read the error in the logs.`
    : `Node ${node.id} failed on data from a private connection; its owner can read the error in the logs.`;
}

/**
 * The run's end, in one transaction: the skipped nodes' logs, its ledger entry, its status, and
 * workflow.run_failed.
 */
async function finish(
  claim: Claim,
  identity: RunIdentity,
  state: RunState,
  startedMs: number,
  failedAt: number,
  failure: string,
) {
  const nodes = state.nodes!;
  const now = Date.now();
  const skipped =
    failedAt >= 0
      ? skippedSteps(nodes, failedAt + 1, Math.max(now, state.steps[failedAt]?.completed_ms ?? 0), () =>
          newOrderedId("log"),
        )
      : [];
  state.steps.push(...skipped);
  const charge = runCharge(identity, state.steps, startedMs);
  const failedNode = failedAt >= 0 ? nodes[failedAt] : null;
  await transaction(async (tx) => {
    await own(tx, claim, {
      status: failedNode ? "error" : "success",
      state: JSON.stringify(state),
      nodeIndex: nodes.length,
      credits: charge.credits,
      error: failedNode ? failure : null,
      failedNodeId: failedNode?.id ?? null,
      completedAt: BigInt(now),
      leaseUntil: null,
    });
    await releaseCredits(tx, identity.id);
    if (skipped.length) {
      await tx.operationLog.createMany({
        data: skipped.map((step, k) => {
          const node = nodes[failedAt + 1 + k];
          return toLogRow(
            identity.teamId,
            step.log_id,
            nodeLogRecord(identity, node, step, {
              operationVersion: findOperation(node.operation_id)?.operationVersion ?? null,
              output: { reason: `node ${failedNode!.id} failed` },
            }),
          );
        }),
      });
    }
    await chargeCredits(tx, { ...charge, teamId: identity.teamId });
    if (failedNode) {
      await emitWebhookEvent(tx, identity.teamId, "workflow.run_failed", {
        workflow: { id: identity.workflowId, name: identity.workflowName },
        run_id: identity.id,
        failed_node_id: failedNode.id,
        error: teamReadableError(state, failedNode, failure),
      });
    }
  });
}
