import "server-only";
import { dbEngine, runStatement } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import { decryptJson } from "@/lib/security/encryption";
import { logger } from "@/lib/observability/logger";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { JobLoop } from "@/lib/jobs/job-loop";
import { claimRows } from "@/lib/jobs/claim";
import { signatureHeader } from "@/lib/webhooks/signature";
import { postWebhook, type AttemptResult } from "@/lib/webhooks/send";
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  DISABLE_AFTER_MS,
  DISABLED_BY_FAILURES,
  deliveryTimeoutMs,
  retryDelayMs,
  retrySchedule,
} from "@/lib/webhooks/config";
import { utcMs } from "@/lib/db/instants";

// The dispatcher runs in every server instance (instrumentation.ts), on the instance's job loop
// (lib/jobs/job-loop.ts). It claims due deliveries from the outbox with one atomic statement per
// endpoint (lib/jobs/claim.ts: FOR UPDATE SKIP LOCKED on PostgreSQL, a conditional UPDATE on
// SQLite), sends each with its own timeout, and stores the results in batches.
// A claim is a lease: it moves nextAttemptAt to the end of the attempt's time budget, so a
// delivery whose instance died mid-attempt is claimed again once that has passed.

/**
 * Deliveries in flight per endpoint, and per instance: a slow or hanging endpoint fills only
 * its own slots (each waits at most the timeout), and the instance's ceiling is far above
 * what a few such endpoints take.
 */
const MAX_IN_FLIGHT = 2048;
const MAX_PER_ENDPOINT = 64;
/** How often due retries and other processes' events (the CLI's) are looked for. */
const POLL_MS = 500;
/** Results are written together once this many wait, or after FLUSH_MS. */
const FLUSH_BATCH = 200;
const FLUSH_MS = 10;
// Beyond the attempt's timeout: time to store its result before another instance may take it
// over. Generous, because a result stored late after a takeover means the event was sent twice
// (a busy database can hold a write for seconds); a crashed instance's deliveries wait this long.
const LEASE_MARGIN_MS = 20_000;

type Claimed = { id: string; eventId: string; attempts: number; payload: string | null };
type Endpoint = { id: string; teamId: string; url: string; secrets: string[] };
type Done = { delivery: Claimed; endpoint: Endpoint; result: AttemptResult };

