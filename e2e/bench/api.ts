// npm run bench:api — seeds 1,000,000 operation logs and 1,000,000 ledger entries into a fresh
// embedded database, then measures the production server with a real HTTP load generator
// (autocannon) and the same queries run in-process, so the report shows the API's overhead.
//
// BENCH_ROWS (default 1000000) scales the seed; BENCH_SECONDS (default 5) the time per measurement.
import http from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { ensureBuild, freePort, migrateWith, root, startServer } from "../support/server";
import { seedBenchRows } from "./seed-rows";
import { benchWorkspace } from "./workspace";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const THROUGHPUT_CONNECTIONS = 8;

const { dbFile, env } = benchWorkspace("bench");

type Stat = { p50: number; p99: number; rps: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive socket with node:http (fetch adds ~1.5 ms of its own per response). */
function get(url: string, headers: Record<string, string>) {
  return new Promise<string>((ok, fail) => {
    http
      .get(url, { agent, headers }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? ok(String(res.headers["server-timing"] ?? "")) : fail(new Error(`HTTP ${res.statusCode}`))));
      })
      .on("error", fail);
  });
}

/** Server-Timing "auth;dur=0.21, handler;dur=3.10, serialize;dur=0.30" → {auth: 0.21, …}. */
const stages = (header: string) => Object.fromEntries([...header.matchAll(/(\w+);dur=([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));

/**
 * Latency of the API and of the direct query, sampled alternately (one HTTP request, one direct
 * call, …) for SECONDS each, so both see the same machine: a noisy neighbour or a GC phase then
 * moves both sides instead of skewing the ratio. Throughput comes from autocannon under load.
 */
async function measurePaired(url: string, headers: Record<string, string>, direct: () => Promise<unknown>) {
  const api: number[] = [];
  const db: number[] = [];
  const inServer: Record<string, number[]> = {};
  await get(url, headers);
  await direct();
  const until = performance.now() + 2 * SECONDS * 1000;
  while (performance.now() < until) {
    let t = performance.now();
    const timing = stages(await get(url, headers));
    api.push(performance.now() - t);
    for (const [k, v] of Object.entries(timing)) (inServer[k] ??= []).push(v);
    t = performance.now();
    await direct();
    db.push(performance.now() - t);
  }
  const loaded = (await (autocannon({ url, connections: THROUGHPUT_CONNECTIONS, duration: SECONDS, headers }) as unknown as Promise<autocannon.Result>));
  const server = Object.fromEntries(Object.entries(inServer).map(([k, v]) => [k, stat(v).p50]));
  return { latency: stat(api), direct: stat(db), server, throughput: loaded.requests.average, loadedP99: loaded.latency.p99, errors: loaded.errors + loaded.non2xx };
}

function stat(times: number[]): Stat {
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  // Requests per second of one sequential client: the inverse of the mean latency.
  return { p50: q(0.5), p99: q(0.99), rps: 1000 / (times.reduce((a, b) => a + b, 0) / times.length) };
}

async function main() {
  ensureBuild();
  migrateWith(env);
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const team = await createTeam({ name: "Bench", plan: "team" });
  const user = await createUser({ teamId: team.id, email: "bench@patchbay.dev", role: "owner" });
  const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });

  console.log(`[bench] seeding ${ROWS.toLocaleString()} logs and ${ROWS.toLocaleString()} ledger entries…`);
  const seeded = seedBenchRows(dbFile, ROWS, team.id, user.id, user.email);
  console.log(`[bench] seeded logs in ${seeded.logsSeconds.toFixed(1)} s, ledger in ${seeded.ledgerSeconds.toFixed(1)} s`);

  const port = await freePort();
  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` });
  const headers = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 5; i++) {
    await fetch(`${server.baseUrl}/v1/connections`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ connection_type: "sandbox_key", name: `Bench key ${i}`, credentials: { api_key: `k${i}` } }),
    });
  }

  const { listLogs } = await import("@/lib/logs/list-logs");
  const { getLogOrThrow } = await import("@/lib/logs/get-log-or-throw");
  const { listCreditLogs } = await import("@/lib/credits/list-credit-logs");
  const { listConnections } = await import("@/lib/connections/list-connections");
  const { encodeCursor } = await import("@/lib/api/pagination");
  const { db } = await import("@/lib/db/client");

  // The position 500,000 rows deep, as the cursor a client would hold after 5,000 pages.
  const depth = Math.floor(ROWS / 2);
  const deepRow = await db.operationLog.findMany({ where: { teamId: team.id }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], skip: depth - 1, take: 1, select: { startedAt: true, id: true } });
  const deepCursor = encodeCursor("logs", {}, { at: Number(deepRow[0].startedAt), id: deepRow[0].id });
  const rangeFrom = seeded.now - seeded.span + Math.floor(seeded.span / 2);
  const rangeTo = rangeFrom + 3600;

  const cases: { name: string; path: string; direct: () => Promise<unknown> }[] = [
    { name: "GET /v1/logs?limit=100 (first page)", path: "/v1/logs?limit=100", direct: () => listLogs(team, { limit: 100 }) },
    { name: `GET /v1/logs?limit=100 (${depth.toLocaleString()} rows deep)`, path: `/v1/logs?limit=100&cursor=${deepCursor}`, direct: () => listLogs(team, { limit: 100, cursor: deepCursor }) },
    { name: "GET /v1/logs?limit=100&source_run_id=…", path: `/v1/logs?limit=100&source_run_id=${seeded.runId}`, direct: () => listLogs(team, { limit: 100, source_run_id: seeded.runId }) },
    { name: "GET /v1/logs?limit=100&status=error", path: "/v1/logs?limit=100&status=error", direct: () => listLogs(team, { limit: 100, status: "error" }) },
    { name: "GET /v1/logs?limit=100 (1-hour time range)", path: `/v1/logs?limit=100&started_after=${rangeFrom}&started_before=${rangeTo}`, direct: () => listLogs(team, { limit: 100, started_after: rangeFrom, started_before: rangeTo }) },
    { name: "GET /v1/credits/logs?limit=1000", path: "/v1/credits/logs?limit=1000", direct: () => listCreditLogs(team.id, { limit: 1000 }) },
    { name: "GET /v1/logs/{id}", path: `/v1/logs/${seeded.midLogId}`, direct: () => getLogOrThrow(team, seeded.midLogId) },
    { name: "GET /v1/connections", path: "/v1/connections", direct: () => listConnections(team.id, user.id, {}) },
  ];

  // Warm the server (JIT, route modules, SQLite page cache) on every case before measuring any,
  // as the direct side is warmed before its own measurement.
  for (let round = 0; round < 50; round++) for (const c of cases) await get(server.baseUrl + c.path, headers);

  const results = [];
  for (const c of cases) {
    const check = await fetch(server.baseUrl + c.path, { headers });
    if (check.status !== 200) throw new Error(`${c.name}: HTTP ${check.status} ${await check.text()}`);
    const { direct, ...http } = await measurePaired(server.baseUrl + c.path, headers, c.direct);
    results.push({ name: c.name, http, direct, overhead: http.latency.p50 / Math.max(direct.p50, 0.001) });
    console.log(`[bench] ${c.name}: API p50 ${http.latency.p50.toFixed(2)} ms p99 ${http.latency.p99.toFixed(2)} ms, ${Math.round(http.throughput)} req/s @${THROUGHPUT_CONNECTIONS}; direct p50 ${direct.p50.toFixed(2)} ms`);
  }
  await server.stop();

  const first = results[0];
  const deep = results[1];
  const seedTotal = seeded.logsSeconds + seeded.ledgerSeconds;
  const bars = [
    { bar: "page 500,000 rows deep within 1.3× of the first page (API p50)", value: deep.http.latency.p50 / first.http.latency.p50, ok: deep.http.latency.p50 <= 1.3 * first.http.latency.p50 },
    { bar: "API p50 within 2× of the direct query (100-row page)", value: first.overhead, ok: first.overhead <= 2 },
    { bar: "seeding 1,000,000 rows under 60 s (each table)", value: Math.max(seeded.logsSeconds, seeded.ledgerSeconds), ok: seeded.logsSeconds < 60 && seeded.ledgerSeconds < 60 },
  ];
  const lines = [
    `# bench:api — ${ROWS.toLocaleString()} logs + ${ROWS.toLocaleString()} ledger entries, SQLite, ${SECONDS} s per measurement`,
    "",
    `Seeding: logs ${seeded.logsSeconds.toFixed(1)} s, ledger ${seeded.ledgerSeconds.toFixed(1)} s (total ${seedTotal.toFixed(1)} s)`,
    "",
    "API latency: one sequential keep-alive node:http client, sampled alternately with the direct call (the same lib query in this process). Load: autocannon, 8 connections.",
    "",
    "| endpoint | API p50 ms | API p99 ms | req/s (1 conn) | req/s (8 conns, autocannon) | p99 ms under load | direct p50 ms | direct p99 ms | API/direct p50 | in server p50 ms: auth / handler / serialize | errors |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.http.latency.p50.toFixed(2)} | ${r.http.latency.p99.toFixed(2)} | ${Math.round(r.http.latency.rps)} | ${Math.round(r.http.throughput)} | ${r.http.loadedP99} | ${r.direct.p50.toFixed(2)} | ${r.direct.p99.toFixed(2)} | ${r.overhead.toFixed(2)}× | ${["auth", "handler", "serialize"].map((k) => r.http.server[k]?.toFixed(2) ?? "–").join(" / ")} | ${r.http.errors} |`,
    ),
    "",
    ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value.toFixed(2)}`),
  ];
  const report = lines.join("\n");
  console.log(`\n${report}\n`);
  writeFileSync(join(root, "e2e", ".artifacts", "bench-api.md"), report);
  await db.$disconnect();
  process.exit(bars.every((b) => b.ok) ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
