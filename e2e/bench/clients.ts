// npm run bench:clients — issue 50's benchmark. Seeds one agency team with 10,000 clients
// (external ids), 30,000 connections, 5,000,000 attributed charges (ledger entries, each with its
// UsageAttribution rows: one per MCP-like call, two for every fifth, a workflow run split over two
// connections) and 1,000,000 operation logs on those connections, all in the last 29 days (the
// team's billing period began 15 days ago), and one auth link per client (half of them pending);
// starts the production server and measures, sampled alternately in one run so every side sees
// the same machine:
//   - api:   GET /v1/usage?group_by=external_id over 30 days (the first page, limit 1000);
//   - bare:  the same aggregation with the bare driver in this process (better-sqlite3 / pg):
//            credits per client from the attribution rows, operations and errors from the logs,
//            over the connections the key sees, merged, ordered and cut into the same page JSON;
//   - clients: the Clients page's first screen's data, GET /api/dashboard/clients?limit=100 (what
//            components/clients/clients-explorer.tsx asks for first: no filters, name order) in a
//            session signed in over HTTP (next-auth's credentials callback, as e2e/support/session.ts);
//   - clients bare: listClients's reads with the bare driver: the membership, the billing periods,
//            the connections the user sees, credits per client in the current period and the
//            three before, usage of the last 7 days per client, pending auth links (side by side
//            over a pool on PostgreSQL, as listClients runs them); merged, sorted by name and cut
//            into the same page JSON;
//   - html:  the Clients page itself, GET /<team>/clients (the server-rendered shell, whose table
//            then asks for the first page above; no bare counterpart);
//   - floor: the same server's cheapest answer through the same wrapper (GET /v1/logs without a
//            key: 401), as bench:api defines it.
// Then the write path: chargeCredits in its own transaction with no attribution row (a charge of
// 0 credits: what a charge cost before attribution), one row (an MCP call) and three rows (a run
// split over three connections), alternately, on the same seeded database.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… creates a fresh database beside the one
// named (dropped afterwards). Scale: BENCH_CLIENTS (10000), BENCH_CONNECTIONS (30000),
// BENCH_CHARGES (5000000), BENCH_LOGS (1000000); BENCH_SAMPLES (30) samples of each side,
// BENCH_WRITES (1000) charges per write variant.
import http from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 30_000);
const CHARGES = Number(process.env.BENCH_CHARGES ?? 5_000_000);
const LOGS = Number(process.env.BENCH_LOGS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const WRITES = Number(process.env.BENCH_WRITES ?? 1000);
const BATCH = 50_000;
const DAY = 86_400;

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows read untyped; a wrong shape fails the comparison
type Value = string | number | null;

/**
 * The seeded world's rows, generated in batches of column values for either engine's writer;
 * `date` writes a DateTime column as the engine's Prisma stores it.
 */
function world(teamId: string, userId: string, now: number, date: (seconds: number) => string) {
  const span = 29 * DAY;
  const pad = (n: number) => String(n).padStart(5, "0");
  const connectionId = (i: number) => `conn_bench${String(i).padStart(10, "0")}`;
  // Every 50th connection has no client (the null key); the others go round the clients.
  const externalId = (i: number) => (i % 50 === 49 ? null : `client_${pad(i % CLIENTS)}`);
  // A cheap deterministic spread of which connection each charge and log used.
  const pick = (i: number) => (i * 7919) % CONNECTIONS;
  const at = (i: number, n: number) => now - span + Math.floor((i * span) / n);
  function* batches(n: number, row: (i: number) => Value[]) {
    for (let start = 0; start < n; start += BATCH) {
      const batch: Value[][] = [];
      for (let i = start; i < Math.min(n, start + BATCH); i++) batch.push(row(i));
      yield batch;
    }
  }
  return {
    connections: {
      columns: ["id", "teamId", "type", "displayName", "externalId", "credentials", "nextCheckAt"],
      pgTypes: ["text", "text", "text", "text", "text", "text", "int8"],
      // Checked a month from now: the health job leaves them alone during the run.
      batches: () =>
        batches(CONNECTIONS, (i) => [
          connectionId(i),
          teamId,
          "sandbox_key",
          `Bench ${i}`,
          externalId(i),
          "v1.bench",
          (now + 30 * DAY) * 1000,
        ]),
    },
    ledger: {
      columns: [
        "id",
        "teamId",
        "creditsUsed",
        "creditsRemaining",
        "serviceType",
        "serviceId",
        "serviceName",
        "createdAt",
      ],
      pgTypes: ["int4", "text", "int4", "int4", "text", "text", "text", "int8"],
      batches: () =>
        batches(CHARGES, (i) =>
          i % 5 === 0
            ? [i + 1, teamId, 4, 1_000_000_000 - i, "workflow", "wf_bench", "Bench workflow", at(i, CHARGES)]
            : [i + 1, teamId, 2, 1_000_000_000 - i, "mcp", "mcp_bench", "Bench MCP", at(i, CHARGES)],
        ),
    },
    // One row per MCP-like charge; a workflow run's 4 credits split 3 + 1 over two connections.
    attribution: {
      columns: ["teamId", "ledgerEntryId", "connectionId", "credits", "createdAt"],
      pgTypes: ["text", "int4", "text", "int4", "int8"],
      batches: function* () {
        for (const batch of batches(CHARGES, (i) => [i])) {
          const rows: Value[][] = [];
          for (const [i] of batch as number[][]) {
            const t = at(i, CHARGES);
            if (i % 5 === 0) {
              rows.push([teamId, i + 1, connectionId(pick(i)), 3, t]);
              rows.push([teamId, i + 1, connectionId(pick(i + 1)), 1, t]);
            } else rows.push([teamId, i + 1, connectionId(pick(i)), 2, t]);
          }
          yield rows;
        }
      },
    },
    logs: {
      columns: [
        "id",
        "teamId",
        "operationId",
        "operationVersion",
        "status",
        "sourceType",
        "sourceId",
        "sourceName",
        "startedAt",
        "completedAt",
        "creditsUsed",
        "metadata",
        "connectionId",
      ],
      pgTypes: ["text", "text", "text", "int4", "text", "text", "text", "text", "int8", "int8", "int4", "text", "text"],
      batches: () =>
        batches(LOGS, (i) => [
          `log_bench${String(i).padStart(11, "0")}`,
          teamId,
          "sandbox.report",
          1,
          i % 10 === 9 ? "error" : "success",
          "mcp",
          "mcp_bench",
          "Bench MCP",
          at(i, LOGS),
          at(i, LOGS) + 1,
          i % 10 === 9 ? 0 : 2,
          "{}",
          connectionId(pick(i * 3)),
        ]),
    },
    // One auth link per client: half pending (an eighth of those private: a teammate's, hidden,
    // or the bench user's own), a quarter consumed, a quarter expired.
    authLinks: {
      columns: [
        "id",
        "tokenHash",
        "teamId",
        "createdByUserId",
        "connectionType",
        "externalId",
        "isPrivate",
        "expiresAt",
        "consumedAt",
      ],
      pgTypes: ["text", "text", "text", "text", "text", "text", "bool", "timestamp", "timestamp"],
      batches: () =>
        batches(CLIENTS, (i) => [
          `alink_bench${pad(i)}`,
          createHash("sha256").update(`bench link ${i}`).digest("hex"),
          teamId,
          i % 8 === 1 ? null : userId,
          "sandbox_key",
          `client_${pad(i)}`,
          i % 8 === 1 || i % 8 === 4 ? 1 : 0,
          date(i % 4 === 3 ? now - DAY : now + 7 * DAY),
          i % 4 === 2 ? date(now - DAY) : null,
        ]),
    },
  };
}

type Table = { columns: string[]; pgTypes: string[]; batches: () => Generator<Value[][]> };

/**
 * Bulk writers: each table's secondary indexes are dropped, the rows written in batches of
 * 50,000 (prepared statements in one transaction each on SQLite, one multi-row `unnest` INSERT
 * each on PostgreSQL), and the same indexes made again from their own definitions.
 */
async function bulkWriter(databaseUrl: string) {
  if (databaseUrl.startsWith("file:")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    const conn = new Database(databaseUrl.slice("file:".length));
    conn.pragma("journal_mode = WAL");
    conn.pragma("synchronous = OFF");
    conn.pragma("cache_size = -524288");
    conn.pragma("temp_store = MEMORY");
    return {
      async write(table: string, t: Table, extra: Record<string, string> = {}) {
        const indexes = conn
          .prepare(
            `SELECT "name", "sql" FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND "sql" IS NOT NULL`,
          )
          .all(table) as { name: string; sql: string }[];
        for (const i of indexes) conn.exec(`DROP INDEX "${i.name}"`);
        const names = [...t.columns, ...Object.keys(extra)];
        const stmt = conn.prepare(
          `INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(", ")}) VALUES (${[...t.columns.map(() => "?"), ...Object.values(extra)].join(", ")})`,
        );
        const t0 = performance.now();
        for (const batch of t.batches()) conn.transaction(() => batch.forEach((row) => stmt.run(...row)))();
        const rows = performance.now() - t0;
        for (const i of indexes) conn.exec(i.sql);
        return { rowsSeconds: rows / 1000, indexSeconds: (performance.now() - t0 - rows) / 1000 };
      },
      async finish() {
        conn.exec("ANALYZE");
        conn.pragma("wal_checkpoint(TRUNCATE)");
        conn.close();
      },
    };
  }
  const { Client } = await import("pg");
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async write(table: string, t: Table, extra: Record<string, string> = {}) {
      const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexname NOT LIKE '%_pkey'`,
        [table],
      );
      for (const i of indexes) await client.query(`DROP INDEX "${i.indexname}"`);
      const names = [...t.columns, ...Object.keys(extra)];
      const values = ["u.*", ...Object.values(extra)].join(", ");
      const sql = `INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(", ")}) SELECT ${values} FROM unnest(${t.pgTypes.map((ty, i) => `$${i + 1}::${ty}[]`).join(", ")}) AS u`;
      const t0 = performance.now();
      for (const batch of t.batches())
        await client.query(
          sql,
          t.columns.map((_, c) => batch.map((row) => row[c])),
        );
      const rows = performance.now() - t0;
      // A partitioned table's index reads "ON ONLY" (the parent alone): rebuilt, it must cover every partition.
      for (const i of indexes) await client.query(i.indexdef.replace(" ON ONLY ", " ON "));
      return { rowsSeconds: rows / 1000, indexSeconds: (performance.now() - t0 - rows) / 1000 };
    },
    async finish() {
      // Explicit ledger ids: the sequence continues after them for the write-path charges.
      await client.query(
        `SELECT setval(pg_get_serial_sequence('"CreditLedgerEntry"', 'id'), (SELECT MAX("id") FROM "CreditLedgerEntry"))`,
      );
      await client.query("VACUUM ANALYZE");
      await client.end();
    },
  };
}

/** `date` moved `months` calendar months back, its day clamped to the target month's last day. */
function monthsBack(date: Date, months: number): Date {
  const d = new Date(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * The bare sides, in hand-written SQL on the bare driver. Usage: the API key's lookup and the
 * aggregation, the two groupings merged by key, ordered (null first) and cut into the same page
 * JSON. Clients: listClients's reads and aggregations, merged, sorted and cut into the same page JSON.
 */
async function bareSides(databaseUrl: string) {
  type Query = (sql: string, params: Value[]) => Promise<Row[]>;
  let query: Query;
  let close: () => Promise<void>;
  if (databaseUrl.startsWith("file:")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    const conn = new Database(databaseUrl.slice("file:".length), { readonly: true });
    const statements = new Map<string, import("better-sqlite3").Statement>();
    query = async (sql, params) => {
      let stmt = statements.get(sql);
      if (!stmt) statements.set(sql, (stmt = conn.prepare(sql)));
      return stmt.all(...params) as Row[];
    };
    close = async () => void conn.close();
  } else {
    const { Pool, types } = await import("pg");
    // A pool, as the server's: the Clients page's independent reads run side by side, as
    // listClients runs them; the usage page's two run one after the other.
    const client = new Pool({
      connectionString: databaseUrl,
      max: 6,
      types: {
        getTypeParser: (oid: number, format?: "text" | "binary") =>
          oid === (types.builtins.INT8 as number) || oid === (types.builtins.NUMERIC as number)
            ? Number
            : // Prisma's TIMESTAMP(3) columns hold UTC.
              oid === (types.builtins.TIMESTAMP as number)
              ? (v: string) => new Date(`${v.replace(" ", "T")}Z`)
              : types.getTypeParser(oid, format),
      },
    });
    const numbered = new Map<string, string>();
    query = async (sql, params) => {
      let text = numbered.get(sql);
      if (text === undefined) {
        let n = 0;
        numbered.set(sql, (text = sql.replace(/\?/g, () => `$${++n}`)));
      }
      return (await client.query(text, params)).rows as Row[];
    };
    close = () => client.end();
  }
  const { encodeCursor } = await import("@/lib/db/pagination");
  const visible = `(x."connectionId" IS NULL OR (c."id" IS NOT NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?)))`;
  const CREDITS = `SELECT c."externalId" AS "key", SUM(x."credits") AS "credits"
    FROM "UsageAttribution" x LEFT JOIN "Connection" c ON c."id" = x."connectionId"
    WHERE x."teamId" = ? AND x."createdAt" >= ? AND x."createdAt" < ? AND ${visible}
    GROUP BY c."externalId"`;
  const LOG_COUNTS = `SELECT c."externalId" AS "key", COUNT(*) AS "operations",
      SUM(CASE WHEN x."status" = 'error' THEN 1 ELSE 0 END) AS "errors"
    FROM "OperationLog" x LEFT JOIN "Connection" c ON c."id" = x."connectionId"
    WHERE x."teamId" = ? AND x."startedAt" >= ? AND x."startedAt" < ? AND ${visible}
    GROUP BY c."externalId"`;
  const KEY = `SELECT k."revokedAt", k."teamId", k."createdByUserId" AS "userId" FROM "ApiKey" k WHERE k."hash" = ?`;
  // The Clients page's reads, as listClients (and the session's membership check) make them.
  const MEMBERSHIP = `SELECT m."role", t."name", t."plan", t."historyDays", u."email", u."sessionEpoch"
    FROM "Membership" m INNER JOIN "Team" t ON t."id" = m."teamId" INNER JOIN "User" u ON u."id" = m."userId"
    WHERE m."teamId" = ? AND m."userId" = ?`;
  const TEAM_PERIOD = `SELECT "billingPeriodStart", "billingPeriodEnd" FROM "Team" WHERE "id" = ?`;
  const CONNECTIONS = `SELECT "id", "type", "displayName", "externalId", "health", "healthError", "lastUsedAt"
    FROM "Connection" WHERE "teamId" = ? AND ("ownerUserId" IS NULL OR "ownerUserId" = ?)
    ORDER BY "type", "createdAt", "id"`;
  const CREDITS_BY_PERIOD = `SELECT c."externalId" AS "key",
      SUM(CASE WHEN x."createdAt" < ? THEN x."credits" ELSE 0 END) AS "c0",
      SUM(CASE WHEN x."createdAt" >= ? AND x."createdAt" < ? THEN x."credits" ELSE 0 END) AS "c1",
      SUM(CASE WHEN x."createdAt" >= ? AND x."createdAt" < ? THEN x."credits" ELSE 0 END) AS "c2",
      SUM(CASE WHEN x."createdAt" >= ? THEN x."credits" ELSE 0 END) AS "c3"
    FROM "UsageAttribution" x LEFT JOIN "Connection" c ON c."id" = x."connectionId"
    WHERE x."teamId" = ? AND x."createdAt" >= ? AND x."createdAt" < ? AND ${visible}
    GROUP BY c."externalId"`;
  const PENDING = `SELECT "externalId" AS "key", COUNT(*) AS "n" FROM "AuthLink"
    WHERE "teamId" = ? AND "consumedAt" IS NULL AND "expiresAt" > ? AND ("isPrivate" = false OR "createdByUserId" = ?)
    GROUP BY "externalId"`;
  const sqlite = databaseUrl.startsWith("file:");
  // A DateTime parameter as Prisma's adapter writes it (SQLite: its text; PostgreSQL: cast from text).
  const dateParam = (d: Date) => (sqlite ? d.toISOString().replace("Z", "+00:00") : d.toISOString());
  const seconds = (v: string | Date) => Math.floor(new Date(v).getTime() / 1000);
  return {
    close,
    async page(key: string, from: number, to: number, limit: number) {
      const [principal] = await query(KEY, [createHash("sha256").update(key).digest("hex")]);
      if (!principal || principal.revokedAt !== null) throw new Error("bench key refused");
      const params = [principal.teamId, from, to, principal.userId];
      const credits = await query(CREDITS, params);
      const logs = await query(LOG_COUNTS, params);
      const rows = new Map<
        string | null,
        { key: string | null; credits: number; operations: number; errors: number }
      >();
      const rowOf = (k: string | null) => {
        let row = rows.get(k);
        if (!row) rows.set(k, (row = { key: k, credits: 0, operations: 0, errors: 0 }));
        return row;
      };
      for (const g of credits) rowOf(g.key).credits += Number(g.credits ?? 0);
      for (const g of logs) {
        const row = rowOf(g.key);
        row.operations += Number(g.operations ?? 0);
        row.errors += Number(g.errors ?? 0);
      }
      const all = [...rows.values()].sort((a, b) =>
        a.key === b.key ? 0 : a.key === null ? -1 : b.key === null ? 1 : a.key < b.key ? -1 : 1,
      );
      const data = all.slice(0, limit);
      const hasMore = limit < all.length;
      const last = data[data.length - 1];
      const next = hasMore
        ? encodeCursor(
            "usage",
            { group_by: "external_id", from, to },
            { at: last.key === null ? 0 : 1, id: last.key ?? "" },
          )
        : null;
      return JSON.stringify({ data, has_more: hasMore, next_cursor: next });
    },
    /** GET /api/dashboard/clients?limit=… (no filters, name order): the page JSON. */
    async clients(teamId: string, userId: string, limit: number) {
      const [member] = await query(MEMBERSHIP, [teamId, userId]);
      if (!member) throw new Error("bench user is no member");
      const [team] = await query(TEAM_PERIOD, [teamId]);
      const start = new Date(team.billingPeriodStart);
      const periods = [{ start: seconds(start), end: seconds(team.billingPeriodEnd) }];
      for (let k = 1; k <= 3; k++)
        periods.unshift({ start: Math.floor(monthsBack(start, k).getTime() / 1000), end: periods[0].start });
      const now = Math.floor(Date.now() / 1000);
      const b = [...periods.map((p) => p.start), periods[3].end];
      const week = [teamId, now - 7 * DAY, now + 1, userId];
      // Side by side on PostgreSQL (the pool), one after the other on SQLite (a synchronous driver).
      const [connections, credits, weekCredits, weekLogs, pending] = await Promise.all([
        query(CONNECTIONS, [teamId, userId]),
        query(CREDITS_BY_PERIOD, [b[1], b[1], b[2], b[2], b[3], b[3], teamId, b[0], b[4], userId]),
        query(CREDITS, week),
        query(LOG_COUNTS, week),
        query(PENDING, [teamId, dateParam(new Date()), userId]),
      ]);

      type Health = "healthy" | "unreachable" | "needs_reauth";
      const rank: Record<Health, number> = { needs_reauth: 2, unreachable: 1, healthy: 0 };
      type ClientRow = {
        id: string;
        external_id: string | null;
        connections: {
          id: string;
          type: string;
          display_name: string | null;
          health: Health;
          health_error: string | null;
        }[];
        health: Health | null;
        credits: number;
        trend: number[];
        operations_7d: number;
        errors_7d: number;
        last_activity: number | null;
        pending_links: number;
      };
      const rows = new Map<string | null, ClientRow>();
      const rowOf = (k: string | null) => {
        let row = rows.get(k);
        if (!row)
          rows.set(
            k,
            (row = {
              id: k === null ? "~none" : k.startsWith("~") ? `~${k}` : k,
              external_id: k,
              connections: [],
              health: null,
              credits: 0,
              trend: [0, 0, 0],
              operations_7d: 0,
              errors_7d: 0,
              last_activity: null,
              pending_links: 0,
            }),
          );
        return row;
      };
      for (const c of connections) {
        const row = rowOf(c.externalId);
        const health = c.health as Health;
        row.connections.push({
          id: c.id,
          type: c.type,
          display_name: c.displayName,
          health,
          health_error: c.healthError,
        });
        if (row.health === null || rank[health] > rank[row.health]) row.health = health;
        const used = c.lastUsedAt === null ? null : Number(c.lastUsedAt);
        if (used !== null && (row.last_activity === null || used > row.last_activity)) row.last_activity = used;
      }
      for (const p of pending) rowOf(p.key).pending_links = Number(p.n);
      for (const g of credits) {
        const byPeriod = [g.c0, g.c1, g.c2, g.c3].map((v) => Number(v ?? 0));
        if (g.key !== null && !rows.has(g.key)) continue;
        if (g.key === null && !rows.has(null) && !byPeriod.some(Boolean)) continue;
        const row = rowOf(g.key);
        row.trend = byPeriod.slice(0, 3);
        row.credits = byPeriod[3];
      }
      // The week's usage per key: credits and logs merged, as GET /v1/usage groups them.
      const usage = new Map<string | null, { operations: number; errors: number }>();
      for (const g of weekCredits) if (!usage.has(g.key)) usage.set(g.key, { operations: 0, errors: 0 });
      for (const g of weekLogs) {
        const u = usage.get(g.key) ?? { operations: 0, errors: 0 };
        u.operations += Number(g.operations ?? 0);
        u.errors += Number(g.errors ?? 0);
        usage.set(g.key, u);
      }
      for (const [k, u] of usage) {
        if (k !== null && !rows.has(k)) continue;
        if (k === null && !rows.has(null) && !u.operations) continue;
        const row = rowOf(k);
        row.operations_7d = u.operations;
        row.errors_7d = u.errors;
      }
      // Name order: No client first, then external ids case-insensitively, then exactly.
      const all = [...rows.values()].sort((a, b) => {
        const x = (a.external_id ?? "").toLowerCase();
        const y = (b.external_id ?? "").toLowerCase();
        if (x !== y) return x < y ? -1 : 1;
        if (a.external_id === b.external_id) return 0;
        if (a.external_id === null) return -1;
        if (b.external_id === null) return 1;
        return a.external_id < b.external_id ? -1 : 1;
      });
      const data = all.slice(0, limit);
      const hasMore = data.length < all.length;
      const filters = { q: undefined, health: undefined, sort: undefined, order: undefined };
      return JSON.stringify({
        data,
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor("clients", filters, { at: data.length, id: "" }) : null,
        total: all.length,
        period: periods[3],
      });
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One GET over the kept-alive socket (no compression): its body. A usage sample takes seconds, so
 * the server may close the idle socket meanwhile: a request that finds it closed is sent again once.
 */
async function get(url: string, headers: Record<string, string>, expected: number): Promise<string> {
  try {
    return await getOnce(url, headers, expected);
  } catch (e) {
    if (!["EPIPE", "ECONNRESET"].includes((e as { code?: string }).code ?? "")) throw e;
    return getOnce(url, headers, expected);
  }
}

async function getOnce(url: string, headers: Record<string, string>, expected: number) {
  const res = await send("GET", url, headers);
  if (res.status !== expected) throw new Error(`${url}: HTTP ${res.status} ${res.body.slice(0, 400)}`);
  return res.body;
}

/** One request over the kept-alive socket: its status, Set-Cookie headers and body. */
function send(method: string, url: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; cookies: string[]; body: string }>((ok, fail) => {
    http
      .request(url, { method, agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => ok({ status: res.statusCode ?? 0, cookies: res.headers["set-cookie"] ?? [], body: text }));
      })
      .on("error", fail)
      .end(body);
  });
}

/**
 * A dashboard session, as e2e/support/session.ts makes one over HTTP: next-auth's CSRF token, then
 * its credentials callback; the Cookie header that carries the session (with the CSRF cookie).
 */
async function signIn(base: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (cookies: string[]) => {
    for (const c of cookies) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await send("GET", `${base}/api/auth/csrf`, {});
  keep(csrf.cookies);
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const form = new URLSearchParams({ csrfToken, email, password, json: "true" }).toString();
  const res = await send(
    "POST",
    `${base}/api/auth/callback/credentials`,
    { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    form,
  );
  keep(res.cookies);
  if (![200, 302].includes(res.status) || ![...jar.keys()].some((k) => k.includes("session-token")))
    throw new Error(`sign-in refused: HTTP ${res.status} ${res.body.slice(0, 400)}`);
  return cookie();
}

const pct = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));

async function main() {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench_clients") : undefined;
  const { env } = benchWorkspace("bench-clients", pg?.url);
  const engine = postgres ? "PostgreSQL" : "SQLite";
  migrateWith(env);
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { db } = await import("@/lib/db/client");
  const { periodEndFrom } = await import("@/lib/teams/plans");
  const team = await createTeam({ name: "Bench agency", plan: "team", creditsLimit: 2_000_000_000 });
  const email = "bench@patchbay.dev";
  const password = "bench-clients-password";
  const user = await createUser({ teamId: team.id, email, password, role: "owner" });
  const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
  const now = Math.floor(Date.now() / 1000);
  // The billing period began 15 days ago: the seeded month falls in this period and the one before.
  const periodStart = new Date((now - 15 * DAY) * 1000);
  await db.team.update({
    where: { id: team.id },
    data: { billingPeriodStart: periodStart, billingPeriodEnd: periodEndFrom(periodStart) },
  });
  await db.$disconnect();

  const date = (seconds: number) => {
    const iso = new Date(seconds * 1000).toISOString();
    return postgres ? iso : iso.replace("Z", "+00:00");
  };
  const w = world(team.id, user.id, now, date);
  console.log(
    `[bench] ${engine}: seeding ${CLIENTS.toLocaleString("en")} clients, ${CONNECTIONS.toLocaleString("en")} connections, ${CHARGES.toLocaleString("en")} charges, ${LOGS.toLocaleString("en")} logs…`,
  );
  const writer = await bulkWriter(env.DATABASE_URL);
  const seeding: Record<string, { rowsSeconds: number; indexSeconds: number }> = {};
  const stamp = postgres ? "now()" : `'${new Date().toISOString()}'`;
  seeding.connections = await writer.write("Connection", w.connections, { updatedAt: stamp });
  console.log(`[bench] connections ${JSON.stringify(seeding.connections)}`);
  seeding.ledger = await writer.write("CreditLedgerEntry", w.ledger);
  console.log(`[bench] ledger ${JSON.stringify(seeding.ledger)}`);
  seeding.attribution = await writer.write("UsageAttribution", w.attribution);
  console.log(`[bench] attribution ${JSON.stringify(seeding.attribution)}`);
  seeding.logs = await writer.write("OperationLog", w.logs);
  console.log(`[bench] logs ${JSON.stringify(seeding.logs)}`);
  seeding.authLinks = await writer.write("AuthLink", w.authLinks, { updatedAt: stamp });
  console.log(`[bench] auth links ${JSON.stringify(seeding.authLinks)}`);
  const t0 = performance.now();
  await writer.finish();
  const analyzeSeconds = (performance.now() - t0) / 1000;
  const seedSeconds = Object.values(seeding).reduce((s, t) => s + t.rowsSeconds + t.indexSeconds, 0) + analyzeSeconds;
  console.log(`[bench] seeded in ${seedSeconds.toFixed(0)} s (statistics ${analyzeSeconds.toFixed(0)} s)`);

  const from = now - 30 * DAY;
  const to = now + 60;
  const limit = 1000;
  const path = `/v1/usage?group_by=external_id&from=${from}&to=${to}&limit=${limit}`;
  const port = await freePort();
  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` });
  const headers = { authorization: `Bearer ${key}` };
  // The Clients page's first request: no filters, name order, its page size (lib/queries/clients.ts).
  const clientsLimit = 100;
  const clientsPath = `/api/dashboard/clients?limit=${clientsLimit}`;
  const bare = await bareSides(env.DATABASE_URL);
  const sides = {
    api: [] as number[],
    bare: [] as number[],
    clients: [] as number[],
    clientsBare: [] as number[],
    html: [] as number[],
    floor: [] as number[],
  };
  try {
    const session = { cookie: await signIn(server.baseUrl, email, password), "x-patchbay-team": team.id };
    const page = { cookie: session.cookie };
    // Every side must give the same answer, or the comparison means nothing.
    const api = await get(server.baseUrl + path, headers, 200);
    const b = await bare.page(key, from, to, limit);
    if (api !== b) throw new Error(`the API and the bare SQL disagree:\n${api.slice(0, 400)}\n${b.slice(0, 400)}`);
    const usagePage = JSON.parse(api) as { data: unknown[] };
    // The 7 days end at the second each side reads the clock: a charge on the edge may count on
    // one side only, so a disagreement is tried again a few times.
    for (let attempt = 1; ; attempt++) {
      const viaApi = await get(server.baseUrl + clientsPath, session, 200);
      const viaBare = await bare.clients(team.id, user.id, clientsLimit);
      if (viaApi === viaBare) {
        const first = JSON.parse(viaApi) as { data: unknown[]; total: number };
        console.log(
          `[bench] usage first page: ${usagePage.data.length} clients; Clients page: ${first.data.length} of ${first.total} clients; identical from both sides`,
        );
        break;
      }
      if (attempt === 5) {
        const at = [...viaApi].findIndex((ch, i) => ch !== viaBare[i]);
        throw new Error(
          `the Clients API and the bare SQL disagree at ${at}:\n${viaApi.slice(Math.max(0, at - 300), at + 300)}\n${viaBare.slice(Math.max(0, at - 300), at + 300)}`,
        );
      }
    }
    const html = await get(`${server.baseUrl}/${team.id}/clients`, page, 200);
    if (!html.includes("<h1") || !html.includes("Clients")) throw new Error("the Clients page has no heading");
    console.log(`[bench] Clients page HTML: ${(html.length / 1024).toFixed(0)} KB; warming up…`);
    const sample: Record<keyof typeof sides, () => Promise<unknown>> = {
      api: () => get(server.baseUrl + path, headers, 200),
      bare: () => bare.page(key, from, to, limit),
      clients: () => get(server.baseUrl + clientsPath, session, 200),
      clientsBare: () => bare.clients(team.id, user.id, clientsLimit),
      html: () => get(`${server.baseUrl}/${team.id}/clients`, page, 200),
      floor: () => get(`${server.baseUrl}/v1/logs`, {}, 401),
    };
    const order = Object.keys(sides) as (keyof typeof sides)[];
    for (let i = 0; i < 3; i++) for (const side of order) await sample[side]();
    for (let round = 0; round < SAMPLES; round++) {
      for (let i = 0; i < order.length; i++) {
        const side = order[(round + i) % order.length];
        const t = performance.now();
        await sample[side]();
        sides[side].push(performance.now() - t);
        // An unmeasured small request after each HTTP sample, as bench:api does: a collection
        // the big answer left due lands there.
        if (side !== "bare" && side !== "clientsBare") await get(`${server.baseUrl}/healthz`, {}, 200);
      }
      if (round % 10 === 9) console.log(`[bench] ${round + 1} rounds`);
    }
  } finally {
    await server.stop();
    await bare.close();
  }

  // The write path, on the same database with the server stopped: one charge per transaction.
  const { transaction } = await import("@/lib/db/transaction");
  const { chargeCredits } = await import("@/lib/credits/charge-credits");
  const conn = (i: number) => `conn_bench${String(i).padStart(10, "0")}`;
  const service = { type: "mcp" as const, id: "mcp_bench", name: "Bench MCP" };
  const variants = {
    "no attribution row (0 credits: today's charge)": () => ({ credits: 0, attribution: [] }),
    "1 row (an MCP call)": (i: number) => ({
      credits: 2,
      attribution: [{ connectionId: conn(i % CONNECTIONS), credits: 2 }],
    }),
    "3 rows (a run over 3 connections)": (i: number) => ({
      credits: 7,
      attribution: [
        { connectionId: conn(i % CONNECTIONS), credits: 1 },
        { connectionId: conn((i + 1) % CONNECTIONS), credits: 3 },
        { connectionId: conn((i + 2) % CONNECTIONS), credits: 2 },
      ],
    }),
  };
  const writes: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  const names = Object.keys(variants) as (keyof typeof variants)[];
  for (let i = 0; i < WRITES + 50; i++) {
    for (let v = 0; v < names.length; v++) {
      const name = names[(i + v) % names.length];
      const t = performance.now();
      await transaction((tx) =>
        chargeCredits(tx, {
          teamId: team.id,
          service,
          user: null,
          at: Math.floor(Date.now() / 1000),
          ...variants[name](i),
        }),
      );
      // The first 50 rounds warm the client and the statements up.
      if (i >= 50) writes[name].push(performance.now() - t);
    }
  }
  await db.$disconnect();
  await pg?.drop();

  const r = (xs: number[]) => ({ p50: pct(xs, 0.5), p99: pct(xs, 0.99) });
  const api = r(sides.api);
  const bareT = r(sides.bare);
  const floor = r(sides.floor);
  const ratio = api.p50 / bareT.p50;
  const overFloor = (api.p50 - floor.p50) / bareT.p50;
  const clients = r(sides.clients);
  const clientsBare = r(sides.clientsBare);
  const html = r(sides.html);
  const clientsRatio = clients.p50 / clientsBare.p50;
  const clientsOverFloor = (clients.p50 - floor.p50) / clientsBare.p50;
  const base = r(writes[names[0]]);
  const report = [
    `# bench:clients — ${engine}: ${CLIENTS.toLocaleString("en")} clients, ${CONNECTIONS.toLocaleString("en")} connections, ${CHARGES.toLocaleString("en")} attributed charges (${Math.round(CHARGES * 1.2).toLocaleString("en")} attribution rows), ${LOGS.toLocaleString("en")} logs, ${CLIENTS.toLocaleString("en")} auth links`,
    "",
    `Seeding (rows / indexes, s): ${Object.entries(seeding)
      .map(([k, t]) => `${k} ${t.rowsSeconds.toFixed(1)} / ${t.indexSeconds.toFixed(1)}`)
      .join(", ")}; statistics ${analyzeSeconds.toFixed(1)}; total ${seedSeconds.toFixed(0)} s.`,
    "",
    `GET /v1/usage?group_by=external_id over 30 days, first page (limit ${limit}), and the Clients page's first screen: its data, GET /api/dashboard/clients?limit=${clientsLimit} (no filters, name order) in a signed-in session, and its HTML, GET /<team>/clients; ${SAMPLES} samples per side, one sequential client over node:http (keep-alive, no compression), the six sides rotating every round. ms:`,
    "",
    "| side | p50 | p99 |",
    "|---|---|---|",
    `| API: GET /v1/usage | ${ms(api.p50)} | ${ms(api.p99)} |`,
    `| bare SQL (same aggregation, bare driver) | ${ms(bareT.p50)} | ${ms(bareT.p99)} |`,
    `| Clients page data: GET /api/dashboard/clients | ${ms(clients.p50)} | ${ms(clients.p99)} |`,
    `| bare SQL (listClients's aggregations, bare driver) | ${ms(clientsBare.p50)} | ${ms(clientsBare.p99)} |`,
    `| Clients page HTML: GET /<team>/clients (no bare counterpart) | ${ms(html.p50)} | ${ms(html.p99)} |`,
    `| floor (GET /v1/logs without a key: 401) | ${ms(floor.p50)} | ${ms(floor.p99)} |`,
    "",
    `- ${ratio <= 2 ? "PASS" : "FAIL"} usage API p50 / bare p50 ≤ 2: ${ratio.toFixed(2)}`,
    `- (usage API p50 − floor p50) / bare p50: ${overFloor.toFixed(2)}`,
    `- ${clientsRatio <= 2 ? "PASS" : "FAIL"} Clients API p50 / bare p50 ≤ 2: ${clientsRatio.toFixed(2)}`,
    `- (Clients API p50 − floor p50) / bare p50: ${clientsOverFloor.toFixed(2)}`,
    `- The Clients page's first screen, HTML then its data, one after the other: ${ms(html.p50 + clients.p50)} ms (sum of the p50s).`,
    "",
    `Write path: chargeCredits in its own transaction, ${WRITES} charges per variant, alternating, on the seeded database. ms:`,
    "",
    "| charge | p50 | p99 | p50 added |",
    "|---|---|---|---|",
    ...names.map((n) => {
      const t = r(writes[n]);
      return `| ${n} | ${ms(t.p50)} | ${ms(t.p99)} | ${n === names[0] ? "–" : `+${(t.p50 - base.p50).toFixed(3)}`} |`;
    }),
  ].join("\n");
  console.log(`\n${report}\n`);
  writeFileSync(join(root, "e2e", ".artifacts", `bench-clients-${postgres ? "postgresql" : "sqlite"}.md`), report);
  process.exitCode = ratio <= 2 && clientsRatio <= 2 ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
