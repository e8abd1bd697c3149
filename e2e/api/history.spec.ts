import { join } from "node:path";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { test, expect, cli, cliWith, hostWith, apiAs, seedTeam, type SeededTeam } from "../fixtures";
import { freshPostgresDatabase, root } from "../support/server";
import { startExtraServer } from "../support/extra-server";
import { inDatabase } from "../support/in-database";

// The history tables over time (issue 51): PostgreSQL's monthly partitions of operation logs,
// ledger entries and usage attribution (prisma/migrations/postgresql/0026_partitioned_history),
// the in-place upgrade of an unpartitioned database, and retention (`history maintain`,
// lib/history): whole partitions dropped on PostgreSQL, batched deletes on SQLite.

const run = promisify(execFile);
const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
const PG_ONLY = "partitions exist on PostgreSQL only; SQLite stays one file (its retention is tested below)";
const DAY = 86_400;
const TABLES = ["OperationLog", "CreditLedgerEntry", "UsageAttribution"] as const;
const TIME_KEY = { OperationLog: "startedAt", CreditLedgerEntry: "createdAt", UsageAttribution: "createdAt" } as const;

type Row = Record<string, unknown>;
type Sql = { query: (sql: string, params?: unknown[]) => Promise<Row[]>; close: () => Promise<void> };

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The start of the UTC month `offset` months after the one holding `t` (Unix seconds). */
const monthStart = (t: number, offset = 0) => {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1) / 1000;
};
const partitionName = (table: string, from: number) =>
  `${table}_p${new Date(from * 1000).toISOString().slice(0, 10).replaceAll("-", "")}`;

/** The plain driver on `url`: `?` placeholders on both engines. */
async function connect(url: string): Promise<Sql> {
  if (url.startsWith("postgres")) {
    const { Client } = await import("pg");
    const c = new Client({ connectionString: url });
    await c.connect();
    return {
      query: async (sql, params = []) => {
        let n = 0;
        return (
          await c.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows;
      },
      close: () => c.end(),
    };
  }
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(url.slice("file:".length));
  db.defaultSafeIntegers(false);
  return {
    query: async (sql, params = []) => {
      const stmt = db.prepare(sql);
      return stmt.reader ? (stmt.all(...params) as Row[]) : (stmt.run(...params), []);
    },
    close: async () => void db.close(),
  };
}

/** The product's migration runner as a process on `url`; MIGRATE_UNTIL stops it before that migration. */
async function migrate(url: string, until?: string) {
  const t0 = Date.now();
  const { stdout } = await run(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "lib/db/migrate-cli.ts"],
    { cwd: root, env: { ...process.env, DATABASE_URL: url, MIGRATE_UNTIL: until ?? "" }, maxBuffer: 16 << 20 },
  );
  return { ...(JSON.parse(stdout) as { applied: string[] }), ms: Date.now() - t0 };
}

/** A new, empty database of the run's engine (dropped by `drop`). */
async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (postgres) return freshPostgresDatabase(process.env.DATABASE_URL!, prefix, { throwaway: true });
  return { url: `file:${join(process.env.DATA_DIR!, `${prefix}-${Date.now()}.db`)}`, drop: async () => {} };
}

type Partition = { name: string; from: number | null; to: number };

