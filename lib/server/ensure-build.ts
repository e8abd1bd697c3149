import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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

export function ensureBuild(log: (msg: string) => void = console.log) {
  if (buildIsCurrent()) return;
  withBuildLock(log, () => {
    // Another process may have built it while this one waited.
    if (buildIsCurrent()) return;
    log("building the app (next build, about a minute)…");
    const r = spawnSync(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (r.status !== 0) throw new Error("next build failed");
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * One build at a time in this checkout (`npm start` and a test run started together would
 * otherwise write one .next at once): a lock directory holding the builder's pid; a lock whose
 * process is gone is taken over.
 */
function withBuildLock(log: (msg: string) => void, build: () => void) {
  const lock = join(root, ".next-build.lock");
  let told = false;
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
      if (pid && !alive(pid)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) log("another process is building the app; waiting for it…");
      told = true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
