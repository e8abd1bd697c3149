import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import {
  buildClient,
  ensureBuild,
  freePort,
  freshPostgresDatabase,
  migrateWith,
  root,
  startServer,
} from "./support/server";
import { startStandIns } from "./support/stand-ins";
import { chromiumExecutable } from "./support/chromium";
import { recordProbe } from "./support/timing-reporter";

/** Runs a setup step and records how long it took. */
async function step<T>(what: string, fn: () => T | Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    recordProbe({ kind: "setup", what, ms: Date.now() - t0 });
  }
}

/**
 * One server for the run: the production build of the current sources on a fresh database
 * (a SQLite file, or a new PostgreSQL database when DATABASE_URL is postgresql://). The
 * environment set here reaches the workers, so fixtures and the CLI use the same database.
 */
export default async function globalSetup() {
  // @patchbay/client's dist, from its current sources (2 s): its tests import it.
  await step("build @patchbay/client", buildClient);
  await step("next build (when the sources changed)", ensureBuild);
  // Before any worker starts: they read it from the environment (playwright.config.ts).
  process.env.CHROMIUM_PATH = await step("unpack Chromium", chromiumExecutable);
  const run = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const dataDir = join(root, "e2e", ".artifacts", `data-${run}`);
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl = `file:${join(dataDir, "test.db")}`;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "")) {
    // Its commits do not wait for the disk (about 2.5 ms each on this machine's disk).
    const pg = await freshPostgresDatabase(process.env.DATABASE_URL!, "patchbay_test", { throwaway: true });
    databaseUrl = pg.url;
    dropDatabase = pg.drop;
  }
  // Local stand-ins for every real provider, speaking its wire format (PROVIDER_BASE_URLS and
  // the test OAuth apps go into the server's environment).
  const standIns = await step("provider stand-ins", startStandIns);
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
    // Every browser test signs in from 127.0.0.1: the per-address limit is for real clients.
    SIGN_IN_IP_RATE_LIMIT: "100000",
    // Webhook receivers in the tests listen on 127.0.0.1 over http; retries come within seconds.
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.3,0.6,1.2,2.4",
    WEBHOOK_TIMEOUT_MS: "2000",
    // SQLite: a writer waits up to 30 s for another process's write (product default 10 s, then
    // "The database is unavailable"): on a busy machine the suite's servers, CLIs and seed
    // processes can hold each other up longer than that; no test is about this wait.
    SQLITE_BUSY_TIMEOUT_MS: "30000",
    // Workflow runs: a dead instance's run is taken over after 4 s, retries wait 0.1 s then 0.3 s.
    WORKFLOW_LEASE_SECONDS: "4",
    WORKFLOW_RETRY_BASE_MS: "100",
    // Webhook triggers: the per-workflow rate is reached in a few requests (default 60 a minute).
    WORKFLOW_WEBHOOK_PER_MINUTE: "20",
    // Connections' job (CONTRACT §12): due checks and tokens near expiry are found within half a second.
    CONNECTION_JOBS_POLL_MS: "500",
    // MCP clients' metadata documents are served over https by the tests (e2e/support/tls, a
    // test-only certificate for 127.0.0.1): the servers trust it as they would a public CA.
    NODE_EXTRA_CA_CERTS: join(root, "e2e", "support", "tls", "cert.pem"),
    // Every server of the run (this one and those the specs start) records its /v1 responses.
    PATCHBAY_RECORD_RESPONSES: join(dataDir, "responses"),
    ...standIns.env,
  });
  await step("migrations", () => migrateWith(process.env));
  const serverLog = join(dataDir, "server.log");
  const server = await startServer(port, process.env, root, serverLog);
  // A test that times out prints what the server and the database were doing (support/stall-report.ts).
  process.env.E2E_SERVER_LOG = serverLog;
  process.env.E2E_SERVER_PID = String(server.pid ?? "");
  console.log(`[e2e] server ${baseUrl} on ${databaseUrl.startsWith("file:") ? "SQLite" : "PostgreSQL"}`);

  return async () => {
    await server.stop();
    await standIns.stop();
    if (/unhandled error/.test(server.log()))
      console.log(`[e2e] the server logged unhandled errors:\n${server.log().slice(-6000)}`);
    // Next's own plain-text 500s (outside the app's handlers) say why only in the server's output.
    const framework = server
      .log()
      .split("\n")
      .map((line, i, lines) =>
        /Failed to handle request|Internal Server Error|⨯ /.test(line) ? lines.slice(i, i + 12) : [],
      )
      .flat();
    if (framework.length) console.log(`[e2e] the framework logged errors:\n${framework.join("\n").slice(0, 8000)}`);
    await dropDatabase?.();
    if (process.env.KEEP_TEST_DATA !== "1") rmSync(dataDir, { recursive: true, force: true });
  };
}
