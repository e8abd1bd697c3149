// npm run bench:webhooks — webhook delivery from the outbox to 3 local receivers: one
// production server (its dispatcher sends), the receivers in a process of their own (each
// answers 200 at once, verifies every signature with the `standardwebhooks` library and records
// when each webhook-id arrived), and the connection changes made through the product's
// saveConnection in a writer process (e2e/bench/webhook-writer.ts). Measures:
//   - idle: single changes 100 ms apart, commit → receiver latency, written both by another
//     process (the server finds them at its next poll) and through the API (the server's own
//     commit wakes its dispatcher);
//   - burst: BENCH_EVENTS (10,000) changes by BENCH_WRITERS (8) concurrent writers, 3 deliveries
//     each: events/s delivered from the first commit to the last delivery, latency, and the
//     events lost (not at every receiver 120 s after the last commit; must be 0), duplicates;
//   - backlog: BENCH_BACKLOG (3,000) changes' outbox rows written while no server runs, then one
//     started: how fast its dispatcher alone drains them, with no writer competing;
// beside two limits, in the same run:
//   - floor: the same number of signed bodies of the same size POSTed to the same receivers by a
//     plain loop with the dispatcher's keep-alive settings and concurrency, no database;
//   - bare driver: the outbox's database work (the change's transaction, the claims, the stored
//     results) with better-sqlite3 or pg alone, no Prisma, no HTTP (e2e/bench/webhook-bare-outbox.ts).
// Bars: p50 commit → receiver under 1 s at idle; the burst drains at 500 events/s or more (end
// to end, and by the dispatcher alone on the backlog); nothing lost; no bad signature. The
// report also gives each process's CPU per change and per delivery, the figures that survive a
// busy machine. BENCH_DRAIN_TIMEOUT_SECONDS (120) is how long deliveries may take after the
// last commit before the missing ones count as lost.
//
// Embedded SQLite in a temp dir by default; DATABASE_URL=postgresql://… runs it on fresh
// PostgreSQL databases (dropped afterwards). Prints a table and writes
// e2e/.artifacts/bench-webhooks-<engine>.json.
import http from "node:http";
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchServerEnv } from "./workspace";
import type { FromReceivers, ReceiverCounts, ReceiverDump, ToReceivers } from "./webhook-receivers";
import type { Changes, Seeded } from "./webhook-writer";
import { bareOutbox, writeBacklog, type BareResult } from "./webhook-bare-outbox";
import { cpuSeconds, databaseCpuSeconds, pidListeningOn } from "./process-cpu";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const IDLE_CHANGES = Number(process.env.BENCH_IDLE_CHANGES ?? 50);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3000);
const DRAIN_TIMEOUT_MS = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 120) * 1000;
const IDLE_SPACING_MS = 100;
const RECEIVERS = 3;
/**
 * The dispatcher's limits, which the floor copies: in flight per endpoint (MAX_PER_ENDPOINT in
 * lib/webhooks/dispatcher.ts) and sockets per receiver (maxSockets of send.ts's agent). Read
 * from the sources, so the floor follows them (importing them would start server code here).
 */
function dispatcherLimit(file: string, pattern: RegExp, fallback: number) {
  const m = pattern.exec(readFileSync(join(root, "lib", "webhooks", file), "utf8"));
  return m ? Number(m[1]) : fallback;
}
const PER_ENDPOINT = dispatcherLimit("dispatcher.ts", /const MAX_PER_ENDPOINT = (\d+)/, 32);
const MAX_SOCKETS = dispatcherLimit("send.ts", /maxSockets: (\d+)/, 64);

const log = (msg: string) => console.log(`[bench:webhooks] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Everything started is stopped, in reverse order, on the way out — on failure and on Ctrl-C too. */
const cleanups: (() => unknown)[] = [];
async function cleanUp() {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (e) {
      console.error("[bench:webhooks] cleanup:", e);
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
process.once("uncaughtException", (e) => {
  console.error(e);
  void cleanUp().then(() => process.exit(1));
});

/** The receivers' process and its IPC questions, answered in order. */
async function startReceivers() {
  const child = fork(join(__dirname, "webhook-receivers.ts"), [], {
    cwd: root,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"));
  const waiting: ((m: FromReceivers) => void)[] = [];
  const ports = await new Promise<number[]>((ok, fail) => {
    child.once("exit", (code) => fail(new Error(`the receivers exited (${code})`)));
    child.on("message", (m: FromReceivers) => ("ports" in m ? ok(m.ports) : waiting.shift()?.(m)));
  });
  const ask = <T extends FromReceivers>(m: ToReceivers) =>
    new Promise<T>((ok) => {
      waiting.push((r) => ok(r as T));
      child.send(m);
    });
  return {
    pid: child.pid ?? null,
    urls: ports.map((p) => `http://127.0.0.1:${p}/hook`),
    ports,
    secrets: (secrets: string[]) => ask({ cmd: "secrets", secrets }),
    counts: async () => (await ask<{ counts: ReceiverCounts }>({ cmd: "counts" })).counts,
    dump: () => ask<{ dump: ReceiverDump; badSignatureSamples: string[] }>({ cmd: "dump" }),
    reset: () => ask({ cmd: "reset" }),
  };
}
type Receivers = Awaited<ReturnType<typeof startReceivers>>;

