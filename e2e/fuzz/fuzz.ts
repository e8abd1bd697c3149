// npm run fuzz — the hostile-input properties (e2e/api/hostile-input.spec.ts) at volume against
// the production server, over every route it serves: the routes are read from app/**/route.ts
// (e2e/fuzz/routes.ts) and each gets a generator (e2e/fuzz/doors.ts; the /v1 operations from the
// served OpenAPI document, e2e/fuzz/requests.ts); a route with none, or only a family's generic
// one, fails the run. The requests are aimed at a seeded team (e2e/fuzz/world.ts,
// doors-world.ts) and each answer is checked (e2e/fuzz/checks.ts): never a 5xx (nor JSON-RPC's
// −32603), every 4xx in its protocol's error shape, as the document describes it for /v1, no
// database error text, filters matched exactly, nothing of another team, nothing stored by a
// refused request (the tables' row counts around every batch that was refused whole; each
// suspect replayed alone to confirm), and no unhandled error in the server's log.
//
//   npm run fuzz -- --count 10000 --seed 45        (FUZZ_RUNS, FUZZ_SEED also work)
//   npm run fuzz -- --seed 45 --path 123           replays one batch and shrinks it
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database, dropped at the end.
import fc from "fast-check";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchWorkspace } from "../bench/workspace";
import { raw, signInCookie, type RawResponse } from "../support/hostile";
import type { Finding } from "../support/openapi-conformance";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { startStandIns } from "../support/stand-ins";
import { refused, responseChecker } from "./checks";
import { buildDoors } from "./doors";
import { PASSWORD } from "./doors-world";
import { fits, requestArb, type FuzzRequest } from "./requests";
import { enumerateRoutes } from "./routes";
import { seedWorld } from "./world";

const { values: flags } = parseArgs({
  options: { seed: { type: "string" }, count: { type: "string" }, path: { type: "string" } },
});
const RUNS = Number(flags.count ?? process.env.FUZZ_RUNS ?? 10_000);
const seedText = flags.seed ?? process.env.FUZZ_SEED;
const SEED = seedText ? Number(seedText) : Date.now() ^ (Math.random() * 0x100000000);
const REPLAY_PATH = flags.path ?? process.env.FUZZ_PATH;
/** Requests in flight at once (one fast-check run is a batch of this many): the machine has two cores and is shared. */
const IN_FLIGHT = 4;
/** Suspects of "stored by a refused request" replayed alone at the end. */
const MAX_SUSPECTS = 500;

const TABLES = [
  "Team",
  "User",
  "SsoIdentity",
  "Membership",
  "Invite",
  "ApiKey",
  "Connection",
  "AuthLink",
  "OAuthAttempt",
  "Workflow",
  "WorkflowRun",
  "WorkflowConnection",
  "McpServer",
  "McpToken",
  "OAuthClient",
  "OAuthGrant",
  "OAuthToken",
  "McpServerConnection",
  "OperationLog",
  "CreditLedgerEntry",
  "AuditEvent",
  "SandboxRevokedGrant",
  "SandboxNote",
  "Approval",
  "WebhookEndpoint",
  "WebhookEvent",
  "WebhookDelivery",
  // Not WebhookAttempt: only the delivery worker writes it, on its own timetable of retries (the
  // seeded endpoints' example.com never answers), whatever request is in flight at the time.
  "AgentConversation",
  "AgentTurn",
];

/** The route family a request is counted under in the summary. */
function family(req: FuzzRequest): string {
  const template = req.operation.split(" ")[1] ?? "";
  if (template.startsWith("/v1/agent")) return "/v1/agent/*";
  if (template.startsWith("/v1")) return req.protocol ? "/v1 (other)" : "/v1 operations";
  if (template.startsWith("/api/dashboard")) return "/api/dashboard/*";
  if (template.startsWith("/mcp")) return "/mcp";
  if (/^\/(oauth|\.well-known)/.test(template)) return "OAuth";
  if (template.startsWith("/api/auth")) return "next-auth";
  if (template.startsWith("/sandbox")) return "sandbox stand-ins";
  return "other";
}

