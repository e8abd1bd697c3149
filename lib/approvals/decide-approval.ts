import "server-only";
import { db, type Approval } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { ApiError, forbidden, notFound } from "@/lib/errors/api-error";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { currentContext } from "@/lib/observability/request-context";
import { recordOperations } from "@/lib/logs/record-operations";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { noCreditsLeft } from "@/lib/credits/no-credits-left";
import { findOperation } from "@/lib/operations/registry";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import {
  connectionForRun,
  describeFailure,
  executeOperation,
  OperationRefusal,
  type RunResult,
} from "@/lib/operations/run-operation";
import { approvalWebhookJson, approvalViewJson, effectiveStatus, parseStored } from "@/lib/approvals/approval-json";
import { ownerOfRequest, refusalToDecide } from "@/lib/approvals/approval-access";
import { whyNoLongerRunnable } from "@/lib/approvals/recheck-approval";
import { agentsWaiting, markCancelled } from "@/lib/approvals/cancel-approvals";
import { readCurrentBefore } from "@/lib/approvals/read-current-before";
import { wakeWorkflowRun } from "@/lib/approvals/wake-workflow-run";
import { outOfCredits } from "@/lib/credits/out-of-credits";
import { beforeFingerprint, describeBeforeChange, describeBeforeNow, shownState } from "@/lib/approvals/before-state";

/** Who decides: a member of the request's team (the dashboard's session, or the CLI's --user). */
export type Decider = { teamId: string; userId: string };

/**
 * Which before-state the approver approved. `seenBefore`: the fingerprint of the state the
 * dashboard showed (the detail's `current_fingerprint`, sent back by its confirm dialog and the
 * agent's card). Neither: the state the request was filed with (its `before` and summary, all an
 * older client can have shown). `againstCurrent`: the CLI, which shows no state: it approves the
 * account as it is when it runs (SECURITY.md, "What a person approves is what runs").
 */
export type BeforeCheck = { seenBefore?: string; againstCurrent?: false } | { againstCurrent: true };

const MAX_NOTE = 1000;
const seconds = () => Math.floor(Date.now() / 1000);
const when = (s: bigint | null) => (s === null ? "" : ` at ${new Date(Number(s) * 1000).toISOString()}`);

async function deciderEmail(d: Decider): Promise<string> {
  const m = await db.membership.findUnique({
    where: { teamId_userId: { teamId: d.teamId, userId: d.userId } },
    select: { user: { select: { email: true } } },
  });
  if (!m)
    throw new ApiError(403, `User ${d.userId} is not a member of this team, so cannot decide its approval requests.`);
  return m.user.email;
}

async function requestOf(d: Decider, id: string): Promise<Approval> {
  const row = await db.approval.findFirst({ where: { id, teamId: d.teamId } });
  if (!row) throw notFound(`No approval request ${id} in this team.`);
  return row;
}

/** The 409 for a request that is no longer pending, saying what became of it. */
function alreadyDecided(row: Approval): ApiError {
  const status = effectiveStatus(row);
  const by = row.decidedByEmail ?? "a team member";
  const reason =
    status === "expired"
      ? `it expired${when(row.expiresAt)} without a decision; nothing was written`
      : status === "rejected"
        ? `it was already rejected by ${by}${when(row.decidedAt)}`
        : status === "cancelled"
          ? `it was cancelled${when(row.decidedAt)}: ${row.error ?? "the permission it was filed under went away"}`
          : status === "running"
            ? `it was already approved by ${by}${when(row.decidedAt)} and the write is running`
            : `it was already approved by ${by}${when(row.decidedAt)} and the write ${status}`;
  return new ApiError(409, `Approval request ${row.id} cannot be decided: ${reason}.`);
}

const cleanNote = (note: string | undefined) => {
  const text = note?.trim();
  if (!text) return null;
  if (text.length > MAX_NOTE) throw new ApiError(400, `note: at most ${MAX_NOTE} characters.`);
  return text;
};

/**
 * Moves a pending, unexpired request to `status` with who decided, in one conditional update, and
 * commits `within` (its event, its audit) with it. Only the caller whose update moved it gets the
 * row; every other gets the 404 of an unknown request or the 409 saying what became of it.
 *
 * Who decides is checked first (403): a member, the private connection's owner for a request on a
 * private connection, not the requester when the team forbids approving your own request. An
 * approval then re-checks, in the transaction that claims the request, that the permission it was
 * filed under still holds (recheck-approval.ts); if not, the request is cancelled with the reason,
 * approval.resolved goes out, nothing runs, and the approver gets a 409 saying why.
 */
