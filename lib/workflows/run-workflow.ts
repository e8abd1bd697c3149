import "server-only";
import { db, dbEngine, runPipelined, runStatement } from "@/lib/db/client";
import { allOrNothing, captureDeferred, isUniqueViolation, NO_ROW_MATCHED } from "@/lib/db/tx-connection";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError } from "@/lib/errors/api-error";
import { newId, newOrderedId } from "@/lib/security/ids";
import { completeLog, markConnectionsUsed, toLogRow, writeLog } from "@/lib/logs/record-operations";
import type { Updateable } from "kysely";
import type { ReadDb } from "@/lib/db/read-types";
import { preparedInTx, write } from "@/lib/db/write";
import { compiledByShape, prepared, read } from "@/lib/db/read";
import { chargeCredits, chargeQueries, type Charge } from "@/lib/credits/charge-credits";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { keepLease } from "@/lib/jobs/job-loop";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { findOperation } from "@/lib/operations/registry";
import {
  connectionAndCredentialsForRun,
  connectionForRun,
  describeFailure,
  executeOperation,
  inputSchema,
} from "@/lib/operations/run-operation";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { BuiltinScope } from "@/lib/platforms/kit/define-operation";
import { describeZodError } from "@/lib/errors/api-error";
import { logger } from "@/lib/observability/logger";
import { resolveInput, resolveList, TemplateError, type RunContext } from "@/lib/workflows/templates";
import { evaluateCondition } from "@/lib/workflows/conditions";
import { FLOW_STOP } from "@/lib/platforms/kit/flow-stop";
import { workflowMaxIterations } from "@/lib/config/limits";
import { fileApproval } from "@/lib/approvals/file-approval";
import { effectiveStatus, parseStored } from "@/lib/approvals/approval-json";
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
import { privateConnectionProblem, privateOwnersOfNodes } from "@/lib/workflows/workflow-consent";
import { reserveCredits } from "@/lib/workflows/credit-reservation";
import { refusalOf } from "@/lib/credits/out-of-credits";
import { readNodeFacts, type NodeFacts } from "@/lib/workflows/node-reads";
import type { WorkflowNode } from "@/lib/schemas/workflows";
import { runSnapshot } from "@/lib/workflows/queue-run";
import { withChain } from "@/lib/webhooks/event-chain";

// One workflow run, from its claim to its ledger entry (CONTRACT §9). Nodes run in order; each
// is one operation log, written `start` before its operation runs (a utility's: once, when it
// ends) and completed after, in a transaction with the run's progress (a step that may run again
// is completed with the next node's start, or the run's end), so an instance that dies mid-run
// leaves exactly what the next one needs: the run is taken over once its lease lapses and
// continues at that node. A node that was in flight is run again if that is safe (a read, a
// utility, a write that sets a state); any other write may have reached its provider and is not
// repeated: the node fails and says so. Every write of a run is conditional on its claim, so an
// instance that lost its lease cannot write over the one that took over.

export const RUNS = WORKFLOW_RUNS_JOB;

class LostClaim extends Error {}

type RunUpdate = Updateable<ReadDb["WorkflowRun"]>;

const updateOwnedRunBuild = (a: RunUpdate & { runId: string; claim: number }) => {
  const { runId, claim, ...set } = a;
  return write.updateTable("WorkflowRun").set(set).where("id", "=", runId).where("claims", "=", claim).returning("id");
};
// The step logs written before it in its transaction ride in it (lib/db/write.ts): it reads only the run's row.
const updateOwnedRun = preparedInTx(updateOwnedRunBuild, { carriesDeferred: true });
const updateOwnedRunAlone = compiledByShape(updateOwnedRunBuild);

/** Applies `data` to the run while this instance's claim holds; else the whole transaction rolls back. */
async function own(tx: Tx, claim: Claim, data: RunUpdate) {
  const updated = await updateOwnedRun(tx, { ...data, runId: claim.id, claim: claim.claims });
  if (updated.length === 0) throw new LostClaim();
}

/**
 * A transaction that writes step logs and then `own`s the run. Another instance that took the
 * run over may have written a log of the same id first: the log's key breaks before the claim's
 * check is reached. That is a lost claim too, said as such.
 */