class Dispatcher {
  private inFlight = 0;
  private perEndpoint = new Map<string, number>();
  private results: Done[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** Endpoints whose refill claim is running: one at a time each. */
  private refilling = new Set<string>();
  /** When the last scan looked for expired leases (claimAndStart). */
  private leasesCheckedAt = 0;
  private loop = new JobLoop({ name: "webhooks", pollMs: POLL_MS, work: () => this.claimAndStart() });

  /** The retry delays, read and checked once: a bad value is reported at start, not at every result. */
  private schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;

  start() {
    try {
      this.schedule = retrySchedule();
    } catch (e) {
      logger.error(`${(e as Error).message}; using the default schedule (${DEFAULT_RETRY_SCHEDULE_SECONDS.join(",")})`);
    }
    this.loop.start();
  }

  /** Claims and starts what is due, now or right after the claim that is running. */
  tick() {
    this.loop.tick();
  }

  private async claimAndStart(): Promise<boolean> {
    const now = Date.now();
    let more = false;
    // Enabled endpoints with a due delivery; those at their in-flight limit here wait their turn.
    const endpoints = (await runStatement(
      `SELECT e."id", e."teamId", e."url", e."secret", e."previousSecret", e."previousSecretExpiresAt" FROM "WebhookEndpoint" e
       WHERE e."enabled" = ${dbEngine() === "postgresql" ? "true" : "1"} AND EXISTS (
         SELECT 1 FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND d."status" IN ('pending', 'delivering') AND d."nextAttemptAt" <= ${param(1)})`,
      [now],
    )) as {
      id: string;
      teamId: string;
      url: string;
      secret: string;
      previousSecret: string | null;
      previousSecretExpiresAt: unknown;
    }[];
    // Expired leases (an instance died mid-attempt) are looked for at most once a poll interval:
    // a scan also follows every stored batch, and the lease claim is a statement per endpoint.
    const withExpiredLeases = now - this.leasesCheckedAt >= POLL_MS;
    if (withExpiredLeases) this.leasesCheckedAt = now;
    for (const e of endpoints) {
      const endpoint: Endpoint = { id: e.id, teamId: e.teamId, url: e.url, secrets: signingSecrets(e, now) };
      if (await this.claimFor(endpoint, now, withExpiredLeases)) more = true;
    }
    return more;
  }

  /**
   * Claims and starts as many of the endpoint's due deliveries as it has free slots; true when
   * that filled them (more may be due).
   */
  private async claimFor(endpoint: Endpoint, now: number, withExpiredLeases: boolean): Promise<boolean> {
    const free = Math.min(MAX_PER_ENDPOINT - (this.perEndpoint.get(endpoint.id) ?? 0), MAX_IN_FLIGHT - this.inFlight);
    if (free <= 0) return false;
    const claimed = await claim(endpoint.id, now, now + deliveryTimeoutMs() + LEASE_MARGIN_MS, free, withExpiredLeases);
    for (const delivery of claimed) {
      if (delivery.payload === null) continue; // the team was deleted meanwhile: its rows went with it
      this.inFlight++;
      this.perEndpoint.set(endpoint.id, (this.perEndpoint.get(endpoint.id) ?? 0) + 1);
      void this.attempt(delivery, endpoint, delivery.payload);
    }
    return claimed.length === free;
  }

  /**
   * Once half an endpoint's slots are free: its next due deliveries, claimed directly (no scan
   * of all endpoints; the claim itself skips an endpoint disabled meanwhile).
   */
  private refill(endpoint: Endpoint) {
    if (this.refilling.has(endpoint.id)) return;
    this.refilling.add(endpoint.id);
    void this.claimFor(endpoint, Date.now(), false)
      .catch((e) => logger.warn("webhook dispatcher: claim failed", { error: e }))
      .finally(() => this.refilling.delete(endpoint.id));
  }

  private async attempt(delivery: Claimed, endpoint: Endpoint, payload: string) {
    let result: AttemptResult;
    try {
      // Signed per attempt: the timestamp is this attempt's.
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = {
        "webhook-id": delivery.eventId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatureHeader(endpoint.secrets, delivery.eventId, timestamp, payload),
      };
      result = await postWebhook(endpoint.url, payload, headers, deliveryTimeoutMs());
    } catch (e) {
      result = {
        ok: false,
        statusCode: null,
        error: String((e as Error)?.message ?? e),
        responseBody: null,
        startedAt: Date.now(),
        durationMs: 0,
      };
    }
    this.inFlight--;
    const left = (this.perEndpoint.get(endpoint.id) ?? 1) - 1;
    if (left > 0) this.perEndpoint.set(endpoint.id, left);
    else this.perEndpoint.delete(endpoint.id);
    this.results.push({ delivery, endpoint, result });
    if (this.results.length >= FLUSH_BATCH) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
    // Refilled once half its slots are free, not at every completion: a claim is a write.
    if (left <= MAX_PER_ENDPOINT / 2) this.refill(endpoint);
  }

  private flushSoon(delay: number) {
    if (this.flushTimer && delay > 0) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, delay);
  }

  /** Stores a batch of results in one transaction. */
  private async flush() {
    const batch = this.results.splice(0, this.results.length);
    if (batch.length === 0) return;
    try {
      // On PostgreSQL a batch of successes (a burst's batches) is one statement and needs no
      // transaction; one with a failure updates its endpoint's streak too (storeResults).
      if (dbEngine() === "postgresql" && batch.every((d) => d.result.ok)) await storeSuccesses(batch);
      else await transaction((tx) => storeResults(tx, batch, this.schedule));
    } catch (e) {
      // Not stored: each lease runs out and the delivery is attempted again (at least once).
      logger.error("webhook dispatcher: results not stored", { error: e, deliveries: batch.length });
    }
    if (this.results.length) this.flushSoon(0);
    this.tick();
  }
}

