// npm run bench:api — seeds 1,000,000 operation logs and 1,000,000 ledger entries, starts the
// production server, and measures each hot read page against two limits, in one run, sampled
// alternately so every side sees the same machine:
//   - bare:  the same work with the bare driver in this process (e2e/bench/bare-driver.ts);
//   - floor: the same server's cheapest answer through the same wrapper (GET /v1/logs, no key: 401);
//   - and, beside them, the measured page's own route without a key (401): what its routing in
//     Next costs (a dynamic segment costs more than the floor's static path) apart from its work;
// beside the library function the route calls (plus its JSON text) and the API itself, over
// node:http with keep-alive and no compression. Bar: (API p50 − floor p50) ≤ 2 × bare p50.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database (dropped afterwards). BENCH_ROWS (default 1000000) scales the seed; BENCH_SECONDS
// (default 5) the time per page; BENCH_ONLY (a case-insensitive regular expression) the pages measured.
import http from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { seedBenchRows } from "./seed-rows";
import { benchWorkspace } from "./workspace";
import { bareDriver } from "./bare-driver";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over the kept-alive socket (no Accept-Encoding: no compression); resolves with its Server-Timing. */
function get(url: string, headers: Record<string, string>, expected: number) {
  return new Promise<string>((ok, fail) => {
    http
      .get(url, { agent, headers }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === expected
            ? ok(String(res.headers["server-timing"] ?? ""))
            : fail(new Error(`${url}: HTTP ${res.statusCode}`)),
        );
      })
      .on("error", fail);
  });
}

