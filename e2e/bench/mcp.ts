// npm run bench:mcp — the operations framework through /mcp, on the production server, in one
// run with samples alternated so every side sees the same machine:
//   - run:   tools/call run_operation of sandbox.report through /mcp (scope, checks, credits, fresh
//            credentials, the provider call, one operation log and one ledger entry);
//   - bare:  the same read called in this process: the catalogue entry's own `run` with the same
//            credentials (the provider call, nothing else);
//   - floor: the cheapest /mcp answer through the same route: tools/list with a valid token.
// Bar: (run p50 − floor p50) ≤ 2 × bare p50. Every run asks for another end_date, so none is a
// cache hit. Also: find_operations over the whole catalogue, timed in the server's own function
// (bar: p50 under 2 ms) and through /mcp; and throughput: run_operation calls per second and per
// CPU second of the server process (its log and ledger entry written), BENCH_CONCURRENCY (4)
// clients for BENCH_SECONDS (8) s.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database (dropped afterwards). Writes e2e/.artifacts/bench-mcp-<engine>.md.
import { cpuSeconds, pidListeningOn } from "./process-cpu";
import { rpc } from "./mcp-rpc";
import { ms, runMcpBench, sampleAlternated, stats, timingTable } from "./mcp-bench";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const DAY = 86_400_000;
let nth = 0;
/** A date no earlier call asked for: every run reaches the provider. */
const freshDate = () => new Date(Date.UTC(2000, 0, 1) + nth++ * DAY).toISOString().slice(0, 10);

runMcpBench("bench-mcp", async ({ engine, port, baseUrl, url, team, user, db, mcpServer }) => {
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { findOperation, OPERATIONS, searchOperations } = await import("@/lib/operations/registry");
  const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
  const serverPid = pidListeningOn(port);
  const apiKey = "sk-bench-sandbox";
  const res = await fetch(`${baseUrl}/v1/connections`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ connection_type: "sandbox_key", name: "Bench sandbox", credentials: { api_key: apiKey } }),
  });
  if (res.status !== 200) throw new Error(`creating the connection: HTTP ${res.status} ${await res.text()}`);
  const connection = (await res.json()) as { id: string; external_id: string; name: string };
  const { token } = await mcpServer([connection.id]);

  const report = findOperation("sandbox.report")!;
  const ctx = {
    connection: {
      id: connection.id,
      type: "sandbox_key",
      name: connection.name,
      externalId: connection.external_id,
      isPrivate: false,
    },
    credentials: { kind: "manual" as const, credentials: { api_key: apiKey } },
  };
  const input = () => ({ metric: "sessions", days: 7, end_date: freshDate() });
  let id = 0;
  const call = (name: string, args: Record<string, unknown>) =>
    rpc(url, token, { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } });
  const runOnce = async () => {
    const answer = await call("run_operation", {
      operation_id: "sandbox.report",
      connection_id: connection.id,
      input: input(),
    });
    if (answer.result?.isError || !answer.result?.structuredContent?.rows)
      throw new Error(`run_operation failed: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  const sides: Record<string, () => Promise<unknown>> = {
    bare: () => report.run(ctx, input()),
    run: runOnce,
    floor: () => rpc(url, token, { jsonrpc: "2.0", id: ++id, method: "tools/list" }),
    find: () => call("find_operations", { query: "pause campaign budget" }),
  };

  // The same answer on both sides, or the comparison means nothing.
  const date = "2024-03-01";
  const viaMcp = (
    await call("run_operation", {
      operation_id: "sandbox.report",
      connection_id: connection.id,
      input: { metric: "sessions", days: 7, end_date: date },
    })
  ).result.structuredContent;
  const direct = await report.run(ctx, { metric: "sessions", days: 7, end_date: date });
  if (JSON.stringify(viaMcp) !== JSON.stringify(direct))
    throw new Error(`bare and /mcp disagree:\n${JSON.stringify(direct)}\n${JSON.stringify(viaMcp)}`);

  const m = await sampleAlternated(sides, 2 * SECONDS * 1000);
  // find_operations in the server's own function, over the whole catalogue.
  const queries = [
    "pause campaign",
    "change the daily budget",
    "post a slack message",
    "ga4 sessions report",
    "add subscriber to list",
    "",
    "update contact",
  ];
  const searchTimes: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t = performance.now();
    searchOperations(queries[i % queries.length], OPERATIONS);
    searchTimes.push(performance.now() - t);
  }

  // Throughput: CONCURRENCY clients calling run_operation back to back.
  const logsBefore = await db.operationLog.count({ where: { teamId: team.id } });
  const cpuBefore = cpuSeconds(serverPid);
  let calls = 0;
  const t0 = performance.now();
  const stopAt = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < stopAt) {
        await runOnce();
        calls++;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(serverPid) - cpuBefore;
  const logsWritten = (await db.operationLog.count({ where: { teamId: team.id } })) - logsBefore;
  if (logsWritten !== calls) throw new Error(`${calls} calls wrote ${logsWritten} logs`);

  const ratio = (m.run.p50 - m.floor.p50) / m.bare.p50;
  const search = stats(searchTimes);
  const bars = [
    { bar: "run_operation: (run p50 − floor p50) ≤ 2 × bare p50", value: ratio, ok: ratio <= 2 },
    {
      bar: `find_operations in the server, whole catalogue (${OPERATIONS.length} operations): p50 under 2 ms`,
      value: search.p50,
      ok: search.p50 < 2,
    },
  ];
  const lines = [
    `# bench:mcp — ${engine}, ${2 * SECONDS} s alternated, then ${SECONDS} s of throughput with ${CONCURRENCY} clients`,
    "",
    ...timingTable({
      "bare: sandbox.report's own run, in process": m.bare,
      "run: run_operation sandbox.report through /mcp": m.run,
      "floor: tools/list through /mcp": m.floor,
      "find_operations through /mcp": m.find,
      "find_operations, the server's function (searchOperations)": search,
    }),
    "",
    `(run − floor) / bare at p50: ${ratio.toFixed(2)}; find_operations through /mcp − floor: ${ms(m.find.p50 - m.floor.p50)} ms.`,
    "",
    `Throughput: ${calls} run_operation calls in ${wall.toFixed(1)} s = ${(calls / wall).toFixed(0)} calls/s; the server process used ${cpu.toFixed(1)} CPU s = ${(calls / cpu).toFixed(0)} calls per CPU second (each wrote its log and ledger entry: ${logsWritten} logs).`,
    "",
  ];
  return { lines, bars };
});
