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

/**
 * Writes `rows` operation logs and `rows` ledger entries for one team straight into the SQLite
 * file (batched transactions, prepared statements), spread over the last 29 days so they sit in
 * the Team plan's history window; returns the timings and sample ids the benchmarks query.
 */
export function seedBenchRows(dbFile: string, rows: number, teamId: string, userId: string, email: string) {
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const db = new Database(dbFile);
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  db.pragma("temp_store = MEMORY");
  const now = Math.floor(Date.now() / 1000);
  const span = 29 * 86_400; // inside the Team plan's 30-day history window
  const statuses = ["success", "success", "success", "success", "success", "success", "error", "skipped", "stop", "start"];
  const logId = idMaker("log", 1);
  const runId = idMaker("run", 2);
  const insertLog = db.prepare(
    `INSERT INTO "OperationLog" (id, teamId, operationId, operationVersion, status, sourceType, sourceId, sourceRunId, sourceName, userId, userEmail, startedAt, completedAt, creditsUsed, cacheHit, input, output, metadata)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const t0 = performance.now();
  const BATCH = 50_000;
  let run = runId();
  const samples = { runId: "", midLogId: "" };
  for (let start = 0; start < rows; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(rows, start + BATCH); i++) {
        const at = now - span + Math.floor((i * span) / rows); // ascending, several rows share a second
        const kind = i % 10;
        const id = logId();
        if (kind < 6) {
          if (i % 4 === 0) run = runId();
          insertLog.run(id, teamId, `wf.step_${i % 4}`, statuses[i % statuses.length], "workflow", "wf_bench", run, "Bench workflow", userId, email, at, at + 2, 1, 0, '{"n":1}', '{"rows":12}', `{"node_id":"node_${i % 4}","node_label":"Step ${i % 4}","retry_attempts":0}`);
        } else if (kind < 9) {
          insertLog.run(id, teamId, "mcp.ga4_run_report", statuses[i % statuses.length], "mcp", "mcp_bench", null, "Bench MCP", userId, email, at, at + 1, 1, i % 3 === 0 ? 1 : 0, '{"tool":"ga4_run_report"}', '{"rows":3}', '{"tool_name":"ga4_run_report"}');
        } else {
          insertLog.run(id, teamId, "agent.answer", statuses[i % statuses.length], "agent", "conv_bench", null, "Bench agent", null, null, at, at + 5, 2, 0, null, '{"tokens":900}', "{}");
        }
        if (i === Math.floor(rows / 2)) {
          samples.runId = run;
          samples.midLogId = id;
        }
      }
    })();
  }
  const logsSeconds = (performance.now() - t0) / 1000;
  const insertEntry = db.prepare(
    `INSERT INTO "CreditLedgerEntry" (teamId, creditsUsed, creditsRemaining, serviceType, serviceId, serviceName, userId, userEmail, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const services = [
    ["workflow", "wf_bench", "Bench workflow"],
    ["mcp", "mcp_bench", "Bench MCP"],
    ["agent", "conv_bench", "Bench agent"],
    ["copilot", null, "Copilot"],
  ] as const;
  const t1 = performance.now();
  for (let start = 0; start < rows; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(rows, start + BATCH); i++) {
        const [type, sid, name] = services[i % 4];
        insertEntry.run(teamId, 3, 1_000_000 - i * 3, type, sid, name, userId, email, now - span + Math.floor((i * span) / rows));
      }
    })();
  }
  const ledgerSeconds = (performance.now() - t1) / 1000;
  db.pragma("optimize");
  db.exec("ANALYZE");
  db.close();
  return { logsSeconds, ledgerSeconds, now, span, ...samples };
}

