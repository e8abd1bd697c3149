import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "@playwright/test";
import type { FullResult, Reporter, TestCase, TestResult, TestStep } from "@playwright/test/reporter";

// Where the suite's minutes go (issue 46): every test's wall time and its share of the machine's
// CPU, the waits inside it, and what the overhead probes (spawns, extra servers) recorded. It
// writes e2e/.artifacts/timing/<run>.json and prints the summary `npm run test:timing` prints.

const root = resolve(__dirname, "..", "..");
export const TIMING_DIR = join(root, "e2e", ".artifacts", "timing");
const PROBES = join(TIMING_DIR, "probes");

/** Busy and total jiffies of the whole machine (every process: servers, browsers, spawns). */
function machineJiffies(): { busy: number; total: number } {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - cpu[3] - (cpu[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** One overhead event from a worker or the setup: a spawned CLI or seed, a started server. */
export type Probe = { kind: string; what: string; ms: number; cpuMs?: number; file?: string };

/** Appends a probe to this process's probe file (read by the reporter at the end of the run). */
export function recordProbe(probe: Probe) {
  try {
    probe.file ??= currentTestFile();
    mkdirSync(PROBES, { recursive: true });
    appendFileSync(join(PROBES, `${process.pid}.jsonl`), `${JSON.stringify(probe)}\n`);
  } catch {
    /* timing is best effort: it never fails a test */
  }
}

/** The spec file of the test this worker is running, when it is running one. */
function currentTestFile(): string | undefined {
  try {
    return relative(root, test.info().file);
  } catch {
    return undefined;
  }
}

/** CPU time (ms) of this process's waited-for children, from /proc/self/stat (cutime + cstime). */
export function childrenCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** One test as the timing file records it. */
export type TimedTest = {
  project: string;
  file: string;
  title: string;
  status: string;
  ms: number;
  cpuMs: number;
  waits: Record<string, number>;
};

/** The kind of wait a step is, or undefined when it is work rather than waiting. */
function waitKind(step: TestStep): string | undefined {
  const t = step.title;
  if (/waitForTimeout|Wait for timeout/i.test(t)) return "waitForTimeout";
  if (/^expect\.poll|Expect poll|^poll/i.test(t)) return "expect.poll";
  if (/toPass/.test(t)) return "expect.toPass";
  if (/waitForURL|waitForResponse|waitForEvent|waitForSelector|waitForLoadState/.test(t)) return "page waits";
  return undefined;
}

export default class TimingReporter implements Reporter {
  private started = Date.now();
  private firstTest = 0;
  private last = machineJiffies();
  private active = new Map<TestResult, TimedTest>();
  private rows: TimedTest[] = [];
  private cpuOutsideTests = 0;

  onBegin() {
    rmSync(PROBES, { recursive: true, force: true });
    this.started = Date.now();
    this.last = machineJiffies();
  }

  /** Shares the machine's busy time since the last event among the tests running in it. */
  private settle() {
    const now = machineJiffies();
    const busyMs = (now.busy - this.last.busy) * 10;
    this.last = now;
    if (this.active.size === 0) this.cpuOutsideTests += busyMs;
    else for (const row of this.active.values()) row.cpuMs += busyMs / this.active.size;
  }

  onTestBegin(test: TestCase, result: TestResult) {
    this.settle();
    if (!this.firstTest) this.firstTest = Date.now();
    this.active.set(result, {
      project: test.parent.project()?.name ?? "?",
      file: relative(root, test.location.file),
      title: test.title,
      status: "running",
      ms: 0,
      cpuMs: 0,
      waits: {},
    });
  }

  onStepEnd(_test: TestCase, result: TestResult, step: TestStep) {
    const row = this.active.get(result);
    const kind = waitKind(step);
    // Outermost waits only: a poll's own inner steps are not counted twice.
    if (row && kind && !(step.parent && waitKind(step.parent)))
      row.waits[kind] = (row.waits[kind] ?? 0) + step.duration;
  }

  onTestEnd(_test: TestCase, result: TestResult) {
    this.settle();
    const row = this.active.get(result);
    if (!row) return;
    this.active.delete(result);
    row.ms = result.duration;
    row.status = result.status;
    this.rows.push(row);
  }

  onEnd(result: FullResult) {
    this.settle();
    const probes: Probe[] = [];
    try {
      for (const f of readdirSync(PROBES))
        for (const line of readFileSync(join(PROBES, f), "utf8").split("\n"))
          if (line.trim()) probes.push(JSON.parse(line));
    } catch {
      /* no probes */
    }
    const report = {
      at: new Date().toISOString(),
      database: /^postgres/.test(process.env.DATABASE_URL ?? "") ? "postgresql" : "sqlite",
      status: result.status,
      wallMs: Date.now() - this.started,
      setupMs: (this.firstTest || Date.now()) - this.started,
      cpuOutsideTestsMs: Math.round(this.cpuOutsideTests),
      tests: this.rows.map((r) => ({ ...r, cpuMs: Math.round(r.cpuMs) })),
      probes,
    };
    mkdirSync(TIMING_DIR, { recursive: true });
    const file = join(TIMING_DIR, `${report.at.replace(/[:.]/g, "-")}-${report.database}.json`);
    writeFileSync(file, JSON.stringify(report, null, 1));
    console.log(
      `\n[timing] ${relative(root, file)}: ${this.rows.length} tests, ${(report.wallMs / 1000).toFixed(0)} s`,
    );
  }
}
