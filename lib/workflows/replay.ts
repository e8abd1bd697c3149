import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { ApiError, badRequest, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { jobSignal } from "@/lib/db/commit-signals";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { isTruncatedBody } from "@/lib/logs/stored-body";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { parseRunState, type RunState } from "@/lib/workflows/run-records";
import { nodeOutput, successOutputs } from "@/lib/workflows/run-workflow";
import { othersPrivateConnections } from "@/lib/workflows/workflow-consent";
import { replayChoices, writtenNodes } from "@/lib/workflows/replay-choices";

// Replay (CONTRACT §13): a run that ended `error` or `stopped` runs again from one node, on the
// definition it executed (its snapshot and version, not today's), with its trigger data and its
// user. The nodes before that node are not run or logged again: their outputs come from the
// original run. A write that succeeded is never sent again: a replay may start only after the
// last node whose write succeeded (a loop replays whole). Each run is replayed at most once: the
// new run's `replayOf` is unique, so of two concurrent replays one is refused.

const REPLAYABLE = ["error", "stopped"];

/**
 * Starts a replay of run `runId` from node `from` (default: the failed or stopped one). `teamId`
 * limits it to one team (the dashboard's); `viewerUserId` is who asks (null: the operator's CLI).
 */
export async function replayRun(
  runId: string,
  options: { teamId?: string; from?: string; viewerUserId?: string | null } = {},
): Promise<{ run_id: string; replay_of: string }> {
  const original = await db.workflowRun.findFirst({
    where: { id: runId, ...(options.teamId && { teamId: options.teamId }) },
  });
  if (!original) throw notFound(`No workflow run ${runId.slice(0, 255)}${options.teamId ? " in this team" : ""}.`);
  if (!REPLAYABLE.includes(original.status))
    throw new ApiError(
      409,
      `Run ${runId} ${original.status === "success" ? "succeeded" : `is ${original.status}`}: only a run that ended error or stopped can be replayed.`,
    );
  const already = await db.workflowRun.findUnique({ where: { replayOf: runId }, select: { id: true } });
  if (already)
    throw new ApiError(409, `Run ${runId} was already replayed, as run ${already.id}; a run is replayed once.`);
  const state = parseRunState(original.state);
  const nodes = state.nodes ?? [];
  if (!nodes.length) throw new ApiError(409, `Run ${runId} has no recorded definition to replay.`);
  if (options.viewerUserId) {
    const others = await othersPrivateConnections(
      original.teamId,
      nodes.map((n) => n.connection_id ?? ""),
      options.viewerUserId,
    );
    if (others.length)
      throw new ApiError(
        403,
        `This run used a teammate's private connection (${others.map((c) => c.type).join(", ")}), which is theirs alone: only its owner can replay it.`,
      );
  }
  const choices = replayChoices(state);
  const from = nodes.findIndex((n) => n.id === (options.from ?? choices.default_from));
  if (options.from !== undefined && from < 0)
    throw badRequest(
      `from: run ${runId} has no node ${JSON.stringify(options.from.slice(0, 100))}; its nodes are ${nodes.map((n) => n.id).join(", ")}.`,
    );
  if (!choices.from.includes(nodes[from]?.id ?? "")) {
    const written = writtenNodes(state);
    const rewrite = nodes.slice(Math.max(from, 0)).find((n) => written.has(n.id));
    if (rewrite)
      throw new ApiError(
        409,
        `Not replayed: node ${rewrite.id} (${rewrite.operation_id}) wrote successfully in run ${runId}${
          rewrite.for_each !== undefined ? " (a loop replays whole)" : ""
        }, and a write is never sent twice. ${choices.from.length ? `Replay from ${choices.from.join(" or ")}.` : "No node of this run can be replayed."}`,
      );
    throw new ApiError(
      409,
      from < 0
        ? `Run ${runId} has no node that failed or stopped to replay from.`
        : `Not replayed: node ${nodes[from].id} did not run in run ${runId} (it was skipped after ${choices.default_from ?? "the failure"}); replay from ${choices.from.join(" or ")}.`,
    );
  }
  const written = writtenNodes(state);
  // The outputs of the nodes before `from`, as the original run's later nodes read them.
  const values = await successOutputs(state);
  const given: Record<string, unknown> = {};
  for (const node of nodes.slice(0, from)) {
    const value = state.given && node.id in state.given ? state.given[node.id] : nodeOutput(node, state.steps, values);
    const cut = Array.isArray(value) ? value.some(isTruncatedBody) : isTruncatedBody(value);
    if (cut)
      throw new ApiError(
        409,
        `Not replayed: the stored output of node ${node.id} was cut to the log body limit, so later nodes could not read it whole. Replay from ${node.id} or an earlier node.`,
      );
    given[node.id] = value;
  }
  const { steps: _steps, ...snapshot } = state;
  void _steps;
  const next: RunState = { ...snapshot, given, written: [...written], steps: [] };
  const id = newId("run");
  const now = Date.now();
  try {
    await transaction(async (tx) => {
      await tx.workflowRun.create({
        data: {
          id,
          teamId: original.teamId,
          workflowId: original.workflowId,
          workflowName: original.workflowName,
          trigger: "replay",
          version: original.version,
          replayOf: runId,
          userId: original.userId,
          userEmail: original.userEmail,
          status: "queued",
          nodeIndex: from,
          dueAt: BigInt(now),
          createdAt: BigInt(now),
          state: JSON.stringify(next),
        },
      });
      await recordAuditEvent(tx, {
        teamId: original.teamId,
        action: "workflow.replay",
        target: { type: "workflow", id: original.workflowId },
        details: { name: original.workflowName, run_id: runId, replay_run_id: id, from: nodes[from].id },
      });
      jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
    });
  } catch (e) {
    if ((e as { code?: string })?.code !== "P2002") throw e;
    const other = await db.workflowRun.findUnique({ where: { replayOf: runId }, select: { id: true } });
    throw new ApiError(
      409,
      `Run ${runId} was already replayed${other ? `, as run ${other.id}` : ""}; a run is replayed once.`,
    );
  }
  return { run_id: id, replay_of: runId };
}

/**
 * Replays the failed (and stopped) runs of one workflow that were queued in `[from, to)` (Unix ms), each
 * at most once, from its failed node; a run that cannot be replayed is listed with the reason.
 */
export async function replayFailedRuns(
  teamId: string,
  workflowId: string,
  range: { from: number; to: number },
  viewerUserId: string | null,
) {
  if (!(await db.workflow.findFirst({ where: { id: workflowId, teamId }, select: { id: true } })))
    throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  if (!(range.from < range.to)) throw badRequest("from: must be before to");
  const runs = await db.workflowRun.findMany({
    where: {
      teamId,
      workflowId,
      status: { in: REPLAYABLE },
      createdAt: { gte: BigInt(range.from), lt: BigInt(range.to) },
    },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: 500,
  });
  const replayed: { run_id: string; replay_of: string }[] = [];
  const skipped: { run_id: string; reason: string }[] = [];
  for (const r of runs) {
    try {
      replayed.push(await replayRun(r.id, { teamId, viewerUserId }));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      skipped.push({ run_id: r.id, reason: String(e.detail) });
    }
  }
  return { replayed, skipped };
}