async function decide(
  d: Decider,
  id: string,
  noteText: string | undefined,
  status: "running" | "rejected",
  within: (tx: Tx, row: Approval, email: string) => Promise<void>,
  check: BeforeCheck = {},
) {
  const note = cleanNote(noteText);
  const email = await deciderEmail(d);
  const request = await requestOf(d, id);
  const owner = await ownerOfRequest(request);
  const team = await db.team.findUnique({ where: { id: d.teamId }, select: { forbidSelfApproval: true } });
  const refusal = refusalToDecide(
    request,
    owner,
    d.userId,
    team?.forbidSelfApproval ?? false,
    status === "running" ? "approve" : "reject",
  );
  if (refusal) throw forbidden(refusal);
  // The approved writes to this connection that had ended before its state is read: any other that
  // ends or runs from then until the claim may have changed the state after it was read.
  const seen = status === "running" && !check.againstCurrent && effectiveStatus(request) === "pending" ? check : null;
  const endedBefore = seen ? await endedWritesOn(request) : null;
  const checked = seen ? await checkBefore(d, request, seen.seenBefore) : null;
  const now = seconds();
  const decided = await transaction(async (tx) => {
    const { count } = await tx.approval.updateMany({
      where: { id, teamId: d.teamId, status: "pending", expiresAt: { gt: BigInt(now) } },
      data: { status, decidedById: d.userId, decidedByEmail: email, decidedAt: BigInt(now), note },
    });
    if (count === 0) return null;
    const row = await tx.approval.findUniqueOrThrow({ where: { id } });
    if (checked?.compared && endedBefore) {
      // Another approved write to this connection that ran (or runs) since the state was read may
      // have changed it: what was checked is no longer known to be what this write replaces. The
      // throw rolls the claim back; the request stays pending.
      const other = await tx.approval.findFirst({
        where: {
          ...otherWritesOn(row),
          OR: [{ status: "running" }, { ...endedWhere(endedBefore.since), id: { notIn: endedBefore.ids } }],
        },
        select: { id: true },
      });
      if (other)
        throw new ApiError(
          409,
          `Approval request ${id} was not run: another approved write to the same connection (${other.id}) ran while its state was being checked, so the state you reviewed may have changed. Review it again, then approve. Nothing was written; the request is still pending.`,
        );
    }
    if (status === "running") {
      const why = await whyNoLongerRunnable(tx, row);
      if (why) {
        await markCancelled(tx, id, "running", `Cancelled when ${email} approved it: ${why}. Nothing was written.`);
        return { cancelled: why };
      }
    }
    await within(tx, row, email);
    return { row };
  });
  if (!decided) throw alreadyDecided(await requestOf(d, id));
  if ("cancelled" in decided)
    throw new ApiError(
      409,
      `Approval request ${id} was not run and is now cancelled: ${decided.cancelled}. Nothing was written.`,
    );
  return { row: decided.row, owner, forbidSelfApproval: team?.forbidSelfApproval ?? false };
}

const otherWritesOn = (row: Approval) => ({
  teamId: row.teamId,
  connectionId: row.connectionId,
  id: { not: row.id },
});
const endedWhere = (since: number) => ({
  status: { in: ["succeeded", "failed"] },
  decidedAt: { gte: BigInt(since) },
});
// A write runs for seconds (a provider call); one claimed over an hour ago is long over.
const ENDED_WINDOW_SECONDS = 3600;

/** The approved writes to the request's connection that had ended by now (within the window). */
async function endedWritesOn(row: Approval): Promise<{ since: number; ids: string[] }> {
  const since = seconds() - ENDED_WINDOW_SECONDS;
  const ended = await db.approval.findMany({
    where: { ...otherWritesOn(row), ...endedWhere(since) },
    select: { id: true },
  });
  return { since, ids: ended.map((r) => r.id) };
}

