import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { badRequest, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { encryptJson } from "@/lib/security/encryption";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import {
  ALL_EVENTS,
  parseEventFilter,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TEST_MESSAGE,
} from "@/lib/schemas/webhook-event-types";
import { checkEndpointUrl, UnsafeWebhookUrl } from "@/lib/webhooks/url-safety";
import { newSigningSecret } from "@/lib/webhooks/signature";
import { emitWebhookEvent, monotonicNow } from "@/lib/webhooks/emit";
import { jobSignal } from "@/lib/db/commit-signals";
import { DISABLED_BY_FAILURES, DISABLED_BY_OWNER, PREVIOUS_SECRET_GRACE_MS } from "@/lib/webhooks/config";
import type { WebhookEndpointJson } from "@/lib/schemas/webhooks";

// A team's webhook endpoints: every change is an audit event written with it.

type Row = Awaited<ReturnType<typeof db.webhookEndpoint.findFirstOrThrow>>;

function endpointToJson(r: Row): WebhookEndpointJson {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: parseEventFilter(r.events),
    enabled: r.enabled,
    disabled_reason: r.enabled ? null : r.disabledReason,
    disabled_by: r.enabled ? null : r.disabledReason === DISABLED_BY_FAILURES ? "failures" : "owner",
    failing_since: r.failingSince?.getTime() ?? null,
    previous_secret_expires_at:
      r.previousSecret && r.previousSecretExpiresAt && r.previousSecretExpiresAt.getTime() > Date.now()
        ? r.previousSecretExpiresAt.getTime()
        : null,
    created_at: r.createdAt.getTime(),
    updated_at: r.updatedAt.getTime(),
  };
}

async function safeUrl(raw: string): Promise<string> {
  try {
    return await checkEndpointUrl(raw);
  } catch (e) {
    if (e instanceof UnsafeWebhookUrl) throw badRequest(e.message);
    throw e;
  }
}