/** A partitioned table's partitions with their bounds, oldest first. */
async function partitionsOf(sql: Sql, table: string): Promise<Partition[]> {
  const rows = await sql.query(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass(quote_ident(?))`,
    [table],
  );
  return rows
    .map((r) => {
      const m = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/.exec(String(r.bound));
      if (!m) throw new Error(`${String(r.name)}: unexpected bound ${String(r.bound)}`);
      return { name: String(r.name), from: m[1] === "MINVALUE" ? null : Number(m[2]), to: Number(m[3]) };
    })
    .sort((a, b) => a.to - b.to);
}

/**
 * The partitions of `table` are a `_p_before` partition from MINVALUE and dated ones after it,
 * each starting where the one before ends (no gap; PostgreSQL refuses overlaps), and no DEFAULT
 * partition. Returns the dated ones.
 */
async function expectChain(sql: Sql, table: string): Promise<Partition[]> {
  const [kind] = await sql.query(
    `SELECT c.relkind, p.partdefid::int AS "defaultPartition"
       FROM pg_class c JOIN pg_partitioned_table p ON p.partrelid = c.oid WHERE c.oid = to_regclass(quote_ident(?))`,
    [table],
  );
  expect(kind, `${table} is partitioned`).toEqual({ relkind: "p", defaultPartition: 0 });
  const parts = await partitionsOf(sql, table);
  expect(parts[0], `${table}: the partition for older rows comes first`).toMatchObject({
    name: `${table}_p_before`,
    from: null,
  });
  for (let i = 1; i < parts.length; i++)
    expect(parts[i].from, `${parts[i].name} starts where ${parts[i - 1].name} ends`).toBe(parts[i - 1].to);
  return parts.slice(1);
}

/**
 * Rows of an unpartitioned (0024) database, with INSERT … SELECT from generate_series: `logs`
 * operation logs and `ledger` ledger entries (each with one usage attribution) spread evenly
 * over the last `days` days, round-robin over `teams`. The tables' indexes are dropped for the
 * load and made again after, as they were (a million rows in seconds rather than minutes).
 */
async function seedHistory(sql: Sql, a: { teams: string[]; logs: number; ledger: number; days: number }) {
  const now = nowSeconds();
  await sql.query("SET maintenance_work_mem = '256MB'");
  const indexes = await sql.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
        AND tablename IN ('OperationLog', 'CreditLedgerEntry', 'UsageAttribution') AND indexname NOT LIKE '%\\_pkey'`,
  );
  for (const i of indexes) await sql.query(`DROP INDEX "${String(i.indexname)}"`);
  await sql.query(`ALTER TABLE "OperationLog" DROP CONSTRAINT "OperationLog_pkey"`);
  // Ids as logs had them before they carried their time: "log_" and 20 characters.
  await sql.query(
    `INSERT INTO "OperationLog" (id, "teamId", "operationId", status, "sourceType", "sourceName", "startedAt",
                                 "completedAt", "creditsUsed", input, output, metadata)
     SELECT 'log_' || substr(md5(i::text), 1, 20), (?::text[])[1 + i % ?], 'test.op_' || (i % 7),
            (ARRAY['success', 'error', 'skipped'])[1 + i % 3], (ARRAY['mcp', 'agent', 'workflow'])[1 + (i / 3) % 3],
            'Source ' || (i % 11), ?::bigint - 60 - i::bigint * ? / ?, ?::bigint - 59 - i::bigint * ? / ?,
            i % 3, '{"i":' || i || '}', CASE WHEN i % 2 = 0 THEN '{"ok":true}' END, '{}'
       FROM generate_series(1, ?) i`,
    [a.teams, a.teams.length, now, a.days * DAY, a.logs, now, a.days * DAY, a.logs, a.logs],
  );
  await sql.query(
    `INSERT INTO "CreditLedgerEntry" ("teamId", "creditsUsed", "creditsRemaining", "serviceType", "serviceName", "createdAt")
     SELECT (?::text[])[1 + i % ?], 1 + i % 5, 100000 - i, (ARRAY['workflow', 'mcp', 'agent'])[1 + i % 3],
            'Service ' || (i % 5), ?::bigint - 60 - i::bigint * ? / ?
       FROM generate_series(1, ?) i`,
    [a.teams, a.teams.length, now, a.days * DAY, a.ledger, a.ledger],
  );
  await sql.query(
    `INSERT INTO "UsageAttribution" ("teamId", "ledgerEntryId", "connectionId", credits, "createdAt")
     SELECT "teamId", id, 'conn_' || (id % 9), "creditsUsed", "createdAt" FROM "CreditLedgerEntry"`,
  );
  await sql.query(`ALTER TABLE "OperationLog" ADD CONSTRAINT "OperationLog_pkey" PRIMARY KEY (id)`);
  for (const i of indexes) await sql.query(String(i.indexdef));
  await sql.query("ANALYZE");
}

