import { describeConnections } from "@/lib/db/client";
import { logger } from "@/lib/observability/logger";
import { requestsInFlight } from "@/lib/observability/requests-in-flight";

// `kill -USR2 <pid>` makes a server instance, or its workflow worker (a child process of its own,
// signalled apart), log what its database connections are doing: the pool's counts and each
// connection's statements in flight. For a request or run that does not end, it says whether it
// waits on the database and on which statement; pg_stat_activity gives the database's side
// (README: Several instances).

/** Logs this process's connections on SIGUSR2. */
export function reportStateOnSignal(process_name: string) {
  const g = globalThis as { __patchbayStateOnSignal?: boolean };
  if (g.__patchbayStateOnSignal) return;
  g.__patchbayStateOnSignal = true;
  process.on("SIGUSR2", () => {
    logger.warn("database connections (SIGUSR2)", {
      process: process_name,
      pid: process.pid,
      uptime_s: Math.round(process.uptime()),
      connections: describeConnections(),
      requests_in_flight: requestsInFlight(),
    });
  });
}
