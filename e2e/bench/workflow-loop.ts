// bench:workflows' loop case (issue 48): one run of a 500-item loop over a sandbox read, by the
// production server's workflow worker, against the same 500 reads called in a loop by the
// operation's own `run` in this process, and against what one node of a plain run costs, sampled
// alternately in rounds so every side sees the same machine:
//   - loop:  a workflow of two nodes: `items` (utility.pick_fields over a literal list of 500 rows,
//            each a date of its own) and `report` (sandbox.report with for_each over those rows,
//            end_date "{{item.end_date}}": no read is answered from the response cache, so each
//            iteration costs its 2 credits); timed from the run's start to its end, per iteration;
//   - bare:  the same 500 reads (other dates, same shape) one after another in this process, at
//            the worker's CPU priority (nice), so both sides are scheduled alike on a busy machine;
//   - plain: runs of 20 sandbox.report nodes (no loop) and runs of 20 utility nodes (the floor:
//            the runner's own cost per node), BENCH_PLAIN_RUNS (10) of each, every node timed from
//            its start to the next one's;
//   - watched: 5 s of another team's API with nothing running, then the loop again while that team
//            reads its API (GET /v1/logs and GET /v1/credits with its own key, one request at a
//            time): its p50/p99 against the fairness bar.
// BENCH_LOOP_ROUNDS (3) rounds, BENCH_LOOP_ITEMS (500) items. Reported: the loop's overhead per
// iteration beyond the operation, (loop − bare) / 500, against 2 × one plain node's cost, per round
// and as medians, with the worker's CPU per iteration and node beside the wall times.
// BENCH_PROBE=1 adds one more loop and plain run with the SQL statements of each counted by table
// (e2e/bench/worker-probe.cjs), a save's cost as the run's state grows and the other pieces of an
// iteration measured apart; with BENCH_PROBE_CPU=1 also the worker's CPU profile of the loop.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpus, getPriority, setPriority } from "node:os";
import type { Operation } from "@/lib/platforms/kit/operation-types";

const ITEMS = Number(process.env.BENCH_LOOP_ITEMS ?? 500);
const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 3);
const PLAIN_NODES = 20;
/** Plain and floor runs per round: 10 × 20 nodes, so a side's figure is not one second's weather. */
const PLAIN_RUNS = Number(process.env.BENCH_PLAIN_RUNS ?? 10);
const FAIRNESS_BAR_MS = 50;
const DAY = 86_400_000;
const dateOf = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * DAY).toISOString().slice(0, 10);
const q = (values: number[], at: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))] : NaN;
};
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** User + system CPU milliseconds of one process so far (Linux /proc; its threads, not its children), or NaN. */
function cpuMs(pid: number | null): number {
  if (pid === null) return NaN;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // USER_HZ = 100
  } catch {
    return NaN;
  }
}

/** The server's workflow worker (lib/server/workflow-worker.ts forks lib/server/workflow-worker-main.ts), or null. */
function workerPidOf(serverPid: number | null): number | null {
  if (serverPid === null) return null;
  for (const d of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      if (
        ppid === serverPid &&
        readFileSync(`/proc/${d}/cmdline`, "utf8").includes("lib/server/workflow-worker-main.ts")
      )
        return Number(d);
    } catch {
      /* gone */
    }
  }
  return null;
}

export type LoopCaseDeps = {
  baseUrl: string;
  teamId: string;
  userId: string;
  connectionId: string;
  /** What sandbox.report's own `run` gets: the connection and its credentials, as the runner passes them. */
  bareCtx: Parameters<Operation["run"]>[0];
  serverPid: number | null;
  /** BENCH_PROBE's folder when the server was started with e2e/bench/worker-probe.cjs. */
  probeDir?: string;
};

type RunFigures = {
  runId: string;
  status: string;
  wallMs: number; // the run's start → end
  units: number; // iterations or nodes timed
  perUnitWall: number; // (start → end) / units
  perUnitSpan: number; // first unit's start → last unit's start, / (units − 1): the run's fixed costs left out
  firstFifth: number; // the same over the first fifth of the units, and the last: whether a unit costs more as the run grows
  lastFifth: number;
  workerCpuMs: number;
  serverCpuMs: number;
  logs: number;
  credits: number | null;
  cacheHits: number;
  stateBytes: number;
};

type Samples = { logs: number[]; credits: number[]; errors: number };