/** Per table: its rows, a hash of every row's whole text, and the time span. Equal iff (all but surely) the same rows. */
async function fingerprint(sql: Sql) {
  const out: Record<string, Row> = {};
  for (const t of TABLES)
    out[t] = (
      await sql.query(
        `SELECT count(*)::int AS rows, sum(hashtext(t::text)::bigint)::text AS "rowHash",
                sum(hashtext(t.id::text)::bigint)::text AS "idHash", min(t."${TIME_KEY[t]}")::bigint::text AS oldest,
                max(t."${TIME_KEY[t]}")::bigint::text AS newest
           FROM "${t}" t`,
      )
    )[0];
  return out;
}

/**
 * The logs' hour counts (LogHour, migration 0029) are the logs' own per team, hour and connection
 * (hours of nothing left out), and none is still per transaction once maintenance has run.
 */
async function expectHourCounts(sql: Sql) {
  const byKey = (rows: Row[]) =>
    Object.fromEntries(
      rows
        .filter((r) => Number(r.o) !== 0 || Number(r.e) !== 0)
        .map((r) => [`${String(r.t)}|${Number(r.h)}|${String(r.c)}`, [Number(r.o), Number(r.e)]]),
    );
  const counted = await sql.query(
    `SELECT "teamId" AS t, "hour" AS h, "connectionId" AS c, SUM("operations") AS o, SUM("errors") AS e
       FROM "LogHour" GROUP BY "teamId", "hour", "connectionId"`,
  );
  const logs = await sql.query(
    `SELECT "teamId" AS t, "startedAt" / 3600 AS h, COALESCE("connectionId", '') AS c, COUNT(*) AS o,
            SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS e
       FROM "OperationLog" GROUP BY "teamId", "startedAt" / 3600, COALESCE("connectionId", '')`,
  );
  expect(byKey(counted)).toEqual(byKey(logs));
  const [batches] = await sql.query(`SELECT COUNT(*) AS n FROM "LogHour" WHERE "batch" <> 0`);
  expect(Number(batches.n)).toBe(0);
  return logs.length;
}

/** A database as the release before 0026 left it, holding `seedArgs`' rows, then upgraded: the time the upgrade took. */
async function upgradedDatabase(
  url: string,
  team: (url: string) => Promise<string>,
  rows: { logs: number; ledger: number },
) {
  const before = await migrate(url, "0026");
  expect(before.applied).not.toContain("0026_partitioned_history");
  const teamId = await team(url);
  const sql = await connect(url);
  try {
    await sql.query(
      `INSERT INTO "Team" (id, name, plan, "creditsLimit", "billingPeriodStart", "billingPeriodEnd")
       SELECT 'team_upgrade' || t, 'Upgrade ' || t, 'team', 100000, now(), now() + interval '1 month' FROM generate_series(1, 3) t`,
    );
    const t0 = Date.now();
    await seedHistory(sql, { teams: [teamId, "team_upgrade1", "team_upgrade2", "team_upgrade3"], days: 730, ...rows });
    const seedMs = Date.now() - t0;
    const unpartitioned = await sql.query(
      `SELECT relname FROM pg_class WHERE relkind = 'r' AND relname IN ('OperationLog', 'CreditLedgerEntry', 'UsageAttribution')`,
    );
    expect(unpartitioned).toHaveLength(3);
    const fingerprintBefore = await fingerprint(sql);
    const [maxEntry] = await sql.query(`SELECT max(id)::int AS id FROM "CreditLedgerEntry"`);
    const upgrade = await migrate(url, "0027");
    expect(upgrade.applied).toEqual(["0026_partitioned_history"]);
    const later = await migrate(url);
    expect(later.applied.every((name) => name > "0027")).toBe(true);
    return { teamId, seedMs, upgradeMs: upgrade.ms, fingerprintBefore, maxEntryId: maxEntry.id as number };
  } finally {
    await sql.close();
  }
}

