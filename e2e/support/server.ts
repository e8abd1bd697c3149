import { spawn, spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { nextEnv } from "@/lib/server/ensure-build";
import { recordProbe } from "./timing-reporter";

// Shared by the test setup and the benchmarks: the production build of the current sources,
// served by `next start` on a free port with the given environment.

export const root = resolve(__dirname, "..", "..");

export { ensureBuild } from "@/lib/server/ensure-build";

/** Compiles packages/client (tsc) into its dist/, as `npm install` does. */
export function buildClient() {
  const r = spawnSync(
    process.execPath,
    [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "packages", "client")],
    { cwd: root, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`building @patchbay/client failed:\n${r.stdout}${r.stderr}`);
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
    srv.on("error", fail);
  });
}

/** Applies migrations with the product's own runner, in a child process with this environment. */
export function migrateWith(env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/db/migrate-cli.ts"], {
    cwd: root,
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`migrations failed: ${r.stderr}`);
}

/**
 * `next start` on `port`; resolves once the API answers. `log()` returns what it printed, which
 * also goes to `logFile` when given. `cwd`: another checkout's build (a benchmark's baseline);
 * this one's by default.
 */
export async function startServer(port: number, env: NodeJS.ProcessEnv, cwd = root, logFile?: string) {
  const t0 = Date.now();
  // The test run records every /v1 response for the OpenAPI conformance check (e2e/conformance).
  const recorder = env.PATCHBAY_RECORD_RESPONSES
    ? ["--require", join(root, "e2e", "support", "record-responses.cjs")]
    : [];
  const child = spawn(
    process.execPath,
    [
      ...recorder,
      join(cwd, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd,
      env: { ...env, ...nextEnv(), NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const file = logFile ? createWriteStream(logFile, { flags: "a" }) : undefined;
  const keep = (d: Buffer) => {
    output += d.toString();
    file?.write(d);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/v1/openapi.json`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (i > 300 || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  recordProbe({ kind: "server start", what: "next start", ms: Date.now() - t0 });
  return {
    baseUrl,
    pid: child.pid,
    log: () => output,
    /** kill -9: the process dies mid-whatever, with no chance to finish or clean up. */
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/**
 * A new, empty PostgreSQL database on the server `url` points at; `drop()` removes it.
 * `throwaway`: its commits return before the server has flushed them to disk
 * (synchronous_commit off, for every connection to it). What any session sees is unchanged:
 * atomicity, isolation and ordering are the same, only a crash of the PostgreSQL server itself
 * could lose the last commits, and a test run's database does not outlive the run anyway.
 */
export async function freshPostgresDatabase(url: string, prefix = "patchbay_test", { throwaway = false } = {}) {
  const { Client } = await import("pg");
  const { randomBytes } = await import("node:crypto");
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  if (throwaway) await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

/** `npm start`'s own entry (lib/server/start.ts) with this environment; `output()` is what it printed so far. */
export function npmStart(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/server/start.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return {
    output: () => out,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