/**
 * Reads the request's before-state again, now, and refuses (409, nothing written, the request
 * still pending) when it is not the state the approver saw (`seenBefore`, else the state it was
 * filed with: BeforeCheck): the sentence names the
 * state seen and the state now. An operation without a `before` reader has nothing to compare.
 * `compared` says whether the approval was checked against a state the approver saw.
 */
async function checkBefore(
  d: Decider,
  request: Approval,
  seenBefore: string | undefined,
): Promise<{ compared: boolean } | null> {
  const now = await readCurrentBefore(request);
  if (!now) return null;
  const filed = parseStored(request.before);
  // A request filed before its operation had a reader shows no state: nothing to hold it to.
  if (request.before === null && seenBefore === undefined) return { compared: false };
  const seen = seenBefore ?? beforeFingerprint(filed);
  if (seen === now.fingerprint) return { compared: true };
  // Approved by someone else meanwhile (their write may be what changed the state): say that instead.
  const latest = await requestOf(d, request.id);
  if (effectiveStatus(latest) !== "pending") throw alreadyDecided(latest);
  const seenState = seen === beforeFingerprint(filed) ? { state: filed } : shownState(seen);
  const what =
    seenState === null
      ? `The state changed since you reviewed this request. ${
          now.changed ? describeBeforeChange(filed, now.current, "it was filed") : describeBeforeNow(now.current)
        }`
      : describeBeforeChange(
          seenState.state,
          now.current,
          seenState.state === filed ? "this request was filed" : "you reviewed this request",
        );
  throw new ApiError(
    409,
    `${what} Review it again, then approve. Approval request ${request.id} was not run: nothing was written, and it is still pending.`,
  );
}

/**
 * Rejects a pending request: nothing runs and nothing is charged. `approval.resolved` and the
 * audit event commit with the decision. A request that is not pending (or has expired) is a 409.
 */
export async function rejectApproval(d: Decider, id: string, noteText?: string) {
  const { row, owner, forbidSelfApproval } = await decide(d, id, noteText, "rejected", async (tx, row, email) => {
    await emitWebhookEvent(tx, d.teamId, "approval.resolved", { approval: approvalWebhookJson(row) });
    await audit(tx, row, "approval.reject", d, email);
    if (row.conversationId) agentsWaiting();
    await wakeWorkflowRun(tx, row);
  });
  return approvalViewJson(row, owner, d.userId, forbidSelfApproval);
}

/**
 * Approves a pending request and runs its write, here and now, exactly once: of any number of
 * concurrent approvals (clicks, retries, instances, the CLI) only the one whose conditional update
 * moves it from pending to running runs it; every other gets a 409. The run is logged and charged
 * like any MCP call (metadata.approval_id, metadata.approved_by), and its outcome commits with the
 * log: succeeded or failed, then `approval.resolved`.
 */
export async function approveApproval(d: Decider, id: string, noteText?: string, check: BeforeCheck = {}) {
  const { row, owner, forbidSelfApproval } = await decide(
    d,
    id,
    noteText,
    "running",
    (tx, row, email) => audit(tx, row, "approval.approve", d, email),
    check,
  );
  return approvalViewJson(await runApproved(row, d.userId), owner, d.userId, forbidSelfApproval);
}

type WriteOutcome = { ok: true; run: RunResult } | { ok: false; error: string };

/**
 * Runs an approved request's write once, here and now: its operation and connection must still
 * exist, and `creditsProblem` (the check that fits who is charged) must find credits left.
 */
async function runWrite(
  row: Approval,
  creditsProblem: (op: Operation) => Promise<string | null>,
): Promise<WriteOutcome> {
  try {
    const op = findOperation(row.operationId);
    if (!op)
      throw new OperationRefusal(`Operation ${row.operationId} is no longer in the catalogue.`, "unknown_operation");
    const connection = await connectionForRun(row.teamId, row.connectionId);
    if (!connection)
      throw new OperationRefusal(
        `Connection ${row.connectionId} was deleted after the request was filed; nothing was written.`,
        "connection_gone",
      );
    const refusal = await creditsProblem(op);
    if (refusal) throw new OperationRefusal(refusal, "no_credits");
    const input = JSON.parse(row.input) as Record<string, unknown>;
    return { ok: true, run: await executeOperation(row.teamId, op, connection, input) };
  } catch (e) {
    return { ok: false, error: describeFailure(e) };
  }
}

