import { freePort, startServer } from "./server";

/**
 * Another app process of the already-built app on this run's database and settings, as a
 * second instance behind a load balancer would be. `env` overrides (a proxied DATABASE_URL…).
 */
export async function startInstance(env: Record<string, string> = {}) {
  const port = await freePort();
  // Same APP_URL as the first instance: links and OAuth callbacks name one public address.
  return startServer(port, { ...process.env, ...env, PORT: String(port) });
}

export const isPostgres = () => /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
