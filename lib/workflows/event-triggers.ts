import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import { jobSignal } from "@/lib/db/commit-signals";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { runSnapshot } from "@/lib/workflows/queue-run";
import { parseEvents } from "@/lib/workflows/triggers";
import { chainAllows, currentChain } from "@/lib/workflows/trigger-chain";

// Event triggers (CONTRACT §13): an event of the team starts each active workflow that listens
// for its type, once. The runs are written in the transaction that writes the event (the outbox
// of lib/webhooks/emit.ts), so they exist exactly when the change that caused it committed, and
// each carries the event's id as its trigger key (unique per workflow): however many instances
// see the change, a workflow runs once per event. The job module's runner then starts them.

export type TriggerEvent = { id: string; type: string; created_at: number; data: unknown };

/** Queues a run of every active workflow of `teamId` triggered by `event.type`; how many. */
export async function startEventWorkflows(tx: Tx, teamId: string, event: TriggerEvent): Promise<number> {
  const candidates = await tx.workflow.findMany({
    where: { teamId, active: true, triggerType: "event" },
    select: {
      id: true,
      name: true,
      nodes: true,
      schedule: true,
      timezone: true,
      events: true,
      eventsSince: true,
      version: true,
      createdByUserId: true,
      activatedByUserId: true,
    },
  });
  if (!candidates.length) return 0;
  const chain = currentChain();
  const now = Date.now();
  const matching = candidates.filter(
    (w) =>
      parseEvents(w.events)?.includes(event.type) &&
      w.eventsSince !== null &&
      Number(w.eventsSince) <= now &&
      chainAllows(chain, w.id),
  );
  // The event's data as its webhook carries it (JSON: dates as numbers, no undefined).
  const trigger = { event: JSON.parse(JSON.stringify(event)) as TriggerEvent };
  for (const w of matching) {
    const user = w.createdByUserId
      ? await tx.user.findUnique({ where: { id: w.createdByUserId }, select: { id: true, email: true } })
      : null;
    const state = await runSnapshot(teamId, w, w.activatedByUserId, { trigger, chain, client: tx });
    await tx.workflowRun.create({
      data: {
        id: newId("run"),
        teamId,
        workflowId: w.id,
        workflowName: w.name,
        trigger: "event",
        triggerKey: `event:${event.id}`,
        version: w.version,
        userId: user?.id ?? null,
        userEmail: user?.email ?? null,
        status: "queued",
        dueAt: BigInt(now),
        createdAt: BigInt(now),
        state,
      },
    });
  }
  if (matching.length) jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
  return matching.length;
}
