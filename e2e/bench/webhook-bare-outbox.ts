// bench:webhooks' bare-driver side: the outbox's database work with the driver alone
// (better-sqlite3 or pg, hand-written SQL, no Prisma), on a database of its own, no HTTP.
//   write:    per change, in one transaction, the rows saveConnection writes: the connection,
//             its audit event, the subscribed endpoints read, the event and one delivery per
//             endpoint (lib/connection-changes/save-connection.ts, lib/webhooks/emit.ts);
//   dispatch: the dispatcher's statements (lib/webhooks/dispatcher.ts as of 2a3e645): the
//             endpoints with due deliveries, a claim of an endpoint's pending rows with the same
//             UPDATE … RETURNING, the claimed events' payloads, and the batch's results stored as
//             the dispatcher stores them (one UPDATE … FROM (VALUES …), the attempt rows, the
//             endpoint's failing streak), one loop per endpoint, concurrently.
// writeBacklog writes the same change rows into the product's database: the backlog its
// dispatcher drains in bench:webhooks.
import { encryptJson } from "@/lib/security/encryption";
import { newId } from "@/lib/security/ids";

const ENDPOINTS = 3;

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
type Exec = {
  /** One statement on its own (autocommit), as the dispatcher's claims run. */
  query: Query;
  /** Runs `fn` in one transaction on a connection of its own; `q` runs one statement in it (`?` placeholders). */
  tx<T>(fn: (q: Query) => Promise<T>): Promise<T>;
  engine: "sqlite" | "postgresql";
  close(): Promise<void>;
};

