import { freePort, startServer } from "./server";

export type ExtraServer = Awaited<ReturnType<typeof startServer>>;

/**
 * Another `next start` of this run's build, with the run's environment (same database, same
 * secrets, same provider stand-ins) plus `env`: for settings the shared server must not have.
 */
export async function startExtraServer(env: Record<string, string | undefined>): Promise<ExtraServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return startServer(port, { ...process.env, APP_URL: baseUrl, PORT: String(port), ...env });
}