export async function loopCase(deps: LoopCaseDeps): Promise<{ text: string; problems: string[] }> {
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { createWorkflow } = await import("@/lib/workflows/save-workflow");
  const { enqueueRun } = await import("@/lib/workflows/queue-run");
  const { recordOperations } = await import("@/lib/logs/record-operations");
  const { findOperation } = await import("@/lib/operations/registry");
  const { db } = await import("@/lib/db/client");
  const report = findOperation("sandbox.report")!;
  const actor = { teamId: deps.teamId, userId: deps.userId };
  const problems: string[] = [];
  const workerPid = workerPidOf(deps.serverPid);
  const workerNice = workerPid ? getPriority(workerPid) : Number(process.env.WORKFLOW_WORKER_NICE ?? 10);

  // Every read of every side asks for a date no other read asked for: no response-cache hit.
  let nextDate = 40_000;
  const dates = (n: number) => Array.from({ length: n }, () => dateOf(nextDate++));

  const loopWorkflow = async (name: string, items: number) => {
    const wf = await createWorkflow(actor, {
      name,
      nodes: [
        {
          id: "items",
          label: "Items",
          operation_id: "utility.pick_fields",
          input: { rows: dates(items).map((end_date) => ({ end_date })), fields: ["end_date"] },
        },
        {
          id: "report",
          label: "Sessions of each day",
          operation_id: "sandbox.report",
          connection_id: deps.connectionId,
          for_each: "{{nodes.items.output.rows}}",
          input: { metric: "sessions", days: 7, end_date: "{{item.end_date}}" },
        },
      ] as never,
      schedule: null,
      timezone: null,
      active: true,
    });
    return wf.id;
  };
  const plainWorkflow = async (name: string) => {
    const wf = await createWorkflow(actor, {
      name,
      nodes: dates(PLAIN_NODES).map((end_date, k) => ({
        id: `r${k}`,
        label: `Report ${k}`,
        operation_id: "sandbox.report",
        connection_id: deps.connectionId,
        input: { metric: "sessions", days: 7, end_date },
      })),
      schedule: null,
      timezone: null,
      active: true,
    });
    return wf.id;
  };
  const floorWorkflow = async (name: string) => {
    const wf = await createWorkflow(actor, {
      name,
      nodes: Array.from({ length: PLAIN_NODES }, (_, k) => ({
        id: `u${k}`,
        label: `Text ${k}`,
        operation_id: "utility.format_text",
        input: { template: k === 0 ? "{{run.date.today}}" : `{{nodes.u${k - 1}.output.text}}.` },
      })),
      schedule: null,
      timezone: null,
      active: true,
    });
    return wf.id;
  };

  // Another team, whose API is watched while the loop runs: a key of its own and some logs to list.
  const other = await createTeam({ name: "Watched team", plan: "team", creditsLimit: 1_000_000 });
  const otherUser = await createUser({ teamId: other.id, email: "watched@patchbay.dev", role: "owner" });
  const { key: otherKey } = await createApiKey({ teamId: other.id, userId: otherUser.id, requireTeamPlan: false });
  const now = Math.floor(Date.now() / 1000);
  await recordOperations(
    other.id,
    Array.from({ length: 200 }, (_, i) => ({
      operationId: "sandbox.report",
      status: "success" as const,
      source: { type: "mcp" as const, id: null, name: "Watched client" },
      user: { id: otherUser.id, email: "watched@patchbay.dev" },
      startedAt: now - 3600 + i,
      completedAt: now - 3600 + i,
      creditsUsed: 2,
      input: { metric: "sessions", days: 7 },
      output: { total: i },
    })),
  );

  process.stdout.write(
    `[bench] loop case: creating ${2 * ROUNDS + 1} loop workflows of ${ITEMS} items and ${2 * ROUNDS * PLAIN_RUNS} plain ones… `,
  );
  const series = async (make: (name: string) => Promise<string>, name: string) => {
    const ids: string[] = [];
    for (let k = 0; k < PLAIN_RUNS; k++) ids.push(await make(`${name}.${k}`));
    return ids;
  };
  const warmLoop = await loopWorkflow("loop case: loop warm-up", 50);
  const warmPlain = await plainWorkflow("loop case: plain warm-up");
  const warmFloor = await floorWorkflow("loop case: floor warm-up");
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++)
    rounds.push({
      loop: await loopWorkflow(`loop case: loop ${r}`, ITEMS),
      plain: await series(plainWorkflow, `loop case: plain ${r}`),
      floor: await series(floorWorkflow, `loop case: floor ${r}`),
      watched: await loopWorkflow(`loop case: loop watched ${r}`, ITEMS),
    });
  const probe = deps.probeDir
    ? {
        loop: await loopWorkflow("loop case: loop probed", ITEMS),
        plain: await plainWorkflow("loop case: plain probed"),
        floor: await floorWorkflow("loop case: floor probed"),
      }
    : null;
  console.log("done");

  /** Runs a workflow through the server's worker (queued as `workflow run` does) and measures it. */
  const runOnce = async (workflowId: string, unitNode: string | null, during?: (runId: string) => Promise<void>) => {
    const w0 = cpuMs(workerPid);
    const s0 = cpuMs(deps.serverPid);
    const { run_id } = await enqueueRun(deps.teamId, workflowId, { userId: deps.userId, viaCli: true });
    const started = Date.now();
    const open = async () => {
      const r = await db.workflowRun.findUnique({ where: { id: run_id }, select: { status: true } });
      if (Date.now() - started > 15 * 60_000) throw new Error(`run ${run_id} did not end within 15 minutes`);
      return !r || ["queued", "running"].includes(r.status);
    };
    if (during) await during(run_id);
    while (await open()) await new Promise((r) => setTimeout(r, 100));
    const workerCpuMs = cpuMs(workerPid) - w0;
    const serverCpuMs = cpuMs(deps.serverPid) - s0;
    const run = await db.workflowRun.findUniqueOrThrow({
      where: { id: run_id },
      select: { status: true, startedAt: true, completedAt: true, credits: true, state: true },
    });
    const steps = (JSON.parse(run.state) as { steps: { node_id: string; started_ms: number; cache_hit?: boolean }[] })
      .steps;
    const timed = unitNode ? steps.filter((s) => s.node_id === unitNode) : steps;
    const logs = await db.operationLog.count({ where: { teamId: deps.teamId, sourceRunId: run_id } });
    const wallMs = Number(run.completedAt) - Number(run.startedAt);
    const span = (from: number, to: number) => (timed[to].started_ms - timed[from].started_ms) / (to - from);
    const fifth = Math.max(1, Math.floor(timed.length / 5));
    return {
      runId: run_id,
      status: run.status,
      wallMs,
      units: timed.length,
      perUnitWall: wallMs / timed.length,
      perUnitSpan: span(0, timed.length - 1),
      firstFifth: span(0, fifth),
      lastFifth: span(timed.length - 1 - fifth, timed.length - 1),
      workerCpuMs,
      serverCpuMs,
      logs,
      credits: run.credits,
      cacheHits: steps.filter((s) => s.cache_hit).length,
      stateBytes: Buffer.byteLength(run.state),
    } satisfies RunFigures;
  };

  /** Runs of a plain workflow one after another: their nodes timed together (start to the next node's start). */
  const runSeries = async (ids: string[], what: string, credits: number) => {
    const runs: RunFigures[] = [];
    for (const [k, id] of ids.entries()) {
      const f = await runOnce(id, null);
      check(`${what}.${k}`, f, PLAIN_NODES, credits);
      runs.push(f);
    }
    const sum = (g: (f: RunFigures) => number) => runs.reduce((t, f) => t + g(f), 0);
    return {
      nodes: sum((f) => f.units),
      perUnitSpan: sum((f) => f.perUnitSpan * (f.units - 1)) / sum((f) => f.units - 1),
      workerCpuMs: sum((f) => f.workerCpuMs),
    };
  };

  /** The same reads one after another in this process, by sandbox.report's own `run`, at the worker's nice. */
  const bare = async (n: number) => {
    const mine = getPriority();
    let reniced = false;
    try {
      setPriority(workerNice);
      reniced = true;
    } catch {
      /* not allowed here: the bare side runs at this process's priority */
    }
    const s0 = cpuMs(deps.serverPid);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const end_date of dates(n)) await report.run(deps.bareCtx, { metric: "sessions", days: 7, end_date });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const serverCpuMs = cpuMs(deps.serverPid) - s0;
    if (reniced)
      try {
        setPriority(mine);
      } catch {
        /* lowering a nice value needs privileges: the rest runs at the worker's nice */
      }
    return { perOp: ms / n, cpuPerOp: (c.user + c.system) / 1000 / n, serverCpuPerOp: serverCpuMs / n, reniced };
  };

  const check = (what: string, f: RunFigures, logs: number, credits: number) => {
    if (f.status !== "success") problems.push(`${what}: run ended ${f.status}`);
    if (f.logs !== logs) problems.push(`${what}: ${f.logs} logs, expected ${logs}`);
    if (f.credits !== credits) problems.push(`${what}: charged ${f.credits} credits, expected ${credits}`);
    if (f.cacheHits) problems.push(`${what}: ${f.cacheHits} reads answered from the cache`);
  };

  // Another team's API, one request at a time, alternating its logs and its credits.
  const sample = async (s: Samples) => {
    for (const [path, into] of [
      ["/v1/logs?limit=50", s.logs],
      ["/v1/credits", s.credits],
    ] as const) {
      const t = performance.now();
      const res = await fetch(`${deps.baseUrl}${path}`, { headers: { authorization: `Bearer ${otherKey}` } });
      await res.arrayBuffer();
      into.push(performance.now() - t);
      if (res.status !== 200) s.errors++;
    }
  };
  const newSamples = (): Samples => ({ logs: [], credits: [], errors: 0 });

  // Warm-up: the worker's modules and JIT, this process's provider path, the API's routes.
  await bare(50);
  await runOnce(warmLoop, "report");
  await runOnce(warmPlain, null);
  await runOnce(warmFloor, null);
  for (let i = 0; i < 30; i++) await sample(newSamples());

  const results: {
    loop: RunFigures;
    bare: Awaited<ReturnType<typeof bare>>;
    plain: Awaited<ReturnType<typeof runSeries>>;
    floor: Awaited<ReturnType<typeof runSeries>>;
    watched: RunFigures;
    idle: Samples;
    samples: Samples;
    load: number[];
  }[] = [];
  const loadavg = () =>
    readFileSync("/proc/loadavg", "utf8")
      .split(" ")
      .slice(0, 3)
      .map((x) => Number(x));
  for (const [r, wf] of rounds.entries()) {
    process.stdout.write(`[bench] loop case round ${r + 1}/${ROUNDS}: loop… `);
    const load = loadavg();
    const loop = await runOnce(wf.loop, "report");
    check(`loop ${r}`, loop, 1 + ITEMS, 1 + 2 * ITEMS);
    process.stdout.write("bare… ");
    const b = await bare(ITEMS);
    process.stdout.write("plain… ");
    const plain = await runSeries(wf.plain, `plain ${r}`, 1 + 2 * PLAIN_NODES);
    const floor = await runSeries(wf.floor, `floor ${r}`, 1);
    // Another team's API with no run going, then during the watched loop (from its claim to its end).
    process.stdout.write("idle API… ");
    const idle = newSamples();
    const idleUntil = Date.now() + 5000;
    while (Date.now() < idleUntil) await sample(idle);
    process.stdout.write("loop watched… ");
    const samples = newSamples();
    const watched = await runOnce(wf.watched, "report", async (runId) => {
      const status = async () =>
        (await db.workflowRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? "gone";
      while ((await status()) === "queued") await new Promise((r) => setTimeout(r, 20));
      for (let n = 1; ; n++) {
        await sample(samples);
        if (n % 10 === 0 && (await status()) !== "running") break;
      }
    });
    check(`loop watched ${r}`, watched, 1 + ITEMS, 1 + 2 * ITEMS);
    console.log(
      `loop ${loop.perUnitWall.toFixed(2)}, bare ${b.perOp.toFixed(2)}, plain ${plain.perUnitSpan.toFixed(2)}, floor ${floor.perUnitSpan.toFixed(2)} ms; API p99 idle ${q(idle.logs, 0.99).toFixed(1)}, during ${q(samples.logs, 0.99).toFixed(1)} ms`,
    );
    results.push({ loop, bare: b, plain, floor, watched, idle, samples, load });
  }

  // Per round (each side of a round ran within a few minutes of the others): the loop's overhead
  // per iteration beyond the read, and one plain node's cost two ways, in wall time and worker CPU.
  const rows = results.map((x) => {
    const overhead = x.loop.perUnitWall - x.bare.perOp;
    const plainBeyond = x.plain.perUnitSpan - x.bare.perOp;
    const cpuOverhead = x.loop.workerCpuMs / ITEMS - x.bare.cpuPerOp;
    const cpuPlainBeyond = x.plain.workerCpuMs / x.plain.nodes - x.bare.cpuPerOp;
    const cpuFloor = x.floor.workerCpuMs / x.floor.nodes;
    return {
      ...x,
      overhead,
      plainBeyond,
      ratioPlain: overhead / plainBeyond,
      ratioFloor: overhead / x.floor.perUnitSpan,
      cpuOverhead,
      cpuPlainBeyond,
      cpuFloor,
      cpuRatioPlain: cpuOverhead / cpuPlainBeyond,
      cpuRatioFloor: cpuOverhead / cpuFloor,
    };
  });
  const med = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f));
  const pool = (pick: (x: (typeof results)[number]) => Samples): Samples => ({
    logs: results.flatMap((x) => pick(x).logs),
    credits: results.flatMap((x) => pick(x).credits),
    errors: results.reduce((s, x) => s + pick(x).errors, 0),
  });
  const idle = pool((x) => x.idle);
  const during = pool((x) => x.samples);
  const f1 = (v: number) => v.toFixed(1);
  const f2 = (v: number) => v.toFixed(2);

  let probeText: string[] = [];
  if (probe && deps.probeDir)
    probeText = await probeRuns({ ...deps, probeDir: deps.probeDir }, workerPid, probe, runOnce);

  const pass = (ratio: number) => (ratio <= 2 ? "PASS" : "FAIL");
  const apiRow = (name: string, v: number[], errors: number | string) =>
    `| ${name} | ${v.length} | ${f2(q(v, 0.5))} | ${f2(q(v, 0.99))} | ${f1(Math.max(...v))} | ${errors} |`;
  const apiPass = q(during.logs, 0.99) < FAIRNESS_BAR_MS && q(during.credits, 0.99) < FAIRNESS_BAR_MS && !during.errors;
  const text = [
    `## Loop case — one run of a ${ITEMS}-item loop over sandbox.report, against the same reads bare and a plain run's nodes`,
    "",
    `${ROUNDS} rounds, each in this order: the loop; the ${ITEMS} reads bare; ${PLAIN_RUNS} plain runs of ${PLAIN_NODES} sandbox.report nodes; ${PLAIN_RUNS} floor runs of ${PLAIN_NODES} utility nodes; 5 s of another team's API with nothing running; the loop again while that API is read. The workflow worker runs at nice ${workerNice} (WORKFLOW_WORKER_NICE); the bare side ${results[0]?.bare.reniced ? "at the same nice" : "at this process's nice (it could not be changed)"}. Times in ms; load = /proc/loadavg as the round began (${cpus().length} cores).`,
    "",
    "Wall time:",
    "",
    `| round | load 1/5/15 min | loop per iteration (run start→end / ${ITEMS}) | bare per read | **overhead per iteration** | plain sandbox node | plain node beyond its read | floor node | overhead ÷ plain beyond | overhead ÷ floor |`,
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${r.load.map(f1).join(" / ")} | ${f2(r.loop.perUnitWall)} | ${f2(r.bare.perOp)} | **${f2(r.overhead)}** | ${f2(r.plain.perUnitSpan)} | ${f2(r.plainBeyond)} | ${f2(r.floor.perUnitSpan)} | ${f2(r.ratioPlain)} | ${f2(r.ratioFloor)} |`,
    ),
    `| median | | ${f2(med((r) => r.loop.perUnitWall))} | ${f2(med((r) => r.bare.perOp))} | **${f2(med((r) => r.overhead))}** | ${f2(med((r) => r.plain.perUnitSpan))} | ${f2(med((r) => r.plainBeyond))} | ${f2(med((r) => r.floor.perUnitSpan))} | **${f2(med((r) => r.ratioPlain))}** | **${f2(med((r) => r.ratioFloor))}** |`,
    "",
    "CPU time of the workflow worker (Linux /proc, 10 ms ticks; bare: this process's CPU for the read's client side):",
    "",
    "| round | loop per iteration | bare per read | **overhead per iteration** | plain node beyond its read | floor node | overhead ÷ plain beyond | overhead ÷ floor |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r, i) =>
        `| ${i + 1} | ${f2(r.loop.workerCpuMs / ITEMS)} | ${f2(r.bare.cpuPerOp)} | **${f2(r.cpuOverhead)}** | ${f2(r.cpuPlainBeyond)} | ${f2(r.cpuFloor)} | ${f2(r.cpuRatioPlain)} | ${f2(r.cpuRatioFloor)} |`,
    ),
    `| median | ${f2(med((r) => r.loop.workerCpuMs / ITEMS))} | ${f2(med((r) => r.bare.cpuPerOp))} | **${f2(med((r) => r.cpuOverhead))}** | ${f2(med((r) => r.cpuPlainBeyond))} | ${f2(med((r) => r.cpuFloor))} | **${f2(med((r) => r.cpuRatioPlain))}** | **${f2(med((r) => r.cpuRatioFloor))}** |`,
    "",
    `A loop run took ${f1(med((r) => r.loop.wallMs) / 1000)} s (median); node to node an iteration took ${f2(med((r) => r.loop.firstFifth))} ms over the loop's first fifth and ${f2(med((r) => r.loop.lastFifth))} ms over its last; the run's state (its row, rewritten at each iteration's start and end) ends at ${Math.round((results[0]?.loop.stateBytes ?? 0) / 1024)} KiB. The watched loop: ${f2(med((r) => r.watched.perUnitWall))} ms per iteration (the API's requests come first: the worker runs at nice ${workerNice}).`,
    "",
    "| another team's API (its own key, one request at a time) | samples | p50 ms | p99 ms | max ms | errors |",
    "|---|---|---|---|---|---|",
    apiRow("nothing running: GET /v1/logs?limit=50", idle.logs, idle.errors),
    apiRow("nothing running: GET /v1/credits", idle.credits, ""),
    apiRow("during the loop: GET /v1/logs?limit=50", during.logs, during.errors),
    apiRow("during the loop: GET /v1/credits", during.credits, ""),
    "",
    `overhead per iteration = loop per iteration − bare per read. plain sandbox node = a node of a plain run of ${PLAIN_NODES} sandbox.report nodes, from its start to the next node's start (the run's claim and end left out); beyond its read = less bare per read. floor node = the same for a run of ${PLAIN_NODES} utility nodes (the runner's own cost of a node, no provider). Verdicts on the median of the rounds' ratios.`,
    "",
    `- ${pass(med((r) => r.ratioPlain))} loop overhead per iteration ≤ 2 × a plain node's cost beyond the same read: ${f2(med((r) => r.overhead))} ms vs ${f2(med((r) => r.plainBeyond))} ms (ratio ${f2(med((r) => r.ratioPlain))}; rounds ${rows.map((r) => f2(r.ratioPlain)).join(", ")}; in worker CPU ${f2(med((r) => r.cpuRatioPlain))})`,
    `- ${pass(med((r) => r.ratioFloor))} loop overhead per iteration ≤ 2 × a plain run's utility node: ${f2(med((r) => r.overhead))} ms vs ${f2(med((r) => r.floor.perUnitSpan))} ms (ratio ${f2(med((r) => r.ratioFloor))}; rounds ${rows.map((r) => f2(r.ratioFloor)).join(", ")}; in worker CPU ${f2(med((r) => r.cpuRatioFloor))})`,
    `- ${apiPass ? "PASS" : "FAIL"} another team's API p99 under ${FAIRNESS_BAR_MS} ms during the loop: logs ${f2(q(during.logs, 0.99))} ms, credits ${f2(q(during.credits, 0.99))} ms (with nothing running: ${f2(q(idle.logs, 0.99))} ms and ${f2(q(idle.credits, 0.99))} ms)`,
    problems.length
      ? `- FAIL: ${problems.join("; ")}`
      : `- PASS: every loop run wrote ${1 + ITEMS} logs and was charged ${1 + 2 * ITEMS} credits (no read from the cache), every plain run ${PLAIN_NODES} logs`,
    ...probeText,
  ].join("\n");
  return { text, problems };
}

