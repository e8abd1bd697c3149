import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { RUN_TRIGGER_TYPES } from "@/lib/schemas/workflows";
import { enqueueRun } from "@/lib/workflows/queue-run";

// The API trigger (CONTRACT §13): `POST /v1/workflows/{id}/runs` starts a run of an active
// workflow as the key's user, under the consent rules of Run now; `GET …/runs/{run_id}` reads its
// progress. An Idempotency-Key answers, within 24 h, the same status and body and starts nothing.

const seconds = (ms: bigint | null) => (ms === null ? null : Math.floor(Number(ms) / 1000));

type RunTriggerType = (typeof RUN_TRIGGER_TYPES)[number];
/** A run's trigger as the API names it (a simulated demo run was started by hand). */
const triggerType = (t: string): RunTriggerType =>
  (RUN_TRIGGER_TYPES as readonly string[]).includes(t) ? (t as RunTriggerType) : "manual";

export async function startApiRun(
  teamId: string,
  userId: string,
  workflowId: string,
  input: Record<string, unknown> | undefined,
  idempotencyKey: string | null,
) {
  const { run_id } = await enqueueRun(
    teamId,
    workflowId,
    { userId },
    {
      trigger: "api",
      triggerData: { input: input ?? {} },
      triggerKey: idempotencyKey ? `api:${idempotencyKey}` : undefined,
      requireActive: true,
    },
  );
  return { run_id, status: "queued" as const };
}

export async function getApiRun(teamId: string, workflowId: string, runId: string) {
  const row = await db.workflowRun.findFirst({
    where: { id: runId, workflowId, teamId },
    select: {
      id: true,
      workflowId: true,
      version: true,
      status: true,
      trigger: true,
      startedAt: true,
      completedAt: true,
      credits: true,
      replayOf: true,
    },
  });
  if (!row) {
    const workflow = await db.workflow.findFirst({ where: { id: workflowId, teamId }, select: { id: true } });
    throw notFound(
      workflow
        ? `Workflow ${workflowId} has no run ${runId.slice(0, 255)}.`
        : `No workflow ${workflowId.slice(0, 255)} in this team.`,
    );
  }
  const ended = !["queued", "running", "waiting_approval"].includes(row.status);
  return {
    run_id: row.id,
    workflow_id: row.workflowId,
    version: row.version,
    status: row.status,
    trigger: { type: triggerType(row.trigger) },
    started_at: seconds(row.startedAt),
    completed_at: ended ? seconds(row.completedAt) : null,
    credits: ended ? row.credits : null,
    replay_of: row.replayOf,
  };
}
