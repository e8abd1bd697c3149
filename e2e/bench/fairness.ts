// npm run bench:fairness — whether one team's burst of workflow runs stalls another team's API
// (issue 31, finding 6: 200 read-only workflows on `* * * * *` made another team's
// GET /v1/connections take 50 s). Against the production server, in one run:
//   1. idle:  another team's GET /v1/connections, with nothing running;
//   2. burst of one team: 200 workflows of three sandbox reads, all due at one instant;
//   3. burst of several teams at the per-team cap: 4 teams × 50 such workflows, due at once.
// During each phase three things are sampled alternately, one request at a time, so each sees the
// same machine: the API call (team B's key); the framework's floor, the same server's cheapest
// answer through the same wrapper (the same route with an unknown key: a 401 from withAuth); and
// the bare driver doing the same work in this process (the key lookup and the connections query,
// lib's SQL on better-sqlite3 / pg). Bar: the API's p99 during a burst under 50 ms.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL database
// (dropped afterwards). Writes e2e/.artifacts/bench-fairness-<engine>.md.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, root, startServer } from "../support/server";
import { benchWorkspace } from "./workspace";
import { bareDriver } from "./bare-driver";

const BURST = Number(process.env.BENCH_BURST ?? 200);
const TEAMS_AT_CAP = 4;
const BAR_MS = 50;

const q = (values: number[], at: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))] : NaN;
};
const DAY = 86_400_000;
const dateOf = (n: number) => new Date(Date.UTC(2000, 0, 1) + n * DAY).toISOString().slice(0, 10);

type Samples = { api: number[]; floor: number[]; bare: number[]; errors: number };

