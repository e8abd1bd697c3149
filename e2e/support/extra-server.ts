import { freePort, startServer } from "./server";

export type ExtraServer = Awaited<ReturnType<typeof startServer>>;

/** Environment overrides that unset the OAuth apps of `providers` (e.g. "LINKEDIN"), which the run's stand-ins configure. */
export const withoutOAuthApps = (...providers: string[]) =>
  Object.fromEntries(
    providers.flatMap((p) => [`OAUTH_${p}_CLIENT_ID`, `OAUTH_${p}_CLIENT_SECRET`]).map((name) => [name, undefined]),
  );

/**
 * Another `next start` of this run's build, with the run's environment (same database, same
 * secrets, same provider stand-ins) plus `env`: for settings the shared server must not have.
 */
export async function startExtraServer(env: Record<string, string | undefined>): Promise<ExtraServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // It runs no workflows (WORKFLOW_RUNNER=off, a product setting): no second Node with tsx per
  // extra server, and no run of another test claimed by a server with its own APP_URL that then
  // stops under it (its sandbox calls would find the port closed). The run's server and
  // startInstance's keep the worker process, as production does.
  return startServer(port, {
    ...process.env,
    APP_URL: baseUrl,
    PORT: String(port),
    WORKFLOW_RUNNER: "off",
    ...env,
  });
}