let writerRuns = 0;
/** One command of the writer process (the product's lib functions), with the server's environment. */
async function runWriter<T>(command: string, args: object, env: NodeJS.ProcessEnv, dir: string): Promise<T> {
  const out = join(dir, `writer-${++writerRuns}.json`);
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "e2e/bench/webhook-writer.ts", command, JSON.stringify(args), out],
    {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const kill = () => child.exitCode === null && child.kill("SIGKILL");
  cleanups.push(kill);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  cleanups.splice(cleanups.indexOf(kill), 1);
  if (code !== 0) throw new Error(`webhook-writer ${command} failed (${code}):\n${stderr.slice(-4000)}`);
  return JSON.parse(readFileSync(out, "utf8")) as T;
}

/** Waits until every receiver holds `expected` distinct webhook-ids, or `until` (ms) passes. */
async function waitForDeliveries(
  receivers: Receivers,
  expected: number,
  until: number,
  onProgress?: (c: ReceiverCounts) => void,
) {
  let last = 0;
  for (;;) {
    const c = await receivers.counts();
    if (c.received.every((n) => n >= expected) || Date.now() > until) return c;
    if (onProgress && Date.now() - last > 10_000) {
      last = Date.now();
      onProgress(c);
    }
    await sleep(50);
  }
}

// Reductions, not Math.max(...xs): a spread of 100,000 arguments overflows the stack.
function max(xs: Iterable<number>) {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  return m;
}
function min(xs: Iterable<number>) {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m;
}

const pct = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;

type Side = {
  side: string;
  events: number;
  deliveries: number;
  seconds: number | null;
  eventsPerSecond: number | null;
  deliveriesPerSecond: number | null;
  p50: number | null;
  p99: number | null;
  max: number | null;
  lost: number | null;
  duplicates: number | null;
};

/**
 * The product's figures for one phase: each delivery's latency from its event's commit
 * (`commitOf(connection, connectionCreatedAt)`), events delivered to every receiver, lost ones,
 * duplicates, and the span from the first commit to the last delivery.
 */
