import "server-only";
import { db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError, forbidden, notFound } from "@/lib/api/errors";
import { newId, newOrderedId } from "@/lib/security/ids";
import { toLogRow } from "@/lib/logs/record-operations";
import { chargeCredits } from "@/lib/credits/charge-credits";
import { noCreditsLeft } from "@/lib/credits/no-credits-left";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { jobSignal } from "@/lib/jobs/wake";
import { keepLease } from "@/lib/jobs/job-loop";
import { findOperation } from "@/lib/operations/registry";
import { connectionForRun, describeFailure, executeOperation, inputSchema } from "@/lib/operations/run-operation";
import { ProviderUnavailable } from "@/lib/providers/types";
import type { Operation } from "@/lib/operations/types";
import { describeZodError } from "@/lib/api/errors";
import { logger } from "@/lib/observability/logger";
import { resolveInput, TemplateError } from "@/lib/workflows/templates";
import { parseNodes } from "@/lib/workflows/workflow-json";
import { nodeLogRecord, parseRunState, runCharge, skippedSteps, type RunIdentity, type RunState, type StepState } from "@/lib/workflows/run-records";
import { leaseMs, MAX_RETRIES, retryBaseMs } from "@/lib/workflows/config";
import type { WorkflowNode } from "@/lib/schemas/workflows";

// One workflow run, from its claim to its ledger entry (CONTRACT §9). Nodes run in order; each
// is one operation log, written `start` before its operation runs and completed after, in the
// same transaction as the run's progress (the node it is on), so an instance that dies mid-run
// leaves exactly what the next one needs: the run is taken over once its lease lapses and
// continues at that node. A node that was in flight is run again if that is safe (a read, a
// utility, a write that sets a state); any other write may have reached its provider and is not
// repeated: the node fails and says so. Every write of a run is conditional on its claim, so an
// instance that lost its lease cannot write over the one that took over.

export const RUNS = "workflow-runs";

