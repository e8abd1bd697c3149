import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TIMING_DIR, type Probe, type TimedTest as Test } from "../support/timing-reporter";

// Where a run's minutes went (issue 46), from the files e2e/support/timing-reporter.ts writes:
//   npm run test:timing                 the newest run
//   npm run test:timing -- <file.json>  that run (several files: each in turn)
// Per project and per file: tests, wall time summed over tests, CPU (the machine's busy time
// shared among the tests running in it); the 30 slowest tests; the waits inside tests; and the
// overhead probes (spawned CLI and seed processes, extra servers, setup steps).

type Run = {
  at: string;
  database: string;
  status: string;
  wallMs: number;
  setupMs: number;
  cpuOutsideTestsMs: number;
  tests: Test[];
  probes: Probe[];
};

const s = (ms: number) => (ms / 1000).toFixed(1);
const pad = (v: string | number, n: number) => String(v).padStart(n);

function table(title: string, head: string[], rows: (string | number)[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n## ${title}\n`);
  console.log(`| ${head.map((h, i) => h.padEnd(widths[i])).join(" | ")} |`);
  console.log(`| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`);
  for (const r of rows)
    console.log(`| ${r.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : pad(v, widths[i]))).join(" | ")} |`);
}

function group<T>(items: T[], key: (t: T) => string) {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function summarize(file: string) {
  const run = JSON.parse(readFileSync(file, "utf8")) as Run;
  const testsMs = sum(run.tests.map((t) => t.ms));
  const cpuMs = sum(run.tests.map((t) => t.cpuMs));
  console.log(`# ${file}\n`);
  console.log(
    `${run.database}, ${run.status}: ${run.tests.length} tests, wall ${s(run.wallMs)} s (setup before the first ` +
      `test ${s(run.setupMs)} s); tests' wall summed ${s(testsMs)} s, CPU in tests ${s(cpuMs)} s, CPU outside ` +
      `tests ${s(run.cpuOutsideTestsMs)} s`,
  );
  const byProject = [...group(run.tests, (t) => t.project)].map(([p, ts]) => [
    p,
    ts.length,
    s(sum(ts.map((t) => t.ms))),
    s(sum(ts.map((t) => t.cpuMs))),
  ]);
  table("Per project", ["project", "tests", "wall s (summed)", "CPU s"], byProject);
  const byFile = [...group(run.tests, (t) => t.file)]
    .map(([f, ts]) => [f, ts.length, sum(ts.map((t) => t.ms)), sum(ts.map((t) => t.cpuMs))] as const)
    .sort((a, b) => b[2] - a[2])
    .map(([f, n, ms, cpu]) => [f, n, s(ms), s(cpu)]);
  table("Per file (by wall time)", ["file", "tests", "wall s", "CPU s"], byFile);
  const slowest = [...run.tests]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 30)
    .map((t) => [`${t.file.replace(/^e2e\//, "")} › ${t.title}`.slice(0, 110), s(t.ms), s(t.cpuMs)]);
  table("The 30 slowest tests", ["test", "wall s", "CPU s"], slowest);
  const waits = new Map<string, { n: number; ms: number }>();
  for (const t of run.tests)
    for (const [k, ms] of Object.entries(t.waits)) {
      const w = waits.get(k) ?? { n: 0, ms: 0 };
      waits.set(k, { n: w.n + 1, ms: w.ms + ms });
    }
  table(
    "Waits inside tests (Playwright steps)",
    ["kind", "tests", "wall s"],
    [...waits].map(([k, w]) => [k, w.n, s(w.ms)]),
  );
  const probes = [...group(run.probes, (p) => p.kind)].map(([k, ps]) => [
    k,
    ps.length,
    s(sum(ps.map((p) => p.ms))),
    ps.some((p) => p.cpuMs !== undefined) ? s(sum(ps.map((p) => p.cpuMs ?? 0))) : "–",
  ]);
  table("Overhead probes", ["kind", "count", "wall s", "CPU s"], probes);
  const setup = run.probes.filter((p) => p.kind === "setup").map((p) => [p.what, 1, s(p.ms), "–"]);
  if (setup.length) table("Setup steps", ["step", "count", "wall s", "CPU s"], setup);
  console.log();
}

const files = process.argv.slice(2);
if (files.length === 0) {
  const newest = readdirSync(TIMING_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .at(-1);
  if (!newest) throw new Error(`no timing file in ${TIMING_DIR}: run the suite first`);
  files.push(join(TIMING_DIR, newest));
}
for (const f of files) summarize(f);