async function owned(claim: Claim, fn: (tx: Tx) => Promise<void>) {
  try {
    await transaction(fn);
  } catch (e) {
    if ((e as { code?: string }).code !== "P2002") throw e;
    const holds = await db.workflowRun.count({ where: { id: claim.id, claims: claim.claims } });
    throw holds ? e : new LostClaim();
  }
}

/**
 * A save whose writes all wait to be sent (the step logs: lib/db/write.ts) goes without an
 * interactive transaction. PostgreSQL: as one statement with no transaction around it: the logs,
 * then the run's state while the claim holds, all or nothing (`allOrNothing`), and a run's end its
 * charge too (`charge`: while no credits event is due). BEGIN and COMMIT were two of a save's
 * three round trips, and the charge's team lock is held only while the statement runs. SQLite
 * (not a charge): the logs and the state as one batch (`runPipelined`), undone if the claim is
 * lost, so the database's write lock is held for SQLite's work, not for this busy event loop to
 * come back to a transaction. False when it could not be done so (a write that needs its own, a
 * charge past the threshold, a charge on SQLite): then nothing was written, and the caller uses `owned`.
 */
async function savedAlone(
  claim: Claim,
  writes: (tx: Tx) => Promise<void>,
  data: RunUpdate,
  charge?: Charge,
): Promise<boolean> {
  const postgres = dbEngine() === "postgresql";
  if (!postgres && charge) return false;
  const deferred = await captureDeferred((tx) => writes(tx as Tx));
  if (!deferred) return false;
  const [sql, values] = updateOwnedRunAlone({ ...data, runId: claim.id, claim: claim.claims });
  try {
    if (postgres) {
      const one = allOrNothing(
        deferred,
        { sql, values },
        charge && ((first) => ({ ...chargeQueries(charge, { quiet: true, first }), mustMatch: ["t"] })),
      );
      await runStatement(one.sql, one.values);
    } else
      await runPipelined([
        { sql: "BEGIN", values: [] },
        ...deferred,
        { sql, values, mustMatch: true },
        { sql: "COMMIT", values: [] },
      ]);
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    // No row matched: the claim (lost), or the charge's condition (the full path says why).
    // A broken key: a log of the same id, written by an instance that took the run over (as in `owned`).
    if (code !== NO_ROW_MATCHED && !isUniqueViolation(e)) throw e;
    if (!(await db.workflowRun.count({ where: { id: claim.id, claims: claim.claims } }))) throw new LostClaim();
    if (code === NO_ROW_MATCHED) return false;
    throw e;
  }
}

/** What a run's execution reads of its row. */
type RunRow = {
  id: string;
  teamId: string;
  workflowId: string;
  workflowName: string;
  userId: string | null;
  userEmail: string | null;
  startedAt: bigint | null;
  state: string;
  nodeIndex: number;
  reservedCredits: number;
  claims: number;
  createdAt: bigint;
};

/** The columns of RunRow, as a claim's RETURNING list (lib/workflows/runner.ts). */
export const RUN_COLUMNS = `"id", "teamId", "workflowId", "workflowName", "userId", "userEmail", "startedAt", "state", "nodeIndex", "reservedCredits", "claims", "createdAt"`;

/** A row of RUN_COLUMNS as the driver gave it (numbers or bigints, by engine). */
export function runRowOf(r: Record<string, unknown>): RunRow {
  const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(v as number | bigint | string));
  return {
    id: String(r.id),
    teamId: String(r.teamId),
    workflowId: String(r.workflowId),
    workflowName: String(r.workflowName),
    userId: (r.userId as string | null) ?? null,
    userEmail: (r.userEmail as string | null) ?? null,
    startedAt: big(r.startedAt),
    state: String(r.state),
    nodeIndex: Number(r.nodeIndex),
    reservedCredits: Number(r.reservedCredits),
    claims: Number(r.claims),
    createdAt: big(r.createdAt)!,
  };
}