/** A team with an API key (e2e/support/seed-commands.ts), made in a process on the database `url`. */
const teamOn =
  (options: object = {}, made: { team?: SeededTeam } = {}) =>
  async (url: string) => {
    const host = hostWith({ ...process.env, DATABASE_URL: url });
    try {
      made.team = await host.seed<SeededTeam>("team", options);
      return made.team.id;
    } finally {
      await host.close();
    }
  };

test.describe("the in-place upgrade to partitions (PostgreSQL)", () => {
  test.skip(!postgres, PG_ONLY);

  test("a million logs, their ledger and usage: every row kept, monthly partitions, ids found, pages served", async () => {
    test.setTimeout(600_000);
    const db = await freshDatabase("patchbay_upgrade");
    const made: { team?: SeededTeam } = {};
    try {
      const up = await upgradedDatabase(db.url, teamOn({ historyDays: 800 }, made), {
        logs: 1_000_000,
        ledger: 100_000,
      });
      console.log(
        `[history] seeded 1,000,000 logs, 100,000 ledger entries and their usage in ${up.seedMs} ms; ` +
          `0026_partitioned_history upgraded them in place in ${up.upgradeMs} ms`,
      );
      const sql = await connect(db.url);
      try {
        // Every row, byte for byte.
        expect(await fingerprint(sql)).toEqual(up.fingerprintBefore);
        expect(up.fingerprintBefore.OperationLog.rows).toBe(1_000_000);
        // Partitioned by month, from the oldest row's month through next month, none DEFAULT.
        const now = nowSeconds();
        for (const table of TABLES) {
          const dated = await expectChain(sql, table);
          const oldest = Number(up.fingerprintBefore[table].oldest);
          expect(dated[0].from, table).toBe(monthStart(oldest));
          expect(dated[dated.length - 1].to, table).toBe(monthStart(now, 2));
          for (const p of dated) {
            expect(p.to, p.name).toBe(monthStart(p.from!, 1));
            expect(p.name).toBe(partitionName(table, p.from!));
          }
          expect(dated.length, table).toBeGreaterThanOrEqual(25);
          const [before] = await sql.query(`SELECT count(*)::int AS n FROM "${table}_p_before"`);
          expect(before.n, `${table}: no row is older than the first month`).toBe(0);
        }
        // A month's rows are in that month's partition.
        const [sample] = await sql.query(
          `SELECT c.relname AS partition, l."startedAt"::bigint::text AS "startedAt"
             FROM "OperationLog" l JOIN pg_class c ON c.oid = l.tableoid WHERE l.id = 'log_' || substr(md5('500000'), 1, 20)`,
        );
        expect(sample.partition).toBe(partitionName("OperationLog", monthStart(Number(sample.startedAt))));
      } finally {
        await sql.close();
      }

      // The product on the upgraded database: a new charge continues the ledger's ids, a new log
      // (an id carrying its time) and a year-old one (an id from before) are found by id.
      const host = hostWith({ ...process.env, DATABASE_URL: db.url });
      let newLog: string;
      try {
        await host.seed("charges", { team: up.teamId, charges: [{ credits: 1, type: "mcp" }] });
        newLog = (await host.seed<{ ids: string[] }>("logs", { team: up.teamId, startedAgo: [5] })).ids[0];
      } finally {
        await host.close();
      }
      const check = await connect(db.url);
      try {
        const [entry] = await check.query(
          `SELECT max(id)::int AS id, count(*)::int AS n FROM "CreditLedgerEntry" WHERE "createdAt" > ?`,
          [nowSeconds() - 60],
        );
        expect(entry.n).toBe(1);
        expect(entry.id).toBeGreaterThan(up.maxEntryId);
      } finally {
        await check.close();
      }
      // Retention far away: the server's own maintenance turn at start keeps every month here.
      const server = await startExtraServer({ DATABASE_URL: db.url, LOG_RETENTION_DAYS: "100000" });
      try {
        const api = await apiAs({ key: made.team!.users[0].key });
        const get = (path: string) => api.get(`${server.baseUrl}${path}`);
        // i = 500,000 is a row of this team (i % 4 = 0), a year old.
        const oldId = `log_${createHash("md5").update("500000").digest("hex").slice(0, 20)}`;
        for (const id of [oldId, newLog]) {
          const res = await get(`/v1/logs/${id}`);
          expect(res.status(), await res.text()).toBe(200);
          expect((await res.json()).id).toBe(id);
        }
        const res = await get("/v1/logs?limit=50");
        expect(res.status(), await res.text()).toBe(200);
        const page = await res.json();
        expect(page.data).toHaveLength(50);
        expect(page.has_more).toBe(true);
        expect(page.data[0].id).toBe(newLog);
        const times = (page.data as { started_at: number }[]).map((l) => l.started_at);
        expect(times).toEqual([...times].sort((a, b) => b - a));
        const next = await get(`/v1/logs?limit=50&cursor=${encodeURIComponent(page.next_cursor)}`);
        expect(next.status(), await next.text()).toBe(200);
        const second = await next.json();
        expect(second.data).toHaveLength(50);
        expect(second.data[0].started_at).toBeLessThanOrEqual(times[49]);
      } finally {
        await server.stop();
      }
    } finally {
      await db.drop();
    }
  });
});

