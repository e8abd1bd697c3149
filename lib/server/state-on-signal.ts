import { describeConnections } from "@/lib/db/client";
import { logger } from "@/lib/observability/logger";

// `kill -USR2 <pid>` makes a server instance (and its workflow worker, to which it passes the
// signal) log what its database connections are doing: the pool's counts and each connection's
// statements in flight. For a request or run that does not end, it says whether it waits on the
// database and on which statement; pg_stat_activity gives the server's side (README: Operating).

/** Logs this process's connections on SIGUSR2; `alsoSignal` passes the signal on (the worker). */
export function reportStateOnSignal(process_name: string, alsoSignal?: () => void) {
  const g = globalThis as { __patchbayStateOnSignal?: boolean };
  if (g.__patchbayStateOnSignal) return;
  g.__patchbayStateOnSignal = true;
  process.on("SIGUSR2", () => {
    logger.warn("database connections (SIGUSR2)", {
      process: process_name,
      pid: process.pid,
      uptime_s: Math.round(process.uptime()),
      connections: describeConnections(),
    });
    alsoSignal?.();
  });
}
