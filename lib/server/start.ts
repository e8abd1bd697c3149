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
  // Production never has a demo account: its password and key would be printed to the log.
  if (process.env.DEMO !== "0" && !isProductionMode()) {
    const { ensureDemo, DEMO_EMAIL } = await import("@/lib/demo/ensure-demo");
    const empty = (await db.team.count()) === 0;
    const hasDemo = (await db.user.count({ where: { email: DEMO_EMAIL } })) > 0;
    if (empty || hasDemo) demo = await ensureDemo();
  }
  await db.$disconnect();

  ensureBuild(log);

  const server = spawn(process.execPath, [nextBin, "start", "-p", String(port())], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...env, NODE_ENV: "production" },
  });
  server.stdout.pipe(process.stdout);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));

  await waitUntilServing(`http://127.0.0.1:${port()}/v1/openapi.json`, () => server.exitCode !== null);
  if (demo?.created) await connectDemoSandbox(demo.api_key);
  // The demo's real workflow, inactive: nothing runs it until a person does.
  if (demo?.created) {
    const { ensureDemoWorkflow } = await import("@/lib/demo/demo-workflow");
    await ensureDemoWorkflow(demo.teamId).catch((e) => logger.warn("demo workflow not started", { error: e }));
  }
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

/** The demo's first connections go through the real API, verified by the sandbox provider over HTTP. */
async function connectDemoSandbox(apiKey: string) {
  const post = (body: object) =>
    fetch(`http://127.0.0.1:${port()}/v1/connections`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  await post({
    connection_type: "sandbox_key",
    name: "Sandbox analytics key",
    credentials: { api_key: "demo-key-1" },
  }).catch(() => {});
  await post({
    connection_type: "sandbox_whitelabel",
    name: "Acme white-label app",
    credentials: { client_id: "acme-app", client_secret: "s3cret", refresh_token: "demo-refresh" },
  }).catch(() => {});
}

main().catch((e) => {
  logger.error("could not start", { error: e });
  process.exit(1);
});