async function connect(target: { file: string } | { url: string }, connections: number): Promise<Exec> {
  if ("file" in target) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    // As the product opens it: WAL (set by the migrations, persistent), default synchronous, busy timeout.
    const db = new Database(target.file, { timeout: 10_000 });
    const statements = new Map<string, import("better-sqlite3").Statement>();
    const run = (sql: string, params: unknown[] = []) => {
      let s = statements.get(sql);
      if (!s) statements.set(sql, (s = db.prepare(sql)));
      return s.reader ? (s.all(...params) as Record<string, unknown>[]) : (s.run(...params), []);
    };
    // One connection, as the product's: a transaction and the statements between them take turns.
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
      const result = turn.then(fn);
      turn = result.catch(() => {});
      return result;
    };
    return {
      engine: "sqlite",
      query: (sql, params) => inTurn(async () => run(sql, params)),
      tx: (fn) =>
        inTurn(async () => {
          db.exec("BEGIN");
          try {
            const r = await fn(async (sql, params) => run(sql, params));
            db.exec("COMMIT");
            return r;
          } catch (e) {
            db.exec("ROLLBACK");
            throw e;
          }
        }),
      close: async () => void db.close(),
    };
  }
  const { Pool } = await import("pg");
  const pool = new Pool({ connectionString: target.url, max: connections });
  // Without a listener, an idle client's error (its database dropped at the end) would crash the bench.
  pool.on("error", () => {});
  const numbered = new Map<string, string>();
  const text = (sql: string) => {
    let t = numbered.get(sql);
    if (t === undefined) {
      let n = 0;
      numbered.set(sql, (t = sql.replace(/\?/g, () => `$${++n}`)));
    }
    return t;
  };
  return {
    engine: "postgresql",
    query: async (sql, params = []) => (await pool.query(text(sql), params)).rows,
    tx: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const r = await fn(async (sql, params = []) => (await client.query(text(sql), params)).rows);
        await client.query("COMMIT");
        return r;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The rows of `changes` new connections, each written in one transaction as saveConnection
 * writes them (the connection, its audit event, the subscribed endpoints read, the event, a
 * delivery per endpoint), by `writers` concurrent writers (one on SQLite, whose driver is
 * synchronous). Returns the events' ids.
 */
async function writeChanges(x: Exec, teamId: string, changes: number, writers: number, label: string) {
  const pg = x.engine === "postgresql";
  const date = (d: Date) => (pg ? d : d.toISOString());
  const eventIds: string[] = [];
  const writeOne = (i: number) =>
    x.tx(async (q) => {
      const id = newId("conn");
      const at = new Date();
      await q(
        `INSERT INTO "Connection" ("id", "teamId", "type", "displayName", "ownerUserId", "credentials", "rotationKey", "externalId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          teamId,
          "sandbox_key",
          `${label} ${i}`,
          null,
          encryptJson({ api_key: `bench-${label}-${i}` }, `connection:${id}`),
          null,
          null,
          date(at),
          date(at),
        ],
      );
      const connection = {
        id,
        type: "sandbox_key",
        display_name: `${label} ${i}`,
        external_id: null,
        is_private: false,
        created_at: at.getTime(),
        updated_at: at.getTime(),
      };
      await q(
        `INSERT INTO "AuditEvent" ("id", "teamId", "actorKind", "actorUserId", "actorEmail", "actorKeyId", "action", "targetType", "targetId", "details", "ip", "requestId", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          newId("aud"),
          teamId,
          "system",
          null,
          null,
          null,
          "connection.create",
          "connection",
          id,
          JSON.stringify({ type: "sandbox_key", name: `${label} ${i}`, private: false, via: "credentials" }),
          null,
          null,
          date(at),
        ],
      );
      const endpoints = await q(`SELECT "id", "events" FROM "WebhookEndpoint" WHERE "teamId" = ? AND "enabled" = ?`, [
        teamId,
        pg ? true : 1,
      ]);
      const eventId = newId("msg");
      const createdAt = Math.floor(Date.now() / 1000);
      const payload = JSON.stringify({
        id: eventId,
        type: "connection.created",
        created_at: createdAt,
        team_id: teamId,
        data: { connection },
      });
      eventIds.push(eventId);
      await q(`INSERT INTO "WebhookEvent" ("id", "teamId", "type", "createdAt", "payload") VALUES (?, ?, ?, ?, ?)`, [
        eventId,
        teamId,
        "connection.created",
        createdAt,
        payload,
      ]);
      const ms = Date.now();
      await q(
        `INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "teamId", "eventType", "status", "nextAttemptAt", "createdAt") VALUES ${endpoints.map(() => "(?, ?, ?, ?, ?, 'pending', ?, ?)").join(", ")}`,
        endpoints.flatMap((e) => [newId("whd"), eventId, e.id, teamId, "connection.created", ms, ms]),
      );
    });
  let next = 0;
  await Promise.all(
    Array.from({ length: pg ? writers : 1 }, async () => {
      for (let i = next++; i < changes; i = next++) await writeOne(i);
    }),
  );
  return eventIds;
}

/**
 * A backlog for the product's dispatcher: `changes` changes' rows written into the product's
 * database for `teamId` (whose endpoints get the deliveries), exactly as saveConnection writes
 * them, only faster. Returns the events' ids.
 */
export async function writeBacklog(
  target: { file: string } | { url: string },
  teamId: string,
  changes: number,
  writers: number,
) {
  const x = await connect(target, writers);
  try {
    return await writeChanges(x, teamId, changes, writers, "backlog");
  } finally {
    await x.close();
  }
}

export type BareResult = {
  write: { changes: number; seconds: number; changesPerSecond: number; rowsPerSecond: number };
  dispatch: {
    deliveries: number;
    seconds: number;
    deliveriesPerSecond: number;
    eventsPerSecond: number;
    rounds: number;
  };
};

/**
 * `changes` changes written by `writers` concurrent writers (PostgreSQL; SQLite's driver is
 * synchronous), then drained `perEndpoint` (the dispatcher's MAX_PER_ENDPOINT) at a time.
 */
export async function bareOutbox(
  target: { file: string } | { url: string },
  changes: number,
  writers: number,
  perEndpoint: number,
): Promise<BareResult> {
  const x = await connect(target, writers);
  const pg = x.engine === "postgresql";
  const date = (d: Date) => (pg ? d : d.toISOString());
  try {
    const teamId = newId("team");
    const now = new Date();
    await x.tx(async (q) => {
      await q(
        `INSERT INTO "Team" ("id", "name", "creditsLimit", "billingPeriodStart", "billingPeriodEnd") VALUES (?, ?, ?, ?, ?)`,
        [teamId, "Bare", 100_000, date(now), date(new Date(now.getTime() + 30 * 86_400_000))],
      );
      for (let i = 0; i < ENDPOINTS; i++) {
        const id = newId("we");
        await q(`INSERT INTO "WebhookEndpoint" ("id", "teamId", "url", "secret", "updatedAt") VALUES (?, ?, ?, ?, ?)`, [
          id,
          teamId,
          `http://127.0.0.1:${9000 + i}/hook`,
          encryptJson("whsec_bare", `webhook_endpoint:${id}`),
          date(now),
        ]);
      }
    });

    const t0 = performance.now();
    await writeChanges(x, teamId, changes, writers, "bare");
    const writeSeconds = (performance.now() - t0) / 1000;

    // Dispatch, without HTTP: claim, read the payloads, store each as a 200. One loop per
    // endpoint, concurrently (PostgreSQL runs them on connections of their own, as the
    // product's claims and stores overlap; SQLite's synchronous driver takes them in turn).
    const enabled = pg ? "true" : "1";
    const endpointIds = (await x.query(`SELECT "id" FROM "WebhookEndpoint" WHERE "teamId" = ?`, [teamId])).map(
      (e) => e.id as string,
    );
    const d0 = performance.now();
    let deliveries = 0;
    let rounds = 0;
    const dispatchEndpoint = async (endpointId: string) => {
      for (;;) {
        rounds++;
        const now = Date.now();
        // What each of the product's ticks asks first: the endpoints with due deliveries.
        await x.query(
          `SELECT e."id", e."teamId", e."url", e."secret", e."previousSecret", e."previousSecretExpiresAt" FROM "WebhookEndpoint" e
           WHERE e."enabled" = ${enabled} AND EXISTS (
             SELECT 1 FROM "WebhookDelivery" d WHERE d."endpointId" = e."id" AND d."status" IN ('pending', 'delivering') AND d."nextAttemptAt" <= ?)`,
          [now],
        );
        const lease = now + 10_000 + 5_000;
        // The claim walks the index range of the endpoint's pending rows (none has an expired lease here).
        const claimed = await x.query(
          `UPDATE "WebhookDelivery" SET "status" = 'delivering', "attempts" = "attempts" + 1, "nextAttemptAt" = ?
           WHERE "id" IN (
             SELECT "id" FROM "WebhookDelivery"
             WHERE "endpointId" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ?
             ORDER BY "nextAttemptAt" LIMIT ?${pg ? " FOR UPDATE SKIP LOCKED" : ""})
           ${pg ? "" : `AND "status" = 'pending' AND "nextAttemptAt" <= ?`}
           RETURNING "id", "eventId", "attempts"`,
          pg ? [lease, endpointId, now, perEndpoint] : [lease, endpointId, now, perEndpoint, now],
        );
        if (claimed.length === 0) return;
        const ids = [...new Set(claimed.map((c) => c.eventId as string))];
        await x.query(
          `SELECT "id", "payload" FROM "WebhookEvent" WHERE "id" IN (${ids.map(() => "?").join(", ")})`,
          ids,
        );
        // The results stored together, as the dispatcher's flush stores its batch: one UPDATE … FROM
        // (VALUES …) for the outcomes, one INSERT for the attempts.
        const end = Date.now();
        const cast = pg
          ? ["::text", "::int", "::text", "::int", "::text", "::bigint", "::bigint"]
          : ["", "", "", "", "", "", ""];
        await x.tx(async (q) => {
          const stored = await q(
            `WITH v ("id", "attempts", "status", "code", "error", "next", "completed") AS (VALUES ${claimed.map(() => `(${cast.map((c) => `?${c}`).join(", ")})`).join(", ")})
             UPDATE "WebhookDelivery" SET "status" = v."status", "lastStatusCode" = v."code", "lastError" = v."error", "nextAttemptAt" = v."next", "completedAt" = v."completed"
             FROM v WHERE "WebhookDelivery"."id" = v."id" AND "WebhookDelivery"."attempts" = v."attempts" AND "WebhookDelivery"."status" = 'delivering'
             RETURNING "WebhookDelivery"."id"`,
            claimed.flatMap((d) => [d.id, Number(d.attempts), "succeeded", 200, null, end, end]),
          );
          if (stored.length !== claimed.length)
            throw new Error(`bare driver: stored ${stored.length} of ${claimed.length} results`);
          await q(
            `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "number", "startedAt", "durationMs", "statusCode", "error", "responseBody") VALUES ${claimed.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
            claimed.flatMap((d) => [newId("wha"), d.id, d.attempts, end, 1, 200, null, "ok"]),
          );
          await q(`UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE "id" = ? AND "failingSince" IS NOT NULL`, [
            endpointId,
          ]);
        });
        deliveries += claimed.length;
      }
    };
    await Promise.all(endpointIds.map(dispatchEndpoint));
    const dispatchSeconds = (performance.now() - d0) / 1000;
    return {
      write: {
        changes,
        seconds: writeSeconds,
        changesPerSecond: changes / writeSeconds,
        rowsPerSecond: (changes * (3 + ENDPOINTS)) / writeSeconds,
      },
      dispatch: {
        deliveries,
        seconds: dispatchSeconds,
        deliveriesPerSecond: deliveries / dispatchSeconds,
        eventsPerSecond: deliveries / ENDPOINTS / dispatchSeconds,
        rounds,
      },
    };
  } finally {
    await x.close();
  }
}
