// npm run bench:workflows — 1,000 workflows of three sandbox nodes (two reports and a note),
// all due at the same instant, run by the production server's scheduler and runner, in one
// run with its comparisons alternated so every side sees the same machine:
//   - bare:  the same three operations of 1,000 runs called in this process (each operation's own
//            `run` with the same credentials: the provider calls and nothing else), with as many
//            runs at once as the runner takes (WORKFLOW_CONCURRENCY, 32); before and after;
//   - floor: 1,000 workflows of three utility nodes (no provider): the runner's own cost — claims,
//            node logs, run state, the ledger entry;
//   - run:   the 1,000 sandbox workflows.
// Reported: runs completed per second (due time → last run's end) of each side, run/bare, the
// scheduling lag (due time → first node started) p50/p99, and that every workflow ran exactly
// once (one run, three logs, one ledger entry) with nothing lost or stuck.
//
// Then the loop case (e2e/bench/workflow-loop.ts, issue 48): one run of a 500-item loop over a
// sandbox read against the same reads bare and against a plain run's nodes, while another team's
// API is watched. BENCH_CASE=runs or BENCH_CASE=loop runs only one of the two (both by default);
// BENCH_PROBE=1 (and BENCH_PROBE_CPU=1) adds the worker's SQL statement counts (and CPU profile)
// of the sandbox runs and of the loop (BENCH_PROBE_SQL=1: counted by statement, not verb and table).
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL database
// (dropped afterwards). Writes e2e/.artifacts/bench-workflows-<engine>.md (-probe.md with BENCH_PROBE).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";
import { childPid, databaseCpuSeconds, ownCpuSeconds, pidListeningOn } from "./process-cpu";
import { diff, loopCase, probeMarker, profileSummary } from "./workflow-loop";

const WORKFLOWS = Number(process.env.BENCH_WORKFLOWS ?? 1000);
const CONCURRENCY = 32;
const CASE = process.env.BENCH_CASE ?? "all";
if (!["all", "runs", "loop"].includes(CASE)) throw new Error(`BENCH_CASE is runs, loop or unset (both), not ${CASE}`);

const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const DAY = 86_400_000;
const dateOf = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * DAY).toISOString().slice(0, 10);

