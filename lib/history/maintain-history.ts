import "server-only";
import { databaseTarget } from "@/lib/db/engine";
import { partitionInterval } from "@/lib/config/retention";
import { HISTORY_TABLES, type HistoryTable } from "@/lib/history/history-tables";
import { beforePartitionName, intervalStart, nextBoundary, partitionName } from "@/lib/history/partition-bounds";
import { whenFree } from "@/lib/db/one-statement-at-a-time";

/** What one turn of maintenance did (the `history maintain` command prints it). */
export type HistoryReport = {
  engine: "sqlite" | "postgresql";
  /** PostgreSQL: partitions made ahead of time. */
  created: string[];
  /** PostgreSQL: partitions wholly past their table's retention, detached and dropped. */
  dropped: string[];
  /** Rows deleted one bounded batch at a time (SQLite; on PostgreSQL the "before" partition's). */
  deleted: Record<string, number>;
  /** PostgreSQL: rows of counts merged, per table (the logs' hour counts, one row per writing transaction). */
  merged?: Record<string, number>;
  /** PostgreSQL: another instance held the maintenance lock, so this one did nothing. */
  skipped?: boolean;
};

/** Rows one DELETE removes: short write locks, however much has aged out. */
const BATCH = Number(process.env.HISTORY_DELETE_BATCH ?? 5_000);
const PG_LOCK_ID = 7_419_051;
const DAY = 86_400;

const nowSeconds = () => Math.floor(Date.now() / 1000);
// At a midnight (UTC), so that a day is retired whole: the credits rolled up per day (UsageDay)
// then stay the ledger's sums exactly.
const cutoffOf = (t: HistoryTable, now: number) => {
  const days = t.retentionDays();
  return days === null ? null : Math.floor(now / DAY - days) * DAY;
};

/**
 * The ledger's day rollup (lib/credits/usage-days.ts) follows its entries out: a team's day past
 * the ledger's cutoff goes once the team has no entry left that day or before.
 */
const RETIRE_USAGE_DAYS = `DELETE FROM "UsageDay" WHERE "day" < ? AND NOT EXISTS (
  SELECT 1 FROM "CreditLedgerEntry" e WHERE e."teamId" = "UsageDay"."teamId" AND e."createdAt" < ("UsageDay"."day" + 1) * ${86_400})`;
const ledgerCutoffDay = (now: number) => {
  const cutoff = cutoffOf(
    HISTORY_TABLES.find((t) => t.table === "CreditLedgerEntry")!,
    now,
  );
  return cutoff === null ? null : cutoff / DAY;
};
const pause = () => new Promise((resolve) => setImmediate(resolve));

const HOUR = 3_600;
/**
 * The logs' hour counts (lib/logs/log-hours.ts) follow the logs out. SQLite's triggers count a
 * deleted log out; what is left before the cutoff's hour is rows of nothing.
 */
const RETIRE_EMPTY_LOG_HOURS = `DELETE FROM "LogHour" WHERE "hour" < ? AND "operations" = 0 AND "errors" = 0`;
/** PostgreSQL: a dropped partition fires no trigger, so its hours' counts go with it. */
const RETIRE_LOG_HOURS = `DELETE FROM "LogHour" WHERE "hour" < $1`;
/**
 * PostgreSQL: the committed transactions' rows of counts (batch: the writing transaction's id)
 * merged into one per team, hour and connection (batch 0). Only this job writes batch 0, and a
 * running transaction's rows are not yet visible to the DELETE, so nothing is counted twice. It
 * returns the merged rows that came to nothing (their logs deleted), for EMPTY_LOG_HOURS.
 */
const MERGE_LOG_HOURS = `WITH "moved" AS (
    DELETE FROM "LogHour" WHERE "batch" <> 0
    RETURNING "teamId", "hour", "connectionId", "operations", "errors"
  )
  INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
  SELECT "teamId", "hour", "connectionId", 0, SUM("operations"), SUM("errors") FROM "moved"
  GROUP BY "teamId", "hour", "connectionId"
  ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
    SET "operations" = "LogHour"."operations" + excluded."operations",
      "errors" = "LogHour"."errors" + excluded."errors"
  RETURNING "teamId", "hour", "connectionId", "operations", "errors"`;
const EMPTY_LOG_HOURS = `DELETE FROM "LogHour" h
  USING unnest($1::text[], $2::int[], $3::text[]) AS e("teamId", "hour", "connectionId")
  WHERE h."teamId" = e."teamId" AND h."hour" = e."hour" AND h."connectionId" = e."connectionId"
    AND h."batch" = 0 AND h."operations" = 0 AND h."errors" = 0`;

