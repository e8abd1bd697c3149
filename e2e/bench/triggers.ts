// npm run bench:triggers — how fast a run starts once a trigger is accepted (CONTRACT §13 "webhook
// trigger"), against the production server's workflow worker, in one run with its sides alternated
// so each sees the same machine:
//   - webhook:    `POST <APP_URL>/hooks/workflows/<token>` (202 {"run_id"}), open-loop: each request
//                 sent at its scheduled instant whatever the earlier ones are doing;
//   - enqueueRun: the CLI's in-process way to queue a run (lib/workflows/queue-run.ts, `viaCli`), at
//                 the same rate, with the same trigger body (so both runs do the same work): the
//                 webhook's path without the HTTP request, the route and its checks;
// alternating in BENCH_TRIGGER_SLICE_MS (1 s) slices, W E E W W E E W … (a backlog that grows
// through the burst favours neither side), each side BENCH_TRIGGER_SECONDS (30) s at
// BENCH_TRIGGER_RATE (200) per second. The workflow is three nodes: sandbox.report (its end_date
// from the trigger body, a date no other run asks for: no response-cache hit), utility.format_text
// with {{trigger.body.x}}, and one more format_text.
// Before the burst, a trickle (BENCH_TRICKLE runs of each side, 4 per second, alternated) shows the
// same latencies with an empty queue.
// Meanwhile a child process (its own event loop: the in-process enqueues never delay its clock)
// watches another team, one request at a time at BENCH_WATCH_RATE (10) rounds per second: its
// GET /v1/connections (its own key), the framework's floor (the same route with an unknown key:
// withAuth's 401, the cheapest answer through the same wrapper), the webhook route's floor (an
// unknown token's 404) and the bare driver doing the API call's work in that process (the key
// lookup and the connections query, e2e/bench/bare-driver.ts). Bar: the API's p99 under 50 ms.
// Reported: the share of 202 answers; accepted → first node started (run createdAt → state.steps[0]
// .started_ms) p50/p99 per side, split into the queue (accepted → claimed, startedAt) and the
// runner's start (claimed → first node); the request's own time; the burst in 5 s windows (runs
// claimed per second, the queue's depth); the server's and the worker's CPU; /proc/loadavg.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL database
// made on that server (dropped afterwards). Writes e2e/.artifacts/bench-triggers-<engine>.md.
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";
import { bareDriver } from "./bare-driver";
import { childPid, cpuSeconds, ownCpuSeconds, pidListeningOn } from "./process-cpu";

const RATE = Number(process.env.BENCH_TRIGGER_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_TRIGGER_SECONDS ?? 30);
const SLICE_MS = Number(process.env.BENCH_TRIGGER_SLICE_MS ?? 1000);
const TRICKLE = Number(process.env.BENCH_TRICKLE ?? 20);
const WATCH_RATE = Number(process.env.BENCH_WATCH_RATE ?? 10);
/** As bench:workflows runs its burst: one team's runs, 32 at a time. */
const CONCURRENCY = Number(process.env.BENCH_WORKFLOW_CONCURRENCY ?? 32);
const BAR_MS = 50;
const WINDOW_MS = 5000;
const DRAIN_LIMIT_MS = 30 * 60_000;

const q = (values: number[], at: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))] : NaN;
};
const DAY = 86_400_000;
const dateOf = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * DAY).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

// ---------------------------------------------------------------------------------------------
// The watcher (this file forked with --watch): another team's API, the floors and the bare driver.

type WatchSamples = { api: number[]; floor: number[]; hook404: number[]; bare: number[]; errors: number };
type WatchMessage = { phase: string } | { stop: true };