const param = (n: number) => (dbEngine() === "postgresql" ? `$${n}` : "?");

/**
 * Claims up to `limit` due deliveries of one endpoint, each row's attempt counted: first those
 * whose lease ran out (an instance died mid-attempt; rarely any), then pending ones, oldest due
 * first. Each is one atomic statement over an index range of (endpointId, status, nextAttemptAt).
 */
async function claim(
  endpointId: string,
  now: number,
  lease: number,
  limit: number,
  withExpiredLeases: boolean,
): Promise<Claimed[]> {
  const claimed = withExpiredLeases ? await claimWithStatus("delivering", endpointId, now, lease, limit) : [];
  if (claimed.length < limit)
    claimed.push(...(await claimWithStatus("pending", endpointId, now, lease, limit - claimed.length)));
  return claimed;
}

async function claimWithStatus(
  status: "pending" | "delivering",
  endpointId: string,
  now: number,
  lease: number,
  limit: number,
): Promise<Claimed[]> {
  const rows = await claimRows<{ id: string; eventId: string; attempts: number | bigint; payload: string | null }>({
    table: "WebhookDelivery",
    set: `"status" = 'delivering', "attempts" = "attempts" + 1, "nextAttemptAt" = ?`,
    setParams: [lease],
    where: `"endpointId" = ? AND "status" = '${status}' AND "nextAttemptAt" <= ?
         AND EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."id" = "WebhookDelivery"."endpointId" AND e."enabled" = ${dbEngine() === "postgresql" ? "true" : "1"})`,
    whereParams: [endpointId, now],
    orderBy: `"nextAttemptAt"`,
    limit,
    returning: `"id", "eventId", "attempts", (SELECT "payload" FROM "WebhookEvent" e WHERE e."id" = "WebhookDelivery"."eventId") AS "payload"`,
  });
  return rows.map((r) => ({ id: r.id, eventId: r.eventId, attempts: Number(r.attempts), payload: r.payload }));
}

/**
 * Stores the outcome of a batch of attempts in one statement; returns the ids it stored. A row
 * is updated only while it is still this instance's attempt (same number, still delivering):
 * after a lost lease, the other instance's attempt counts.
 */
async function storeOutcomes(
  tx: Tx,
  rows: {
    id: string;
    attempts: number;
    status: string;
    code: number | null;
    error: string | null;
    next: number;
    completed: number | null;
  }[],
): Promise<Set<string>> {
  const pg = dbEngine() === "postgresql";
  const cast = pg
    ? ["::text", "::int", "::text", "::int", "::text", "::bigint", "::bigint"]
    : ["", "", "", "", "", "", ""];
  const values = rows.map((_, i) => `(${cast.map((c, j) => `${param(i * 7 + j + 1)}${c}`).join(", ")})`);
  const params = rows.flatMap((r) => [r.id, r.attempts, r.status, r.code, r.error, r.next, r.completed]);
  const stored = await tx.$queryRawUnsafe<{ id: string }[]>(
    `WITH v ("id", "attempts", "status", "code", "error", "next", "completed") AS (VALUES ${values.join(", ")})
     UPDATE "WebhookDelivery" SET "status" = v."status", "lastStatusCode" = v."code", "lastError" = v."error", "nextAttemptAt" = v."next", "completedAt" = v."completed"
     FROM v WHERE "WebhookDelivery"."id" = v."id" AND "WebhookDelivery"."attempts" = v."attempts" AND "WebhookDelivery"."status" = 'delivering'
     RETURNING "WebhookDelivery"."id"`,
    ...params,
  );
  return new Set(stored.map((r) => r.id));
}