/**
 * Keeps the history tables' partitions ahead of time and retires what is past retention
 * (LOG_RETENTION_DAYS, LEDGER_RETENTION_DAYS): on PostgreSQL, under an advisory lock so one
 * instance at a time, by creating the coming partitions and detaching and dropping whole expired
 * ones; on SQLite, by deleting expired rows in bounded batches.
 */
export async function maintainHistory(now = nowSeconds()): Promise<HistoryReport> {
  const target = databaseTarget();
  return target.engine === "postgresql" ? maintainPostgres(target.url, now) : maintainSqlite(target.file, now);
}

type Partition = { name: string; from: number | null; to: number };

async function maintainPostgres(url: string, now: number): Promise<HistoryReport> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  const report: HistoryReport = { engine: "postgresql", created: [], dropped: [], deleted: {} };
  try {
    const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [PG_LOCK_ID]);
    if (!rows[0].ok) return { ...report, skipped: true };
    // DDL waits at most this long for a lock: a long transaction delays maintenance to the next
    // turn instead of queueing every reader behind the DDL's lock.
    await client.query("SET lock_timeout = '5s'");
    for (const t of HISTORY_TABLES) {
      const parts = await partitionsOf(client, t.table);
      if (parts === null) continue;
      const gone = await retire(client, t, parts, now, report);
      if (t.table === "OperationLog" && gone !== null) {
        const res = await client.query(RETIRE_LOG_HOURS, [gone / HOUR]);
        if (res.rowCount) report.deleted.LogHour = res.rowCount;
      }
      await createAhead(client, t, await partitionsOf(client, t.table), now, report);
    }
    await mergeLogHours(client, report);
    const day = ledgerCutoffDay(now);
    if (day !== null) {
      const res = await client.query(RETIRE_USAGE_DAYS.replace("?", "$1"), [day]);
      if (res.rowCount) report.deleted.UsageDay = res.rowCount;
    }
    return report;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PG_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

type PgClient = import("pg").Client;