async function runApproved(row: Approval, approvedBy: string): Promise<Approval> {
  if (row.workflowRunId) return runApprovedStep(row);
  const startedAt = seconds();
  const outcome = await runWrite(row, () => noCreditsLeft(row.teamId));
  const credits = outcome.ok ? outcome.run.credits : 0;
  // An agent's write is logged under its conversation; its credits are charged with the turn's
  // one ledger entry when the turn ends (CONTRACT §11), not here.
  const conversation = row.conversationId
    ? await db.agentConversation.findUnique({ where: { id: row.conversationId }, select: { id: true, title: true } })
    : null;
  const source = conversation
    ? { type: "agent" as const, id: conversation.id, name: conversation.title }
    : { type: "mcp" as const, id: row.mcpServerId, name: row.mcpServerName };
  const user =
    row.requestedById && row.requestedByEmail ? { id: row.requestedById, email: row.requestedByEmail } : null;
  let finished: Approval | null = null;
  await recordOperations(
    row.teamId,
    [
      {
        operationId: row.operationId,
        operationVersion: row.operationVersion,
        status: outcome.ok ? "success" : "error",
        source,
        user,
        startedAt,
        completedAt: seconds(),
        creditsUsed: credits,
        input: {
          operation_id: row.operationId,
          connection_id: row.connectionId,
          input: JSON.parse(row.input) as unknown,
        },
        output: outcome.ok ? outcome.run.result : { error: { message: outcome.error } },
        metadata: {
          tool_name: "run_write_operation",
          connection_id: row.connectionId,
          approval_id: row.id,
          approved_by: approvedBy,
        },
        privateTo: row.connectionOwnerId,
        connectionId: row.connectionId,
      },
    ],
    row.conversationId
      ? undefined
      : {
          credits,
          service: source,
          user,
          at: startedAt,
          attribution: [{ connectionId: row.connectionId, credits }],
        },
    async (tx, { logIds }) => {
      await tx.approval.update({
        where: { id: row.id },
        data: {
          status: outcome.ok ? "succeeded" : "failed",
          result: outcome.ok ? JSON.stringify(outcome.run.result ?? null) : null,
          error: outcome.ok ? null : outcome.error,
          logId: logIds[0] ?? null,
        },
      });
      finished = await tx.approval.findUniqueOrThrow({ where: { id: row.id } });
      await emitWebhookEvent(tx, row.teamId, "approval.resolved", { approval: approvalWebhookJson(finished) });
      if (row.conversationId) agentsWaiting();
    },
  );
  return finished!;
}

/**
 * An approved write of a workflow run (CONTRACT §13), run here and now like any approved write. It
 * writes no log or ledger entry of its own: the run, continuing in any instance, completes the
 * node's `start` log from this request (approval_id, approved_by, its credits) and charges it
 * with the run's one ledger entry.
 */
async function runApprovedStep(row: Approval): Promise<Approval> {
  // The run's own hold (1 + what it spent) counts, as before any node that costs credits.
  const outcome = await runWrite(row, (op) => (op.credits > 0 ? outOfCredits(row.teamId) : Promise.resolve(null)));
  return transaction(async (tx) => {
    await tx.approval.update({
      where: { id: row.id },
      data: {
        status: outcome.ok ? "succeeded" : "failed",
        result: outcome.ok ? JSON.stringify(outcome.run.result ?? null) : null,
        error: outcome.ok ? null : outcome.error,
        credits: outcome.ok ? outcome.run.credits : 0,
      },
    });
    const finished = await tx.approval.findUniqueOrThrow({ where: { id: row.id } });
    await emitWebhookEvent(tx, row.teamId, "approval.resolved", { approval: approvalWebhookJson(finished) });
    // The run completes the node's log with this outcome when it continues (its one ledger entry counts it).
    await wakeWorkflowRun(tx, finished);
    return finished;
  });
}

function audit(tx: Tx, row: Approval, action: "approval.approve" | "approval.reject", d: Decider, email: string) {
  return recordAuditEvent(tx, {
    teamId: row.teamId,
    action,
    target: { type: "approval", id: row.id },
    details: {
      operation_id: row.operationId,
      connection_id: row.connectionId,
      mcp_server_id: row.mcpServerId,
      note: row.note ?? undefined,
    },
    actor: { kind: currentContext().actor?.kind ?? "session", userId: d.userId, email },
  });
}
