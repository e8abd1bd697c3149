// `npm start`: secrets, migrations, the demo workspace, a production build when there is none,
// then `next start`; prints the URL, the demo sign-in and the demo API key.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { appUrl, isProductionMode, loadSecrets, port } from "@/lib/config/env";
import { migrate } from "@/lib/db/migrate";
import { databaseTarget } from "@/lib/db/engine";
import { ensureBuild } from "@/lib/server/ensure-build";
import { parseTrustedProxies } from "@/lib/security/trusted-proxies";
import { logger } from "@/lib/observability/logger";

const nextBin = join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
const log = (msg: string) => console.log(`[patchbay] ${msg}`);

async function main() {
  const secrets = loadSecrets();
  // A mistyped TRUSTED_PROXIES stops the start here rather than failing every request later.
  parseTrustedProxies(process.env.TRUSTED_PROXIES);
  const env = {
    ...process.env,
    ENCRYPTION_KEY: secrets.encryptionKey,
    AUTH_SECRET: secrets.authSecret,
    APP_URL: appUrl(),
    PORT: String(port()),
  };
  Object.assign(process.env, env);

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

  ensureBuild(log);

  if (makeDemo) {
    const t0 = Date.now();
    await makeDemoWorkspace(env);
    const { ensureDemo } = await import("@/lib/demo/ensure-demo");
    demo = await ensureDemo();
    await db.$disconnect();
    log(
      `demo workspace: three weeks of runs, MCP calls and approvals, made in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }

  const server = serve(env);
  server.stdout.pipe(process.stdout);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));

  await waitUntilServing(`http://127.0.0.1:${port()}/v1/openapi.json`, () => server.exitCode !== null);
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

const serve = (env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, [nextBin, "start", "-p", String(port())], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...env, NODE_ENV: "production" },
  });

/**
 * The demo's history is made by the product (lib/demo/build-demo-main.ts) while a server serves
 * the sandbox provider it connects to. That server runs no background jobs (BACKGROUND_JOBS=off):
 * the builder runs its own runs and decides its own approvals, each at its moment in the past.
 */
async function makeDemoWorkspace(env: NodeJS.ProcessEnv) {
  const server = serve({ ...env, BACKGROUND_JOBS: "off" });
  server.stdout.resume();
  try {
    await waitUntilServing(`http://127.0.0.1:${port()}/v1/openapi.json`, () => server.exitCode !== null);
    const builder = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", join("lib", "demo", "build-demo-main.ts")],
      { stdio: ["ignore", "inherit", "inherit"], env },
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