function eventFilter(events: readonly string[] | null | undefined): string {
  if (!events || events.length === 0) return ALL_EVENTS;
  const unknown = events.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length)
    throw badRequest(
      `Unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; the types are ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
    );
  // Stored in catalogue order, each once.
  return WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t)).join(",");
}

async function teamExists(teamId: string) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } })))
    throw notFound(`No team ${teamId}.`);
}

/** Returns the endpoint and its signing secret: the only time the secret is shown. */
export async function createWebhookEndpoint(
  teamId: string,
  input: { url: string; events?: readonly string[]; description?: string | null },
) {
  await teamExists(teamId);
  const url = await safeUrl(input.url);
  const events = eventFilter(input.events);
  const secret = newSigningSecret();
  const row = await transaction(async (tx) => {
    const id = newId("we");
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        teamId,
        url,
        events,
        description: input.description || null,
        secret: encryptJson(secret, `webhook_endpoint:${id}`),
      },
    });
    await recordAuditEvent(tx, {
      teamId,
      action: "webhook_endpoint.create",
      target: { type: "webhook_endpoint", id: created.id },
      details: { url, events: parseEventFilter(events) },
    });
    return created;
  });
  return { endpoint: endpointToJson(row), secret };
}

export async function listWebhookEndpoints(teamId: string) {
  await teamExists(teamId);
  const rows = await db.webhookEndpoint.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(endpointToJson);
}

async function findEndpoint(teamId: string, id: string) {
  const row = await db.webhookEndpoint.findFirst({ where: { id, teamId } });
  if (!row) throw notFound(`No webhook endpoint ${id} in this team.`);
  return row;
}

export async function getWebhookEndpoint(teamId: string, id: string) {
  return endpointToJson(await findEndpoint(teamId, id));
}

export async function updateWebhookEndpoint(
  teamId: string,
  id: string,
  patch: { url?: string; events?: readonly string[] | null; description?: string | null; enabled?: boolean },
) {
  const before = await findEndpoint(teamId, id);
  const url = patch.url === undefined ? undefined : await safeUrl(patch.url);
  const events = patch.events === undefined ? undefined : eventFilter(patch.events);
  const row = await transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        url,
        events,
        description: patch.description === undefined ? undefined : patch.description || null,
        enabled: patch.enabled,
        // Turning it back on starts a fresh streak; turning it off by hand is not "failing".
        ...(patch.enabled !== undefined &&
          patch.enabled !== before.enabled && {
            failingSince: null,
            disabledAt: patch.enabled ? null : new Date(),
            disabledReason: patch.enabled ? null : DISABLED_BY_OWNER,
          }),
      },
    });
    // Only what really changed (a client may send unchanged fields along).
    const changed = Object.fromEntries(
      Object.entries({
        url: url !== before.url ? url : undefined,
        events: events !== undefined && events !== before.events ? parseEventFilter(events) : undefined,
        description:
          patch.description !== undefined && (patch.description || null) !== before.description
            ? patch.description
            : undefined,
        enabled: patch.enabled !== before.enabled ? patch.enabled : undefined,
      }).filter(([, v]) => v !== undefined),
    );
    await recordAuditEvent(tx, {
      teamId,
      action: "webhook_endpoint.update",
      target: { type: "webhook_endpoint", id },
      details: {
        url: updated.url,
        changed: Object.keys(changed),
        ...("enabled" in changed && { enabled: patch.enabled }),
      },
    });
    return updated;
  });
  return endpointToJson(row);
}

/** A new secret; the old one keeps signing alongside it for 24 h, so receivers can switch over. */
export async function rotateWebhookSecret(teamId: string, id: string) {
  const before = await findEndpoint(teamId, id);
  const secret = newSigningSecret();
  const row = await transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secret: encryptJson(secret, `webhook_endpoint:${id}`),
        previousSecret: before.secret,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS),
      },
    });
    await recordAuditEvent(tx, {
      teamId,
      action: "webhook_endpoint.rotate_secret",
      target: { type: "webhook_endpoint", id },
      details: { url: updated.url },
    });
    return updated;
  });
  return { endpoint: endpointToJson(row), secret };
}

/** Deletes the endpoint with its delivery log; undelivered events to it are dropped. */
export async function deleteWebhookEndpoint(teamId: string, id: string) {
  const before = await findEndpoint(teamId, id);
  await transaction(async (tx) => {
    await tx.webhookEndpoint.delete({ where: { id } });
    await recordAuditEvent(tx, {
      teamId,
      action: "webhook_endpoint.delete",
      target: { type: "webhook_endpoint", id },
      details: { url: before.url },
    });
  });
  return { id, deleted: true as const };
}

/** A `webhook.test` event to this endpoint only, whatever it subscribed to (and even when disabled, it waits). */
export async function sendTestEvent(teamId: string, id: string) {
  await findEndpoint(teamId, id);
  const eventId = await transaction((tx) =>
    emitWebhookEvent(
      tx,
      teamId,
      WEBHOOK_TEST_EVENT,
      { endpoint_id: id, message: WEBHOOK_TEST_MESSAGE },
      { endpointId: id },
    ),
  );
  return { event_id: eventId! };
}

/** Sends an event to the endpoint again, as a new delivery with the same `webhook-id`. */
export async function resendDelivery(teamId: string, endpointId: string, deliveryId: string) {
  await findEndpoint(teamId, endpointId);
  const original = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId, teamId },
    select: { eventId: true, eventType: true },
  });
  if (!original) throw notFound(`No delivery ${deliveryId} to webhook endpoint ${endpointId}.`);
  const now = BigInt(monotonicNow());
  const id = newId("whd");
  await transaction(async (tx) => {
    await tx.webhookDelivery.create({
      data: {
        id,
        eventId: original.eventId,
        endpointId,
        teamId,
        eventType: original.eventType,
        status: "pending",
        nextAttemptAt: now,
        createdAt: now,
      },
    });
    jobSignal("webhooks").wanted = true;
  });
  return { id, event_id: original.eventId };
}