async function watch() {
  const baseUrl = process.env.BENCH_WATCH_BASE_URL!;
  const auth = `Bearer ${process.env.BENCH_WATCH_KEY!}`;
  const phases = new Map<string, WatchSamples>();
  let phase = "warm-up";
  let stop = false;
  process.on("message", (m) => {
    if ("stop" in (m as WatchMessage)) stop = true;
    else phase = (m as { phase: string }).phase;
  });
  const bare = await bareDriver(process.env.DATABASE_URL!);
  process.send!({ ready: true });
  const timed = async (into: number[], expect: number, s: WatchSamples, call: () => Promise<Response>) => {
    const t = performance.now();
    const res = await call();
    await res.arrayBuffer();
    into.push(performance.now() - t);
    if (res.status !== expect) s.errors++;
  };
  const interval = 1000 / WATCH_RATE;
  for (let next = performance.now(); !stop;) {
    let s = phases.get(phase);
    if (!s) phases.set(phase, (s = { api: [], floor: [], hook404: [], bare: [], errors: 0 }));
    await timed(s.api, 200, s, () => fetch(`${baseUrl}/v1/connections`, { headers: { authorization: auth } }));
    await timed(s.floor, 401, s, () =>
      fetch(`${baseUrl}/v1/connections`, { headers: { authorization: "Bearer pbk_unknown_key_for_the_floor" } }),
    );
    await timed(s.hook404, 404, s, () =>
      fetch(`${baseUrl}/hooks/workflows/unknown-token-for-the-floor`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    const t = performance.now();
    await bare.connections(auth);
    s.bare.push(performance.now() - t);
    next += interval;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    else next = performance.now(); // behind: one request at a time, no catching up in a rush
  }
  await bare.close();
  process.send!(Object.fromEntries(phases), () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------
// The bench.

type Side = "webhook" | "enqueueRun";
type Sent = {
  side: Side;
  phase: "trickle" | "burst";
  scheduledMs: number; // epoch ms it was due to be sent
  slipMs: number; // how late this process sent it
  requestMs: number; // send → answer (the 202, or enqueueRun's return)
  status: number; // HTTP status; 0 for a network error; 202 for an enqueueRun that returned
  error?: string; // a network error's code (its cause's), or an enqueueRun's message
  runId: string | null;
};
type RunRow = {
  id: string;
  status: string;
  createdAt: number;
  startedAt: number | null;
  completedAt: number | null;
  firstNodeMs: number | null;
};

async function main() {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench_triggers") : undefined;
  const { env, dbFile } = benchWorkspace("bench-triggers", pg?.url);
  const engine = postgres ? "PostgreSQL" : "SQLite";
  migrateWith(env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.APP_URL = baseUrl;
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { createWorkflow } = await import("@/lib/workflows/save-workflow");
  const { enqueueRun } = await import("@/lib/workflows/queue-run");
  const { POLL_MS } = await import("@/lib/workflows/config");
  const { db } = await import("@/lib/db/client");

  const makeTeam = async (name: string, email: string) => {
    const team = await createTeam({ name, plan: "team", creditsLimit: 1_000_000_000 });
    const user = await createUser({ teamId: team.id, email, role: "owner" });
    const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
    return { team, user, key };
  };
  const busy = await makeTeam("Triggered team", "triggered@patchbay.dev");
  const watched = await makeTeam("Watched team", "watched@patchbay.dev");
  const load0 = loadavg();
  const server = await startServer(port, {
    ...env,
    PORT: String(port),
    APP_URL: baseUrl,
    WORKFLOW_WEBHOOK_PER_MINUTE: "1000000",
    WORKFLOW_CONCURRENCY: String(CONCURRENCY),
    WORKFLOW_TEAM_CONCURRENCY: String(CONCURRENCY),
  });
  const serverPid = pidListeningOn(port);
  let watcher: ChildProcess | null = null;
  try {
    const post = async (key: string, body: object) => {
      const res = await fetch(`${baseUrl}/v1/connections`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`creating a connection: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    for (let i = 0; i < 5; i++)
      await post(watched.key, {
        connection_type: "sandbox_key",
        name: `Watched ${i}`,
        credentials: { api_key: `sk-watched-${i}` },
      });
    const connection = await post(busy.key, {
      connection_type: "sandbox_key",
      name: "Triggered sandbox",
      credentials: { api_key: "sk-bench-triggers" },
    });
    const workflow = await createWorkflow(
      { teamId: busy.team.id, userId: busy.user.id },
      {
        name: "Triggered",
        trigger: "webhook",
        schedule: null,
        timezone: null,
        active: true,
        nodes: [
          {
            id: "report",
            label: "Sessions",
            operation_id: "sandbox.report",
            connection_id: connection.id,
            input: { metric: "sessions", days: 7, end_date: "{{trigger.body.end_date}}" },
          },
          {
            id: "text",
            label: "Text",
            operation_id: "utility.format_text",
            input: { template: "{{trigger.body.x}}: {{nodes.report.output.total}} sessions" },
          },
          {
            id: "done",
            label: "Done",
            operation_id: "utility.format_text",
            input: { template: "{{nodes.text.output.text}} (done)" },
          },
        ] as never,
      },
    );
    const hookUrl = `${baseUrl}/hooks/workflows/${workflow.webhookToken}`;
    const workerPid = childPid(serverPid, "lib/server/workflow-worker-main.ts");

    // The watcher: its own process, its own clock.
    watcher = fork(__filename, ["--watch"], {
      execArgv: ["--conditions=react-server", "--import", "tsx"],
      env: {
        ...env,
        BENCH_WATCH_BASE_URL: baseUrl,
        BENCH_WATCH_KEY: watched.key,
        DATABASE_URL: pg?.url ?? `file:${dbFile}`,
      },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    await new Promise((ok, fail) => {
      watcher!.once("message", ok);
      watcher!.once("exit", () => fail(new Error("the API watcher did not start")));
    });
    const watchPhase = (phase: string) => watcher!.send({ phase } satisfies WatchMessage);

    // Every send: a webhook POST (not awaited by the schedule) or an enqueueRun call (likewise).
    let n = 0;
    const sent: Sent[] = [];
    const pending: Promise<void>[] = [];
    const send = (side: Side, phase: Sent["phase"], scheduledMs: number) => {
      const k = n++;
      const body = { x: `request ${k}`, end_date: dateOf(k) };
      const s: Sent = {
        side,
        phase,
        scheduledMs,
        slipMs: Date.now() - scheduledMs,
        requestMs: NaN,
        status: 0,
        runId: null,
      };
      sent.push(s);
      const t = performance.now();
      const call =
        side === "webhook"
          ? fetch(hookUrl, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            })
              .then(async (res) => {
                s.status = res.status;
                const answer = (await res.json()) as { run_id?: string };
                s.runId = res.status === 202 ? (answer.run_id ?? null) : null;
              })
              .catch((e: Error & { cause?: { code?: string; message?: string } }) => {
                s.status = 0;
                s.error = e.cause?.code ?? e.cause?.message ?? e.message;
              })
          : enqueueRun(busy.team.id, workflow.id, { userId: busy.user.id, viaCli: true }, { triggerData: { body } })
              .then(({ run_id }) => {
                s.status = 202;
                s.runId = run_id;
              })
              .catch((e) => {
                s.status = 0;
                s.error = (e as Error).message.slice(0, 80);
                console.error(`enqueueRun failed: ${(e as Error).message}`);
              });
      pending.push(call.then(() => void (s.requestMs = performance.now() - t)));
    };
    /** Open-loop: send i goes at start + i × interval, whatever the earlier ones are doing. */
    const schedule = async (
      count: number,
      perSecond: number,
      sideOf: (i: number, atMs: number) => Side,
      phase: Sent["phase"],
    ) => {
      const interval = 1000 / perSecond;
      const start = Date.now() + 50;
      for (let i = 0; i < count;) {
        const now = Date.now();
        while (i < count && start + i * interval <= now) {
          send(sideOf(i, i * interval), phase, start + i * interval);
          i++;
        }
        await sleep(Math.max(0, Math.min(5, start + i * interval - Date.now())));
      }
    };
    const runsOf = async (ids: string[]): Promise<Map<string, RunRow>> => {
      const out = new Map<string, RunRow>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db.workflowRun.findMany({
          where: { id: { in: ids.slice(i, i + 500) } },
          select: { id: true, status: true, createdAt: true, startedAt: true, completedAt: true, state: true },
        });
        for (const r of rows) {
          const steps = (JSON.parse(r.state) as { steps?: { started_ms: number }[] }).steps ?? [];
          out.set(r.id, {
            id: r.id,
            status: r.status,
            createdAt: Number(r.createdAt),
            startedAt: r.startedAt === null ? null : Number(r.startedAt),
            completedAt: r.completedAt === null ? null : Number(r.completedAt),
            firstNodeMs: steps[0]?.started_ms ?? null,
          });
        }
      }
      return out;
    };
    const waitForRuns = async (what: string) => {
      await Promise.all(pending);
      const started = Date.now();
      for (;;) {
        const open = await db.workflowRun.count({
          where: { workflowId: workflow.id, status: { in: ["queued", "running"] } },
        });
        if (open === 0) return (Date.now() - started) / 1000;
        if (Date.now() - started > DRAIN_LIMIT_MS) throw new Error(`${what}: ${open} runs still open after 30 minutes`);
        await sleep(250);
      }
    };

    // Warm-up: the routes, the worker, this process's enqueue path; not counted.
    process.stdout.write("[bench] warm-up… ");
    const warm = sent.length;
    await schedule(20, 10, (i) => (i % 2 ? "enqueueRun" : "webhook"), "trickle");
    await waitForRuns("warm-up");
    sent.splice(warm);
    await sleep(1000);
    process.stdout.write("idle API… ");
    watchPhase("idle");
    await sleep(5000);

    process.stdout.write(`trickle (${TRICKLE} of each at 4/s)… `);
    watchPhase("trickle");
    await schedule(2 * TRICKLE, 4, (i) => (i % 2 ? "enqueueRun" : "webhook"), "trickle");
    await waitForRuns("trickle");
    await sleep(1000);

    const sides: Side[] = ["webhook", "enqueueRun", "enqueueRun", "webhook"];
    process.stdout.write(`burst (${RATE}/s, ${SECONDS} s of each side in ${SLICE_MS} ms slices)… `);
    const loadBurst0 = loadavg();
    const cpu0 = { server: ownCpuSeconds(serverPid), worker: ownCpuSeconds(workerPid), all: cpuSeconds(serverPid) };
    watchPhase("burst");
    const burstStart = Date.now();
    await schedule(2 * RATE * SECONDS, RATE, (_i, atMs) => sides[Math.floor(atMs / SLICE_MS) % 4], "burst");
    const burstEnd = Date.now();
    const cpuFire = { server: ownCpuSeconds(serverPid), worker: ownCpuSeconds(workerPid) };
    const loadBurst1 = loadavg();
    process.stdout.write("drain… ");
    watchPhase("drain");
    const drainSeconds = await waitForRuns("burst");
    const cpu1 = { server: ownCpuSeconds(serverPid), worker: ownCpuSeconds(workerPid), all: cpuSeconds(serverPid) };
    const loadEnd = loadavg();
    const watchedSamples = await new Promise<Record<string, WatchSamples>>((ok) => {
      watcher!.once("message", (m) => ok(m as Record<string, WatchSamples>));
      watcher!.send({ stop: true } satisfies WatchMessage);
    });
    console.log("done");

    // The runs, by the ids the triggers answered.
    const runs = await runsOf(sent.flatMap((s) => (s.runId ? [s.runId] : [])));
    const problems: string[] = [];
    const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "–");
    const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "–");
    type Figures = ReturnType<typeof figures>;
    const figures = (side: Side, phase: Sent["phase"]) => {
      const mine = sent.filter((s) => s.side === side && s.phase === phase);
      const accepted = mine.filter((s) => s.status === 202 && s.runId);
      const rows = accepted.map((s) => runs.get(s.runId!)).filter((r): r is RunRow => !!r);
      const started = rows.filter((r) => r.firstNodeMs !== null && r.startedAt !== null);
      // Answers by kind: the HTTP status, or the network error's code.
      const statuses = new Map<string, number>();
      for (const s of mine) {
        const kind = s.status ? String(s.status) : `network error ${s.error ?? ""}`.trim();
        statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
      }
      const ok = rows.filter((r) => r.status === "success").length;
      if (rows.length !== accepted.length)
        problems.push(`${side} ${phase}: ${accepted.length - rows.length} accepted runs not found`);
      if (ok !== rows.length) problems.push(`${side} ${phase}: ${rows.length - ok} runs did not succeed`);
      if (accepted.length !== mine.length)
        problems.push(
          `${side} ${phase}: ${mine.length - accepted.length} not accepted (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(", ")})`,
        );
      const firstNode = started.map((r) => r.firstNodeMs! - r.createdAt);
      const queue = started.map((r) => r.startedAt! - r.createdAt);
      const claim = started.map((r) => r.firstNodeMs! - r.startedAt!);
      const request = mine.map((s) => s.requestMs).filter(Number.isFinite);
      return {
        side,
        phase,
        sent: mine.length,
        accepted: accepted.length,
        ok,
        statuses,
        request,
        slip: mine.map((s) => s.slipMs),
        firstNode,
        queue,
        claim,
        rows,
      };
    };
    const sideRow = (f: Figures) =>
      `| ${f.side} | ${f.phase} | ${f.sent} | ${f.accepted} (${((100 * f.accepted) / Math.max(1, f.sent)).toFixed(2)} %) | ${f1(q(f.request, 0.5))} / ${f1(q(f.request, 0.99))} | **${f0(q(f.firstNode, 0.5))} / ${f0(q(f.firstNode, 0.99))}** | ${f0(q(f.queue, 0.5))} / ${f0(q(f.queue, 0.99))} | ${f1(q(f.claim, 0.5))} / ${f1(q(f.claim, 0.99))} | ${f.ok}/${f.rows.length} |`;
    const tW = figures("webhook", "trickle");
    const tE = figures("enqueueRun", "trickle");
    const bW = figures("webhook", "burst");
    const bE = figures("enqueueRun", "burst");

    // The burst in windows of its send time: what each side waited, and what the runner got through.
    const all = [...bW.rows, ...bE.rows];
    const windows: string[] = [];
    const lastEnd = Math.max(...all.map((r) => r.completedAt ?? 0));
    // 5 s windows over the firing and 30 s after it; the rest of the drain in one row.
    const windowEnds: number[] = [];
    for (let t = burstStart + WINDOW_MS; t < Math.min(lastEnd, burstEnd + 30_000); t += WINDOW_MS) windowEnds.push(t);
    windowEnds.push(Math.max(lastEnd + 1, burstStart + WINDOW_MS));
    for (const [k, end] of windowEnds.entries()) {
      const t = k ? windowEnds[k - 1] : burstStart;
      const span = end - t;
      const inWindow = (s: Sent) => s.scheduledMs >= t && s.scheduledMs < end;
      const lag = (f: Figures) =>
        sent
          .filter((s) => s.phase === "burst" && s.side === f.side && inWindow(s) && s.runId)
          .map((s) => runs.get(s.runId!))
          .filter((r): r is RunRow => !!r?.firstNodeMs)
          .map((r) => r.firstNodeMs! - r.createdAt);
      const claimed = all.filter((r) => r.startedAt !== null && r.startedAt >= t && r.startedAt < end).length;
      const queued = all.filter((r) => r.createdAt < end && (r.startedAt ?? Infinity) >= end).length;
      const w = lag(bW);
      const e = lag(bE);
      windows.push(
        `| ${((t - burstStart) / 1000).toFixed(0)}–${((end - burstStart) / 1000).toFixed(0)} s | ${w.length} / ${e.length} | ${f0(q(w, 0.5))} | ${f0(q(e, 0.5))} | ${(claimed / (span / 1000)).toFixed(1)} | ${queued} |`,
      );
    }
    const firstCreated = Math.min(...all.map((r) => r.createdAt));
    const throughput = all.length / ((lastEnd - firstCreated) / 1000);
    const claimedDuringFire = all.filter((r) => r.startedAt !== null && r.startedAt <= burstEnd).length;

    const w = (name: string) =>
      watchedSamples[name] ?? ({ api: [], floor: [], hook404: [], bare: [], errors: 0 } satisfies WatchSamples);
    const watchRow = (label: string, s: WatchSamples) =>
      `| ${label} | ${s.api.length} | ${f1(q(s.api, 0.5))} | **${f1(q(s.api, 0.99))}** | ${f1(Math.max(...s.api))} | ${f1(q(s.floor, 0.5))} / ${f1(q(s.floor, 0.99))} | ${f1(q(s.hook404, 0.5))} / ${f1(q(s.hook404, 0.99))} | ${f1(q(s.bare, 0.5))} / ${f1(q(s.bare, 0.99))} | ${s.errors} |`;
    const apiBurst = q(w("burst").api, 0.99);
    const apiDrain = q(w("drain").api, 0.99);
    const share = (100 * bW.accepted) / Math.max(1, bW.sent);
    const cpuLine = (label: string, a: number, b: number, seconds: number) =>
      `${label} ${f1(b - a)} s (${f0((100 * (b - a)) / seconds)} % of one core)`;
    const fireSeconds = (burstEnd - burstStart) / 1000;
    const text = [
      `# bench:triggers — ${engine}: webhook trigger vs enqueueRun (in process), ${RATE}/s each, ${SECONDS} s of each in alternating ${SLICE_MS} ms slices`,
      "",
      `A 3-node sandbox workflow (sandbox.report with end_date from the body, 2 × utility.format_text, one reading {{trigger.body.x}}), webhook trigger; WORKFLOW_CONCURRENCY ${CONCURRENCY} (per team ${CONCURRENCY}), WORKFLOW_WEBHOOK_PER_MINUTE 1000000, the worker's poll every ${POLL_MS} ms. ${cpus().length} cores; /proc/loadavg: ${load0} before the server started, ${loadBurst0} as the burst began, ${loadBurst1} as it ended, ${loadEnd} after the drain.`,
      "",
      "Times in ms, p50 / p99. accepted = run createdAt (the moment enqueueRun writes it); claimed = its startedAt (the worker's claim); first node = state.steps[0].started_ms. request = the webhook POST until its answer, or the enqueueRun call until it returned.",
      "",
      "| side | phase | sent | accepted (202) | request | **accepted → first node** | accepted → claimed (queue) | claimed → first node | runs succeeded |",
      "|---|---|---|---|---|---|---|---|---|",
      sideRow(tW),
      sideRow(tE),
      sideRow(bW),
      sideRow(bE),
      "",
      `trickle: ${TRICKLE} of each side at 4/s in all, alternated, with an empty queue. burst: sent open-loop, this process's send slip p99 ${f1(q([...bW.slip, ...bE.slip], 0.99))} ms (max ${f1(Math.max(...bW.slip, ...bE.slip))}); firing took ${f1(fireSeconds)} s, then the queue drained in ${f1(drainSeconds)} s.`,
      `The runner: ${f1(throughput)} runs/s from the burst's first accepted run to its last run's end (${all.length} runs); ${claimedDuringFire} of them claimed while the burst was still firing (${f1(claimedDuringFire / fireSeconds)}/s against ${RATE}/s arriving).`,
      `CPU during the firing: ${cpuLine("server", cpu0.server, cpuFire.server, fireSeconds)}, ${cpuLine("worker", cpu0.worker, cpuFire.worker, fireSeconds)}; firing and drain: server and its children ${f1(cpu1.all - cpu0.all)} s over ${f1(fireSeconds + drainSeconds)} s, of which the worker ${f1(cpu1.worker - cpu0.worker)} s.`,
      "",
      "The burst by send time (5 s windows through the firing and 30 s after, then the rest of the drain): the sends of the window that were accepted, webhook / enqueueRun, their accepted → first node p50, the runs the worker claimed per second in the window (either side), and the queue (accepted, not yet claimed) at the window's end:",
      "",
      "| window | accepted W / E | webhook p50 | enqueueRun p50 | claimed per s | queued at end |",
      "|---|---|---|---|---|---|",
      ...windows,
      "",
      `Another team's API, watched from a separate process, one request at a time, ${WATCH_RATE} rounds per second: GET /v1/connections with its key; floor = the same route with an unknown key (withAuth's 401, the cheapest answer through the same wrapper); webhook floor = an unknown token's 404 on the trigger route; bare = the key lookup and the connections query with the bare driver in that process.`,
      "",
      "| phase | samples | API p50 | **API p99** | API max | floor p50 / p99 | webhook floor p50 / p99 | bare p50 / p99 | errors |",
      "|---|---|---|---|---|---|---|---|---|",
      watchRow("idle (nothing running)", w("idle")),
      watchRow("trickle", w("trickle")),
      watchRow("burst (firing)", w("burst")),
      watchRow("drain (the queue running out)", w("drain")),
      "",
      `- ${share === 100 ? "PASS" : "FAIL"} the webhook answered 202 to ${bW.accepted} of ${bW.sent} requests (${share.toFixed(2)} %)${share === 100 ? "" : `: ${[...bW.statuses].map(([k, v]) => `${k} × ${v}`).join(", ")}`}`,
      `- webhook / enqueueRun, accepted → first node during the burst: p50 ${f0(q(bW.firstNode, 0.5))} / ${f0(q(bE.firstNode, 0.5))} ms (× ${(q(bW.firstNode, 0.5) / q(bE.firstNode, 0.5)).toFixed(2)}), p99 ${f0(q(bW.firstNode, 0.99))} / ${f0(q(bE.firstNode, 0.99))} ms (× ${(q(bW.firstNode, 0.99) / q(bE.firstNode, 0.99)).toFixed(2)}); with an empty queue p50 ${f0(q(tW.firstNode, 0.5))} / ${f0(q(tE.firstNode, 0.5))} ms`,
      `- ${apiBurst < BAR_MS ? "PASS" : "FAIL"} another team's API p99 under ${BAR_MS} ms while the triggers fired: ${f1(apiBurst)} ms (floor ${f1(q(w("burst").floor, 0.99))} ms, bare ${f1(q(w("burst").bare, 0.99))} ms)`,
      `- ${apiDrain < BAR_MS ? "PASS" : "FAIL"} another team's API p99 under ${BAR_MS} ms while the queue drained: ${f1(apiDrain)} ms`,
      problems.length
        ? `- FAIL: ${problems.join("; ")}`
        : `- PASS: every accepted trigger made one run and every run succeeded (${all.length + tW.rows.length + tE.rows.length} runs)`,
    ].join("\n");
    console.log(`\n${text}\n`);
    writeFileSync(join(root, "e2e", ".artifacts", `bench-triggers-${engine.toLowerCase()}.md`), `${text}\n`);
    process.exitCode = problems.length ? 1 : 0;
  } finally {
    if (watcher && watcher.exitCode === null) watcher.kill();
    await server.stop();
    await db.$disconnect();
    await pg?.drop();
  }
}

if (process.argv.includes("--watch"))
  watch().catch((e) => {
    console.error(e);
    process.exit(1);
  });
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