/** Queues a run of a workflow now (Run now, `workflow run`); the runner of some instance starts it. */
export async function enqueueRun(teamId: string, workflowId: string, by: { userId: string | null; viaCli?: boolean }) {
  const workflow = await db.workflow.findFirst({ where: { id: workflowId, teamId }, select: { id: true, name: true, active: true, nodes: true } });
  if (!workflow) throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  const user = by.userId ? await db.user.findUnique({ where: { id: by.userId }, select: { id: true, email: true } }) : null;
  // An active workflow's writes were allowed by the owner who activated it; an inactive one's
  // need an owner to run it by hand.
  if (!workflow.active && !by.viaCli && parseNodes(workflow.nodes).some((n) => findOperation(n.operation_id)?.kind === "write")) {
    const member = await db.membership.findUnique({ where: { teamId_userId: { teamId, userId: by.userId ?? "" } }, select: { role: true } });
    if (member?.role !== "owner") throw forbidden("This workflow is inactive and has write nodes: only a team owner can run it by hand. Ask an owner to run or activate it.");
  }
  const now = Date.now();
  const id = newId("run");
  await transaction(async (tx) => {
    await tx.workflowRun.create({
      data: { id, teamId, workflowId, workflowName: workflow.name, trigger: "manual", userId: user?.id ?? null, userEmail: user?.email ?? null, status: "queued", dueAt: BigInt(now), createdAt: BigInt(now) },
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
const retryable = (e: unknown) => e instanceof ProviderUnavailable || (e instanceof ApiError && (e.status === 429 || e.status >= 500));

type NodeResult = { ok: true; output: unknown; credits: number; cacheHit: boolean } | { ok: false; error: string };

/** Runs one node's operation, retrying a retryable failure with backoff; `step.retry_attempts` counts the retries. */
async function runNode(teamId: string, node: WorkflowNode, op: Operation | undefined, input: Record<string, unknown>, step: StepState): Promise<NodeResult> {
  if (!op) return { ok: false, error: `Operation ${node.operation_id} is not in the catalogue; edit the node to use another one.` };
  const parsed = inputSchema(op).safeParse(input);
  if (!parsed.success) return { ok: false, error: `Invalid input for ${op.id}: ${describeZodError(parsed.error)}.` };
  let connection = null;
  if (op.types.length) {
    if (!node.connection_id) return { ok: false, error: `Node ${node.id} has no connection: choose a ${op.types.join(" or ")} connection for it in the editor.` };
    connection = await connectionForRun(teamId, node.connection_id);
    if (!connection) return { ok: false, error: `Connection ${node.connection_id} no longer exists; rebind the workflow to another ${op.types.join(" or ")} connection.` };
  }
  for (let attempt = 0; ; attempt++) {
    try {
      if (!connection) return { ok: true, output: await op.run(null as never, parsed.data), credits: 0, cacheHit: false };
      const r = await executeOperation(teamId, op, connection, parsed.data as Record<string, unknown>);
      return { ok: true, output: r.result, credits: r.credits, cacheHit: r.cacheHit };
    } catch (e) {
      if (attempt < MAX_RETRIES && retryable(e)) {
        step.retry_attempts = attempt + 1;
        await sleep(retryBaseMs() * 3 ** attempt * (1 + Math.random() * 0.2));
        continue;
      }
      return { ok: false, error: describeFailure(e) };
    }
  }
}

/** Whether a node found in flight after a takeover may be run again. */
const safeToRepeat = (op: Operation | undefined) => !op || op.kind === "read" || op.idempotent === true;

/** The outputs of the nodes a run completed before it was taken over, from their logs. */
async function outputsOf(state: RunState): Promise<Record<string, unknown>> {
  const done = state.steps.filter((s) => s.status === "success");
  if (!done.length) return {};
  const logs = await db.operationLog.findMany({ where: { id: { in: done.map((s) => s.log_id) } }, select: { id: true, output: true } });
  const byLog = new Map(logs.map((l) => [l.id, l.output === null ? null : JSON.parse(l.output)]));
  return Object.fromEntries(done.map((s) => [s.node_id, byLog.get(s.log_id) ?? null]));
}

/** Executes a claimed run to its end (or until its claim is lost). */
export async function executeRun(claim: Claim): Promise<void> {
  const run = await db.workflowRun.findUnique({ where: { id: claim.id } });
  if (!run || run.claims !== claim.claims) return;
  const stopLease = keepLease(() => db.workflowRun.updateMany({ where: { id: claim.id, claims: claim.claims }, data: { leaseUntil: BigInt(Date.now() + leaseMs()) } }), leaseMs() / 3);
  try {
    await execute(claim, run);
  } catch (e) {
    if (!(e instanceof LostClaim)) logger.error("workflow run failed inside Patchbay", { run_id: claim.id, error: e });
  } finally {
    stopLease();
  }
}

async function execute(claim: Claim, run: NonNullable<Awaited<ReturnType<typeof db.workflowRun.findUnique>>>) {
  const identity: RunIdentity = { id: run.id, teamId: run.teamId, workflowId: run.workflowId, workflowName: run.workflowName, user: run.userId ? { id: run.userId, email: run.userEmail ?? "" } : null };
  const startedMs = Number(run.startedAt ?? Date.now());
  let state = parseRunState(run.state);
  if (!state.nodes) {
    // First claim: a team without credits runs nothing and is charged nothing (CONTRACT §9).
    const refusal = await noCreditsLeft(run.teamId);
    if (refusal) {
      await transaction((tx) => own(tx, claim, { status: "refused", error: refusal, credits: 0, completedAt: BigInt(Date.now()), leaseUntil: null }));
      return;
    }
    const workflow = await db.workflow.findUnique({ where: { id: run.workflowId }, select: { nodes: true, timezone: true, schedule: true } });
    if (!workflow) return; // deleted meanwhile: its runs went with it
    state = { nodes: parseNodes(workflow.nodes), timezone: workflow.schedule ? workflow.timezone : null, steps: [] };
  }
  const nodes = state.nodes!;
  const outputs = run.nodeIndex > 0 ? await outputsOf(state) : {};
  const ctx = { startedAt: new Date(startedMs), timezone: state.timezone ?? null, outputs };
  let failedAt = -1;
  let failure = "";
  for (let i = run.nodeIndex; i < nodes.length; i++) {
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
    const io = { operationVersion: op?.operationVersion ?? null, input };
    let step = state.steps[i];
    const resumed = step?.status === "start";
    if (!resumed) {
      step = { node_id: node.id, log_id: newOrderedId("log"), status: "start", started_ms: Math.max(Date.now(), state.steps[i - 1]?.completed_ms ?? 0), completed_ms: null, retry_attempts: 0, credits: 0 };
      state.steps[i] = step;
      await transaction(async (tx) => {
        await own(tx, claim, { nodeIndex: i, state: JSON.stringify(state) });
        await tx.operationLog.create({ data: toLogRow(run.teamId, step.log_id, nodeLogRecord(identity, node, step, io)) });
      });
    }
    const result: NodeResult = templateError
      ? { ok: false, error: `The input could not be filled in: ${templateError}.` }
      : resumed && !safeToRepeat(op)
        ? { ok: false, error: `The instance running this node stopped while ${op!.id} was being sent; it may have reached the provider, and a write that is not safe to repeat is not sent again. Check the account before running the workflow again.` }
        : await runNode(run.teamId, node, op, input, step);
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
    const record = nodeLogRecord(identity, node, step, { ...io, output: result.ok ? result.output : { error: result.error } });
    const row = toLogRow(run.teamId, step.log_id, record);
    await transaction(async (tx) => {
      await own(tx, claim, { nodeIndex: i + 1, state: JSON.stringify(state) });
      await tx.operationLog.update({ where: { id: step.log_id }, data: { status: row.status, completedAt: row.completedAt, creditsUsed: row.creditsUsed, cacheHit: row.cacheHit, input: row.input, output: row.output, metadata: row.metadata } });
    });
    if (!result.ok) {
      failedAt = i;
      failure = result.error;
      break;
    }
  }
  await finish(claim, identity, state, startedMs, failedAt, failure);
}

/** The run's end, in one transaction: the skipped nodes' logs, its ledger entry, its status, and workflow.run_failed. */
async function finish(claim: Claim, identity: RunIdentity, state: RunState, startedMs: number, failedAt: number, failure: string) {
  const nodes = state.nodes!;
  const now = Date.now();
  const skipped = failedAt >= 0 ? skippedSteps(nodes, failedAt + 1, Math.max(now, state.steps[failedAt]?.completed_ms ?? 0), () => newOrderedId("log")) : [];
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
    if (skipped.length) {
      await tx.operationLog.createMany({
        data: skipped.map((step, k) => {
          const node = nodes[failedAt + 1 + k];
          return toLogRow(identity.teamId, step.log_id, nodeLogRecord(identity, node, step, { operationVersion: findOperation(node.operation_id)?.operationVersion ?? null, output: { reason: `node ${failedNode!.id} failed` } }));
        }),
      });
    }
    await chargeCredits(tx, { ...charge, teamId: identity.teamId });
    if (failedNode) {
      await emitWebhookEvent(tx, identity.teamId, "workflow.run_failed", { workflow: { id: identity.workflowId, name: identity.workflowName }, run_id: identity.id, failed_node_id: failedNode.id, error: failure });
    }
  });
}