test.describe("retention", () => {
  test("history maintain deletes logs past LOG_RETENTION_DAYS, keeps the ledger unless LEDGER_RETENTION_DAYS, in batches", async () => {
    test.setTimeout(180_000);
    const db = await freshDatabase("patchbay_retention");
    try {
      await migrate(db.url);
      const host = hostWith({ ...process.env, DATABASE_URL: db.url });
      const teams: string[] = [];
      try {
        for (let t = 0; t < 2; t++) {
          const team = (await host.seed<SeededTeam>("team", {})).id;
          teams.push(team);
          // More expired rows per team than a batch (HISTORY_DELETE_BATCH=7 below): 3 batches each.
          await host.seed("logs", { team, startedAgo: Array.from({ length: 20 }, (_, i) => 500 * DAY + i * 60) });
          await host.seed("logs", { team, startedAgo: Array.from({ length: 5 }, (_, i) => 10 * DAY + i * 60) });
          const charge = (ago: number) => ({
            credits: 2,
            type: "mcp",
            ago,
            attribution: [{ connectionId: null, credits: 2 }],
          });
          await host.seed("charges", {
            team,
            charges: [
              ...Array.from({ length: 10 }, (_, i) => charge(500 * DAY + i * 60)),
              ...Array.from({ length: 3 }, (_, i) => charge(10 * DAY + i * 60)),
            ],
          });
        }
      } finally {
        await host.close();
      }
      const sql = await connect(db.url);
      const counts = async () => {
        const cutoff = nowSeconds() - 100 * DAY;
        const out: Record<string, { old: number; recent: number }> = {};
        for (const t of TABLES) {
          const [r] = await sql.query(
            `SELECT sum(CASE WHEN "${TIME_KEY[t]}" < ? THEN 1 ELSE 0 END) AS old,
                    sum(CASE WHEN "${TIME_KEY[t]}" >= ? THEN 1 ELSE 0 END) AS recent
               FROM "${t}" WHERE "teamId" IN (?, ?)`,
            [cutoff, cutoff, ...teams],
          );
          out[t] = { old: Number(r.old ?? 0), recent: Number(r.recent ?? 0) };
        }
        return out;
      };
      try {
        expect(await counts()).toEqual({
          OperationLog: { old: 40, recent: 10 },
          CreditLedgerEntry: { old: 20, recent: 6 },
          UsageAttribution: { old: 20, recent: 6 },
        });
        const env = { ...process.env, DATABASE_URL: db.url, HISTORY_DELETE_BATCH: "7" };
        // Default settings: logs kept 400 days, the ledger for good.
        const first = await cliWith(env, "history", "maintain");
        expect(first.code, JSON.stringify(first.json)).toBe(0);
        expect(first.json).toMatchObject({
          engine: postgres ? "postgresql" : "sqlite",
          dropped: [],
          deleted: { OperationLog: 40 },
        });
        expect(await counts()).toEqual({
          OperationLog: { old: 0, recent: 10 },
          CreditLedgerEntry: { old: 20, recent: 6 },
          UsageAttribution: { old: 20, recent: 6 },
        });
        // The logs' hour counts followed the deleted logs out (SQLite: the empty hours are gone too).
        expect(await expectHourCounts(sql)).toBeGreaterThanOrEqual(2);
        if (!postgres) expect(first.json.deleted.LogHour).toBeGreaterThanOrEqual(2);
        // The ledger's retention, when set, takes its usage attribution with it.
        const ledger = await cliWith({ ...env, LEDGER_RETENTION_DAYS: "100" }, "history", "maintain");
        expect(ledger.code, JSON.stringify(ledger.json)).toBe(0);
        expect(ledger.json).toMatchObject({ dropped: [], deleted: { CreditLedgerEntry: 20, UsageAttribution: 20 } });
        expect(await counts()).toEqual({
          OperationLog: { old: 0, recent: 10 },
          CreditLedgerEntry: { old: 0, recent: 6 },
          UsageAttribution: { old: 0, recent: 6 },
        });
        // The day rollup of the ledger (UsageDay) follows: the old days are gone, the rest are the remaining rows' sums.
        expect(ledger.json.deleted.UsageDay).toBeGreaterThanOrEqual(2);
        const after = hostWith({ ...process.env, DATABASE_URL: db.url });
        try {
          for (const team of teams) {
            const { rows, days } = await after.seed<{
              rows: { at: number; credits: number }[];
              days: { day: number; credits: number }[];
            }>("usageDaysAndRows", { team });
            expect(rows.map((r) => r.credits)).toEqual([2, 2, 2]);
            expect(days.reduce((a, d) => a + d.credits, 0)).toBe(6);
            expect(days.every((d) => d.day * DAY >= nowSeconds() - 100 * DAY - DAY)).toBe(true);
          }
        } finally {
          await after.close();
        }
        const again = await cliWith({ ...env, LEDGER_RETENTION_DAYS: "100" }, "history", "maintain");
        expect(again.json).toMatchObject({ dropped: [], deleted: {} });
      } finally {
        await sql.close();
      }
    } finally {
      await db.drop();
    }
  });

  test("PostgreSQL drops whole partitions past retention and keeps the rest; the partition for older rows comes back", async () => {
    test.skip(!postgres, PG_ONLY);
    test.setTimeout(180_000);
    const db = await freshDatabase("patchbay_drop");
    try {
      // Two years of history made before partitions: 24 monthly partitions after the upgrade.
      await upgradedDatabase(db.url, teamOn(), { logs: 1460, ledger: 240 });
      const sql = await connect(db.url);
      try {
        const before = await fingerprint(sql);
        const oldParts = await expectChain(sql, "OperationLog");
        const env = { ...process.env, DATABASE_URL: db.url, LOG_RETENTION_DAYS: "200" };
        const cutoff = nowSeconds() - 200 * DAY;
        const first = await cliWith(env, "history", "maintain");
        expect(first.code, JSON.stringify(first.json)).toBe(0);
        const expired = oldParts.filter((p) => p.to <= cutoff).map((p) => p.name);
        expect(expired.length).toBeGreaterThanOrEqual(15);
        expect([...first.json.dropped].sort()).toEqual(["OperationLog_p_before", ...expired].sort());
        expect(first.json.created).toEqual(["OperationLog_p_before"]);
        // No trigger fires for a dropped partition: its hours' counts went with it.
        expect(Object.keys(first.json.deleted)).toEqual(["LogHour"]);
        expect(first.json.deleted.LogHour).toBeGreaterThan(300);
        expect(await expectHourCounts(sql)).toBeGreaterThan(100);
        // Dropped, not merely detached; the newer partitions and their rows stay.
        const gone = await sql.query(`SELECT relname FROM pg_class WHERE relname = ANY(?::text[])`, [expired]);
        expect(gone).toEqual([]);
        const kept = await expectChain(sql, "OperationLog");
        expect(kept.map((p) => p.name)).toEqual(oldParts.filter((p) => p.to > cutoff).map((p) => p.name));
        expect(kept[0].from).toBe(monthStart(cutoff));
        const [beforePart] = await partitionsOf(sql, "OperationLog");
        expect(beforePart).toEqual({ name: "OperationLog_p_before", from: null, to: kept[0].from });
        // A log is kept at least the days stated and at most one partition longer.
        const [rows] = await sql.query(
          `SELECT count(*)::int AS n, min("startedAt")::bigint::text AS oldest FROM "OperationLog"`,
        );
        const [keptBefore] = await sql.query(`SELECT count(*)::int AS n FROM "OperationLog" WHERE "startedAt" >= ?`, [
          kept[0].from,
        ]);
        expect(rows.n).toBe(keptBefore.n);
        expect(rows.n).toBeGreaterThan(300);
        expect(Number(rows.oldest)).toBeLessThan(cutoff);
        expect(Number(rows.oldest)).toBeGreaterThanOrEqual(monthStart(cutoff));
        // The ledger (no LEDGER_RETENTION_DAYS) keeps every partition and row.
        const after = await fingerprint(sql);
        expect(after.CreditLedgerEntry).toEqual(before.CreditLedgerEntry);
        expect(after.UsageAttribution).toEqual(before.UsageAttribution);
        expect((await partitionsOf(sql, "CreditLedgerEntry")).length).toBe(oldParts.length + 1);

        const second = await cliWith(env, "history", "maintain");
        expect(second.json).toEqual({ engine: "postgresql", created: [], dropped: [], deleted: {} });
      } finally {
        await sql.close();
      }
    } finally {
      await db.drop();
    }
  });
});