type Probed = { loop: string; plain: string; floor: string };

/**
 * Marks of the probe (e2e/bench/worker-probe.cjs) in the processes of a server started with it:
 * `mark(pid)` sends SIGUSR2 and returns the mark's number and the statements counted so far.
 */
export function probeMarker(dir: string) {
  const marks = new Map<number, number>();
  return async (pid: number) => {
    const n = (marks.get(pid) ?? 0) + 1;
    marks.set(pid, n);
    process.kill(pid, "SIGUSR2");
    const file = join(dir, `probe-${pid}-${n}.json`);
    for (let i = 0; !existsSync(file); i++) {
      if (i > 200) throw new Error(`the probe of process ${pid} did not answer`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 25));
    return { n, counts: (JSON.parse(readFileSync(file, "utf8")) as { counts: Record<string, number> }).counts };
  };
}

/** The statements counted between two marks, by verb and table. */
export const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(b)
      .map((k) => [k, b[k] - (a[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );

/** The worker's profile between two marks (the odd one started it, `mark` is the even one), summarized. */
export async function profileSummary(
  dir: string,
  workerPid: number,
  mark: number,
  cpuMs: number,
  units: number,
  what: string,
) {
  const file = join(dir, `worker-${workerPid}-${mark}.cpuprofile`);
  for (let i = 0; !existsSync(file) && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
  return existsSync(file) ? summarizeProfile(file, cpuMs, units, what) : [`(probe: no profile at ${file})`];
}

/**
 * One more loop, plain and floor run, each between two marks of the probe: the SQL statements the
 * worker sent, per iteration or node, by verb and table; and the loop's CPU profile when asked.
 */
async function probeRuns(
  { probeDir: dir, serverPid, teamId, connectionId }: LoopCaseDeps & { probeDir: string },
  workerPid: number | null,
  wf: Probed,
  runOnce: (id: string, unit: string | null) => Promise<RunFigures>,
): Promise<string[]> {
  if (workerPid === null) return ["", "(probe: the workflow worker was not found)"];
  const mark = probeMarker(dir);
  const probed = async (id: string, unit: string | null, units: number) => {
    const w0 = await mark(workerPid);
    const s0 = serverPid ? await mark(serverPid) : null;
    const figures = await runOnce(id, unit);
    const w1 = await mark(workerPid);
    const s1 = serverPid ? await mark(serverPid) : null;
    const worker = diff(w0.counts, w1.counts);
    const server = s0 && s1 ? diff(s0.counts, s1.counts) : {};
    return { figures, worker, server, units, profileMark: w1.n };
  };
  const loop = await probed(wf.loop, "report", ITEMS);
  const plain = await probed(wf.plain, null, PLAIN_NODES);
  const floor = await probed(wf.floor, null, PLAIN_NODES);
  const keys = [
    ...new Set([...Object.keys(loop.worker), ...Object.keys(plain.worker), ...Object.keys(floor.worker)]),
  ].sort((a, b) => (loop.worker[b] ?? 0) - (loop.worker[a] ?? 0));
  const per = (c: Record<string, number>, k: string, n: number) => ((c[k] ?? 0) / n).toFixed(2);
  const total = (c: Record<string, number>) => Object.values(c).reduce((s, v) => s + v, 0);
  const out = [
    "",
    `### Probe: SQL statements the worker sent (e2e/bench/worker-probe.cjs; probed runs: loop ${loop.figures.perUnitWall.toFixed(2)} ms per iteration, plain ${plain.figures.perUnitSpan.toFixed(2)} ms per node)`,
    "",
    `| statement | per loop iteration | per plain sandbox node | per floor node |`,
    "|---|---|---|---|",
    ...keys.map(
      (k) =>
        `| ${k} | ${per(loop.worker, k, ITEMS)} | ${per(plain.worker, k, PLAIN_NODES)} | ${per(floor.worker, k, PLAIN_NODES)} |`,
    ),
    `| **all** | **${(total(loop.worker) / ITEMS).toFixed(2)}** | **${(total(plain.worker) / PLAIN_NODES).toFixed(2)}** | **${(total(floor.worker) / PLAIN_NODES).toFixed(2)}** |`,
    "",
    `(per run, not per unit: the loop's fixed statements are spread over ${ITEMS} iterations, a plain run's over ${PLAIN_NODES} nodes; the server process sent ${total(loop.server)} statements during the loop run.)`,
  ];
  out.push("", ...(await stateWriteCost(loop.figures.runId)), "", ...(await iterationPieces(teamId, connectionId)));
  if (process.env.BENCH_PROBE_CPU === "1")
    out.push(
      "",
      ...(await profileSummary(dir, workerPid, loop.profileMark, loop.figures.workerCpuMs, ITEMS, "iteration")),
    );
  return out;
}

/**
 * What one of the runner's saves costs as the run's state grows: the run row's update with a state
 * of n steps (as lib/workflows/run-workflow.ts `save` writes it at each iteration's start and end:
 * the whole state, conditional on the claim) and a log row's update, in one transaction, in this
 * process on the same engine. The probed loop's finished run row is borrowed and put back.
 */
async function stateWriteCost(runId: string): Promise<string[]> {
  const { db } = await import("@/lib/db/client");
  const { transaction } = await import("@/lib/db/transaction");
  const run = await db.workflowRun.findUniqueOrThrow({
    where: { id: runId },
    select: { state: true, claims: true, nodeIndex: true, reservedCredits: true },
  });
  const log = await db.operationLog.findFirstOrThrow({ where: { sourceRunId: runId }, select: { id: true } });
  type State = { nodes: { id: string; input: Record<string, unknown> }[]; steps: unknown[] };
  const full = JSON.parse(run.state) as State;
  // The same state without the bench's literal list of items in its snapshot: a loop over an
  // earlier node's rows (a report's) carries none.
  const lean: State = {
    ...full,
    nodes: full.nodes.map((n) => (n.id === "items" ? { ...n, input: { ...n.input, rows: [] } } : n)),
  };
  const sizes = [1, 125, 250, 375, 500].filter((n) => n <= full.steps.length);
  const cases = [
    ...sizes.map((steps) => ({ steps, literal: true })),
    ...[1, 250].map((steps) => ({ steps, literal: false })),
  ];
  const best = new Map<(typeof cases)[number], { ms: number; cpu: number; bytes: number }>();
  // Three passes over every size, the best of each kept: a busy machine only ever adds time.
  for (let pass = 0; pass < 3; pass++)
    for (const c of cases) {
      const state = { ...(c.literal ? full : lean), steps: full.steps.slice(0, c.steps) };
      const save = () =>
        transaction(async (tx) => {
          await tx.workflowRun.updateMany({
            where: { id: runId, claims: run.claims },
            data: { nodeIndex: 1, state: JSON.stringify(state), reservedCredits: 1 },
          });
          await tx.operationLog.update({ where: { id: log.id }, data: { status: "success" } });
        });
      for (let i = 0; i < 5; i++) await save();
      const n = 60;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await save();
      const ms = (performance.now() - t0) / n;
      const u = process.cpuUsage(c0);
      const cpu = (u.user + u.system) / 1000 / n;
      const was = best.get(c);
      best.set(c, {
        ms: Math.min(ms, was?.ms ?? Infinity),
        cpu: Math.min(cpu, was?.cpu ?? Infinity),
        bytes: JSON.stringify(state).length,
      });
    }
  await db.workflowRun.update({
    where: { id: runId },
    data: { state: run.state, nodeIndex: run.nodeIndex, reservedCredits: run.reservedCredits },
  });
  const at = (steps: number, literal: boolean) =>
    best.get(cases.find((c) => c.steps === steps && c.literal === literal)!)!;
  const mid = sizes.includes(250) ? 250 : sizes[Math.floor(sizes.length / 2)];
  return [
    "### Probe: one save as the state grows (the run row with the whole state + a log row, one transaction, as `save` in lib/workflows/run-workflow.ts writes at each iteration's start and end), in this process, best of 3 passes of 60",
    "",
    "| steps in the state | items literal in the snapshot | state bytes | ms per save (wall) | CPU ms per save |",
    "|---|---|---|---|---|",
    ...cases.map((c) => {
      const b = best.get(c)!;
      return `| ${c.steps} | ${c.literal ? "yes" : "no"} | ${b.bytes.toLocaleString("en-US")} | ${b.ms.toFixed(2)} | ${b.cpu.toFixed(2)} |`;
    }),
    "",
    `Two saves per iteration at the loop's mean state (${mid} steps) against two at a plain node's (1 step, no literal): ${(2 * (at(mid, true).cpu - at(1, false).cpu)).toFixed(2)} CPU ms (${(2 * (at(mid, true).ms - at(1, false).ms)).toFixed(2)} ms wall) more per iteration, of which the bench's literal ${(2 * (at(1, true).cpu - at(1, false).cpu)).toFixed(2)} CPU ms.`,
  ];
}

/**
 * The other work of every costly iteration and plain node beside its two saves, piece by piece, by
 * the lib functions the runner calls (lib/workflows/run-workflow.ts runUnit and runNode), in this
 * process: the credit check before it, the connection's row, and its credentials read and opened.
 */
async function iterationPieces(teamId: string, connectionId: string): Promise<string[]> {
  const { outOfCredits } = await import("@/lib/credits/out-of-credits");
  const { connectionForRun } = await import("@/lib/operations/run-operation");
  const { freshCredentials } = await import("@/lib/connections/fresh-credentials");
  const pieces: [string, () => Promise<unknown>][] = [
    [
      "outOfCredits (the balance, then every running run's and agent turn's hold in a transaction)",
      () => outOfCredits(teamId),
    ],
    ["connectionForRun (the connection's row)", () => connectionForRun(teamId, connectionId)],
    ["freshCredentials (the row again, credentials decrypted)", () => freshCredentials(teamId, connectionId)],
  ];
  const best = new Map<string, { ms: number; cpu: number }>();
  for (let pass = 0; pass < 3; pass++)
    for (const [name, piece] of pieces) {
      for (let i = 0; i < 5; i++) await piece();
      const n = 60;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await piece();
      const ms = (performance.now() - t0) / n;
      const u = process.cpuUsage(c0);
      const was = best.get(name);
      best.set(name, {
        ms: Math.min(ms, was?.ms ?? Infinity),
        cpu: Math.min((u.user + u.system) / 1000 / n, was?.cpu ?? Infinity),
      });
    }
  return [
    "### Probe: the rest of an iteration's (and a plain sandbox node's) own work, by the runner's lib functions, in this process, best of 3 passes of 60",
    "",
    "| piece | ms (wall) | CPU ms |",
    "|---|---|---|",
    ...pieces.map(([name]) => `| ${name} | ${best.get(name)!.ms.toFixed(2)} | ${best.get(name)!.cpu.toFixed(2)} |`),
  ];
}

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};

/**
 * Where the worker's CPU went during the loop run, per iteration: each function's share of the
 * profile's busy samples (itself and what it calls, and itself alone) times the worker's CPU time
 * of the run. Samples are counted, not their time deltas: on a busy machine a delta also holds the
 * time the process waited for a core.
 */
function summarizeProfile(file: string, cpuMs: number, items: number, unit: string): string[] {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const short = (url: string) =>
    url.includes("node_modules/")
      ? `node_modules/${url.slice(url.lastIndexOf("node_modules/") + "node_modules/".length)}`
      : url.replace(/^file:\/\//, "").replace(`${process.cwd()}/`, "");
  // tsx's transpiled modules are one line: an anonymous function is told apart by its column.
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || `(anonymous@${n.callFrame.columnNumber})`} ${short(n.callFrame.url)}`;
  const probeFrame = (id: number) => byId.get(id)!.callFrame.url.endsWith("worker-probe.cjs");
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = byId.get(profile.samples[i])!;
    if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)") {
      idle++;
      continue;
    }
    // The profiler's own start and stop (the probe's marks) are not the loop's.
    let ours = false;
    for (let id: number | undefined = leaf.id; id !== undefined && !ours; id = parent.get(id)) ours = probeFrame(id);
    if (ours) continue;
    total++;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const l = label(byId.get(id)!);
      if (!seen.has(l)) {
        seen.add(l);
        inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
      }
    }
  }
  const top = (m: Map<string, number>, filter: (k: string) => boolean, n: number) =>
    [...m.entries()]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, v]) =>
          `| ${k.replace(/\|/g, "\\|")} | ${((v / total) * (cpuMs / items)).toFixed(3)} | ${((100 * v) / total).toFixed(1)} % |`,
      );
  return [
    `### Probe: the worker's CPU profile (${total} busy samples, ${idle} idle; ${(cpuMs / items).toFixed(2)} ms of worker CPU per ${unit} shared out by samples)`,
    "",
    `| function (inclusive: itself and what it calls), lib only | CPU ms per ${unit} | share of busy |`,
    "|---|---|---|",
    ...top(inclusive, (k) => / lib\//.test(k), 30),
    "",
    `| function (self time), anywhere | CPU ms per ${unit} | share of busy |`,
    "|---|---|---|",
    ...top(self, () => true, 25),
  ];
}
