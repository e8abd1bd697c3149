import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";

const root = resolve(__dirname, "..");
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");

/** Newest modification time under the folders the build is made from. */
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
  for (const file of ["next.config.mjs", "package.json", "tailwind.config.ts"]) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

function ensureBuild() {
  const buildId = join(root, ".next", "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestSource()) return;
  console.log("[e2e] building the app (next build)…");
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  if (r.status !== 0) throw new Error("next build failed");
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
    srv.on("error", fail);
  });
}

/** A fresh PostgreSQL database for this run, dropped at teardown. */
async function freshPostgres(url: string) {
  const { Client } = await import("pg");
  const name = `patchbay_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
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

export default async function globalSetup() {
  ensureBuild();
  const run = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const dataDir = join(root, "e2e", ".artifacts", `data-${run}`);
  mkdirSync(dataDir, { recursive: true });
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = `file:${join(dataDir, "test.db")}`;
  if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "")) {
    const pg = await freshPostgres(process.env.DATABASE_URL!);
    databaseUrl = pg.url;
    dropDatabase = pg.drop;
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    APP_URL: baseUrl,
    BASE_URL: baseUrl,
    PORT: String(port),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_PROVIDERS: "1",
    DEMO: "0",
  });

  const migrate = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/db/migrate-cli.ts"], { cwd: root, env: process.env, encoding: "utf8" });
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);

  const server: ChildProcess = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let serverLog = "";
  server.stdout?.on("data", (d) => (serverLog += d));
  server.stderr?.on("data", (d) => (serverLog += d));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/v1/openapi.json`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 300 || server.exitCode !== null) throw new Error(`the server did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`[e2e] server ${baseUrl} on ${databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL"}`);

  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    if (/\b500\b|unhandled error/.test(serverLog)) console.log(`[e2e] server log mentions errors:\n${serverLog.slice(-4000)}`);
    await dropDatabase?.();
    if (process.env.KEEP_TEST_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  };
}
