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
  // Workflows run in the server's own process (WORKFLOW_RUNNER=inline, a product setting): no
  // second Node with tsx per extra server, about 2 s of CPU each. The run's server and
  // startInstance's keep the worker process, as production does.
  return startServer(port, {
    ...process.env,
    APP_URL: baseUrl,
    PORT: String(port),
    WORKFLOW_RUNNER: "inline",
    ...env,
  });
}