function signingSecrets(
  e: { id: string; secret: string; previousSecret: string | null; previousSecretExpiresAt: unknown },
  now: number,
): string[] {
  const secrets = [decryptJson<string>(e.secret, `webhook_endpoint:${e.id}`)];
  const at = e.previousSecretExpiresAt;
  const until = at == null ? 0 : at instanceof Date ? at.getTime() : typeof at === "string" ? utcMs(at) : Number(at);
  if (e.previousSecret && until > now) secrets.push(decryptJson<string>(e.previousSecret, `webhook_endpoint:${e.id}`));
  return secrets;
}

/** The attempt rows of a batch in one INSERT (Prisma's createMany costs more than the write). */
async function insertAttempts(
  tx: Tx,
  rows: {
    id: string;
    deliveryId: string;
    number: number;
    startedAt: number;
    durationMs: number;
    statusCode: number | null;
    error: string | null;
    responseBody: string | null;
  }[],
) {
  const values = rows.map((_, i) => `(${Array.from({ length: 8 }, (_, j) => param(i * 8 + j + 1)).join(", ")})`);
  await tx.$executeRawUnsafe(
    `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "number", "startedAt", "durationMs", "statusCode", "error", "responseBody") VALUES ${values.join(", ")}`,
    ...rows.flatMap((a) => [
      a.id,
      a.deliveryId,
      a.number,
      a.startedAt,
      a.durationMs,
      a.statusCode,
      a.error,
      a.responseBody,
    ]),
  );
}

/**
 * PostgreSQL: a batch of successful attempts stored in one statement, as storeResults would:
 * each delivery succeeded while it is still this instance's attempt, an attempt row for each of
 * those, and the failing streak of their endpoints ended.
 */
async function storeSuccesses(batch: Done[]) {
  const columns = ["::text", "::int", "::int", "::bigint", "::text", "::bigint", "::int", "::text", "::text"];
  const values = batch.map((_, i) => `(${columns.map((c, j) => `$${i * columns.length + j + 1}${c}`).join(", ")})`);
  const params = batch.flatMap(({ delivery, endpoint, result }) => [
    delivery.id,
    delivery.attempts,
    result.statusCode,
    result.startedAt + result.durationMs,
    newId("wha"),
    result.startedAt,
    result.durationMs,
    endpoint.id,
    result.responseBody,
  ]);
  await runStatement(
    `WITH v ("id", "attempts", "code", "done", "attemptId", "startedAt", "durationMs", "endpointId", "responseBody") AS (VALUES ${values.join(", ")}),
     u AS (UPDATE "WebhookDelivery" SET "status" = 'succeeded', "lastStatusCode" = v."code", "lastError" = NULL, "nextAttemptAt" = v."done", "completedAt" = v."done"
       FROM v WHERE "WebhookDelivery"."id" = v."id" AND "WebhookDelivery"."attempts" = v."attempts" AND "WebhookDelivery"."status" = 'delivering'
       RETURNING "WebhookDelivery"."id"),
     a AS (INSERT INTO "WebhookAttempt" ("id", "deliveryId", "number", "startedAt", "durationMs", "statusCode", "error", "responseBody")
       SELECT v."attemptId", v."id", v."attempts", v."startedAt", v."durationMs", v."code", NULL, v."responseBody" FROM v JOIN u ON u."id" = v."id"),
     e AS (UPDATE "WebhookEndpoint" SET "failingSince" = NULL, "updatedAt" = now()
       WHERE "id" IN (SELECT v."endpointId" FROM v JOIN u ON u."id" = v."id") AND "failingSince" IS NOT NULL)
     SELECT count(*) AS "stored" FROM u`,
    params,
  );
}

