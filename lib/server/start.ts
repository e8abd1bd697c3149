// `npm start`: secrets, migrations, the demo workspace, a production build when there is none,
// then `next start`; prints the URL, the demo sign-in and the demo API key. Every step says what
// it does and, when it takes a while, that it is still at it; the port stays closed until the
// product itself answers on it.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { appUrl, isProductionMode, loadSecrets, port } from "@/lib/config/env";
import { migrate } from "@/lib/db/migrate";
import { databaseTarget } from "@/lib/db/engine";
import { busyNote, duration, ensureBuild, nextEnv } from "@/lib/server/ensure-build";
import { recordRunningServer } from "@/lib/server/running-server";
import { parseTrustedProxies } from "@/lib/security/trusted-proxies";
import { logger } from "@/lib/observability/logger";

const nextBin = join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
const log = (msg: string) => console.log(`[patchbay] ${msg}`);
const started = Date.now();

async function main() {
  const secrets = loadSecrets();
  // A mistyped TRUSTED_PROXIES stops the start here rather than failing every request later.
  parseTrustedProxies(process.env.TRUSTED_PROXIES);
  const env = {
    ...process.env,
    ...nextEnv(),
    ENCRYPTION_KEY: secrets.encryptionKey,
    AUTH_SECRET: secrets.authSecret,
    APP_URL: appUrl(),
    PORT: String(port()),
  };
  Object.assign(process.env, env);
  // Said now, not after minutes of building: the port is only taken at the end.
  if (!(await portIsFree(port())))
    throw new Error(`port ${port()} is already in use: stop what listens there, or start with PORT=<another port>`);

  const target = databaseTarget();
  const result = await migrate(target);
  log(
    `database: ${target.engine === "sqlite" ? target.file : "PostgreSQL"} (${result.applied.length ? `applied ${result.applied.join(", ")}` : "up to date"})`,
  );

  const { db } = await import("@/lib/db/client");
  const { resealLegacyEnvelopes } = await import("@/lib/db/reseal-legacy-envelopes");
  const sealed = await resealLegacyEnvelopes();
  if (sealed.resealed || sealed.unreadable)
    log(
      `stored secrets: ${sealed.resealed} re-sealed with the current key${sealed.unreadable ? `, ${sealed.unreadable} that no configured key opens (see the log)` : ""}`,
    );
  let demo: Awaited<ReturnType<typeof import("@/lib/demo/ensure-demo").ensureDemo>> | null = null;
  let makeDemo = false;
  // Production never has a demo account: its password and key would be printed to the log.
  if (process.env.DEMO !== "0" && !isProductionMode()) {
    const { ensureDemo, DEMO_EMAIL } = await import("@/lib/demo/ensure-demo");
    makeDemo = (await db.team.count()) === 0;
    const hasDemo = (await db.user.count({ where: { email: DEMO_EMAIL } })) > 0;
    if (hasDemo) demo = await ensureDemo();
  }
  await db.$disconnect();

  await ensureBuild(log);

  if (makeDemo) {
    const t0 = Date.now();
    log("making the demo workspace: three weeks of runs, MCP calls and approvals, lived by the product itself…");
    await stillAt("making the demo workspace", t0, () => makeDemoWorkspace(env));
    const { ensureDemo } = await import("@/lib/demo/ensure-demo");
    demo = await ensureDemo();
    await db.$disconnect();
    log(`demo workspace made in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  log(`starting the server on port ${port()}…`);
  const server = serve(env, ["-p", String(port())]);
  server.stdout.pipe(process.stdout);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));

  await waitUntilServing(`http://127.0.0.1:${port()}/v1/openapi.json`, () => server.exitCode !== null);
  // `cli demo` and other commands print this address, not their own guess of it.
  recordRunningServer(appUrl());
  log(`ready, ${duration(Date.now() - started)} after the start`);
  console.log(
    [
      "",
      `  Patchbay is running at ${appUrl()}`,
      ...(demo
        ? [
            `  Demo sign-in:  ${demo.email} / ${demo.password}`,
            `  Demo API key:  ${demo.api_key}`,
            `  Try:           curl -H "Authorization: Bearer ${demo.api_key}" ${appUrl()}/v1/connections`,
          ]
        : []),
      `  API reference: ${appUrl()}/docs/api`,
      "",
    ].join("\n"),
  );
}

/** Whether nothing listens on `port` yet (on any address, as `next start` will listen). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** A free port on the loopback address, for a server no one else is meant to reach. */
function loopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Runs `work`, saying every 15 s that it is still at it, with the seconds since `since`. */
async function stillAt<T>(what: string, since: number, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => log(`still ${what} (${duration(Date.now() - since)}${busyNote()})`), 15_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Waits for our server to answer; gives up if it exited (e.g. the port is taken by another process). */
async function waitUntilServing(url: string, exited: () => boolean) {
  for (let i = 0; i < 600; i++) {
    if (exited()) throw new Error(`the server exited before serving (is port ${port()} already in use?)`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer ${url} within 2 minutes`);
}

const serve = (env: NodeJS.ProcessEnv, listen: string[]) =>
  spawn(process.execPath, [nextBin, "start", ...listen], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...env, NODE_ENV: "production" },
  });

/**
 * The demo's history is made by the product (lib/demo/build-demo-main.ts) while a server serves
 * the sandbox provider it connects to. That server runs no background jobs (BACKGROUND_JOBS=off):
 * the builder runs its own runs and decides its own approvals, each at its moment in the past. It
 * listens on a loopback port of its own, never on PORT: whoever opens the printed URL meanwhile
 * finds it closed rather than a half-made product. The builder reaches the sandbox there through
 * PROVIDER_BASE_URLS (CONTRACT §5), so what it stores still names APP_URL.
 */
async function makeDemoWorkspace(env: NodeJS.ProcessEnv) {
  const sandboxPort = await loopbackPort();
  const sandbox = `http://127.0.0.1:${sandboxPort}`;
  const server = serve({ ...env, BACKGROUND_JOBS: "off" }, ["-p", String(sandboxPort), "-H", "127.0.0.1"]);
  server.stdout.resume();
  try {
    await waitUntilServing(`${sandbox}/v1/openapi.json`, () => server.exitCode !== null);
    const { sandboxTypes } = await import("@/lib/platforms/sandbox/sandbox-provider");
    const baseUrls = {
      ...(JSON.parse(env.PROVIDER_BASE_URLS || "{}") as Record<string, string>),
      ...Object.fromEntries(sandboxTypes.map((t) => [t.type, sandbox])),
    };
    const builder = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", join("lib", "demo", "build-demo-main.ts")],
      { stdio: ["ignore", "inherit", "inherit"], env: { ...env, PROVIDER_BASE_URLS: JSON.stringify(baseUrls) } },
    );
    const code = await new Promise<number | null>((resolve) => builder.on("exit", resolve));
    if (code !== 0) throw new Error(`the demo workspace could not be made (exit ${code}); see the lines above`);
  } finally {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
  }
}

main().catch((e) => {
  logger.error("could not start", { error: e });
  process.exit(1);
});
