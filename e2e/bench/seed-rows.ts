// Bulk seeding shared by the benchmarks (bench:api, bench:ui).

/** Fast deterministic ids shaped like the product's (prefix + 20 base62). */
function idMaker(prefix: string, seed: number) {
  const A = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return () => {
    let out = `${prefix}_`;
    for (let i = 0; i < 20; i++) out += A[rnd() % 62];
    return out;
  };
}

const STATUSES = [
  "success",
  "success",
  "success",
  "success",
  "success",
  "success",
  "error",
  "skipped",
  "stop",
  "start",
];
const SERVICES = [
  ["workflow", "wf_bench", "Bench workflow"],
  ["mcp", "mcp_bench", "Bench MCP"],
  ["agent", "conv_bench", "Bench agent"],
  ["copilot", null, "Copilot"],
] as const;
const LOG_COLUMNS = [
  "id",
  "teamId",
  "operationId",
  "operationVersion",
  "status",
  "sourceType",
  "sourceId",
  "sourceRunId",
  "sourceName",
  "userId",
  "userEmail",
  "startedAt",
  "completedAt",
  "creditsUsed",
  "cacheHit",
  "input",
  "output",
  "metadata",
];
const LOG_PG_TYPES = [
  "text",
  "text",
  "text",
  "int",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "int8",
  "int8",
  "int",
  "bool",
  "text",
  "text",
  "text",
];
const ENTRY_COLUMNS = [
  "teamId",
  "creditsUsed",
  "creditsRemaining",
  "serviceType",
  "serviceId",
  "serviceName",
  "userId",
  "userEmail",
  "createdAt",
];
const ENTRY_PG_TYPES = ["text", "int", "int", "text", "text", "text", "text", "text", "int8"];
const BATCH = 50_000;

/**
 * The bench's rows for one team, spread over the last 29 days so they sit in the Team plan's
 * history window: `rows` operation logs (workflow, MCP and agent logs; several share a second)
 * and `rows` ledger entries, generated in batches of column values for either engine's writer.
 */
function benchRows(rows: number, teamId: string, userId: string, email: string) {
  const now = Math.floor(Date.now() / 1000);
  const span = 29 * 86_400; // inside the Team plan's 30-day history window
  const at = (i: number) => now - span + Math.floor((i * span) / rows); // ascending
  const logId = idMaker("log", 1);
  const runId = idMaker("run", 2);
  let run = runId();
  const samples = { runId: "", midLogId: "" };
  function* logBatches() {
    for (let start = 0; start < rows; start += BATCH) {
      const batch: unknown[][] = [];
      for (let i = start; i < Math.min(rows, start + BATCH); i++) {
        const t = at(i);
        const kind = i % 10;
        const id = logId();
        const status = STATUSES[i % STATUSES.length];
        if (kind < 6) {
          if (i % 4 === 0) run = runId();
          batch.push([
            id,
            teamId,
            `wf.step_${i % 4}`,
            1,
            status,
            "workflow",
            "wf_bench",
            run,
            "Bench workflow",
            userId,
            email,
            t,
            t + 2,
            1,
            false,
            '{"n":1}',
            '{"rows":12}',
            `{"node_id":"node_${i % 4}","node_label":"Step ${i % 4}","retry_attempts":0}`,
          ]);
        } else if (kind < 9) {
          batch.push([
            id,
            teamId,
            "mcp.ga4_run_report",
            1,
            status,
            "mcp",
            "mcp_bench",
            null,
            "Bench MCP",
            userId,
            email,
            t,
            t + 1,
            1,
            i % 3 === 0,
            '{"tool":"ga4_run_report"}',
            '{"rows":3}',
            '{"tool_name":"ga4_run_report"}',
          ]);
        } else {
          batch.push([
            id,
            teamId,
            "agent.answer",
            1,
            status,
            "agent",
            "conv_bench",
            null,
            "Bench agent",
            null,
            null,
            t,
            t + 5,
            2,
            false,
            null,
            '{"tokens":900}',
            "{}",
          ]);
        }
        if (i === Math.floor(rows / 2)) {
          samples.runId = run;
          samples.midLogId = id;
        }
      }
      yield batch;
    }
  }
  function* entryBatches() {
    for (let start = 0; start < rows; start += BATCH) {
      const batch: unknown[][] = [];
      for (let i = start; i < Math.min(rows, start + BATCH); i++) {
        const [type, sid, name] = SERVICES[i % 4];
        batch.push([teamId, 3, 1_000_000 - i * 3, type, sid, name, userId, email, at(i)]);
      }
      yield batch;
    }
  }
  return { now, span, samples, logBatches, entryBatches };
}

/**
 * Writes the bench rows straight into the database (batched transactions; prepared statements on
 * SQLite, `unnest` arrays on PostgreSQL) and refreshes the planner's statistics; returns the
 * timings and the sample ids the benchmarks query.
 */
export async function seedBenchRows(
  target: { file: string } | { url: string },
  rows: number,
  teamId: string,
  userId: string,
  email: string,
) {
  const data = benchRows(rows, teamId, userId, email);
  const timings = "file" in target ? seedSqlite(target.file, data) : await seedPostgres(target.url, data);
  return { ...timings, now: data.now, span: data.span, ...data.samples };
}

type Rows = ReturnType<typeof benchRows>;

function seedSqlite(dbFile: string, data: Rows) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const db = new Database(dbFile);
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  db.pragma("temp_store = MEMORY");
  const insert = (table: string, columns: string[]) =>
    db.prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
  const timed = (stmt: import("better-sqlite3").Statement, batches: Generator<unknown[][]>) => {
    const t0 = performance.now();
    for (const batch of batches)
      db.transaction(() =>
        batch.forEach((row) => stmt.run(...row.map((v) => (typeof v === "boolean" ? Number(v) : v)))),
      )();
    return (performance.now() - t0) / 1000;
  };
  const logsSeconds = timed(insert("OperationLog", LOG_COLUMNS), data.logBatches());
  const ledgerSeconds = timed(insert("CreditLedgerEntry", ENTRY_COLUMNS), data.entryBatches());
  db.pragma("optimize");
  db.exec("ANALYZE");
  db.close();
  return { logsSeconds, ledgerSeconds };
}

async function seedPostgres(url: string, data: Rows) {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  // One statement per batch: each column travels as one array parameter.
  const timed = async (table: string, columns: string[], pgTypes: string[], batches: Generator<unknown[][]>) => {
    const text = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${pgTypes.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})`;
    const t0 = performance.now();
    for (const batch of batches)
      await client.query(
        text,
        columns.map((_, c) => batch.map((row) => row[c])),
      );
    return (performance.now() - t0) / 1000;
  };
  const logsSeconds = await timed("OperationLog", LOG_COLUMNS, LOG_PG_TYPES, data.logBatches());
  const ledgerSeconds = await timed("CreditLedgerEntry", ENTRY_COLUMNS, ENTRY_PG_TYPES, data.entryBatches());
  await client.query("VACUUM ANALYZE");
  await client.end();
  return { logsSeconds, ledgerSeconds };
}