async function storeResults(tx: Tx, batch: Done[], schedule: number[]) {
  const attempts = [];
  // Per endpoint, in the order of the batch: the first failure since its last success here
  // (null when it ends on a success), and whether a success came first (its streak ends).
  const endpointOutcome = new Map<string, { endpoint: Endpoint; failedAt: number | null; succeeded: boolean }>();
  const outcomes = batch.map(({ delivery, result }) => {
    const end = result.startedAt + result.durationMs;
    const delay = result.ok ? null : retryDelayMs(delivery.attempts, schedule);
    const status = result.ok ? "succeeded" : delay === null ? "failed" : "pending";
    return {
      id: delivery.id,
      attempts: delivery.attempts,
      status,
      code: result.statusCode,
      error: result.error,
      next: status === "pending" ? end + delay! : end,
      completed: status === "pending" ? null : end,
    };
  });
  const stored = await storeOutcomes(tx, outcomes);
  for (const [i, { delivery, endpoint, result }] of batch.entries()) {
    if (!stored.has(delivery.id)) continue;
    const status = outcomes[i].status;
    attempts.push({
      id: newId("wha"),
      deliveryId: delivery.id,
      number: delivery.attempts,
      startedAt: result.startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseBody: result.responseBody,
    });
    const o = endpointOutcome.get(endpoint.id) ?? { endpoint, failedAt: null, succeeded: false };
    if (result.ok) {
      o.succeeded = true;
      o.failedAt = null;
    } else o.failedAt ??= result.startedAt;
    endpointOutcome.set(endpoint.id, o);
    if (!result.ok)
      logger.info("webhook attempt failed", {
        endpoint_id: endpoint.id,
        delivery_id: delivery.id,
        event_id: delivery.eventId,
        attempt: delivery.attempts,
        status_code: result.statusCode,
        error: result.error,
        next: status,
      });
  }
  if (attempts.length) await insertAttempts(tx, attempts);
  // The endpoints whose last attempt here succeeded: a failing streak ends, for all in one statement.
  const recovered = [...endpointOutcome.values()].filter((o) => o.failedAt === null && o.succeeded);
  if (recovered.length)
    await tx.webhookEndpoint.updateMany({
      where: { id: { in: recovered.map((o) => o.endpoint.id) }, failingSince: { not: null } },
      data: { failingSince: null },
    });
  for (const { endpoint, failedAt, succeeded } of endpointOutcome.values()) {
    if (failedAt === null) continue;
    // A success earlier in the batch ended the old streak: the new one starts at this failure.
    await tx.webhookEndpoint.updateMany({
      where: { id: endpoint.id, ...(!succeeded && { failingSince: null }) },
      data: { failingSince: new Date(failedAt) },
    });
    await disableIfFailingTooLong(tx, endpoint);
  }
}

/** An endpoint whose attempts have all failed for 3 days is disabled, with an audit event. */
async function disableIfFailingTooLong(tx: Tx, endpoint: Endpoint) {
  const since = new Date(Date.now() - DISABLE_AFTER_MS);
  const reason = DISABLED_BY_FAILURES;
  const disabled = await tx.webhookEndpoint.updateMany({
    where: { id: endpoint.id, enabled: true, failingSince: { lte: since } },
    data: { enabled: false, disabledAt: new Date(), disabledReason: reason },
  });
  if (disabled.count === 0) return;
  await recordAuditEvent(tx, {
    teamId: endpoint.teamId,
    action: "webhook_endpoint.disable",
    target: { type: "webhook_endpoint", id: endpoint.id },
    details: { url: endpoint.url, reason },
    actor: { kind: "system" },
  });
  logger.warn("webhook endpoint disabled", { endpoint_id: endpoint.id, reason });
}

const globalDispatcher = globalThis as { __patchbayWebhookDispatcher?: Dispatcher };

/** Starts this process's dispatcher once (instrumentation.ts). */
export function startWebhookDispatcher(): Dispatcher {
  if (!globalDispatcher.__patchbayWebhookDispatcher) {
    globalDispatcher.__patchbayWebhookDispatcher = new Dispatcher();
    globalDispatcher.__patchbayWebhookDispatcher.start();
  }
  return globalDispatcher.__patchbayWebhookDispatcher;
}