async function send(req: FuzzRequest): Promise<RawResponse> {
  try {
    const headers = { ...req.headers };
    if (req.as === "victim" && headers.cookie) headers.cookie = await signInCookie(victimEmail, PASSWORD);
    return await raw(req.method, req.path, { headers, body: req.body });
  } catch (e) {
    return { status: 0, headers: {}, text: `no answer: ${(e as Error).message}`, ms: 0 };
  }
}
let victimEmail = "";

/** The request as a curl command line: what to paste to see the answer again. */
function reproduce(req: FuzzRequest, baseUrl: string): string {
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const cut = (s: string) => (s.length > 600 ? `${s.slice(0, 600)}…(${s.length} characters)` : s);
  const headers = Object.entries(req.headers).map(([k, v]) => `-H ${q(`${k}: ${cut(v)}`)}`);
  const body = req.body === undefined ? [] : [`--data-raw ${q(cut(req.body))}`];
  return ["curl -sS -X", req.method, ...headers, ...body, q(baseUrl + cut(req.path))].join(" ");
}

async function main() {
  console.log(`[fuzz] seed ${SEED} (--seed ${SEED} replays this run)`);
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL! : null;
  const { dir, env } = benchWorkspace("fuzz");
  let drop: (() => Promise<void>) | undefined;
  if (postgres) ({ url: env.DATABASE_URL, drop } = await freshPostgresDatabase(postgres, "patchbay_fuzz"));
  const engine = postgres ? "PostgreSQL" : "SQLite";
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // A fuzzed body may name any provider's type: its credential check then reaches a local
  // stand-in, never the internet.
  const standIns = await startStandIns();
  Object.assign(env, standIns.env, {
    APP_URL: baseUrl,
    BASE_URL: baseUrl,
    PORT: String(port),
    // One client address sends everything: the per-address limits of sign-in and registration
    // would soon answer every such request 429 and hide what lies behind them.
    SIGN_IN_RATE_LIMIT: "0",
    SIGN_IN_IP_RATE_LIMIT: "0",
    OAUTH_REGISTER_PER_MINUTE: "0",
  });
  // The seed helpers (child processes) and raw() read the database and the server from here.
  Object.assign(process.env, env);
  migrateWith(env);
  const server = await startServer(port, env);
  // The product's own database client, on this run's database: the tables' row counts.
  const { runRead } = await import("../../lib/db/client");
  const countsSql = `SELECT ${TABLES.map((t) => `(SELECT COUNT(*) FROM "${t}") AS "${t}"`).join(", ")}`;
  const counts = async (): Promise<Record<string, number>> => {
    const [row] = (await runRead(countsSql, [])) as Record<string, unknown>[];
    return Object.fromEntries(TABLES.map((t) => [t, Number(row[t])]));
  };
  const changed = (a: Record<string, number>, b: Record<string, number>) =>
    TABLES.filter((t) => a[t] !== b[t]).map((t) => `${t} ${b[t] - a[t] > 0 ? "+" : ""}${b[t] - a[t]}`);
  let passed = false;
  try {
    const doc = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
    const routes = enumerateRoutes(root);
    const dashboardGets = routes
      .filter(
        (r) =>
          r.template.startsWith("/api/dashboard/") && r.methods.some((m) => m.method === "GET" && m.kind === "handler"),
      )
      .filter((r) => !r.template.includes("{..."))
      .map((r) => r.template);
    const { world, doors: doorWorld, summary } = await seedWorld(doc, dashboardGets);
    victimEmail = doorWorld.victim.email;
    console.log(`[fuzz] ${engine}: ${summary}`);
    const { arbitrary: v1, operations } = requestArb(doc, world);
    const { doors, coverage } = await buildDoors(root, routes, doorWorld, operations);
    const routeMethods = routes.reduce((n, r) => n + r.methods.length, 0);
    console.log(
      `[fuzz] ${routes.length} routes (${routeMethods} route methods) in app/: ${operations.length} /v1 operations from the OpenAPI document, ${doors.length} other doors`,
    );
    // Each handler about as likely as a /v1 operation, a route's shared 405s together as one,
    // /mcp (one route, many tools and envelopes) as ten.
    const arbitrary = fc
      .oneof(
        { weight: operations.length * 6, arbitrary: v1 },
        ...doors.map((d) => ({
          weight:
            d.template === "/mcp" ? 60 : d.how === "own" && d.protocol === "detail" && d.methods.length > 1 ? 2 : 6,
          arbitrary: d.arbitrary.map((r): FuzzRequest => ({ ...r, protocol: d.protocol })),
        })),
      )
      .filter(fits);
    const findingsOf = responseChecker(doc);

    const statuses = new Map<number, number>();
    const perOperation = new Map<string, Map<number, number>>();
    const perFamily = new Map<string, number>();
    const problems = new Map<string, Finding & { count: number; path: string; request?: FuzzRequest }>();
    const note = (f: Finding, path: string, request?: FuzzRequest) => {
      const known = problems.get(f.key);
      if (known) known.count++;
      else problems.set(f.key, { ...f, count: 1, path, request });
    };
    const suspects: { req: FuzzRequest; path: string }[] = [];
    let changedBatches = 0;
    let before = await counts();
    let logAt = server.log().length;
    let sent = 0;
    let run = 0;
    const started = Date.now();
    const property = fc.asyncProperty(
      fc.array(arbitrary, { minLength: IN_FLIGHT, maxLength: IN_FLIGHT }),
      async (batch) => {
        const path = String(run++);
        const answers = await Promise.all(batch.map(send));
        for (const [i, req] of batch.entries()) {
          const res = answers[i];
          if (++sent % 1000 === 0)
            console.log(`[fuzz] ${sent} requests, ${((Date.now() - started) / 1000).toFixed(0)} s`);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const counts = perOperation.get(req.operation) ?? new Map<number, number>();
          counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
          perOperation.set(req.operation, counts);
          perFamily.set(family(req), (perFamily.get(family(req)) ?? 0) + 1);
          for (const f of findingsOf(req, res)) {
            // Replaying one batch: fail, so fast-check shrinks it to the smallest failing request.
            if (REPLAY_PATH !== undefined)
              throw new Error(`${f.key}\n    ${f.example}\n    ${reproduce(req, baseUrl)}`);
            note(f, path, req);
          }
        }
        // Nothing stored by a refused request: when a batch changed the row counts, its refused
        // requests are replayed alone at the end.
        const after = await counts();
        const tables = changed(before, after);
        before = after;
        if (tables.length) {
          changedBatches++;
          for (const [i, req] of batch.entries())
            if (refused(req, answers[i]) && suspects.length < MAX_SUSPECTS) suspects.push({ req, path });
        }
        // An error the server caught and logged as unhandled (a page answered, the cause logged).
        const log = server.log();
        const fresh = log.slice(logAt);
        logAt = log.length;
        const line = /.*unhandled error.*/.exec(fresh)?.[0];
        if (line)
          note(
            {
              key: `the server logged an unhandled error (${batch.map((r) => r.operation).join(", ")})`,
              example: line.slice(0, 600),
            },
            path,
            batch[0],
          );
      },
    );
    const out = await fc.check(
      property,
      REPLAY_PATH === undefined
        ? { seed: SEED, numRuns: Math.ceil(RUNS / IN_FLIGHT) }
        : { seed: SEED, path: REPLAY_PATH, numRuns: 1 },
    );
    const seconds = (Date.now() - started) / 1000;

    // Each suspect request alone, with nothing else in flight: did it store anything? A table
    // that also changes in as long a time without any request (a webhook delivery retried) says
    // nothing.
    let confirmed = 0;
    for (const { req, path } of suspects) {
      const a = await counts();
      const t0 = Date.now();
      const res = await send(req);
      const tables = changed(a, await counts());
      if (!refused(req, res) || !tables.length) continue;
      const quiet = await counts();
      await new Promise((r) => setTimeout(r, Math.max(50, Date.now() - t0)));
      const noise = changed(quiet, await counts()).map((t) => t.split(" ")[0]);
      if (tables.some((t) => noise.includes(t.split(" ")[0]))) continue;
      {
        confirmed++;
        note(
          {
            key: `${req.operation}: a refused request stored rows (${tables.join(", ")})`,
            example: `${req.method} ${req.path.slice(0, 300)} ${req.body?.slice(0, 300) ?? ""} → ${res.status} ${res.text.slice(0, 300)}`,
          },
          path,
          req,
        );
      }
    }

    const tally = (m: Map<number, number>) =>
      [...m]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(" ");
    console.log(
      `\n[fuzz] ${sent} requests in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s) on ${engine}, seed ${SEED}`,
    );
    console.log(`[fuzz] statuses: ${tally(statuses)}`);
    console.log(
      `[fuzz] per family: ${[...perFamily]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([f, n]) => `${f} ${n}`)
        .join(", ")}`,
    );
    console.log(
      `[fuzz] batches that changed row counts: ${changedBatches}; their refused requests replayed alone: ${suspects.length}, of which stored rows: ${confirmed}`,
    );
    for (const operation of [...perOperation.keys()].sort())
      console.log(`  ${operation.padEnd(64)} ${tally(perOperation.get(operation)!)}`);
    if (REPLAY_PATH === undefined) {
      const unreached = [
        ...operations.filter((o) => !perOperation.has(o)),
        ...doors.flatMap((d) => d.methods.map((m) => `${m} ${d.template}`)).filter((o) => !perOperation.has(o)),
      ];
      if (unreached.length)
        problems.set("route methods never requested", {
          key: "route methods never requested",
          example: unreached.join(", "),
          count: unreached.length,
          path: "",
        });
      for (const c of coverage)
        problems.set(`${c.method} ${c.route}: ${c.problem}`, {
          key: `${c.method} ${c.route}: ${c.problem}`,
          example: `add its generator in e2e/fuzz/doors.ts`,
          count: 1,
          path: "",
        });
    }
    if (out.failed) {
      // In a replay, the shrunk failure; otherwise the fuzzer itself threw.
      console.log(
        `\n[fuzz] FAIL (seed ${SEED}, path ${out.counterexamplePath}, ${out.numShrinks} shrinks):\n  ${String((out.errorInstance as Error)?.message ?? out.errorInstance)}`,
      );
      return;
    }
    passed = problems.size === 0;
    if (passed)
      return void console.log(
        `[fuzz] PASS: ${sent} requests over ${operations.length} /v1 operations and ${doors.length} other doors (${routes.length} routes), every answer as it should be`,
      );
    console.log(
      `\n[fuzz] FAIL (seed ${SEED}): ${[...problems.values()].reduce((n, p) => n + p.count, 0)} problems of ${problems.size} kinds`,
    );
    for (const p of problems.values()) {
      console.log(`- ${p.key} (×${p.count})\n    ${p.example.slice(0, 1200)}`);
      if (p.request) console.log(`    reproduce: ${reproduce(p.request, baseUrl).slice(0, 2000)}`);
      if (p.path) console.log(`    replay: npm run fuzz -- --seed ${SEED} --path ${p.path}`);
    }
  } finally {
    await server.stop();
    await standIns.stop();
    await drop?.();
    if (passed) rmSync(dir, { recursive: true, force: true });
    else {
      writeFileSync(join(dir, "server.log"), server.log());
      console.log(`[fuzz] the server's output: ${join(dir, "server.log")}`);
    }
    process.exitCode = passed ? 0 : 1;
  }
}

main().then(
  // The database client's pool would keep the process alive.
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    console.error(`[fuzz] seed ${SEED}`);
    process.exit(1);
  },
);