function phase(
  dump: ReceiverDump,
  connections: Set<string>,
  commitOf: (connection: string, createdAt: number | null) => number,
) {
  const latencies: number[] = [];
  const receivedBy = new Map<string, number>();
  const lastArrival = new Map<string, number>();
  let duplicates = 0;
  let firstCommit = Infinity;
  for (const entries of dump) {
    for (const [, connection, createdAt, at, count] of entries) {
      if (connection === null || !connections.has(connection)) continue;
      const commit = commitOf(connection, createdAt);
      firstCommit = Math.min(firstCommit, commit);
      latencies.push(at - commit);
      duplicates += count - 1;
      receivedBy.set(connection, (receivedBy.get(connection) ?? 0) + 1);
      lastArrival.set(connection, Math.max(lastArrival.get(connection) ?? 0, at));
    }
  }
  latencies.sort((a, b) => a - b);
  const delivered = [...receivedBy.values()].filter((n) => n === RECEIVERS).length;
  return {
    latencies,
    delivered,
    deliveries: latencies.length,
    lost: connections.size - delivered,
    duplicates,
    firstCommit,
    lastDelivery: Math.max(0, max(lastArrival.values())),
    lastArrival,
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

/** The database's own account: every event written, and the deliveries by status. */
async function outboxState(databaseUrl: string) {
  const sql = {
    events: `SELECT "id" FROM "WebhookEvent"`,
    statuses: `SELECT "status", COUNT(*) AS "n" FROM "WebhookDelivery" GROUP BY "status"`,
    open: `SELECT DISTINCT "eventId" FROM "WebhookDelivery" WHERE "status" IN ('pending', 'delivering')`,
    attempts: `SELECT COUNT(*) AS "n" FROM "WebhookAttempt"`,
    failures: `SELECT COALESCE("error", 'HTTP ' || "statusCode") AS "error", COUNT(*) AS "n" FROM "WebhookAttempt" WHERE "statusCode" IS NULL OR "statusCode" >= 300 GROUP BY 1`,
    payload: `SELECT "payload" FROM "WebhookEvent" WHERE "type" = 'connection.created' LIMIT 1`,
  };
  let rows: {
    events: { id: string }[];
    statuses: { status: string; n: number | string }[];
    open: { eventId: string }[];
    failures: { error: string; n: number | string }[];
    attempts: { n: number | string }[];
    payload: { payload: string }[];
  };
  if (databaseUrl.startsWith("file:")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a SQLite database: the native driver stays unloaded on PostgreSQL
    const Database = require("better-sqlite3") as typeof import("better-sqlite3");
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
    rows = Object.fromEntries(Object.entries(sql).map(([k, q]) => [k, db.prepare(q).all()])) as typeof rows;
    db.close();
  } else {
    const { Client } = await import("pg");
    const c = new Client({ connectionString: databaseUrl });
    await c.connect();
    rows = {} as typeof rows;
    for (const [k, q] of Object.entries(sql)) (rows as Record<string, unknown>)[k] = (await c.query(q)).rows;
    await c.end();
  }
  return {
    eventIds: rows.events.map((r) => r.id),
    deliveries: Object.fromEntries(rows.statuses.map((r) => [r.status, Number(r.n)])) as Record<string, number>,
    openEventIds: new Set(rows.open.map((r) => r.eventId)),
    attempts: Number(rows.attempts[0].n),
    failedAttempts: Object.fromEntries(rows.failures.map((r) => [r.error, Number(r.n)])) as Record<string, number>,
    payload: rows.payload[0].payload,
  };
}

/**
 * The floor: `events` bodies shaped like `template` (a real event's payload, a fresh id each),
 * each POSTed to every receiver with its signature, by a plain loop with the dispatcher's agent
 * settings (keep-alive, 64 sockets) and concurrency (32 in flight per receiver). No database.
 */
async function floor(receivers: Receivers, secrets: string[], template: string, events: number) {
  const { signatureHeader } = await import("@/lib/webhooks/signature");
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: 60_000 });
  const base = JSON.parse(template) as Record<string, unknown>;
  const sentAt = receivers.urls.map(() => new Map<string, number>());
  let failures = 0;
  const post = (url: string, id: string, body: string, secret: string) =>
    new Promise<void>((done) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const req = http.request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            "webhook-id": id,
            "webhook-timestamp": String(timestamp),
            "webhook-signature": signatureHeader([secret], id, timestamp, body),
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "user-agent": "Patchbay-Webhooks/1.0",
          },
        },
        (res) => {
          if (res.statusCode !== 200) failures++;
          res.resume();
          res.on("end", done);
        },
      );
      req.on("error", () => (failures++, done()));
      req.end(body);
    });
  const ids = Array.from({ length: events }, (_, i) => `msg_floor${String(i).padStart(15, "0")}`);
  const started = Date.now();
  await Promise.all(
    receivers.urls.map(async (url, r) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: PER_ENDPOINT }, async () => {
          for (let i = next++; i < events; i = next++) {
            const body = JSON.stringify({ ...base, id: ids[i] });
            sentAt[r].set(ids[i], Date.now());
            await post(url, ids[i], body, secrets[r]);
          }
        }),
      );
    }),
  );
  agent.destroy();
  return { started, sentAt, failures, bodyBytes: Buffer.byteLength(JSON.stringify({ ...base, id: ids[0] })) };
}

/** The code measured: the commit, and the source files changed since (the build is of the working tree). */
function codeVersion() {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout?.trim() ?? "";
  const changed = git("status", "--porcelain", "--", "app", "lib", "components", "instrumentation.ts", "proxy.ts")
    .split("\n")
    .filter(Boolean)
    .map((l) => l.slice(3));
  return { commit: git("rev-parse", "--short", "HEAD"), uncommitted: changed };
}

function commandLine() {
  const vars = Object.keys(process.env)
    .filter((k) => k === "DATABASE_URL" || k.startsWith("BENCH_"))
    .map((k) => `${k}=${process.env[k]}`);
  const run =
    process.env.npm_lifecycle_event === "bench:webhooks"
      ? "npm run bench:webhooks"
      : `node ${process.execArgv.join(" ")} ${process.argv.slice(1).join(" ")}`;
  return [...vars, run].join(" ");
}

