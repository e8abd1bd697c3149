// npm run bench:load — the production server under a real HTTP load generator (autocannon):
// 100 concurrent connections for 60 s, a mix of list, get, create-from-credentials, auth-link
// and MCP tool calls across 20 teams. Reports requests/s, p50/p99 and error counts per
// endpoint, and checks afterwards that no answer was a 5xx and that every credit the MCP
// writers were charged is in the ledger (and in each team's balance). Providers are the local
// stand-ins (another process, as a real provider is): OpenAI keys for the creates, a GA4
// property report for the MCP calls.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database. BENCH_SECONDS (60), BENCH_CONNECTIONS (100) and BENCH_TEAMS (20) scale it.
//
// BENCH_BASELINE=<a checkout of an older commit> compares the read mix (the GETs above) of this
// code and that one in one run: both servers on the same database, and beside them the floor (this
// server refusing a request with no key): 21 rounds of BENCH_SECONDS/10 each, rotating which goes
// first, so all three see the same machine. The checkout needs its own `node_modules` (e.g.
// `cp -al`) and is built here when it has no build.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchServerEnv } from "./workspace";
import { startStandIns } from "../support/stand-ins";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const TEAMS = Number(process.env.BENCH_TEAMS ?? 20);

const dir = join(root, "e2e", ".artifacts", `bench-load-${Date.now()}`);
mkdirSync(dir, { recursive: true });

type Team = { id: string; key: string; connections: string[]; ga4: string; mcpToken: string; mcpServer: string };

const GA4_CREDENTIALS = {
  client_id: "123-load.apps.googleusercontent.com",
  client_secret: "GOCSPX-load",
  refresh_token: "1//load-refresh",
};
const GA4_REPORT_CREDITS = 3;

/** Each endpoint's share of the connections, and how one request to it is made. */
type Mix = {
  name: string;
  share: number;
  request: (
    team: Team,
    n: number,
  ) => { method: "GET" | "POST"; path: string; headers?: Record<string, string>; body?: string };
};

const json = { "content-type": "application/json" };
const MIX: Mix[] = [
  { name: "GET /v1/connections", share: 0.2, request: () => ({ method: "GET", path: "/v1/connections" }) },
  {
    name: "GET /v1/connections/{id}",
    share: 0.15,
    request: (t, n) => ({ method: "GET", path: `/v1/connections/${t.connections[n % t.connections.length]}` }),
  },
  { name: "GET /v1/logs?limit=25", share: 0.15, request: () => ({ method: "GET", path: "/v1/logs?limit=25" }) },
  {
    name: "POST /v1/connections (openai key)",
    share: 0.15,
    request: (_, n) => ({
      method: "POST",
      path: "/v1/connections",
      headers: json,
      body: JSON.stringify({
        connection_type: "openai",
        name: `load ${n}`,
        credentials: { api_key: `sk-proj-load${n}0123456789` },
      }),
    }),
  },
  {
    name: "POST /v1/connections/auth-link",
    share: 0.15,
    request: (_, n) => ({
      method: "POST",
      path: "/v1/connections/auth-link",
      headers: json,
      body: JSON.stringify({ connection_type: "sandbox_oauth", external_id: `load-${n}` }),
    }),
  },
  {
    name: "POST /mcp tools/call ga4_run_report",
    share: 0.2,
    request: (t, n) => ({
      method: "POST",
      path: "/mcp",
      headers: { ...json, accept: "application/json, text/event-stream", authorization: `Bearer ${t.mcpToken}` },
      // A distinct property each time: every call reaches the provider and is charged.
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: n,
        method: "tools/call",
        params: {
          name: "ga4_run_report",
          arguments: {
            connection_id: t.ga4,
            property_id: String(100_000_000 + n),
            metrics: ["sessions"],
            dimensions: ["date"],
          },
        },
      }),
    }),
  },
];

