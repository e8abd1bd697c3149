// npm run fuzz — the hostile-input properties (e2e/api/hostile-input.spec.ts) at volume against
// the production server: FUZZ_RUNS (default 10000) requests generated from the server's own
// GET /v1/openapi.json over every /v1 operation (e2e/fuzz/requests.ts), aimed at a seeded team
// (e2e/fuzz/world.ts), each answer checked (e2e/fuzz/checks.ts): never a 5xx, always as the
// document describes it, no database error text, filters matched exactly, nothing of another team.
//
// Embedded SQLite by default; DATABASE_URL=postgresql://… runs it on a fresh PostgreSQL
// database, dropped at the end. FUZZ_SEED=<n> replays a run (the same requests, aimed at the
// new run's ids); with the FUZZ_PATH=<p> printed beside a failure it replays only that batch of
// requests and shrinks it to the smallest one that still fails.
import fc from "fast-check";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchWorkspace } from "../bench/workspace";
import { raw, type RawResponse } from "../support/hostile";
import type { Finding } from "../support/openapi-conformance";
import { ensureBuild, freePort, freshPostgresDatabase, migrateWith, startServer } from "../support/server";
import { startStandIns } from "../support/stand-ins";
import { responseChecker } from "./checks";
import { requestArb, type FuzzRequest } from "./requests";
import { seedWorld } from "./world";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 0x100000000);
const REPLAY_PATH = process.env.FUZZ_PATH;
/** Requests in flight at once (one fast-check run is a batch of this many): the machine has two cores and is shared. */
const IN_FLIGHT = 4;

async function send(req: FuzzRequest): Promise<RawResponse> {
  try {
    return await raw(req.method, req.path, { headers: req.headers, body: req.body });
  } catch (e) {
    return { status: 0, headers: {}, text: `no answer: ${(e as Error).message}`, ms: 0 };
  }
}

async function main() {
  console.log(`[fuzz] seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
  ensureBuild();
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
  Object.assign(env, standIns.env, { APP_URL: baseUrl, BASE_URL: baseUrl, PORT: String(port) });
  // The seed helpers (child processes) and raw() read the database and the server from here.
  Object.assign(process.env, env);
  migrateWith(env);
  const server = await startServer(port, env);
  let passed = false;
  try {
    const doc = await (await fetch(`${baseUrl}/v1/openapi.json`)).json();
    const { world, summary } = await seedWorld(doc);
    console.log(`[fuzz] ${engine}: ${summary}`);
    const { arbitrary, operations } = requestArb(doc, world);
    const findingsOf = responseChecker(doc);

    const statuses = new Map<number, number>();
    const perOperation = new Map<string, Map<number, number>>();
    const problems = new Map<string, Finding & { count: number; path: string }>();
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
          for (const f of findingsOf(req, res)) {
            // Replaying one batch: fail, so fast-check shrinks it to the smallest failing request.
            if (REPLAY_PATH !== undefined) throw new Error(`${f.key}\n    ${f.example}`);
            const known = problems.get(f.key);
            if (known) known.count++;
            else problems.set(f.key, { ...f, count: 1, path });
          }
        }
      },
    );
    const out = await fc.check(
      property,
      REPLAY_PATH === undefined
        ? { seed: SEED, numRuns: Math.ceil(RUNS / IN_FLIGHT) }
        : { seed: SEED, path: REPLAY_PATH, numRuns: 1 },
    );
    const seconds = (Date.now() - started) / 1000;

    const tally = (m: Map<number, number>) =>
      [...m]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(" ");
    console.log(
      `\n[fuzz] ${sent} requests in ${seconds.toFixed(1)} s (${(sent / seconds).toFixed(0)}/s) on ${engine}, seed ${SEED}`,
    );
    console.log(`[fuzz] statuses: ${tally(statuses)}`);
    for (const operation of [...perOperation.keys()].sort())
      console.log(`  ${operation.padEnd(52)} ${tally(perOperation.get(operation)!)}`);
    const unreached = REPLAY_PATH === undefined ? operations.filter((o) => !perOperation.has(o)) : [];
    if (unreached.length)
      problems.set("operations never requested", {
        key: "operations never requested",
        example: unreached.join(", "),
        count: unreached.length,
        path: "",
      });
    if (out.failed) {
      // In a replay, the shrunk failure; otherwise the fuzzer itself threw.
      console.log(
        `\n[fuzz] FAIL (seed ${SEED}, path ${out.counterexamplePath}, ${out.numShrinks} shrinks):\n  ${String((out.errorInstance as Error)?.message ?? out.errorInstance)}`,
      );
      return;
    }
    if (/unhandled error/.test(server.log()))
      console.log(`[fuzz] the server logged unhandled errors:\n${server.log().slice(-4000)}`);
    passed = problems.size === 0;
    if (passed)
      return void console.log(
        `[fuzz] PASS: ${sent} requests over ${operations.length} operations, every answer as documented`,
      );
    console.log(
      `\n[fuzz] FAIL (seed ${SEED}): ${[...problems.values()].reduce((n, p) => n + p.count, 0)} problems of ${problems.size} kinds`,
    );
    for (const p of problems.values()) {
      console.log(`- ${p.key} (×${p.count})\n    ${p.example.slice(0, 1200)}`);
      if (p.path) console.log(`    replay: FUZZ_SEED=${SEED} FUZZ_PATH=${p.path} npm run fuzz`);
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

main().catch((e) => {
  console.error(e);
  console.error(`[fuzz] seed ${SEED}`);
  process.exit(1);
});
