import "server-only";
import { db } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import { runSnapshot } from "@/lib/workflows/queue-run";
import { parseEvents } from "@/lib/workflows/triggers";
import { chainAllows } from "@/lib/workflows/trigger-chain";

// Event triggers (CONTRACT §13): an event of the team starts each active workflow that listens
// for its type, once. The event is a row of the webhook outbox (lib/webhooks/emit.ts), written
// with the change that caused it and marked `triggersPending` when workflows listen; each turn of
// the runner's job loop (lib/workflows/runner.ts) takes the pending events and, in one
// transaction per event, clears the mark (only the instance whose update matched goes on) and
// queues the runs, each keyed by the event's id (unique per workflow). So however many instances
// run, a workflow runs once per event.

const BATCH = 100;

type PendingEvent = {
  id: string;
  teamId: string;
  type: string;
  createdAt: bigint;
  payload: string;
  chain: string | null;
};

/** Starts the runs of the pending events; whether more may be waiting. */
export async function startEventTriggeredRuns(): Promise<boolean> {
  const pending = await db.webhookEvent.findMany({
    where: { triggersPending: true },
    select: { id: true, teamId: true, type: true, createdAt: true, payload: true, chain: true },
    orderBy: { createdAt: "asc" },
    take: BATCH,
  });
  for (const event of pending) await transaction((tx) => startRunsOf(tx, event));
  return pending.length === BATCH;
}

async function startRunsOf(tx: Tx, event: PendingEvent) {
  const claimed = await tx.webhookEvent.updateMany({
    where: { id: event.id, triggersPending: true },
    data: { triggersPending: false },
  });
  if (claimed.count === 0) return; // another instance took it
  const candidates = await tx.workflow.findMany({
    where: { teamId: event.teamId, active: true, triggerType: "event" },
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
  const chain = parseChain(event.chain);
  const at = Number(event.createdAt) * 1000;
  // Saved active on these events before the event was emitted (both to the second).
  const matching = candidates.filter(
    (w) =>
      parseEvents(w.events)?.includes(event.type) &&
      w.eventsSince !== null &&
      Math.floor(Number(w.eventsSince) / 1000) * 1000 <= at &&
      chainAllows(chain, w.id),
  );
  if (!matching.length) return;
  const body = JSON.parse(event.payload) as { data: unknown };
  // `{{trigger.event…}}`: the event as its webhook carries it.
  const trigger = { event: { id: event.id, type: event.type, created_at: Number(event.createdAt), data: body.data } };
  const now = Date.now();
  for (const w of matching) {
    const user = w.createdByUserId
      ? await tx.user.findUnique({ where: { id: w.createdByUserId }, select: { id: true, email: true } })
      : null;
    await tx.workflowRun.create({
      data: {
        id: newId("run"),
        teamId: event.teamId,
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
        state: await runSnapshot(event.teamId, w, w.activatedByUserId, { trigger, chain, client: tx }),
      },
    });
  }
}

const parseChain = (stored: string | null): string[] => {
  if (!stored) return [];
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};
