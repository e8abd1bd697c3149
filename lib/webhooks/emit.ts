import "server-only";
import { sql, type Insertable } from "kysely";
import type { Tx } from "@/lib/db/transaction";
import type { ReadDb } from "@/lib/db/read-types";
import { newId } from "@/lib/security/ids";
import { jobSignal } from "@/lib/db/commit-signals";
import { subscribes } from "@/lib/schemas/webhook-event-types";
import type { WebhookEventData, WebhookEventName } from "@/lib/schemas/webhook-events";
import { WORKFLOW_RUNS_JOB } from "@/lib/jobs/job-names";
import { currentChain } from "@/lib/webhooks/event-chain";
import { deferredInTx, insertRowsInTx, preparedInTx, write } from "@/lib/db/write";
import { prepared } from "@/lib/db/read";

// The outbox: an event and its deliveries are rows written with the transaction of the change
// that caused it, so they exist exactly when the change committed. The dispatcher
// (lib/webhooks/dispatcher.ts) sends them from there.

// The team's enabled endpoints (none: one row of nulls) and whether an active workflow listens for
// the type, in one statement: `events` is the JSON array of the types a workflow listens for, so
// it holds the type's JSON string. It reads teams, endpoints and workflows only, so the change's
// deferred writes (its connection, an earlier event) ride in it (lib/db/write.ts).
const subscribersOf = (a: { teamId: string; pattern: string }) =>
  write
    .selectFrom("Team as t")
    .leftJoin("WebhookEndpoint as e", (j) => j.onRef("e.teamId", "=", "t.id").on("e.enabled", "=", true))
    .select(["e.id", "e.events"])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("Workflow as w")
            .select("w.id")
            .whereRef("w.teamId", "=", "t.id")
            .where("w.active", "=", true)
            .where("w.triggerType", "=", "event")
            .where(sql<boolean>`"w"."events" LIKE ${a.pattern} ESCAPE '\\'`),
        )
        .as("listening"),
    )
    .where("t.id", "=", a.teamId);
const subscribers = preparedInTx(subscribersOf, { carriesDeferred: true });
const subscribersNow = prepared(subscribersOf);

/** What `emitWebhookEvent` reads of the team's endpoints and workflows for one event type. */
export type Subscribers = Awaited<ReturnType<typeof subscribersNow>>;

/**
 * The subscribers of `type` read before a transaction (the reads' connection), for one that then
 * only writes (`emitWebhookEvent`'s `subscribers`) and so can be sent at once. The same as the
 * read inside it would give: there too an endpoint added while the change commits may miss it.
 */
export const webhookSubscribers = (teamId: string, type: WebhookEventName): Promise<Subscribers> =>
  subscribersNow({ teamId, pattern: patternOf(type) });

const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** The LIKE pattern of a type's JSON string in a workflow's `events`. */
const patternOf = (type: string) => likeContaining(JSON.stringify(type));

// Sent with the transaction's next statement (lib/db/write.ts): nothing here reads them back.
const insertEvent = deferredInTx((e: Insertable<ReadDb["WebhookEvent"]>) => write.insertInto("WebhookEvent").values(e));
const insertDeliveries = insertRowsInTx("WebhookDelivery", { deferred: true });

/**
 * Writes one event for `teamId` and a pending delivery to each enabled endpoint subscribed to
 * `type` (or to the one `endpointId` given: a test event, a resend), and a run of each workflow
 * it triggers. No subscriber, no rows. Returns the event id, or null when nothing was written.
 * `subscribers`, read before the transaction (`webhookSubscribers`), spares it its one read.
 */
export async function emitWebhookEvent<T extends WebhookEventName>(
  tx: Tx,
  teamId: string,
  type: T,
  data: WebhookEventData[T],
  to: { endpointId?: string; subscribers?: Subscribers } = {},
): Promise<string | null> {
  const { endpointId } = to;
  // Workflows of the team that this event starts (CONTRACT §13): the runner starts them from the
  // event row, once (lib/workflows/event-triggers.ts). A test event or a resend starts none.
  const found = endpointId ? [] : (to.subscribers ?? (await subscribers(tx, { teamId, pattern: patternOf(type) })));
  const endpoints = endpointId
    ? [{ id: endpointId }]
    : found.flatMap((e) => (e.id !== null && e.events !== null && subscribes(e.events, type) ? [{ id: e.id }] : []));
  const listening = found.some((e) => Boolean(e.listening));
  if (endpoints.length === 0 && !listening) return null;
  const id = newId("msg");
  const createdAt = Math.floor(Date.now() / 1000);
  // Key order is the contract's; these bytes are what every attempt sends.
  const payload = JSON.stringify({ id, type, created_at: createdAt, team_id: teamId, data });
  const chain = currentChain();
  await insertEvent(tx, {
    id,
    teamId,
    type,
    createdAt,
    payload,
    triggersPending: listening,
    chain: chain.length ? JSON.stringify(chain) : null,
  });
  if (listening) jobSignal(WORKFLOW_RUNS_JOB).wanted = true;
  if (endpoints.length === 0) return id;
  const now = monotonicNow();
  await insertDeliveries(
    tx,
    endpoints.map((e) => ({
      id: newId("whd"),
      eventId: id,
      endpointId: e.id,
      teamId,
      eventType: type,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
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