async function mergeLogHours(client: PgClient, report: HistoryReport) {
  type Merged = { teamId: string; hour: number; connectionId: string; operations: number; errors: number };
  await client.query("BEGIN");
  try {
    const { rows } = await client.query<Merged>(MERGE_LOG_HOURS);
    const empty = rows.filter((r) => r.operations === 0 && r.errors === 0);
    if (empty.length)
      await client.query(EMPTY_LOG_HOURS, [
        empty.map((r) => r.teamId),
        empty.map((r) => r.hour),
        empty.map((r) => r.connectionId),
      ]);
    await client.query("COMMIT");
    if (rows.length) report.merged = { LogHour: rows.length };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
}

/** A partitioned table's partitions and their bounds; null when the table is not partitioned. */
async function partitionsOf(client: PgClient, table: string): Promise<Partition[] | null> {
  const kind = await client.query<{ relkind: string }>(
    "SELECT relkind FROM pg_class WHERE oid = to_regclass(quote_ident($1))",
    [table],
  );
  if (kind.rows[0]?.relkind !== "p") return null;
  const { rows } = await client.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass(quote_ident($1))`,
    [table],
  );
  return rows
    .map((r) => {
      const m = /FROM \((MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/.exec(r.bound);
      if (!m) return null;
      return { name: r.name, from: m[1] === "MINVALUE" ? null : Number(m[2]), to: Number(m[3]) };
    })
    .filter((p): p is Partition => p !== null)
    .sort((a, b) => a.to - b.to);
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Partitions through the end of the next interval, each starting where the last one ends. */
async function createAhead(
  client: PgClient,
  t: HistoryTable,
  parts: Partition[] | null,
  now: number,
  r: HistoryReport,
) {
  if (!parts) return;
  const interval = partitionInterval();
  const horizon = nextBoundary(nextBoundary(now, interval), interval);
  const dated = parts.filter((p) => p.from !== null);
  let from = dated.length ? dated[dated.length - 1].to : intervalStart(now, interval);
  if (!parts.some((p) => p.from === null)) {
    // No partition for older rows yet (none was made, or retention dropped it): one up to the first.
    const first = dated.length ? (dated[0].from as number) : from;
    await client.query(
      `CREATE TABLE ${ident(beforePartitionName(t.table))} PARTITION OF ${ident(t.table)} FOR VALUES FROM (MINVALUE) TO (${first})`,
    );
    r.created.push(beforePartitionName(t.table));
  }
  while (from < horizon) {
    const to = nextBoundary(from, interval);
    const name = partitionName(t.table, from);
    await client.query(
      `CREATE TABLE ${ident(name)} PARTITION OF ${ident(t.table)} FOR VALUES FROM (${from}) TO (${to})`,
    );
    r.created.push(name);
    from = to;
  }
}

/**
 * Detaches and drops the partitions wholly older than the cutoff; thins the "before" one. Returns
 * the end of the last partition dropped (no row before it is left), or null when none was.
 */
async function retire(
  client: PgClient,
  t: HistoryTable,
  parts: Partition[],
  now: number,
  r: HistoryReport,
): Promise<number | null> {
  const cutoff = cutoffOf(t, now);
  if (cutoff === null) return null;
  let gone: number | null = null;
  // The partition for older rows goes only with dated ones (createAhead makes it again up to the
  // first one kept): alone, it would be dropped and made again at every turn, since its new bound
  // is itself past the cutoff.
  const expired = parts.filter((p) => p.from !== null && p.to <= cutoff);
  for (const p of parts.filter((p) => p.to <= cutoff && (p.from !== null || expired.length > 0))) {
    await client.query(`ALTER TABLE ${ident(t.table)} DETACH PARTITION ${ident(p.name)}`);
    await client.query(`DROP TABLE ${ident(p.name)}`);
    r.dropped.push(p.name);
    gone = Math.max(gone ?? p.to, p.to);
  }
  // Rows written with a time before every dated partition (an import, a backfill) are deleted as
  // SQLite's are: in batches.
  const before = parts.find((p) => p.from === null && !r.dropped.includes(p.name));
  if (!before) return gone;
  let deleted = 0;
  for (;;) {
    // Through the partitioned table, not the partition: its statement triggers (the logs' hour
    // counts) fire only for a statement on it.
    const res = await client.query(
      `DELETE FROM ${ident(t.table)} WHERE ${ident(t.key)} < $1 AND tableoid = ${literal(ident(before.name))}::regclass
         AND ctid IN (SELECT ctid FROM ${ident(before.name)} WHERE ${ident(t.key)} < $1 LIMIT ${BATCH})`,
      [cutoff],
    );
    deleted += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) < BATCH) break;
  }
  if (deleted) r.deleted[t.table] = deleted;
  return gone;
}

async function maintainSqlite(file: string, now: number): Promise<HistoryReport> {
  const report: HistoryReport = { engine: "sqlite", created: [], dropped: [], deleted: {} };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the native module loads only on SQLite
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  // No busy handler: it would sleep inside the synchronous call, and this runs in the server's own
  // process, whose transaction holding the lock could then never end. A busy lock is waited for on
  // a timer instead (lib/db/one-statement-at-a-time.ts).
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  const busyMs = Number(process.env.SQLITE_BUSY_TIMEOUT_MS ?? 10_000);
  const run = (statement: import("better-sqlite3").Statement, ...args: unknown[]) =>
    whenFree(busyMs, () => Promise.resolve().then(() => statement.run(...args)));
  try {
    const teams = (db.prepare(`SELECT "id" FROM "Team"`).all() as { id: string }[]).map((t) => t.id);
    for (const t of HISTORY_TABLES) {
      const cutoff = cutoffOf(t, now);
      if (cutoff === null) continue;
      // Per team, so each batch is a range of the (teamId, time, …) index rather than a table scan.
      const del = db.prepare(
        `DELETE FROM ${ident(t.table)} WHERE rowid IN (SELECT rowid FROM ${ident(t.table)} WHERE "teamId" = ? AND ${ident(t.key)} < ? LIMIT ${BATCH})`,
      );
      let deleted = 0;
      for (const team of teams) {
        for (;;) {
          const { changes } = await run(del, team, cutoff);
          deleted += changes;
          if (changes < BATCH) break;
          // Between batches other writers take their turn.
          await pause();
        }
      }
      if (deleted) report.deleted[t.table] = deleted;
      if (t.table === "OperationLog") {
        const { changes } = await run(db.prepare(RETIRE_EMPTY_LOG_HOURS), Math.floor(cutoff / HOUR));
        if (changes) report.deleted.LogHour = changes;
      }
    }
    const day = ledgerCutoffDay(now);
    if (day !== null) {
      const { changes } = await run(db.prepare(RETIRE_USAGE_DAYS), day);
      if (changes) report.deleted.UsageDay = changes;
    }
    return report;
  } finally {
    db.close();
  }
}