async function main() {
  await ensureBuild();
  let databaseUrl = `file:${join(dir, "load.db")}`;
  let drop: (() => Promise<void>) | undefined;
  if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? ""))
    ({ url: databaseUrl, drop } = await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_load"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const standIns = await startStandIns();
  // The load is the point here, not the per-key budgets (benchServerEnv turns them off).
  const env = { ...standIns.env, ...process.env, ...benchServerEnv(databaseUrl, dir), APP_URL: baseUrl };
  Object.assign(process.env, env);
  migrateWith(env);
  const server = await startServer(port, { ...env, PORT: String(port) });
  try {
    const teams = await seedTeams(baseUrl);
    const db = (await import("@/lib/db/client")).db;
    const ledgerSum = async () =>
      (
        await db.creditLedgerEntry.aggregate({
          _sum: { creditsUsed: true },
          where: { teamId: { in: teams.map((t) => t.id) } },
        })
      )._sum.creditsUsed ?? 0;
    // The seeded history is charged too: the run must add exactly what it charged.
    const before = await ledgerSum();
    console.log(
      `[bench:load] ${TEAMS} teams seeded; ${CONNECTIONS} connections for ${SECONDS} s on ${databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL"}…`,
    );

    if (process.env.BENCH_BASELINE) return await compareReadMix(process.env.BENCH_BASELINE, env, baseUrl, teams);
    let charged = 0;
    let toolErrors = 0;
    const runs = runMix(baseUrl, teams, MIX, SECONDS, (body) => {
      const result = JSON.parse(body).result;
      if (result && !result.isError) charged += GA4_REPORT_CREDITS;
      else toolErrors++;
    });
    const results = await Promise.all(runs.map(async (r) => ({ ...r, result: await r.done })));
    // Calls still in flight when the generator stopped finish on the server (and are charged)
    // with nobody reading the answer: let them land before counting.
    await new Promise((r) => setTimeout(r, 5000));
    const mcpConnections = runs.find((r) => r.mix.name.startsWith("POST /mcp"))!.connections;

    // Afterwards: the ledger holds exactly what the writers were charged, and each team's
    // balance agrees with its ledger.
    const after = await ledgerSum();
    // What the writers charged, by their own record: the credits on the MCP call logs.
    const logged =
      (
        await db.operationLog.aggregate({
          _sum: { creditsUsed: true },
          where: { teamId: { in: teams.map((t) => t.id) }, sourceType: "mcp" },
        })
      )._sum.creditsUsed ?? 0;
    const used = await db.team.aggregate({
      _sum: { creditsUsed: true },
      where: { id: { in: teams.map((t) => t.id) } },
    });
    const fivexx = results.reduce(
      (n, r) =>
        n +
        Object.entries(r.result.statusCodeStats ?? {})
          .filter(([code]) => code.startsWith("5"))
          .reduce((m, [, v]) => m + Number((v as { count: number }).count), 0),
      0,
    );
    const rows = results.map(({ mix, connections, result }) => {
      const codes = Object.entries(result.statusCodeStats ?? {})
        .map(([code, v]) => `${code}×${(v as { count: number }).count}`)
        .join(" ");
      return `| ${mix.name} | ${connections} | ${result.requests.total} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${codes} | ${result.errors} | ${result.timeouts} |`;
    });
    const total = results.reduce((n, r) => n + r.result.requests.total, 0);
    const bars = [
      { bar: "no 5xx", value: `${fivexx}`, ok: fivexx === 0 },
      {
        bar: "no socket errors or timeouts",
        value: `${results.reduce((n, r) => n + r.result.errors + r.result.timeouts, 0)}`,
        ok: results.every((r) => r.result.errors + r.result.timeouts === 0),
      },
      {
        bar: "the ledger grew by exactly the credits on the MCP call logs",
        value: `ledger +${after - before}, logs ${logged}`,
        ok: after - before === logged,
      },
      {
        bar: "every charge a client saw answered is in the ledger (plus at most the calls in flight at the stop)",
        value: `answered ${charged}, ledger +${after - before}, in flight at most ${mcpConnections * GA4_REPORT_CREDITS}`,
        ok: after - before >= charged && after - before <= charged + mcpConnections * GA4_REPORT_CREDITS,
      },
      {
        bar: "the teams' balances agree with the ledger",
        value: `used ${used._sum.creditsUsed ?? 0}, ledger ${after}`,
        ok: (used._sum.creditsUsed ?? 0) === after,
      },
    ];
    const report = [
      `# bench:load — ${CONNECTIONS} connections, ${SECONDS} s, ${TEAMS} teams, ${databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL"}, production build`,
      "",
      `${total.toLocaleString("en")} requests, ${(total / SECONDS).toFixed(0)} req/s overall; MCP tool calls answered with an error result: ${toolErrors}.`,
      "",
      "| endpoint | connections | requests | req/s | p50 ms | p99 ms | status codes | socket errors | timeouts |",
      "|---|---|---|---|---|---|---|---|---|",
      ...rows,
      "",
      ...bars.map((b) => `- ${b.ok ? "PASS" : "FAIL"} ${b.bar}: ${b.value}`),
    ].join("\n");
    console.log(`\n${report}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", "bench-load.md"), report);
    if (/unhandled error/.test(server.log()))
      console.log(`[bench:load] the server logged unhandled errors:\n${server.log().slice(-4000)}`);
    process.exitCode = bars.every((b) => b.ok) ? 0 : 1;
  } finally {
    await server.stop();
    await standIns.stop();
    await drop?.();
  }
}

/** Each endpoint of `mixes` on its share of the connections, for `seconds`; `onMcpAnswer` gets each 200 MCP body. */
function runMix(
  baseUrl: string,
  teams: Team[],
  mixes: Mix[],
  seconds: number,
  onMcpAnswer?: (body: string) => void,
  authorize = true,
) {
  const shares = mixes.reduce((n, m) => n + m.share, 0);
  return mixes.map((mix) => {
    let n = 0;
    const connections = Math.max(1, Math.round((CONNECTIONS * mix.share) / shares));
    const instance = autocannon({
      url: baseUrl,
      connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (req: autocannon.Request) => {
            const i = n++;
            const team = teams[i % teams.length];
            const r = mix.request(team, i);
            return {
              ...req,
              method: r.method,
              path: r.path,
              body: r.body,
              headers: { ...(authorize && { authorization: `Bearer ${team.key}` }), ...r.headers },
            };
          },
          onResponse: (status: number, body: string) => {
            if (mix.name.startsWith("POST /mcp") && status === 200) onMcpAnswer?.(body);
          },
        },
      ],
    });
    return { mix, connections, done: instance };
  });
}

/**
 * The read mix against this code and the checkout at `baselineDir`, alternating in rounds on the
 * same database; prints requests/s (and per core) of each and their ratio.
 */
async function compareReadMix(baselineDir: string, env: NodeJS.ProcessEnv, baseUrl: string, teams: Team[]) {
  if (!existsSync(join(baselineDir, ".next", "BUILD_ID"))) {
    console.log(`[bench:load] building the baseline in ${baselineDir}…`);
    const r = spawnSync(process.execPath, [join(baselineDir, "node_modules", "next", "dist", "bin", "next"), "build"], {
      cwd: baselineDir,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (r.status !== 0) throw new Error("the baseline's build failed");
  }
  const port = await freePort();
  const baseline = await startServer(
    port,
    { ...env, PORT: String(port), APP_URL: `http://127.0.0.1:${port}` },
    baselineDir,
  );
  const reads = MIX.filter((m) => m.name.startsWith("GET "));
  const rounds = 21; // each of the three orders 7 times
  const seconds = Math.max(1, Math.round(SECONDS / 10));
  // The framework's floor: the same server's cheapest answer through the same wrapper (a GET
  // with no key, refused with a 401), at the same concurrency: no code can serve more than that.
  const floor: Mix[] = [
    { name: "GET /v1/logs, no key", share: 1, request: () => ({ method: "GET", path: "/v1/logs" }) },
  ];
  const sides = {
    new: { url: baseUrl, mix: reads, requests: 0, non2xx: 0, errors: 0 },
    baseline: { url: baseline.baseUrl, mix: reads, requests: 0, non2xx: 0, errors: 0 },
    floor: { url: baseUrl, mix: floor, requests: 0, non2xx: 0, errors: 0 },
  };
  const orders = [
    ["new", "baseline", "floor"],
    ["baseline", "floor", "new"],
    ["floor", "new", "baseline"],
  ] as const;
  try {
    console.log(
      `[bench:load] read mix (${reads.map((m) => m.name).join(", ")}), ${rounds} rounds of ${seconds} s per side, alternating with the floor (401)…`,
    );
    for (let round = 0; round < rounds; round++) {
      for (const name of orders[round % orders.length]) {
        const results = await Promise.all(
          runMix(sides[name].url, teams, sides[name].mix, seconds, undefined, name !== "floor").map((r) => r.done),
        );
        for (const r of results) {
          sides[name].requests += r.requests.total;
          sides[name].non2xx += r.non2xx;
          sides[name].errors += r.errors + r.timeouts;
        }
      }
    }
  } finally {
    await baseline.stop();
  }
  const cores = availableParallelism();
  const rate = (side: { requests: number }) => side.requests / (rounds * seconds);
  const ratio = rate(sides.new) / rate(sides.baseline);
  const report = [
    `# bench:load read mix — this code vs ${baselineDir}, ${CONNECTIONS} connections, ${rounds} × ${seconds} s each, alternating, ${env.DATABASE_URL!.startsWith("file:") ? "SQLite" : "PostgreSQL"}, ${cores} cores`,
    "",
    "| code | requests | req/s | req/s per core | non-2xx | socket errors + timeouts |",
    "|---|---|---|---|---|---|",
    ...(["baseline", "new", "floor"] as const).map(
      (n) =>
        `| ${n === "floor" ? "floor (401, no key)" : n} | ${sides[n].requests} | ${rate(sides[n]).toFixed(0)} | ${(rate(sides[n]) / cores).toFixed(0)} | ${n === "floor" ? "(all 401)" : sides[n].non2xx} | ${sides[n].errors} |`,
    ),
    "",
    `Per request, beyond the floor: baseline ${(1000 / rate(sides.baseline) - 1000 / rate(sides.floor)).toFixed(3)} ms, new ${(1000 / rate(sides.new) - 1000 / rate(sides.floor)).toFixed(3)} ms (server time per request, the inverse of req/s).`,
    "",
    `- ${ratio >= 2 ? "PASS" : "FAIL"} read-mix throughput per core at least doubles: ${ratio.toFixed(2)}×`,
    `- ${sides.new.non2xx + sides.new.errors === 0 ? "PASS" : "FAIL"} every read answered 2xx on this code`,
  ].join("\n");
  console.log(`\n${report}\n`);
  writeFileSync(join(root, "e2e", ".artifacts", "bench-load-reads.md"), report);
  process.exitCode = ratio >= 2 && sides.new.non2xx + sides.new.errors === 0 ? 0 : 1;
}

/** Teams through the product's own lib; their connections and MCP servers through the API and the CLI's functions. */
async function seedTeams(baseUrl: string): Promise<Team[]> {
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { createMcpServer, createMcpToken } = await import("@/lib/mcp-servers/mcp-servers");
  const { simulateActivity } = await import("@/lib/activity/simulate-activity");
  const teams: Team[] = [];
  for (let i = 0; i < TEAMS; i++) {
    const team = await createTeam({ name: `Load ${i}`, plan: "team", creditsLimit: 100_000_000 });
    const user = await createUser({
      teamId: team.id,
      email: `load-${i}-${randomBytes(3).toString("hex")}@bench.patchbay.dev`,
      role: "owner",
    });
    const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
    const connections: string[] = [];
    const post = async (body: object) => {
      const res = await fetch(`${baseUrl}/v1/connections`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`seeding a connection: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()).id as string;
    };
    for (let c = 0; c < 3; c++)
      connections.push(
        await post({ connection_type: "sandbox_key", name: `seed ${c}`, credentials: { api_key: `sk-seed-${c}` } }),
      );
    const ga4 = await post({
      connection_type: "ga4",
      name: "GA4",
      credentials: { ...GA4_CREDENTIALS, refresh_token: `${GA4_CREDENTIALS.refresh_token}-${i}` },
    });
    const server = await createMcpServer({
      teamId: team.id,
      ownerUserId: user.id,
      name: "Load agent",
      connectionIds: [...connections, ga4],
    });
    const { token } = await createMcpToken({ teamId: team.id, userId: user.id, role: "owner" }, server.id);
    await simulateActivity(team.id, {
      workflowRuns: 20,
      mcpCalls: 0,
      agentConversations: 0,
      copilotUses: 0,
      days: 3,
      seed: i,
    });
    teams.push({ id: team.id, key, connections, ga4, mcpToken: token, mcpServer: server.id });
  }
  return teams;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