async function main() {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench") : undefined;
  process.env.WORKFLOW_MAX_ACTIVE_SCHEDULES = String(10 * WORKFLOWS); // one team holds them all, saved here
  const { env, dir } = benchWorkspace("bench-workflows", pg?.url);
  // The loop case's probe (worker-probe.cjs) rides in every process of the server, its worker included.
  const probeDir = process.env.BENCH_PROBE === "1" ? join(dir, "probe") : undefined;
  if (probeDir) mkdirSync(probeDir, { recursive: true });
  const engine = postgres ? "PostgreSQL" : "SQLite";
  // The database's own CPU (its backends' processes), PostgreSQL on this machine only.
  const databaseName = pg ? new URL(pg.url).pathname.slice(1) : undefined;
  migrateWith(env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.APP_URL = baseUrl; // this process calls the sandbox provider (inside the server) as the server does
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { findOperation } = await import("@/lib/operations/registry");
  const { createWorkflow } = await import("@/lib/workflows/save-workflow");
  const { db } = await import("@/lib/db/client");
  const team = await createTeam({ name: "Bench", plan: "team", creditsLimit: 1_000_000_000 });
  const user = await createUser({ teamId: team.id, email: "bench@patchbay.dev", role: "owner" });
  const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
  const server = await startServer(port, {
    ...env,
    PORT: String(port),
    APP_URL: baseUrl,
    WORKFLOW_CONCURRENCY: String(CONCURRENCY),
    WORKFLOW_TEAM_CONCURRENCY: String(CONCURRENCY),
    ...(probeDir && {
      BENCH_PROBE_DIR: probeDir,
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ""} --require ${join(root, "e2e", "bench", "worker-probe.cjs")}`.trim(),
    }),
  });
  const serverPid = pidListeningOn(port);
  const workerPid = childPid(serverPid, "lib/server/workflow-worker-main.ts");
  /** CPU seconds so far: the web process (it serves the sandbox provider too), its worker, PostgreSQL's backends. */
  const cpuNow = () => ({
    web: ownCpuSeconds(serverPid),
    worker: ownCpuSeconds(workerPid),
    db: databaseName ? databaseCpuSeconds(databaseName) : NaN,
  });
  const cpuSince = (a: ReturnType<typeof cpuNow>) => {
    const b = cpuNow();
    return { web: b.web - a.web, worker: b.worker - a.worker, db: b.db - a.db };
  };
  try {
    const apiKey = "sk-bench-workflows";
    const res = await fetch(`${baseUrl}/v1/connections`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ connection_type: "sandbox_key", name: "Bench sandbox", credentials: { api_key: apiKey } }),
    });
    if (res.status !== 200) throw new Error(`creating the connection: HTTP ${res.status} ${await res.text()}`);
    const connection = (await res.json()) as { id: string; external_id: string; name: string };
    const actor = { teamId: team.id, userId: user.id };
    // The bare sides' operations: each one's own `run`, with the connection and credentials the runner passes.
    const report = findOperation("sandbox.report")!;
    const setNote = findOperation("sandbox.set_note")!;
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

    /** The existing case: 1,000 three-node workflows due at once, against the bare operations and the floor. */
    const runsCase = async () => {
      // Every workflow asks for other dates: no node is answered from the response cache.
      const sandboxNodes = (n: number) => [
        {
          id: "sessions",
          label: "Sessions",
          operation_id: "sandbox.report",
          connection_id: connection.id,
          input: { metric: "sessions", days: 7, end_date: dateOf(2 * n) },
        },
        {
          id: "users",
          label: "Users",
          operation_id: "sandbox.report",
          connection_id: connection.id,
          input: { metric: "users", days: 7, end_date: dateOf(2 * n + 1) },
        },
        {
          id: "note",
          label: "Note",
          operation_id: "sandbox.set_note",
          connection_id: connection.id,
          input: { note: "{{nodes.sessions.output.total}} sessions, {{nodes.users.output.total}} users" },
        },
      ];
      const utilityNodes = () => [
        { id: "a", label: "A", operation_id: "utility.format_text", input: { template: "{{run.date.today}}" } },
        { id: "b", label: "B", operation_id: "utility.format_text", input: { template: "{{nodes.a.output.text}} b" } },
        { id: "c", label: "C", operation_id: "utility.format_text", input: { template: "{{nodes.b.output.text}} c" } },
      ];
      // Saved through the same checks as any workflow, with a schedule far away; then all made due at one instant.
      const create = async (prefix: string, nodes: (n: number) => object[]) => {
        for (let n = 0; n < WORKFLOWS; n++)
          await createWorkflow(actor, {
            name: `${prefix} ${n}`,
            nodes: nodes(n) as never,
            schedule: "0 0 1 1 *",
            timezone: null,
            active: true,
          });
        return prefix;
      };
      process.stdout.write(`[bench] creating ${2 * WORKFLOWS} workflows… `);
      const floorSet = await create("floor", utilityNodes);
      const runSet = await create("run", sandboxNodes);
      console.log("done");

      // bare: the operations of WORKFLOWS runs in this process, CONCURRENCY runs at a time.
      let bareN = 10_000;
      const bare = async () => {
        const cpu0 = cpuNow();
        const own0 = process.cpuUsage();
        const t0 = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < WORKFLOWS) {
              next++;
              const n = bareN++;
              const s = (await report.run(ctx, { metric: "sessions", days: 7, end_date: dateOf(2 * n) })) as {
                total: number;
              };
              const u = (await report.run(ctx, { metric: "users", days: 7, end_date: dateOf(2 * n + 1) })) as {
                total: number;
              };
              await setNote.run(ctx, { note: `${s.total} sessions, ${u.total} users` });
            }
          }),
        );
        const own = process.cpuUsage(own0);
        return {
          perSecond: WORKFLOWS / ((performance.now() - t0) / 1000),
          cpu: { ...cpuSince(cpu0), client: (own.user + own.system) / 1e6 },
        };
      };

      /** Makes the set's workflows due in 2 s, waits for all their runs, and measures. */
      const fire = async (prefix: string) => {
        const mine = { teamId: team.id, name: { startsWith: `${prefix} ` } };
        const due = Date.now() + 2000;
        await db.workflow.updateMany({ where: mine, data: { nextRunAt: BigInt(due) } });
        const cpu0 = cpuNow();
        for (;;) {
          const open = await db.workflowRun.count({ where: { workflow: mine, status: { in: ["queued", "running"] } } });
          const all = await db.workflowRun.count({ where: { workflow: mine } });
          if (all >= WORKFLOWS && open === 0) break;
          if (Date.now() - due > 15 * 60_000)
            throw new Error(`runs not done after 15 minutes: ${all} created, ${open} open`);
          await new Promise((r) => setTimeout(r, 200));
        }
        const cpu = cpuSince(cpu0);
        const runs = await db.workflowRun.findMany({
          where: { workflow: mine },
          select: {
            id: true,
            workflowId: true,
            slotAt: true,
            status: true,
            completedAt: true,
            state: true,
            credits: true,
            startedAt: true,
          },
        });
        // Where a run's time went, from its steps: claimed → first node, each node, the gaps between, last → end.
        const phases = runs.map((r) => {
          const steps = (JSON.parse(r.state) as { steps: { started_ms: number; completed_ms: number }[] }).steps;
          const out = [steps[0].started_ms - Number(r.startedAt)];
          steps.forEach((st, k) => {
            if (k > 0) out.push(st.started_ms - steps[k - 1].completed_ms);
            out.push(st.completed_ms - st.started_ms);
          });
          out.push(Number(r.completedAt) - steps[steps.length - 1].completed_ms);
          return out;
        });
        const phaseP50 = phases[0].map((_, k) =>
          p(
            phases.map((x) => x[k]),
            0.5,
          ),
        );
        const lags = runs.map(
          (r) => (JSON.parse(r.state) as { steps: { started_ms: number }[] }).steps[0].started_ms - Number(r.slotAt),
        );
        const end = Math.max(...runs.map((r) => Number(r.completedAt)));
        // Runs in flight on average from the first claim to the last end (the runner takes CONCURRENCY).
        const firstClaim = Math.min(...runs.map((r) => Number(r.startedAt)));
        const inFlight =
          runs.reduce((sum, r) => sum + Number(r.completedAt) - Number(r.startedAt), 0) / (end - firstClaim);
        const logs = await db.operationLog.groupBy({
          by: ["sourceRunId"],
          where: { teamId: team.id, sourceType: "workflow", sourceName: { startsWith: `${prefix} ` } },
          _count: { _all: true },
        });
        const ledger = await db.creditLedgerEntry.count({
          where: { teamId: team.id, serviceType: "workflow", serviceName: { startsWith: `${prefix} ` } },
        });
        const problems: string[] = [];
        if (runs.length !== WORKFLOWS || new Set(runs.map((r) => r.workflowId)).size !== WORKFLOWS)
          problems.push(`${runs.length} runs for ${WORKFLOWS} workflows`);
        const failed = runs.filter((r) => r.status !== "success");
        if (failed.length) problems.push(`${failed.length} runs did not succeed (${failed[0].status})`);
        if (logs.length !== runs.length || logs.some((l) => l._count._all !== 3))
          problems.push("a run without exactly three logs");
        if (ledger !== runs.length) problems.push(`${ledger} ledger entries for ${runs.length} runs`);
        return {
          perSecond: runs.length / ((end - due) / 1000),
          p50: p(lags, 0.5),
          p99: p(lags, 0.99),
          cpu,
          phaseP50,
          inFlight,
          runs: runs.length,
          credits: runs.reduce((s, r) => s + (r.credits ?? 0), 0),
          problems,
        };
      };

      // The connection above was made through this process's pooled socket, which the server
      // closed (idle) while the workflows were made by synchronous SQLite calls: until the event
      // loop turns, undici has not seen the close and would send the next call on it
      // (UND_ERR_SOCKET, "other side closed").
      await new Promise((r) => setTimeout(r, 100));
      await bare(); // warm-up of the provider path and this process
      const bareBefore = await bare();
      const floor = await fire(floorSet);
      // BENCH_PROBE=1: the worker's statements per sandbox run (and its CPU profile with BENCH_PROBE_CPU=1).
      const mark = probeDir && workerPid !== null ? probeMarker(probeDir) : undefined;
      const before = mark && (await mark(workerPid!));
      const run = await fire(runSet);
      const after = mark && (await mark(workerPid!));
      const probeText: string[] = [];
      if (before && after) {
        const sent = diff(before.counts, after.counts);
        const total = Object.values(sent).reduce((a, b) => a + b, 0);
        probeText.push(
          "",
          `### Probe: SQL statements the worker sent per sandbox run (${(total / run.runs).toFixed(2)} in all)`,
          "",
          "| statement | per run |",
          "|---|---|",
          ...Object.entries(sent)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => `| ${k} | ${(v / run.runs).toFixed(2)} |`),
        );
        if (process.env.BENCH_PROBE_CPU === "1")
          probeText.push(
            "",
            ...(await profileSummary(probeDir!, workerPid!, after.n, 1000 * run.cpu.worker, run.runs, "run")),
          );
      }
      const bareAfter = await bare();
      const bareRate = (bareBefore.perSecond + bareAfter.perSecond) / 2;
      const problems = [...floor.problems.map((x) => `floor: ${x}`), ...run.problems.map((x) => `run: ${x}`)];
      const f = (v: number) => v.toFixed(1);
      const perRun = (cpu: { web: number; worker: number; db: number }, runs: number) =>
        [cpu.web, cpu.worker, cpu.db].map((v) => (Number.isNaN(v) ? "–" : f((1000 * v) / runs))).join(" | ");
      const text = [
        `# bench:workflows — ${engine}, ${WORKFLOWS} workflows due at once, ${CONCURRENCY} runs at a time`,
        "",
        "CPU is per run, in ms: the web process (which also serves the sandbox provider's API), its workflow worker,",
        "and PostgreSQL's backends (SQLite works inside the processes). The bare side's client work is in this process.",
        "",
        "| side | runs/s | lag p50 ms | lag p99 ms | CPU: web | CPU: worker | CPU: database |",
        "|---|---|---|---|---|---|---|",
        ...(
          [
            ["bare before: the 3 sandbox operations of each run, in this process", bareBefore],
            ["bare after", bareAfter],
          ] as const
        ).map(([side, m]) => `| ${side} | ${f(m.perSecond)} | | | ${perRun(m.cpu, WORKFLOWS)} |`),
        ...(
          [
            ["floor: 3 utility nodes per run (no provider)", floor],
            ["run: 3 sandbox nodes per run (2 reports, 1 note)", run],
          ] as const
        ).map(([side, m]) => `| ${side} | ${f(m.perSecond)} | ${f(m.p50)} | ${f(m.p99)} | ${perRun(m.cpu, m.runs)} |`),
        "",
        `A sandbox run's time, p50 ms: claimed → node 1 starts ${run.phaseP50[0]}; node 1 ${run.phaseP50[1]}; → node 2 ${run.phaseP50[2]}; node 2 ${run.phaseP50[3]}; → node 3 ${run.phaseP50[4]}; node 3 ${run.phaseP50[5]}; → run ends ${run.phaseP50[6]}.`,
        `A floor run's, the same: ${floor.phaseP50.join(", ")}.`,
        `Runs in flight on average (claimed, not ended), of ${CONCURRENCY}: floor ${f(floor.inFlight)}, run ${f(run.inFlight)}.`,
        "",
        `run / bare: ${(run.perSecond / bareRate).toFixed(2)} (runs per second through the scheduler and runner, against the same provider calls in a loop).`,
        `Each sandbox run wrote 3 logs and 1 ledger entry (${run.credits} credits for ${run.runs} runs: 1 + 2 + 2 + 1 each).`,
        "",
        `The bare side's own client work (this process) per run: ${f((1000 * bareBefore.cpu.client) / WORKFLOWS)} and ${f((1000 * bareAfter.cpu.client) / WORKFLOWS)} ms of CPU; in a run the worker does it.`,
        ...probeText,
        "",
        problems.length
          ? `- FAIL: ${problems.join("; ")}`
          : `- PASS: every workflow ran exactly once (${floor.runs + run.runs} runs, 3 logs and 1 ledger entry each), none lost, none left running`,
      ].join("\n");
      return { text, problems };
    };

    const sections: string[] = [];
    const problems: string[] = [];
    if (CASE !== "loop") {
      const runs = await runsCase();
      sections.push(runs.text);
      problems.push(...runs.problems);
    }
    if (CASE !== "runs") {
      const loop = await loopCase({
        baseUrl,
        teamId: team.id,
        userId: user.id,
        connectionId: connection.id,
        bareCtx: ctx,
        serverPid,
        probeDir,
      });
      if (CASE === "loop") sections.push(`# bench:workflows — ${engine}, the loop case`);
      sections.push(loop.text);
      problems.push(...loop.problems);
    }
    const text = sections.join("\n\n");
    console.log(`\n${text}\n`);
    writeFileSync(
      // A probed run (its counters and profiler loaded) keeps its own file beside the plain figures.
      join(
        root,
        "e2e",
        ".artifacts",
        `bench-workflows-${postgres ? "postgresql" : "sqlite"}${probeDir ? "-probe" : ""}.md`,
      ),
      `${text}\n`,
    );
    process.exitCode = problems.length ? 1 : 0;
  } catch (e) {
    // What the server said around a failure (a refused or dropped call names no cause of its own).
    console.error(`[bench] the server's last lines:\n${server.log().split("\n").slice(-40).join("\n")}`);
    throw e;
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
