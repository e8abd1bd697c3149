import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import { jobSignal } from "@/lib/db/commit-signals";
import { subscribes } from "@/lib/schemas/webhook-event-types";
import type { WebhookEventData, WebhookEventName } from "@/lib/schemas/webhook-events";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { currentChain } from "@/lib/webhooks/event-chain";

// The outbox: an event and its deliveries are rows written with the transaction of the change
// that caused it, so they exist exactly when the change committed. The dispatcher
// (lib/webhooks/dispatcher.ts) sends them from there.

/**
 * Writes one event for `teamId` and a pending delivery to each enabled endpoint subscribed to
 * `type` (or to the one `endpointId` given: a test event, a resend), and a run of each workflow
 * it triggers. No subscriber, no rows. Returns the event id, or null when nothing was written.
 */
export async function emitWebhookEvent<T extends WebhookEventName>(
  tx: Tx,
  teamId: string,
  type: T,
  data: WebhookEventData[T],
  endpointId?: string,
): Promise<string | null> {
  const endpoints = endpointId
    ? [{ id: endpointId }]
    : (
        await tx.webhookEndpoint.findMany({ where: { teamId, enabled: true }, select: { id: true, events: true } })
      ).filter((e) => subscribes(e.events, type));
  // Workflows of the team that this event starts (CONTRACT §13): the runner starts them from the
  // event row, once (lib/workflows/event-triggers.ts). A test event or a resend starts none.
  const listening = endpointId
    ? 0
    : await tx.workflow.count({
        where: { teamId, active: true, triggerType: "event", events: { contains: JSON.stringify(type) } },
      });
  if (endpoints.length === 0 && listening === 0) return null;
  const id = newId("msg");
  const createdAt = Math.floor(Date.now() / 1000);
  // Key order is the contract's; these bytes are what every attempt sends.
  const payload = JSON.stringify({ id, type, created_at: createdAt, team_id: teamId, data });
  const chain = currentChain();
  await tx.webhookEvent.create({
    data: {
      id,
      teamId,
      type,
      createdAt: BigInt(createdAt),
      payload,
      triggersPending: listening > 0,
      chain: chain.length ? JSON.stringify(chain) : null,
    },
  });
  if (listening) jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
  if (endpoints.length === 0) return id;
  const now = BigInt(monotonicNow());
  await tx.webhookDelivery.createMany({
    data: endpoints.map((e) => ({
      id: newId("whd"),
      eventId: id,
      endpointId: e.id,
      teamId,
      eventType: type,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    })),
  });
  jobSignal("webhooks").wanted = true;
  return id;
}

let last = 0;
/**
 * Milliseconds, strictly increasing in this process: events written one after the other (a
 * charge's credits.low, then its credits.exhausted) are claimed and listed in that order.
 */
export function monotonicNow(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}