async function main() {
  await ensureBuild();
  const postgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
  const pg = postgres ? await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_bench") : undefined;
  // A generous schedule cap for the bench's one busy team (the default caps a team at 100), here
  // (where the workflows are saved) and in the server.
  process.env.WORKFLOW_MAX_ACTIVE_SCHEDULES = "100000";
  const { env, dbFile } = benchWorkspace("bench-fairness", pg?.url);
  const engine = postgres ? "PostgreSQL" : "SQLite";
  migrateWith(env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.APP_URL = baseUrl;
  const { createTeam } = await import("@/lib/teams/create-team");
  const { createUser } = await import("@/lib/users/create-user");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key");
  const { createWorkflow } = await import("@/lib/workflows/save-workflow");
  const { teamConcurrency } = await import("@/lib/workflows/config");
  const { db } = await import("@/lib/db/client");

  const makeTeam = async (name: string) => {
    const team = await createTeam({ name, plan: "team", creditsLimit: 1_000_000_000 });
    const user = await createUser({
      teamId: team.id,
      email: `${name.toLowerCase().replace(/\W+/g, "-")}@patchbay.dev`,
      role: "owner",
    });
    const { key } = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
    return { team, user, key };
  };
  const server = await startServer(port, { ...env, PORT: String(port), APP_URL: baseUrl });
  const bare = await bareDriver(pg?.url ?? `file:${dbFile}`);
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
    // Team B: the one whose API is watched, with a few connections to list.
    const victim = await makeTeam("Watched team");
    for (let i = 0; i < 5; i++)
      await post(victim.key, {
        connection_type: "sandbox_key",
        name: `Watched ${i}`,
        credentials: { api_key: `sk-watched-${i}` },
      });
    const auth = `Bearer ${victim.key}`;

    // The busy teams: read-only workflows of three sandbox reads each, other dates every time (no cache hits).
    let dates = 0;
    const busyTeam = async (name: string, workflows: number) => {
      const t = await makeTeam(name);
      const conn = await post(t.key, {
        connection_type: "sandbox_key",
        name: `${name} sandbox`,
        credentials: { api_key: `sk-${name.replace(/\W+/g, "-")}` },
      });
      for (let n = 0; n < workflows; n++) {
        const nodes = ["sessions", "users", "sessions"].map((metric, k) => ({
          id: `r${k}`,
          label: `Read ${k}`,
          operation_id: "sandbox.report",
          connection_id: conn.id,
          input: { metric, days: 7, end_date: dateOf(dates++) },
        }));
        await createWorkflow(
          { teamId: t.team.id, userId: t.user.id },
          { name: `${name} ${n}`, nodes: nodes, schedule: "0 0 1 1 *", timezone: null, active: true },
        );
      }
      return t.team.id;
    };
    process.stdout.write(`[bench] creating ${BURST} + ${TEAMS_AT_CAP}×${BURST / TEAMS_AT_CAP} workflows… `);
    const oneTeam = [await busyTeam("Busy team", BURST)];
    const severalTeams: string[] = [];
    for (let i = 0; i < TEAMS_AT_CAP; i++) severalTeams.push(await busyTeam(`Team at cap ${i}`, BURST / TEAMS_AT_CAP));
    console.log("done");

    const sampleOnce = async (s: Samples) => {
      let t = performance.now();
      const api = await fetch(`${baseUrl}/v1/connections`, { headers: { authorization: auth } });
      await api.arrayBuffer();
      s.api.push(performance.now() - t);
      if (api.status !== 200) s.errors++;
      t = performance.now();
      const floor = await fetch(`${baseUrl}/v1/connections`, {
        headers: { authorization: "Bearer pbk_unknown_key_for_the_floor" },
      });
      await floor.arrayBuffer();
      s.floor.push(performance.now() - t);
      if (floor.status !== 401) s.errors++;
      t = performance.now();
      await bare.connections(auth);
      s.bare.push(performance.now() - t);
    };
    const sampleWhile = async (busy: () => Promise<boolean>) => {
      const s: Samples = { api: [], floor: [], bare: [], errors: 0 };
      let check = 0;
      while (await (check++ % 10 === 0 ? busy() : Promise.resolve(true))) await sampleOnce(s);
      return s;
    };

    // Warm-up, then idle.
    for (let i = 0; i < 50; i++) await sampleOnce({ api: [], floor: [], bare: [], errors: 0 });
    const idleUntil = Date.now() + 8000;
    const idle = await sampleWhile(async () => Date.now() < idleUntil);

    const burst = async (teamIds: string[]) => {
      const mine = { teamId: { in: teamIds } };
      const due = Date.now() + 1500;
      await db.workflow.updateMany({ where: mine, data: { nextRunAt: BigInt(due) } });
      const started = Date.now();
      const expected = await db.workflow.count({ where: mine });
      const s = await sampleWhile(async () => {
        if (Date.now() - started > 15 * 60_000) throw new Error("the burst's runs did not end within 15 minutes");
        const all = await db.workflowRun.count({ where: mine });
        const open = await db.workflowRun.count({ where: { ...mine, status: { in: ["queued", "running"] } } });
        return Date.now() < due || all < expected || open > 0;
      });
      const runs = await db.workflowRun.findMany({ where: mine, select: { status: true, completedAt: true } });
      const end = Math.max(...runs.map((r) => Number(r.completedAt)));
      return {
        s,
        runs: runs.length,
        ok: runs.filter((r) => r.status === "success").length,
        seconds: (end - due) / 1000,
      };
    };
    const single = await burst(oneTeam);
    const several = await burst(severalTeams);

    const row = (name: string, s: Samples) =>
      `| ${name} | ${s.api.length} | ${q(s.api, 0.5).toFixed(2)} | ${q(s.api, 0.99).toFixed(2)} | ${Math.max(...s.api).toFixed(1)} | ${q(s.floor, 0.5).toFixed(2)} | ${q(s.floor, 0.99).toFixed(2)} | ${q(s.bare, 0.5).toFixed(2)} | ${q(s.bare, 0.99).toFixed(2)} | ${s.errors} |`;
    const pass = (s: Samples) => q(s.api, 0.99) < BAR_MS;
    const text = [
      `# bench:fairness — ${engine}; another team's GET /v1/connections while workflows run (WORKFLOW_TEAM_CONCURRENCY ${teamConcurrency()})`,
      "",
      "| phase | samples | API p50 ms | API p99 ms | API max ms | floor p50 ms | floor p99 ms | bare driver p50 ms | bare driver p99 ms | errors |",
      "|---|---|---|---|---|---|---|---|---|---|",
      row("idle", idle),
      row(`burst: one team's ${BURST} workflows (3 reads each)`, single.s),
      row(`burst: ${TEAMS_AT_CAP} teams × ${BURST / TEAMS_AT_CAP} workflows`, several.s),
      "",
      `- one team's burst: ${single.ok}/${single.runs} runs succeeded in ${single.seconds.toFixed(1)} s (${(single.runs / single.seconds).toFixed(1)} runs/s)`,
      `- several teams' burst: ${several.ok}/${several.runs} runs succeeded in ${several.seconds.toFixed(1)} s (${(several.runs / several.seconds).toFixed(1)} runs/s)`,
      `- ${pass(single.s) ? "PASS" : "FAIL"} another team's API p99 under ${BAR_MS} ms during one team's burst: ${q(single.s.api, 0.99).toFixed(2)} ms`,
      `- ${pass(several.s) ? "PASS" : "FAIL"} another team's API p99 under ${BAR_MS} ms during several teams' burst: ${q(several.s.api, 0.99).toFixed(2)} ms`,
      "",
      "floor: the same route with an unknown key (withAuth's 401, the server's cheapest answer through the same wrapper); bare driver: the key lookup and the connections query in this process.",
    ].join("\n");
    console.log(`\n${text}`);
    writeFileSync(join(root, "e2e", ".artifacts", `bench-fairness-${engine.toLowerCase()}.md`), `${text}\n`);
    if (single.ok !== single.runs || several.ok !== several.runs || single.runs !== BURST || several.runs !== BURST)
      process.exitCode = 1;
  } finally {
    await bare.close();
    await server.stop();
    await db.$disconnect();
    await pg?.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