/** Server-Timing "auth;dur=0.21, handler;dur=3.10, serialize;dur=0.30" → {auth: 0.21, …}. */
const stages = (header: string) =>
  Object.fromEntries([...header.matchAll(/(\w+);dur=([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));

const p = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

type Case = { name: string; path: string; bare: () => Promise<string>; lib: () => Promise<string> };

/**
 * Rounds of the five sides — bare, library, API, floor, the route's 401 — each once per round for 2 × SECONDS,
 * in an order that rotates every round, so that no side always runs right after the same other
 * one (whatever ran just before leaves the caches warm for code it shares). A small unmeasured
 * request to a route outside the wrapper (`/healthz`) follows each measured HTTP request, so a
 * garbage collection a large page left due in the server lands there and not on the next sample.
 */
async function measure(baseUrl: string, headers: Record<string, string>, c: Case) {
  const sides = {
    bare: [] as number[],
    lib: [] as number[],
    api: [] as number[],
    floor: [] as number[],
    route401: [] as number[],
  };
  const inServer: Record<string, number[]> = {};
  const small = () => get(`${baseUrl}/healthz`, {}, 200);
  const sample: Record<keyof typeof sides, () => Promise<void>> = {
    bare: async () => void (await c.bare()),
    lib: async () => void (await c.lib()),
    api: async () => {
      for (const [k, v] of Object.entries(stages(await get(baseUrl + c.path, headers, 200))))
        (inServer[k] ??= []).push(v);
    },
    floor: async () => void (await get(`${baseUrl}/v1/logs`, {}, 401)),
    route401: async () => void (await get(baseUrl + c.path, {}, 401)),
  };
  const order = Object.keys(sides) as (keyof typeof sides)[];
  const until = performance.now() + 2 * SECONDS * 1000;
  for (let round = 0; performance.now() < until; round++) {
    for (let i = 0; i < order.length; i++) {
      const side = order[(round + i) % order.length];
      const t = performance.now();
      await sample[side]();
      sides[side].push(performance.now() - t);
      if (side === "api" || side === "floor" || side === "route401") await small();
    }
  }
  return {
    bare: p(sides.bare, 0.5),
    lib: p(sides.lib, 0.5),
    api: p(sides.api, 0.5),
    apiP99: p(sides.api, 0.99),
    floor: p(sides.floor, 0.5),
    route401: p(sides.route401, 0.5),
    samples: sides.api.length,
    server: Object.fromEntries(Object.entries(inServer).map(([k, v]) => [k, p(v, 0.5)])),
  };
}

async function main() {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench") : undefined;
  const { dbFile, env } = benchWorkspace("bench", pg?.url);
  const engine = postgres ? "PostgreSQL" : "SQLite";
  migrateWith(env);
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { db } = await import("@/lib/db/client");
  const team = await createTeam({ name: "Bench", plan: "team" });
  const user = await createUser({ teamId: team.id, email: "bench@patchbay.dev", role: "owner" });
  const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
  // The parents the seeded logs name, so each page joins their current names in.
  await db.workflow.create({ data: { id: "wf_bench", teamId: team.id, name: "Bench workflow (renamed)", nodes: [] } });
  await db.mcpServer.create({ data: { id: "mcp_bench", teamId: team.id, name: "Bench MCP (renamed)" } });

  console.log(
    `[bench] ${engine}: seeding ${ROWS.toLocaleString("en")} logs and ${ROWS.toLocaleString("en")} ledger entries…`,
  );
  const seeded = await seedBenchRows(pg ? { url: pg.url } : { file: dbFile }, ROWS, team.id, user.id, user.email);
  console.log(
    `[bench] seeded logs in ${seeded.logsSeconds.toFixed(1)} s, ledger in ${seeded.ledgerSeconds.toFixed(1)} s`,
  );

  const port = await freePort();
  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` });
  const authorization = `Bearer ${key}`;
  const headers = { authorization };
  try {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.baseUrl}/v1/connections`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({
          connection_type: "sandbox_key",
          name: `Bench key ${i}`,
          credentials: { api_key: `k${i}` },
        }),
      });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`creating a connection: HTTP ${res.status} ${await res.text()}`);
    }

    const { listLogs } = await import("@/lib/logs/list-logs");
    const { getLogOrThrow } = await import("@/lib/logs/get-log-or-throw");
    const { listCreditLogs } = await import("@/lib/credits/list-credit-logs");
    const { listConnections } = await import("@/lib/connections/list-connections");
    const { authenticateApiKey } = await import("@/lib/api-keys/authenticate-api-key");
    const { encodeCursor } = await import("@/lib/db/pagination");
    const { jsonBody } = await import("@/lib/http/json");
    const bare = await bareDriver(env.DATABASE_URL);
    // The library side authenticates too, as every request does, then serialises what it returns as the wrapper does.
    const lib = async (fn: (principal: Awaited<ReturnType<typeof authenticateApiKey>>) => Promise<unknown>) =>
      jsonBody(await fn(await authenticateApiKey(authorization)));

    // The position 500,000 rows deep, as the cursor a client would hold after 5,000 pages.
    const depth = Math.floor(ROWS / 2);
    const deepRow = await db.operationLog.findMany({
      where: { teamId: team.id },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      skip: depth - 1,
      take: 1,
      select: { startedAt: true, id: true },
    });
    const deepCursor = encodeCursor("logs", {}, { at: Number(deepRow[0].startedAt), id: deepRow[0].id });
    const rangeFrom = seeded.now - seeded.span + Math.floor(seeded.span / 2);
    const rangeTo = rangeFrom + 3600;

    const allCases: Case[] = [
      {
        name: "GET /v1/logs?limit=100",
        path: "/v1/logs?limit=100",
        bare: () => bare.logsPage(authorization, 100, {}),
        lib: () => lib((a) => listLogs(a.team, a.user.id, { limit: 100 })),
      },
      {
        name: `GET /v1/logs?limit=100, ${depth.toLocaleString("en")} rows deep`,
        path: `/v1/logs?limit=100&cursor=${deepCursor}`,
        bare: () => bare.logsPage(authorization, 100, {}, deepCursor),
        lib: () => lib((a) => listLogs(a.team, a.user.id, { limit: 100, cursor: deepCursor })),
      },
      {
        name: "GET /v1/logs?limit=100&status=error",
        path: "/v1/logs?limit=100&status=error",
        bare: () => bare.logsPage(authorization, 100, { status: "error" }),
        lib: () => lib((a) => listLogs(a.team, a.user.id, { limit: 100, status: "error" })),
      },
      {
        name: "GET /v1/logs?limit=100&source_run_id=…",
        path: `/v1/logs?limit=100&source_run_id=${seeded.runId}`,
        bare: () => bare.logsPage(authorization, 100, { source_run_id: seeded.runId }),
        lib: () => lib((a) => listLogs(a.team, a.user.id, { limit: 100, source_run_id: seeded.runId })),
      },
      {
        name: "GET /v1/logs?limit=100, 1-hour range",
        path: `/v1/logs?limit=100&started_after=${rangeFrom}&started_before=${rangeTo}`,
        bare: () => bare.logsPage(authorization, 100, { started_after: rangeFrom, started_before: rangeTo }),
        lib: () =>
          lib((a) => listLogs(a.team, a.user.id, { limit: 100, started_after: rangeFrom, started_before: rangeTo })),
      },
      {
        name: "GET /v1/logs/{id}",
        path: `/v1/logs/${seeded.midLogId}`,
        bare: () => bare.log(authorization, seeded.midLogId),
        lib: () => lib((a) => getLogOrThrow(a.team, a.user.id, seeded.midLogId)),
      },
      {
        name: "GET /v1/connections",
        path: "/v1/connections",
        bare: () => bare.connections(authorization),
        lib: () => lib((a) => listConnections(a.team.id, a.user.id, {})),
      },
      {
        name: "GET /v1/credits/logs?limit=1000",
        path: "/v1/credits/logs?limit=1000",
        bare: () => bare.creditLogsPage(authorization, 1000),
        lib: () => lib((a) => listCreditLogs(a.team.id, a.user.id, { limit: 1000 })),
      },
    ];
    const cases = allCases.filter((c) => !ONLY || ONLY.test(c.name));
    if (cases.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} matches no page`);

    // Every side must give the same answer, or the comparison means nothing.
    for (const c of cases) {
      const res = await fetch(server.baseUrl + c.path, { headers });
      const api = await res.text();
      if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${api}`);
      const [b, l] = [await c.bare(), await c.lib()];
      if (b !== api || l !== api)
        throw new Error(
          `${c.name}: the bare driver, the library and the API disagree:\n${b.slice(0, 300)}\n${l.slice(0, 300)}\n${api.slice(0, 300)}`,
        );
    }
    // Warm every side (JIT, route modules, statement caches, page cache) before measuring any.
    for (let round = 0; round < 50; round++) {
      for (const c of cases) {
        await get(server.baseUrl + c.path, headers, 200);
        await c.bare();
        await c.lib();
      }
      await get(`${server.baseUrl}/v1/logs`, {}, 401);
    }

    const results = [];
    for (const c of cases) {
      const m = await measure(server.baseUrl, headers, c);
      const ratio = (m.api - m.floor) / m.bare;
      const routeRatio = (m.api - m.route401) / m.bare;
      results.push({ ...c, ...m, ratio, routeRatio });
      console.log(
        `[bench] ${c.name}: bare ${m.bare.toFixed(2)} ms, lib ${m.lib.toFixed(2)} ms, API ${m.api.toFixed(2)} ms (p99 ${m.apiP99.toFixed(2)}), floor ${m.floor.toFixed(2)} ms → (API − floor) / bare ${ratio.toFixed(2)}; this route's 401 ${m.route401.toFixed(2)} ms → (API − it) / bare ${routeRatio.toFixed(2)}`,
      );
    }

    const first = results.find((r) => r.path === "/v1/logs?limit=100");
    const deep = results.find((r) => r.path.startsWith("/v1/logs?limit=100&cursor="));
    const bars = [
      ...results.map((r) => ({
        bar: `${r.name}: (API p50 − floor p50) ≤ 2 × bare p50`,
        value: r.ratio,
        ok: r.ratio <= 2,
      })),
      ...(first && deep
        ? [
            {
              bar: `page ${depth.toLocaleString("en")} rows deep within 1.3× of the first page (API p50)`,
              value: deep.api / first.api,
              ok: deep.api <= 1.3 * first.api,
            },
          ]
        : []),
      ...(postgres
        ? []
        : [
            {
              bar: "seeding 1,000,000 rows under 60 s (each table)",
              value: Math.max(seeded.logsSeconds, seeded.ledgerSeconds),
              ok: seeded.logsSeconds < 60 && seeded.ledgerSeconds < 60,
            },
          ]),
    ];
    const ms = (v: number | undefined) => (v === undefined ? "–" : v.toFixed(2));
    const report = [
      `# bench:api — ${engine}, ${ROWS.toLocaleString("en")} logs + ${ROWS.toLocaleString("en")} ledger entries, ${2 * SECONDS} s per page`,
      "",
      `Seeding: logs ${seeded.logsSeconds.toFixed(1)} s, ledger ${seeded.ledgerSeconds.toFixed(1)} s.`,
      "",
      "One sequential client over node:http (keep-alive, no compression); per round, in an order rotating every round: bare driver, library function (+ its JSON text), API, floor (GET /v1/logs without a key: 401), the page's own route without a key (401); an unmeasured small request (GET /healthz) after each HTTP sample. p50 in ms.",
      "",
      "| page | bare | library | API p50 | API p99 | floor | in server: auth / handler / serialize | (API − floor) / bare | this route's 401 | (API − its 401) / bare | samples |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...results.map(
        (r) =>
          `| ${r.name} | ${ms(r.bare)} | ${ms(r.lib)} | ${ms(r.api)} | ${ms(r.apiP99)} | ${ms(r.floor)} | ${["auth", "handler", "serialize"].map((k) => ms(r.server[k])).join(" / ")} | ${r.ratio.toFixed(2)} | ${ms(r.route401)} | ${r.routeRatio.toFixed(2)} | ${r.samples} |`,
      ),
      "",
      ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value.toFixed(2)}`),
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", `bench-api-${postgres ? "postgresql" : "sqlite"}.md`), report);
    await bare.close();
    process.exitCode = bars.every((b) => b.ok) ? 0 : 1;
  } catch (e) {
    // Said before the database is dropped: a client still open then fails on its own and ends the process.
    console.error(e);
    process.exitCode = 1;
  } finally {
    await server.stop();
    await db.$disconnect();
    await pg?.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