test.describe("partition maintenance (PostgreSQL)", () => {
  test.skip(!postgres, PG_ONLY);

  test("partitions through next month; two instances at once; weekly partitions continue from the last bound", async () => {
    test.setTimeout(180_000);
    const db = await freshDatabase("patchbay_partitions");
    try {
      await migrate(db.url);
      const env = { ...process.env, DATABASE_URL: db.url };
      const sql = await connect(db.url);
      try {
        const now = nowSeconds();
        const maintained = await cliWith(env, "history", "maintain");
        expect(maintained.code, JSON.stringify(maintained.json)).toBe(0);
        for (const table of TABLES) {
          const dated = await expectChain(sql, table);
          expect(dated.map((p) => p.name)).toEqual([
            partitionName(table, monthStart(now)),
            partitionName(table, monthStart(now, 1)),
          ]);
          expect(dated[dated.length - 1].to).toBe(monthStart(now, 2));
        }

        // Next month's partitions are missing: two instances' turns at once make each exactly once.
        const nextMonth = TABLES.map((t) => partitionName(t, monthStart(now, 1)));
        for (const name of nextMonth) await sql.query(`DROP TABLE "${name}"`);
        const both = await Promise.all([cliWith(env, "history", "maintain"), cliWith(env, "history", "maintain")]);
        for (const r of both) expect(r.code, JSON.stringify(r.json)).toBe(0);
        expect(both.filter((r) => r.json.skipped).length).toBeLessThanOrEqual(1);
        expect(both.flatMap((r) => r.json.created as string[]).sort()).toEqual([...nextMonth].sort());
        for (const table of TABLES) expect((await expectChain(sql, table)).at(-1)!.to).toBe(monthStart(now, 2));

        // LOG_PARTITION_INTERVAL=week, a day before the last partition ends (the product's own
        // function with that clock): weekly partitions from that bound, Monday to Monday after a
        // first short one, through the end of the next week.
        const at = monthStart(now, 2) - DAY;
        const weekly = await inDatabase<{ created: string[] }>(
          `const m = await import("./lib/history/maintain-history.ts");
           return (m.maintainHistory ?? m.default.maintainHistory)(args.at);`,
          { at },
          { ...env, LOG_PARTITION_INTERVAL: "week" },
        );
        for (const table of TABLES) {
          const dated = await expectChain(sql, table);
          const added = dated.filter((p) => p.from! >= monthStart(now, 2));
          expect(added[0].from).toBe(monthStart(now, 2));
          expect(added.map((p) => p.name)).toEqual(weekly.created.filter((n) => n.startsWith(`${table}_`)));
          for (const p of added.slice(1)) {
            expect(new Date(p.from! * 1000).getUTCDay(), `${p.name} starts on a Monday`).toBe(1);
            expect(p.to - p.from!, p.name).toBe(7 * DAY);
          }
          expect(new Date(added[0].to * 1000).getUTCDay()).toBe(1);
          expect(added[0].to - added[0].from!).toBeLessThanOrEqual(7 * DAY);
          const lastEnd = added.at(-1)!.to;
          expect(lastEnd, "through the end of the week after the one holding the clock").toBeGreaterThan(at + 7 * DAY);
          expect(lastEnd).toBeLessThanOrEqual(at + 14 * DAY + 7 * DAY);
        }
      } finally {
        await sql.close();
      }
    } finally {
      await db.drop();
    }
  });

  test("a log the product writes lands in its month's partition", async () => {
    const team = await seedTeam();
    const made = await cli(
      "workflow",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      "Partitioned",
      "--nodes",
      JSON.stringify([{ id: "echo", label: "Echo", operation_id: "utility.format_text", input: { template: "Hi" } }]),
    );
    expect(made.code, JSON.stringify(made.json)).toBe(0);
    const api = await apiAs(team.users[0]);
    const started = await api.post(`/v1/workflows/${made.json.id}/runs`);
    expect(started.status(), await started.text()).toBe(201);
    const runId = (await started.json()).run_id as string;
    let log: { id: string; started_at: number } | undefined;
    for (const until = Date.now() + 30_000; !log;) {
      const res = await api.get(`/v1/logs?source_run_id=${runId}`);
      expect(res.status()).toBe(200);
      log = (await res.json()).data.find((l: { status: string }) => l.status === "success");
      if (!log && Date.now() > until) throw new Error(`no log of run ${runId}`);
      if (!log) await new Promise((r) => setTimeout(r, 200));
    }
    const sql = await connect(process.env.DATABASE_URL!);
    try {
      const [row] = await sql.query(
        `SELECT c.relname AS partition FROM "OperationLog" l JOIN pg_class c ON c.oid = l.tableoid WHERE l.id = ?`,
        [log.id],
      );
      expect(row.partition).toBe(partitionName("OperationLog", monthStart(log.started_at)));
      expect(Math.abs(log.started_at - nowSeconds())).toBeLessThan(120);
    } finally {
      await sql.close();
    }
  });
});
