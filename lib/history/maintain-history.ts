import "server-only";
import { databaseTarget } from "@/lib/db/engine";
import { partitionInterval } from "@/lib/config/retention";
import { HISTORY_TABLES, type HistoryTable } from "@/lib/history/history-tables";
import { beforePartitionName, intervalStart, nextBoundary, partitionName } from "@/lib/history/partition-bounds";

/** What one turn of maintenance did (the `history maintain` command prints it). */
export type HistoryReport = {
  engine: "sqlite" | "postgresql";
  /** PostgreSQL: partitions made ahead of time. */
  created: string[];
  /** PostgreSQL: partitions wholly past their table's retention, detached and dropped. */
  dropped: string[];
  /** Rows deleted one bounded batch at a time (SQLite; on PostgreSQL the "before" partition's). */
  deleted: Record<string, number>;
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
      await retire(client, t, parts, now, report);
      await createAhead(client, t, await partitionsOf(client, t.table), now, report);
    }
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

/** Detaches and drops the partitions wholly older than the cutoff; thins the "before" one. */
async function retire(client: PgClient, t: HistoryTable, parts: Partition[], now: number, r: HistoryReport) {
  const cutoff = cutoffOf(t, now);
  if (cutoff === null) return;
  // The partition for older rows goes only with dated ones (createAhead makes it again up to the
  // first one kept): alone, it would be dropped and made again at every turn, since its new bound
  // is itself past the cutoff.
  const expired = parts.filter((p) => p.from !== null && p.to <= cutoff);
  for (const p of parts.filter((p) => p.to <= cutoff && (p.from !== null || expired.length > 0))) {
    await client.query(`ALTER TABLE ${ident(t.table)} DETACH PARTITION ${ident(p.name)}`);
    await client.query(`DROP TABLE ${ident(p.name)}`);
    r.dropped.push(p.name);
  }
  // Rows written with a time before every dated partition (an import, a backfill) are deleted as
  // SQLite's are: in batches.
  const before = parts.find((p) => p.from === null && !r.dropped.includes(p.name));
  if (!before) return;
  let deleted = 0;
  for (;;) {
    const res = await client.query(
      `DELETE FROM ${ident(before.name)} WHERE ctid IN (SELECT ctid FROM ${ident(before.name)} WHERE ${ident(t.key)} < $1 LIMIT ${BATCH})`,
      [cutoff],
    );
    deleted += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) < BATCH) break;
  }
  if (deleted) r.deleted[t.table] = deleted;
}

async function maintainSqlite(file: string, now: number): Promise<HistoryReport> {
  const report: HistoryReport = { engine: "sqlite", created: [], dropped: [], deleted: {} };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the native module loads only on SQLite
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const db = new Database(file, { fileMustExist: true, timeout: 10_000 });
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
          const { changes } = del.run(team, cutoff);
          deleted += changes;
          if (changes < BATCH) break;
          // Between batches other writers take their turn.
          await pause();
        }
      }
      if (deleted) report.deleted[t.table] = deleted;
    }
    const day = ledgerCutoffDay(now);
    if (day !== null) {
      const { changes } = db.prepare(RETIRE_USAGE_DAYS).run(day);
      if (changes) report.deleted.UsageDay = changes;
    }
    return report;
  } finally {
    db.close();
  }
}