/** A claim of a run: its row as the claim's UPDATE returned it, when it did (no re-read). */
export type Claim = { id: string; claims: number; row?: RunRow };

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
  facts?: NodeFacts,
): Promise<NodeResult> {
  if (!op)
    return {
      ok: false,
      error: `Operation ${node.operation_id} is not in the catalogue; edit the node to use another one.`,
    };
  const parsed = inputSchema(op).safeParse(input);
  if (!parsed.success) return { ok: false, error: `Invalid input for ${op.id}: ${describeZodError(parsed.error)}.` };
  let connection = null;
  let read;
  if (op.types.length) {
    if (!node.connection_id)
      return {
        ok: false,
        error: `Node ${node.id} has no connection: choose a ${op.types.join(" or ")} connection for it in the editor.`,
      };
    // Read with the credit check when the node made one (lib/workflows/node-reads.ts).
    const found =
      facts?.connection !== undefined
        ? facts.connection
        : await connectionAndCredentialsForRun(teamId, node.connection_id);
    connection = found?.connection ?? null;
    read = found?.read;
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
    const problem = await privateConnectionProblem(teamId, connection, ownerUserId, facts?.ownerIsMember);
    if (problem) return { ok: false, error: problem };
  }
  for (let attempt = 0; ; attempt++) {
    try {
      if (!connection)
        return {
          ok: true,
          output: await op.run({ teamId, userId: ownerUserId } satisfies BuiltinScope as never, parsed.data),
          credits: 0,
          cacheHit: false,
        };
      // The row read above is for the first attempt; a retry reads the credentials again.
      const r = await executeOperation(teamId, op, connection, parsed.data, attempt === 0 ? read : undefined);
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

const findMember = prepared((a: { teamId: string; userId: string }) =>
  read
    .selectFrom("Membership as m")
    .innerJoin("User as u", "u.id", "m.userId")
    .select(["m.role", "u.email"])
    .where("m.teamId", "=", a.teamId)
    .where("m.userId", "=", a.userId),
);
const findWorkflowState = prepared((a: { id: string }) =>
  read.selectFrom("Workflow").select(["active", "deactivatedReason", "updatedAt"]).where("id", "=", a.id),
);

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
  facts?: NodeFacts,
): Promise<string | null> {
  if ("writes_by" in state && !state.writes_by)
    return "No team owner has allowed this workflow's writes: an owner activates it, or runs it by hand.";
  if (state.writes_by && state.writes_by !== "operator") {
    const [member] =
      facts?.writer !== undefined
        ? [facts.writer ?? undefined]
        : await findMember({ teamId: run.teamId, userId: state.writes_by });
    if (member?.role !== "owner")
      return `Not written: ${member ? `${member.email}, the team owner who allowed this run's writes, is no longer a team owner` : "the team owner who allowed this run's writes is no longer in the team"}, and a workflow writes without approval only on an owner's consent. A team owner activates it again, or runs it by hand.`;
  }
  const [wf] =
    facts?.workflow !== undefined ? [facts.workflow ?? undefined] : await findWorkflowState({ id: run.workflowId });
  if (wf && !wf.active && wf.deactivatedReason && wf.updatedAt >= Number(run.createdAt))
    return `Not written: Patchbay stopped this workflow after the run was queued. ${wf.deactivatedReason}`;
  return null;
}

/** Whether a node found in flight after a takeover may be run again. */
const safeToRepeat = (op: Operation | undefined) => !op || op.kind === "read" || op.idempotent === true;

/** The outputs of the steps that succeeded, by log id, from their logs (a run taken over or resumed). */
export async function successOutputs(state: RunState): Promise<Map<string, unknown>> {
  const done = state.steps.filter((s) => s.status === "success");
  if (!done.length) return new Map();
  const logs = await db.operationLog.findMany({
    where: { id: { in: done.map((s) => s.log_id) } },
    select: { id: true, output: true },
  });
  return new Map(logs.map((l) => [l.id, l.output === null ? null : JSON.parse(l.output)]));
}

/**
 * What a finished step gives later nodes (CONTRACT §13): its output when it succeeded, null when
 * skipped, `{"error"}` when it failed (a node with continue_on_error).
 */
const stepValue = (step: StepState, values: Map<string, unknown>) =>
  step.status === "success"
    ? (values.get(step.log_id) ?? null)
    : step.status === "error"
      ? { error: step.error }
      : null;

/**
 * A node's output for later nodes, from its steps: a loop's is the list of its iterations' values
 * ([] for an empty list, `{"error"}` when its list could not be read).
 */
export function nodeOutput(node: WorkflowNode, steps: StepState[], values: Map<string, unknown>): unknown {
  const own = steps.filter((s) => s.node_id === node.id);
  if (node.for_each === undefined) return own[0] ? stepValue(own[0], values) : null;
  const whole = own.find((s) => s.iteration === undefined);
  if (whole) return whole.status === "error" ? stepValue(whole, values) : [];
  return own.sort((a, b) => a.iteration! - b.iteration!).map((s) => stepValue(s, values));
}

/** What one node (or one iteration of a loop node) came to. */
type Outcome =
  | { kind: "success" }
  | { kind: "skipped" }
  | { kind: "error"; error: string; fatal?: boolean }
  | { kind: "stop"; reason: string }
  | { kind: "parked" };

const outcomeOf = (step: StepState): Outcome =>
  step.status === "error"
    ? { kind: "error", error: step.error ?? "failed" }
    : step.status === "stop"
      ? { kind: "stop", reason: step.reason ?? "stopped" }
      : step.status === "skipped"
        ? { kind: "skipped" }
        : { kind: "success" };

/** What a run holds against its team's balance while it runs or waits: 1 and what its succeeded steps cost. */
const heldBy = (steps: StepState[]) => 1 + steps.reduce((sum, s) => sum + (s.status === "success" ? s.credits : 0), 0);

/** Executes a claimed run to its end (or until its claim is lost, or it parks waiting for an approval). */
export async function executeRun(claim: Claim): Promise<void> {
  const run = claim.row ?? (await db.workflowRun.findUnique({ where: { id: claim.id } }));
  if (!run || run.claims !== claim.claims) return;
  const stopLease = keepLease(
    () =>
      db.workflowRun.updateMany({
        where: { id: claim.id, claims: claim.claims, status: "running" },
        data: { leaseUntil: BigInt(Date.now() + leaseMs()) },
      }),
    leaseMs() / 3,
  );
  try {
    // Events the run causes carry its chain, so they start no workflow already in it (CONTRACT §13).
    const chain = parseRunState(run.state).chain ?? [];
    await withChain([...chain, run.workflowId], () => execute(claim, run));
  } catch (e) {
    if (!(e instanceof LostClaim)) logger.error("workflow run failed inside Patchbay", { run_id: claim.id, error: e });
  } finally {
    stopLease();
  }
}

async function execute(claim: Claim, run: RunRow) {
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
  // What the run's row says it holds; a step's credits not saved yet (see `later`) count on top.
  let savedHold = run.reservedCredits;
  if (!state.steps.length && (run.nodeIndex === 0 || state.given) && run.reservedCredits === 0) {
    // First claim: the run holds 1 credit against the team's balance (and later what it spends),
    // or is refused when nothing is left once the other running runs' holds are counted.
    const refusal = await reserveCredits(run.teamId, { id: claim.id, claims: claim.claims }, 1);
    if (refusal) {
      await transaction((tx) =>
        own(tx, claim, {
          status: "refused",
          error: refusal,
          credits: 0,
          completedAt: Date.now(),
          leaseUntil: null,
          state: JSON.stringify(state),
        }),
      );
      return;
    }
    savedHold = 1;
  }
  const nodes = state.nodes!;
  const privateOwners = privateOwnersOfNodes(state);
  const values = await successOutputs(state);
  const ctx: RunContext = {
    startedAt: new Date(startedMs),
    timezone: state.timezone ?? null,
    outputs: {},
    trigger: state.trigger,
  };
  const given = state.given ?? {};
  for (const node of nodes.slice(0, run.nodeIndex))
    ctx.outputs[node.id] = node.id in given ? given[node.id] : nodeOutput(node, state.steps, values);

  // A step that may run again (a read, a utility: `safeToRepeat`) is not saved on its own when it
  // ends: its log's final write waits in `later` and goes in the next transaction of the run (the
  // next node's start, or the run's end), with the state that records it. An instance that dies
  // in between leaves that step `start`, and the one that takes the run over runs it again, as it
  // would have had it died a moment earlier. A write's end is saved at once: it is never repeated.
  let later: ((tx: Tx) => Promise<unknown>)[] = [];
  /** The waiting log writes, inside the transaction that saves the state recording them. */
  const flush = async (tx: Tx) => {
    for (const write of later) await write(tx);
  };
  // The logs of utility nodes not written yet (lib/platforms/utility: no provider, done in
  // microseconds): such a node is not logged `start` first; its one log is written when it ends.
  const unwritten = new Set<string>();

  /** Saves the run's progress (the step logs waiting, then `write`) while this instance's claim holds. */
  const save = async (i: number, write: (tx: Tx) => Promise<unknown>, more: Parameters<typeof own>[2] = {}) => {
    const hold = heldBy(state.steps);
    const data = { nodeIndex: i, state: JSON.stringify(state), reservedCredits: hold, ...more };
    // The logs first, then the run's state: on PostgreSQL the logs' writes ride in the state's
    // UPDATE, one statement (lib/db/write.ts), alone when nothing else is sent; a lost claim undoes them with it.
    const writes = async (tx: Tx) => {
      await flush(tx);
      await write(tx);
    };
    if (!(await savedAlone(claim, writes, data)))
      await owned(claim, async (tx) => {
        await writes(tx);
        await own(tx, claim, data);
      });
    later = [];
    savedHold = hold;
  };

  const newStep = (node: WorkflowNode, iteration?: { index: number; count: number }): StepState => {
    const last = state.steps[state.steps.length - 1];
    const step: StepState = {
      node_id: node.id,
      log_id: newOrderedId("log"),
      status: "start",
      started_ms: Math.max(Date.now(), last?.completed_ms ?? last?.started_ms ?? 0),
      completed_ms: null,
      retry_attempts: 0,
      credits: 0,
      ...(iteration && { iteration: iteration.index, iterations: iteration.count }),
    };
    state.steps.push(step);
    return step;
  };

  /** Writes a step that ends as it starts (skipped, a stop, a failure before anything ran): one log, final at once. */
  const settleAtOnce = async (
    i: number,
    node: WorkflowNode,
    step: StepState,
    status: "skipped" | "stop" | "error",
    io: { input?: unknown; output: unknown; privateTo: string | null },
    detail: { reason?: string; error?: string },
  ) => {
    step.status = status;
    step.completed_ms = step.started_ms;
    Object.assign(step, detail);
    const record = nodeLogRecord(identity, node, step, {
      operationVersion: findOperation(node.operation_id)?.operationVersion ?? null,
      ...io,
    });
    await save(i, (tx) => writeLog(tx, toLogRow(run.teamId, step.log_id, record)));
  };

  /**
   * Runs node `i` once (or one iteration of it): its condition, then flow.stop, the credit check,
   * the approval step or the operation itself. Each path writes the step's log.
   */
  const runUnit = async (
    i: number,
    node: WorkflowNode,
    iteration?: { index: number; count: number; item: unknown },
  ): Promise<Outcome> => {
    const op = findOperation(node.operation_id);
    let step = state.steps.find((s) => s.node_id === node.id && s.iteration === iteration?.index);
    if (step && step.status !== "start") return outcomeOf(step); // written before a takeover
    if (step?.approval_id) return decided(i, node, step);
    const unitCtx: RunContext = iteration ? { ...ctx, item: { value: iteration.item, index: iteration.index } } : ctx;
    const privateTo = privateOwners.get(node.id)?.owner ?? null;
    const resumed = step !== undefined;
    // What a node that costs credits read with its credit check (connection, consent): not read again.
    let facts: NodeFacts | undefined;
    let input: Record<string, unknown> = node.input;
    let templateError: string | null = null;
    try {
      input = resolveInput(node.input, unitCtx) as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      templateError = e.message;
    }
    if (!step) {
      step = newStep(node, iteration);
      if (node.when !== undefined) {
        let holds: boolean;
        try {
          holds = evaluateCondition(node.when, unitCtx);
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
          const error = `The condition could not be read: ${e.message}.`;
          await settleAtOnce(i, node, step, "error", { output: { error }, privateTo }, { error });
          return { kind: "error", error };
        }
        if (!holds) {
          await settleAtOnce(
            i,
            node,
            step,
            "skipped",
            { output: { reason: "condition" }, privateTo },
            { reason: "condition" },
          );
          return { kind: "skipped" };
        }
      }
      if (op?.id === FLOW_STOP && !templateError) {
        const reason = String(input.reason ?? "").trim() || "Stopped by the workflow.";
        await settleAtOnce(i, node, step, "stop", { input, output: { reason }, privateTo }, { reason });
        return { kind: "stop", reason };
      }
      if (op && op.credits > 0 && !templateError) {
        // A write a person approves reads its connection when it is filed (fileStep), not here.
        const viaApproval = op.kind === "write" && node.approval === "required";
        const consentRead = op.kind === "write" && !viaApproval;
        const withConnection = op.types.length > 0 && !viaApproval;
        facts = await readNodeFacts(run.teamId, {
          connectionId: withConnection ? (node.connection_id ?? undefined) : undefined,
          ownerId: withConnection ? (state.owner_user_id ?? undefined) : undefined,
          writerId: consentRead && state.writes_by !== "operator" ? (state.writes_by ?? undefined) : undefined,
          workflowId: consentRead ? run.workflowId : undefined,
        });
        const refusal = await refusalOf(run.teamId, facts.room, heldBy(state.steps) - savedHold);
        if (refusal) {
          await settleAtOnce(
            i,
            node,
            step,
            "error",
            { input, output: { error: refusal }, privateTo },
            { error: refusal },
          );
          return { kind: "error", error: refusal, fatal: true };
        }
      }
    }
    const io = { operationVersion: op?.operationVersion ?? null, input, privateTo };
    if (!resumed && op && !op.types.length && safeToRepeat(op) && !templateError) unwritten.add(step.log_id);
    else if (!resumed) {
      const record = nodeLogRecord(identity, node, step, io);
      const logId = step.log_id;
      await save(i, async (tx) => {
        await writeLog(tx, toLogRow(run.teamId, logId, record));
        await markConnectionsUsed(tx, [record]);
      });
    }
    if (op?.kind === "write" && node.approval === "required" && !templateError) {
      const refused = await fileStep(i, node, op, input, step, iteration);
      if (refused === null) return { kind: "parked" };
      return finishStep(i, node, step, io, { ok: false, error: refused });
    }
    const withdrawn =
      op?.kind === "write" && node.approval !== "required" ? await writeConsentProblem(run, state, facts) : null;
    const result: NodeResult = templateError
      ? { ok: false, error: `The input could not be filled in: ${templateError}.` }
      : withdrawn
        ? { ok: false, error: withdrawn }
        : resumed && !safeToRepeat(op)
          ? {
              ok: false,
              error: `The instance running this node stopped while ${op!.id} was being sent; it may have reached the provider, and a write that is not safe to repeat is not sent again. Check the account before running the workflow again.`,
            }
          : await runNode(run.teamId, state.owner_user_id ?? null, node, op, input, step, facts);
    return finishStep(i, node, step, io, result);
  };

  /** Completes a step's `start` log with its result. */
  const finishStep = async (
    i: number,
    node: WorkflowNode,
    step: StepState,
    io: { operationVersion: number | null; input: unknown; privateTo: string | null },
    result: NodeResult,
  ): Promise<Outcome> => {
    step.completed_ms = Math.max(Date.now(), step.started_ms);
    if (result.ok) {
      step.status = "success";
      step.credits = result.credits;
      step.cache_hit = result.cacheHit;
      values.set(step.log_id, result.output);
    } else {
      step.status = "error";
      step.error = result.error;
    }
    const row = toLogRow(
      run.teamId,
      step.log_id,
      nodeLogRecord(identity, node, step, { ...io, output: result.ok ? result.output : { error: result.error } }),
    );
    const write = unwritten.delete(step.log_id)
      ? (tx: Tx) => writeLog(tx, row)
      : (tx: Tx) =>
          completeLog(tx, step.log_id, {
            status: row.status,
            completedAt: row.completedAt,
            creditsUsed: row.creditsUsed,
            cacheHit: row.cacheHit,
            input: row.input,
            output: row.output,
            metadata: row.metadata,
          });
    if (safeToRepeat(findOperation(node.operation_id))) later.push(write);
    else await save(i, write);
    return result.ok ? { kind: "success" } : { kind: "error", error: result.error };
  };

  /**
   * The approval step (CONTRACT §13): files the write as a request a person decides and parks the
   * run (no worker held) in the same transaction (null), or answers why it cannot be filed (the node fails).
   */
  const fileStep = async (
    i: number,
    node: WorkflowNode,
    op: Operation,
    input: Record<string, unknown>,
    step: StepState,
    iteration?: { index: number; count: number; item: unknown },
  ): Promise<string | null> => {
    const parsed = inputSchema(op).safeParse(input);
    if (!parsed.success) return `Invalid input for ${op.id}: ${describeZodError(parsed.error)}.`;
    const connection = node.connection_id ? await connectionForRun(run.teamId, node.connection_id) : null;
    if (!connection)
      return `Connection ${node.connection_id ?? "(none)"} no longer exists; rebind the workflow to another ${op.types.join(" or ")} connection.`;
    if (!op.types.includes(connection.type))
      return `Connection ${connection.id} is a ${connection.type} connection; ${op.id} runs on ${op.types.join(", ")}.`;
    const problem = await privateConnectionProblem(run.teamId, connection, state.owner_user_id ?? null);
    if (problem) return problem;
    const approvalId = newId("apr");
    step.approval_id = approvalId;
    const hold = heldBy(state.steps);
    try {
      await fileApproval(
        {
          teamId: run.teamId,
          user: identity.user,
          workflow: {
            workflowId: run.workflowId,
            workflowName: run.workflowName,
            runId: run.id,
            nodeId: node.id,
            item: iteration ? { index: iteration.index, count: iteration.count, item: iteration.item } : null,
          },
        },
        op,
        connection,
        parsed.data,
        {
          id: approvalId,
          logId: step.log_id,
          within: async (tx) => {
            await flush(tx);
            await own(tx, claim, {
              status: "waiting_approval",
              leaseUntil: null,
              nodeIndex: i,
              state: JSON.stringify(state),
              reservedCredits: hold,
            });
          },
        },
      );
    } catch (e) {
      step.approval_id = undefined;
      throw e;
    }
    later = [];
    savedHold = hold;
    return null;
  };

  /**
   * A step parked at its approval, the run woken because the request ended (lib/approvals): the
   * node's log takes the outcome the request records. Approved, the write already ran in the
   * process that approved it: its result and credits (charged with this run), approval_id and
   * approved_by. Rejected, expired or cancelled: the node stops with that reason. Still
   * undecided (woken early): the run parks again.
   */
  const decided = async (i: number, node: WorkflowNode, step: StepState): Promise<Outcome> => {
    const request = await db.approval.findUnique({ where: { id: step.approval_id! } });
    const status = request ? effectiveStatus(request) : "cancelled";
    if (status === "pending" || status === "running") {
      await save(i, async () => undefined, { status: "waiting_approval", leaseUntil: null });
      return { kind: "parked" };
    }
    const op = findOperation(node.operation_id);
    const io = {
      operationVersion: op?.operationVersion ?? null,
      input: request ? parseStored(request.input) : null,
      privateTo: privateOwners.get(node.id)?.owner ?? null,
    };
    if (request?.decidedById) step.approved_by = request.decidedById;
    if (status === "succeeded")
      return finishStep(i, node, step, io, {
        ok: true,
        output: parseStored(request!.result),
        credits: request!.credits ?? 0,
        cacheHit: false,
      });
    if (status === "failed")
      return finishStep(i, node, step, io, { ok: false, error: request!.error ?? "The approved write failed." });
    const reason = status === "rejected" || status === "expired" ? status : "cancelled";
    step.status = "stop";
    step.reason = reason;
    step.completed_ms = Math.max(Date.now(), step.started_ms);
    const row = toLogRow(run.teamId, step.log_id, nodeLogRecord(identity, node, step, { ...io, output: { reason } }));
    await save(i, (tx) =>
      completeLog(tx, step.log_id, {
        status: row.status,
        completedAt: row.completedAt,
        output: row.output,
        metadata: row.metadata,
      }),
    );
    return { kind: "stop", reason };
  };

  let end: { status: "error" | "stopped"; at: number; error?: string } | null = null;
  for (let i = run.nodeIndex; i < nodes.length && !end; i++) {
    // Other runs (and, in-process, requests) get the event loop between nodes.
    await new Promise((r) => setImmediate(r));
    const node = nodes[i];
    const outcomes: Outcome[] = [];
    if (node.for_each === undefined) outcomes.push(await runUnit(i, node));
    else {
      const done = state.steps.find((s) => s.node_id === node.id && s.iteration === undefined);
      let list: unknown = null;
      let problem: string | null = null;
      if (done) outcomes.push(outcomeOf(done));
      else {
        try {
          list = resolveList(node.for_each, ctx);
          const max = workflowMaxIterations();
          if (!Array.isArray(list))
            problem = `for_each ${node.for_each} is ${describeType(list)}, not a list; point it at a list such as a report's rows.`;
          else if (list.length > max)
            problem = `for_each ${node.for_each} holds ${list.length.toLocaleString("en-US")} items, more than the ${max.toLocaleString("en-US")} a loop may run (WORKFLOW_MAX_ITERATIONS); no item was run. Filter the list first (utility.filter_rows) or raise the setting.`;
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
          problem = `for_each could not be read: ${e.message}.`;
        }
        const privateTo = privateOwners.get(node.id)?.owner ?? null;
        if (problem) {
          await settleAtOnce(
            i,
            node,
            newStep(node),
            "error",
            { output: { error: problem }, privateTo },
            {
              error: problem,
            },
          );
          outcomes.push({ kind: "error", error: problem });
        } else if ((list as unknown[]).length === 0) {
          await settleAtOnce(
            i,
            node,
            newStep(node),
            "skipped",
            { output: { reason: "empty" }, privateTo },
            {
              reason: "empty",
            },
          );
          outcomes.push({ kind: "skipped" });
        } else {
          const items = list as unknown[];
          for (const [index, item] of items.entries()) {
            const outcome = await runUnit(i, node, { index, count: items.length, item });
            outcomes.push(outcome);
            if (outcome.kind === "parked" || outcome.kind === "stop") break;
            if (outcome.kind === "error" && (outcome.fatal || !node.continue_on_error)) break;
            if (index % 20 === 19) await new Promise((r) => setImmediate(r));
          }
        }
      }
    }
    if (outcomes.some((o) => o.kind === "parked")) return; // continued in any instance once decided
    const stop = outcomes.find((o): o is Extract<Outcome, { kind: "stop" }> => o.kind === "stop");
    const failed = outcomes.find(
      (o): o is Extract<Outcome, { kind: "error" }> => o.kind === "error" && (!!o.fatal || !node.continue_on_error),
    );
    if (failed) end = { status: "error", at: i, error: failed.error };
    else if (stop) end = { status: "stopped", at: i };
    ctx.outputs[node.id] = nodeOutput(node, state.steps, values);
  }
  await finish(claim, identity, state, startedMs, end, flush);
}

/** A value's kind in a sentence: "a string", "an object", "null". */
function describeType(v: unknown): string {
  if (v === null || v === undefined) return "null (nothing)";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : typeof v === "number" ? "a number" : `a ${typeof v}`;
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
 * The run's end, in one transaction: the skipped logs of the nodes after the one that failed or
 * stopped (output null), its ledger entry (1 + what succeeded), its status (`success`, `error` or
 * `stopped`), and workflow.run_failed for a failure.
 */
async function finish(
  claim: Claim,
  identity: RunIdentity,
  state: RunState,
  startedMs: number,
  end: { status: "error" | "stopped"; at: number; error?: string } | null,
  flush: (tx: Tx) => Promise<void>,
) {
  const nodes = state.nodes!;
  const now = Date.now();
  const last = state.steps[state.steps.length - 1];
  const skipped = end
    ? skippedSteps(nodes, end.at + 1, Math.max(now, last?.completed_ms ?? 0), () => newOrderedId("log"))
    : [];
  state.steps.push(...skipped);
  const charge = runCharge(identity, nodes, state.steps, startedMs);
  const failedNode = end?.status === "error" ? nodes[end.at] : null;
  const ended: RunUpdate = {
    status: end?.status ?? "success",
    state: JSON.stringify(state),
    nodeIndex: nodes.length,
    credits: charge.credits,
    error: failedNode ? (end!.error ?? null) : null,
    failedNodeId: failedNode?.id ?? null,
    completedAt: now,
    leaseUntil: null,
    // Its ledger entry is written with it: what it held is released.
    reservedCredits: 0,
  };
  // A run that succeeded, on PostgreSQL: its logs, its end and its charge in one statement.
  if (!end && (await savedAlone(claim, flush, ended, { ...charge, teamId: identity.teamId }))) return;
  await owned(claim, async (tx) => {
    await flush(tx);
    await own(tx, claim, ended);
    if (skipped.length) {
      await tx.operationLog.createMany({
        data: skipped.map((step, k) => {
          const node = nodes[end!.at + 1 + k];
          return toLogRow(
            identity.teamId,
            step.log_id,
            nodeLogRecord(identity, node, step, {
              operationVersion: findOperation(node.operation_id)?.operationVersion ?? null,
              output: null,
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
        error: teamReadableError(state, failedNode, end!.error ?? "failed"),
      });
    }
  });
}