async function main() {
  const command = commandLine();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const engine = postgres ? "postgresql" : "sqlite";
  const engineName = postgres ? "PostgreSQL" : "SQLite";
  const machine = {
    cores: cpus().length,
    model: cpus()[0]?.model ?? "unknown",
    loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
  };
  log(
    `${command}\n  ${engineName}; ${machine.cores} × ${machine.model}; load average ${machine.loadAverageAtStart.join(" ")} (other work on this machine shows in the figures)`,
  );
  await ensureBuild(log);
  const code = codeVersion();
  // Others may rebuild this checkout meanwhile: the servers started later would run other code.
  const buildId = () => {
    try {
      return readFileSync(join(root, ".next", "BUILD_ID"), "utf8");
    } catch {
      return "(being rebuilt)";
    }
  };
  const build = buildId();

  const dir = mkdtempSync(join(tmpdir(), "patchbay-bench-webhooks-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  // One database per side, each fresh: the burst's, the backlog's (so nothing left from the burst
  // runs ahead of it), the bare driver's. Dropped (PostgreSQL) or deleted with the temp dir.
  const freshDatabase = async (name: string) => {
    if (!postgres) return `file:${join(dir, `${name}.db`)}`;
    const db = await freshPostgresDatabase(process.env.DATABASE_URL!, `patchbay_bench_webhooks_${name}`);
    cleanups.push(db.drop);
    return db.url;
  };
  const target = (url: string) => (url.startsWith("file:") ? { file: url.slice("file:".length) } : { url });
  const databaseUrl = await freshDatabase("burst");
  const backlogUrl = await freshDatabase("backlog");
  const bareUrl = await freshDatabase("bare");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...benchServerEnv(databaseUrl, dir),
    APP_URL: baseUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    // A failed attempt (there should be none) is retried within seconds, inside the drain timeout.
    WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5,10,20",
  };
  // The bare side encrypts credentials as the product does.
  Object.assign(process.env, { ENCRYPTION_KEY: env.ENCRYPTION_KEY, AUTH_SECRET: env.AUTH_SECRET, DATA_DIR: dir });

  const receivers = await startReceivers();
  migrateWith(env);
  const seeded = await runWriter<Seeded>("seed", { urls: receivers.urls }, env, dir);
  await receivers.secrets(seeded.endpoints.map((e) => e.secret));
  log(
    `receivers on ports ${receivers.ports.join(", ")}; team ${seeded.teamId} with ${seeded.endpoints.length} endpoints; starting the server…`,
  );
  const server = await startServer(port, { ...env, PORT: String(port) });
  cleanups.push(() => server.stop());
  const serverPid = pidListeningOn(port);
  let expected = 0;

  // Warm-up (not measured): the server's first requests and the receivers' sockets.
  const apiChange = async (i: number) => {
    const res = await fetch(`${baseUrl}/v1/connections`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        connection_type: "sandbox_key",
        name: `api ${i}`,
        credentials: { api_key: `bench-api-${i}` },
      }),
    });
    const body = await res.text();
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST /v1/connections: HTTP ${res.status} ${body}`);
    return (JSON.parse(body) as { id: string }).id;
  };
  for (let i = 0; i < 10; i++) await apiChange(-1 - i);
  await runWriter<Changes>("changes", { team: seeded.teamId, count: 10, concurrency: 1, label: "warm-up" }, env, dir);
  expected += 20;
  await waitForDeliveries(receivers, expected, Date.now() + 30_000);

  // Idle, written by another process: the commit time is when saveConnection returned there.
  log(`idle: ${IDLE_CHANGES} changes ${IDLE_SPACING_MS} ms apart by another process…`);
  const idleOther = await runWriter<Changes>(
    "changes",
    { team: seeded.teamId, count: IDLE_CHANGES, concurrency: 1, spacingMs: IDLE_SPACING_MS, label: "idle" },
    env,
    dir,
  );
  expected += IDLE_CHANGES;
  await waitForDeliveries(receivers, expected, Date.now() + 30_000);

  // Idle, through the API: the commit time is the connection's created_at (ms), written inside
  // the transaction, so the latency is overstated by the rest of the transaction (a few ms).
  log(`idle: ${IDLE_CHANGES} changes ${IDLE_SPACING_MS} ms apart through POST /v1/connections…`);
  const idleApi = new Set<string>();
  for (let i = 0; i < IDLE_CHANGES; i++) {
    idleApi.add(await apiChange(i));
    await sleep(IDLE_SPACING_MS);
  }
  expected += IDLE_CHANGES;
  await waitForDeliveries(receivers, expected, Date.now() + 30_000);

  // The burst.
  log(`burst: ${EVENTS.toLocaleString("en")} changes by ${WRITERS} concurrent writers…`);
  const serverCpuBefore = cpuSeconds(serverPid);
  const receiversCpuBefore = cpuSeconds(receivers.pid);
  const databaseCpuBefore = postgres ? databaseCpuSeconds(new URL(databaseUrl).pathname.slice(1)) : NaN;
  const burst = await runWriter<Changes>(
    "changes",
    { team: seeded.teamId, count: EVENTS, concurrency: WRITERS, label: "burst" },
    env,
    dir,
  );
  const lastCommit = max(burst.commits.map((c) => c[1]));
  log(
    `burst: written in ${((lastCommit - burst.startedAt) / 1000).toFixed(1)} s; waiting for the deliveries (up to ${DRAIN_TIMEOUT_MS / 1000} s)…`,
  );
  expected += EVENTS;
  const drained = await waitForDeliveries(receivers, expected, lastCommit + DRAIN_TIMEOUT_MS, (c) =>
    log(`  received ${c.received.join(" / ")} of ${expected}`),
  );
  const serverCpu = cpuSeconds(serverPid) - serverCpuBefore;
  const receiversCpu = cpuSeconds(receivers.pid) - receiversCpuBefore;
  const databaseCpu = postgres ? databaseCpuSeconds(new URL(databaseUrl).pathname.slice(1)) - databaseCpuBefore : NaN;
  const { dump, badSignatureSamples } = await receivers.dump();
  // The outbox's account at the same moment: an event missing at a receiver whose deliveries are
  // still open (pending, or delivering under a lease) is late, still owed; one whose deliveries
  // are closed (succeeded or failed) is lost for good.
  const outbox = await outboxState(databaseUrl);
  const serverWarnings = server
    .log()
    .split("\n")
    .filter((l) => /"level":"(warn|error)"|unhandled|Error:/i.test(l));
  await server.stop();

  // The dispatcher alone: a backlog already in the outbox when a server starts.
  log(
    `backlog: ${BACKLOG.toLocaleString("en")} changes' rows written into the outbox with no server running, then a server started to drain them…`,
  );
  await receivers.reset();
  const backlogEnv = { ...env, DATABASE_URL: backlogUrl };
  migrateWith(backlogEnv);
  const backlogTeam = await runWriter<Seeded>("seed", { urls: receivers.urls }, backlogEnv, dir);
  await receivers.secrets(backlogTeam.endpoints.map((e) => e.secret));
  const backlogIds = new Set(await writeBacklog(target(backlogUrl), backlogTeam.teamId, BACKLOG, WRITERS));
  const drainPort = await freePort();
  const drainServer = await startServer(drainPort, {
    ...backlogEnv,
    PORT: String(drainPort),
    APP_URL: `http://127.0.0.1:${drainPort}`,
  });
  cleanups.push(() => drainServer.stop());
  const drainUp = Date.now();
  const drainPid = pidListeningOn(drainPort);
  const drainCpuBefore = cpuSeconds(drainPid);
  const drainCounts = await waitForDeliveries(receivers, BACKLOG, Date.now() + DRAIN_TIMEOUT_MS, (c) =>
    log(`  received ${c.received.join(" / ")} of ${BACKLOG}`),
  );
  const drainCpu = cpuSeconds(drainPid) - drainCpuBefore;
  const drainDump = (await receivers.dump()).dump;
  await drainServer.stop();
  const arrivals = drainDump.flat().filter((e) => backlogIds.has(e[0]));
  const drainFirst = min(arrivals.map((e) => e[3]));
  const drainLast = max(arrivals.map((e) => e[3]));
  const drainSeen = drainDump.map((entries) => new Set(entries.map((e) => e[0])));
  const drainDelivered = [...backlogIds].filter((id) => drainSeen.every((seen) => seen.has(id))).length;
  const drainSeconds = (drainLast - drainFirst) / 1000;
  const drainDuplicates = arrivals.reduce((n, e) => n + e[4] - 1, 0);
  const drainAfterCpuRead = arrivals.filter((e) => e[3] >= drainUp).length;

  // The product's figures.
  const commitsOther = new Map(idleOther.commits);
  const commitsBurst = new Map(burst.commits);
  const other = phase(dump, new Set(commitsOther.keys()), (c) => commitsOther.get(c)!);
  const api = phase(dump, idleApi, (_, createdAt) => createdAt!);
  const b = phase(dump, new Set(commitsBurst.keys()), (c) => commitsBurst.get(c)!);
  const burstSeconds = (b.lastDelivery - b.firstCommit) / 1000;
  const backlogAtLastCommit = [...b.lastArrival.values()].filter((t) => t > lastCommit).length;
  const tailSeconds = (b.lastDelivery - lastCommit) / 1000;
  const writeSeconds = (lastCommit - burst.startedAt) / 1000;
  // Every event the database holds, at every receiver?
  const seenIds = dump.map((entries) => new Set(entries.map((e) => e[0])));
  const lostIds = outbox.eventIds.filter((id) => !seenIds.every((s) => s.has(id)));
  const lostOverall = lostIds.length;
  const lostStillOpen = lostIds.filter((id) => outbox.openEventIds.has(id)).length;
  const lostClosed = lostOverall - lostStillOpen;
  const badSignatures =
    drained.badSignatures.reduce((n, v) => n + v, 0) + drainCounts.badSignatures.reduce((n, v) => n + v, 0);

  // The floor: HTTP alone.
  log(
    `floor: ${EVENTS.toLocaleString("en")} signed bodies to each receiver, ${PER_ENDPOINT} in flight per receiver, ${MAX_SOCKETS} sockets, no database…`,
  );
  await receivers.reset();
  await receivers.secrets(seeded.endpoints.map((e) => e.secret));
  const floorCpu = process.cpuUsage();
  const f = await floor(
    receivers,
    seeded.endpoints.map((e) => e.secret),
    outbox.payload,
    EVENTS,
  );
  const floorCpuUsed = process.cpuUsage(floorCpu);
  const floorCpuSeconds = (floorCpuUsed.user + floorCpuUsed.system) / 1e6;
  const floorCounts = await waitForDeliveries(receivers, EVENTS, Date.now() + 60_000);
  const floorDump = (await receivers.dump()).dump;
  const floorLatencies: number[] = [];
  let floorLast = 0;
  let floorDuplicates = 0;
  floorDump.forEach((entries, r) => {
    for (const [id, , , at, count] of entries) {
      floorLatencies.push(at - f.sentAt[r].get(id)!);
      floorLast = Math.max(floorLast, at);
      floorDuplicates += count - 1;
    }
  });
  floorLatencies.sort((a, b) => a - b);
  const floorDelivered = Math.min(...floorCounts.received);
  const floorSeconds = (floorLast - f.started) / 1000;

  // The bare driver: the outbox's database work alone.
  log(`bare driver: ${EVENTS.toLocaleString("en")} changes' outbox rows, then claimed and stored, no Prisma, no HTTP…`);
  migrateWith({ ...env, DATABASE_URL: bareUrl });
  const bare: BareResult = await bareOutbox(target(bareUrl), EVENTS, WRITERS, PER_ENDPOINT);

  const buildChanged = buildId() !== build;
  if (buildChanged)
    log("WARNING: the app was rebuilt during this run; the servers started after that ran other code than the first");
  const ms = (v: number | null) => (v === null || Number.isNaN(v) ? "–" : v.toFixed(0));
  const rate = (v: number | null) => (v === null ? "–" : v.toFixed(0));
  const sides: Side[] = [
    {
      side: "product, idle, written by another process (found by the dispatcher's poll)",
      events: other.delivered,
      deliveries: other.deliveries,
      seconds: null,
      eventsPerSecond: null,
      deliveriesPerSecond: null,
      p50: other.p50,
      p99: other.p99,
      max: other.max,
      lost: other.lost,
      duplicates: other.duplicates,
    },
    {
      side: "product, idle, written through POST /v1/connections (the commit wakes the dispatcher)",
      events: api.delivered,
      deliveries: api.deliveries,
      seconds: null,
      eventsPerSecond: null,
      deliveriesPerSecond: null,
      p50: api.p50,
      p99: api.p99,
      max: api.max,
      lost: api.lost,
      duplicates: api.duplicates,
    },
    {
      side: `product, burst of ${EVENTS.toLocaleString("en")}: first commit → last delivery`,
      events: b.delivered,
      deliveries: b.deliveries,
      seconds: burstSeconds,
      eventsPerSecond: b.delivered / burstSeconds,
      deliveriesPerSecond: b.deliveries / burstSeconds,
      p50: b.p50,
      p99: b.p99,
      max: b.max,
      lost: b.lost,
      duplicates: b.duplicates,
    },
    {
      side: `product, backlog of ${BACKLOG.toLocaleString("en")} drained by a fresh server's dispatcher alone: first → last delivery`,
      events: drainDelivered,
      deliveries: arrivals.length,
      seconds: drainSeconds,
      eventsPerSecond: drainDelivered / drainSeconds,
      deliveriesPerSecond: arrivals.length / drainSeconds,
      p50: null,
      p99: null,
      max: null,
      lost: BACKLOG - drainDelivered,
      duplicates: drainDuplicates,
    },
    {
      side: `floor: the same signed POSTs from a plain loop (${PER_ENDPOINT} in flight per receiver), no database`,
      events: floorDelivered,
      deliveries: floorLatencies.length,
      seconds: floorSeconds,
      eventsPerSecond: floorDelivered / floorSeconds,
      deliveriesPerSecond: floorLatencies.length / floorSeconds,
      p50: pct(floorLatencies, 0.5),
      p99: pct(floorLatencies, 0.99),
      max: floorLatencies[floorLatencies.length - 1] ?? null,
      lost: EVENTS - floorDelivered,
      duplicates: floorDuplicates,
    },
    {
      side: "bare driver: claim + store results, no Prisma, no HTTP",
      events: bare.dispatch.deliveries / RECEIVERS,
      deliveries: bare.dispatch.deliveries,
      seconds: bare.dispatch.seconds,
      eventsPerSecond: bare.dispatch.eventsPerSecond,
      deliveriesPerSecond: bare.dispatch.deliveriesPerSecond,
      p50: null,
      p99: null,
      max: null,
      lost: null,
      duplicates: null,
    },
  ];
  const bars = [
    {
      bar: "p50 from commit to receiver under 1 s at idle (another process's write)",
      value: `${ms(other.p50)} ms`,
      ok: other.p50 < 1000,
    },
    {
      bar: "p50 from commit to receiver under 1 s at idle (an API write)",
      value: `${ms(api.p50)} ms`,
      ok: api.p50 < 1000,
    },
    {
      bar: "the burst drains at 500 events/s or more",
      value: `${rate(b.delivered / burstSeconds)} events/s`,
      ok: b.delivered / burstSeconds >= 500 && b.lost === 0,
    },
    {
      bar: "(the same bar, the dispatcher alone) a backlog drains at 500 events/s or more",
      value: `${rate(drainDelivered / drainSeconds)} events/s`,
      ok: drainDelivered / drainSeconds >= 500 && drainDelivered === BACKLOG,
    },
    {
      bar: "nothing lost: every event in the outbox reached every receiver",
      value: `${lostOverall} of ${outbox.eventIds.length} events (burst ${b.lost}, idle ${other.lost} + ${api.lost}; backlog ${BACKLOG - drainDelivered} of ${BACKLOG})${lostOverall ? `; at the deadline ${lostStillOpen} of them were still owed (pending or delivering in the outbox: late, not dropped) and ${lostClosed} closed without reaching every receiver (dropped)` : ""}`,
      ok: lostOverall === 0 && b.lost === 0 && other.lost === 0 && api.lost === 0 && drainDelivered === BACKLOG,
    },
    {
      bar: "every signature verified (standardwebhooks), the floor's too",
      value: `${badSignatures} bad, floor ${floorCounts.badSignatures.reduce((n, v) => n + v, 0)} bad${badSignatureSamples.length ? `: ${badSignatureSamples.join("; ")}` : ""}`,
      ok: badSignatures === 0 && floorCounts.badSignatures.every((n) => n === 0),
    },
  ];
  const report = [
    `# bench:webhooks — ${engineName}, ${EVENTS.toLocaleString("en")} events to ${RECEIVERS} receivers, production build`,
    "",
    `command: ${command}`,
    `code: ${code.commit}${code.uncommitted.length ? ` plus uncommitted changes to ${code.uncommitted.join(", ")}` : ""} (the production build of the working tree)`,
    `machine: ${machine.cores} × ${machine.model}; load average ${machine.loadAverageAtStart.join(" ")} at start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} at the end (other processes' work shows in the figures)`,
    "",
    "| side | events (at all 3) | deliveries | seconds | events/s | deliveries/s | p50 ms | p99 ms | max ms | lost | duplicates |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...sides.map(
      (s) =>
        `| ${s.side} | ${s.events} | ${s.deliveries} | ${s.seconds === null ? "–" : s.seconds.toFixed(1)} | ${rate(s.eventsPerSecond)} | ${rate(s.deliveriesPerSecond)} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} | ${s.lost ?? "–"} | ${s.duplicates ?? "–"} |`,
    ),
    "",
    `Writing the burst: the product's ${WRITERS} writers committed ${EVENTS.toLocaleString("en")} changes in ${writeSeconds.toFixed(1)} s (${rate(EVENTS / writeSeconds)} changes/s); the bare driver wrote the same rows at ${rate(bare.write.changesPerSecond)} changes/s (${rate(bare.write.rowsPerSecond)} rows/s, ${bare.write.seconds.toFixed(1)} s).`,
    `CPU during the burst (from the first change until the last delivery or the deadline): the server ${serverCpu.toFixed(1)} s (${((serverCpu * 1000) / Math.max(1, b.deliveries)).toFixed(2)} ms per delivery, all of it: its dispatcher is the only work it has then); the writer process ${burst.cpuSeconds.toFixed(1)} s (${((burst.cpuSeconds * 1000) / EVENTS).toFixed(2)} ms per change)${postgres ? `; PostgreSQL's backends ${databaseCpu.toFixed(1)} s (${((databaseCpu * 1000) / EVENTS).toFixed(2)} ms per change)` : ""}; the receivers (the bench's own, verifying every signature) ${receiversCpu.toFixed(1)} s. The floor's loop: ${floorCpuSeconds.toFixed(1)} s (${((floorCpuSeconds * 1000) / Math.max(1, floorLatencies.length)).toFixed(2)} ms per delivery).`,
    `The backlog: the first delivery came ${drainFirst - drainUp} ms after the fresh server answered; its CPU from then to the last delivery ${drainCpu.toFixed(1)} s (${((drainCpu * 1000) / Math.max(1, drainAfterCpuRead)).toFixed(2)} ms per delivery).`,
    `After the last commit ${backlogAtLastCommit.toLocaleString("en")} events were still on their way; they took ${tailSeconds.toFixed(1)} s more (${rate(backlogAtLastCommit / Math.max(tailSeconds, 0.001))} events/s).`,
    `Outbox when the wait ended: deliveries ${JSON.stringify(outbox.deliveries)}, ${outbox.attempts} attempts (failed: ${JSON.stringify(outbox.failedAttempts)}); receivers got ${drained.requests.join(" / ")} requests; floor bodies ${f.bodyBytes} bytes, ${f.failures} failed requests.`,
    `Latency at idle through the API is measured from the connection's created_at (inside the transaction); elsewhere from the moment the writer's transaction returned.`,
    ...(buildChanged
      ? [
          "",
          "WARNING: the app was rebuilt (.next/BUILD_ID changed) during this run: the figures mix two builds; run it again.",
        ]
      : []),
    ...(serverWarnings.length
      ? [
          "",
          `The server logged ${serverWarnings.length} warnings or errors, e.g.:`,
          ...serverWarnings.slice(0, 5).map((l) => `    ${l.slice(0, 400)}`),
        ]
      : []),
    "",
    ...bars.map((x) => `- ${x.ok ? "PASS" : "FAIL"} ${x.bar}: ${x.value}`),
  ].join("\n");
  console.log(`\n${report}\n`);
  const artifacts = join(root, "e2e", ".artifacts");
  mkdirSync(artifacts, { recursive: true });
  const file = join(artifacts, `bench-webhooks-${engine}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        command,
        code,
        buildChanged,
        engine: engineName,
        machine: { ...machine, loadAverageAtEnd: loadavg() },
        at: new Date().toISOString(),
        events: EVENTS,
        writers: WRITERS,
        sides,
        burst: {
          writeSeconds,
          changesPerSecond: EVENTS / writeSeconds,
          serverCpuSeconds: serverCpu,
          writerCpuSeconds: burst.cpuSeconds,
          databaseCpuSeconds: databaseCpu,
          receiversCpuSeconds: receiversCpu,
          floorCpuSeconds,
          backlogAtLastCommit,
          tailSeconds,
          firstCommit: b.firstCommit,
          lastCommit,
          lastDelivery: b.lastDelivery,
        },
        backlog: {
          events: BACKLOG,
          delivered: drainDelivered,
          seconds: drainSeconds,
          eventsPerSecond: drainDelivered / drainSeconds,
          serverCpuSeconds: drainCpu,
          firstDeliveryAfterReadyMs: drainFirst - drainUp,
          counts: drainCounts,
        },
        bare,
        outbox: {
          events: outbox.eventIds.length,
          deliveries: outbox.deliveries,
          attempts: outbox.attempts,
          failedAttempts: outbox.failedAttempts,
          lost: lostOverall,
          lostStillOpen,
          lostClosed,
        },
        receivers: drained,
        floor: { failures: f.failures, bodyBytes: f.bodyBytes },
        bars,
      },
      null,
      2,
    ),
  );
  log(`written to ${file}`);
  process.exitCode = bars.every((x) => x.ok) ? 0 : 1;
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
