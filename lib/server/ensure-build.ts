import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpus, loadavg } from "node:os";
import { processAlive } from "@/lib/server/process-alive";

// A production build that matches the sources: built when missing or older than any source
// file, so `npm start` and the test runs never serve yesterday's code.

const root = process.cwd();

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "generated" || entry.name === "node_modules") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ["app", "lib", "components", "public"]) if (existsSync(join(root, dir))) walk(join(root, dir));
  for (const file of [
    "next.config.mjs",
    "package.json",
    "tailwind.config.ts",
    "postcss.config.mjs",
    "proxy.ts",
    "instrumentation.ts",
    // The generated database clients are built into the app.
    "prisma/schema.prisma",
  ]) {
    if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = join(root, ".next", "BUILD_ID");
  return existsSync(buildId) && statSync(buildId).mtimeMs > newestSource();
}

/**
 * Builds the app unless the build is current. A first build takes minutes on a small machine, so
 * it is never silent: Next's own lines are passed on as they come (its route table aside), and a
 * line says what it is still doing whenever it has printed nothing for a while.
 */
export async function ensureBuild(log: (msg: string) => void = console.log) {
  if (buildIsCurrent()) return;
  await withBuildLock(log, async () => {
    // Another process may have built it while this one waited.
    if (buildIsCurrent()) return;
    const t0 = Date.now();
    log("building the app (next build: 1 to 3 minutes on a first start; its progress follows)…");
    const code = await runWithProgress(
      process.execPath,
      [join(root, "node_modules", "next", "dist", "bin", "next"), "build"],
      { cwd: root, env: { ...process.env, ...nextEnv(), NODE_ENV: "production" } },
      { log, what: "building" },
    );
    if (code !== 0) throw new Error(`next build failed (exit ${code}); see its output above`);
    log(`built in ${duration(Date.now() - t0)}`);
  });
}

/**
 * What every Next process of `npm start` and the tests gets: no usage reports to Vercel (Next's
 * telemetry is on unless this is set; NEXT_TELEMETRY_DISABLED=0 in the environment turns it on).
 */
export const nextEnv = () => ({ NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" });

/**
 * Why a step may be slow, when the machine is the reason: "; the machine is busy: load 7.9 on 2
 * cores" once more processes want the CPU than it has (nothing otherwise, and on Windows).
 */
export function busyNote(): string {
  const load = loadavg()[0];
  const cores = cpus().length || 1;
  return load > cores ? `; the machine is busy: load ${load.toFixed(1)} on ${cores} cores` : "";
}

/** "42 s", or "2 min 5 s" past a minute. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Runs a command and passes its output on, line by line (`print`). Whenever it has printed
 * nothing for `quietMs`, `log` says so, naming the last step it announced: "still building:
 * Creating an optimized production build (45 s)". Resolves with its exit code.
 */
export function runWithProgress(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  progress: { log: (msg: string) => void; what: string; quietMs?: number; print?: (line: string) => void },
): Promise<number> {
  const quietMs = progress.quietMs ?? 15_000;
  const print = progress.print ?? ((line: string) => console.log(line));
  const t0 = Date.now();
  let step = "";
  let quietSince = Date.now();
  let routeTable = false;
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  const onLine = (line: string) => {
    quietSince = Date.now();
    // The table of every route and its size: a hundred lines that say nothing about progress.
    if (/^Route \(/.test(line.trim())) routeTable = true;
    if (routeTable && !/error|warn/i.test(line)) return;
    print(line);
    // "   Creating an optimized production build ..." → "Creating an optimized production build".
    const announced = line
      .trim()
      .replace(/^[^\p{L}]+/u, "")
      .replace(/\s*(\.\.\.|…)$/, "");
    if (announced) step = announced;
  };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n/);
      partial = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    });
    stream.on("end", () => partial && onLine(partial));
  }
  const timer = setInterval(
    () => {
      if (Date.now() - quietSince < quietMs) return;
      quietSince = Date.now();
      progress.log(`still ${progress.what}${step ? `: ${step}` : ""} (${duration(Date.now() - t0)}${busyNote()})`);
    },
    Math.min(quietMs, 1000),
  );
  return new Promise((resolve, reject) => {
    child.on("error", (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearInterval(timer);
      resolve(code ?? 1);
    });
  });
}

/**
 * One build at a time in this checkout (`npm start` and a test run started together would
 * otherwise write one .next at once): a lock directory holding the builder's pid; a lock whose
 * process is gone is taken over.
 */
async function withBuildLock(log: (msg: string) => void, build: () => Promise<void>) {
  const lock = join(root, ".next-build.lock");
  const t0 = Date.now();
  let told = 0;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch {
      let pid = 0;
      try {
        pid = Number(readFileSync(join(lock, "pid"), "utf8"));
      } catch {
        pid = 0;
      }
      if (pid && !processAlive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) log("another process is building the app; waiting for it…");
      else if (told % 15 === 0) log(`still waiting for the other build (${duration(Date.now() - t0)})`);
      told++;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
