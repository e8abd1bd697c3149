import "server-only";
import { db } from "@/lib/db/client";
import { startJobLoop } from "@/lib/jobs/job-loop";
import { logger } from "@/lib/observability/logger";
import { tokenRefreshAheadMs } from "@/lib/config/limits";
import { freshCredentials } from "@/lib/connections/fresh-credentials";
import { checkConnection, nextCheckAt } from "@/lib/connections/health";

// CONTRACT §12, the connections' job on every instance's job loop: OAuth tokens refreshed ahead of
// their expiry (the refresh itself is one per connection across instances, lib/connections/
// fresh-credentials.ts), and each connection's identity check every CONNECTION_CHECK_INTERVAL_HOURS,
// claimed by a conditional update so that one instance runs it.

const BATCH = 10;
/** A token the job could not refresh (the provider was down, or it has no refresh token) waits this long. */
const RETRY_MS = 60_000;

const pollMs = () => Number(process.env.CONNECTION_JOBS_POLL_MS) || 15_000;

const triedAt = new Map<string, number>();

/** One turn: the tokens about to expire, then the checks that are due. True when a batch was full. */
async function runConnectionJobs(now = Date.now()): Promise<boolean> {
  for (const [id, at] of triedAt) if (now - at > RETRY_MS) triedAt.delete(id);
  const expiring = await db.connection.findMany({
    where: {
      tokenExpiresAt: { lt: BigInt(now + tokenRefreshAheadMs()) },
      needsReauthAt: null,
      id: { notIn: [...triedAt.keys()] },
    },
    select: { id: true, teamId: true },
    orderBy: { tokenExpiresAt: "asc" },
    take: BATCH,
  });
  for (const c of expiring) {
    triedAt.set(c.id, now);
    await freshCredentials(c.teamId, c.id).catch((e: unknown) =>
      logger.info("connection token not refreshed ahead of expiry", { connection_id: c.id, error: e }),
    );
  }

  // A connection never scheduled (made before checks existed) is first checked an interval from now.
  const unscheduled = await db.connection.findMany({ where: { nextCheckAt: null }, select: { id: true }, take: 100 });
  // Raw statements: scheduling is bookkeeping, not a change of the connection (updated_at stays).
  for (const c of unscheduled)
    await db.$executeRaw`UPDATE "Connection" SET "nextCheckAt" = ${nextCheckAt(now)} WHERE "id" = ${c.id} AND "nextCheckAt" IS NULL`;

  const due = await db.connection.findMany({
    where: { nextCheckAt: { lte: BigInt(now) } },
    select: { id: true, nextCheckAt: true },
    orderBy: { nextCheckAt: "asc" },
    take: BATCH,
  });
  for (const c of due) {
    // Claimed: the next check moves forward, so no other instance runs this one.
    const count = await db.$executeRaw`
      UPDATE "Connection" SET "nextCheckAt" = ${nextCheckAt(now)} WHERE "id" = ${c.id} AND "nextCheckAt" = ${c.nextCheckAt}`;
    if (count === 0) continue;
    await checkConnection(null, c.id).catch((e: unknown) =>
      logger.warn("connection check failed", { connection_id: c.id, error: e }),
    );
  }
  return expiring.length === BATCH || due.length === BATCH || unscheduled.length === 100;
}

/** Every instance's connections job, on its job loop (lib/jobs/job-loop.ts). */
export function startConnectionJobs() {
  startJobLoop({ name: "connection-health", pollMs: pollMs(), work: () => runConnectionJobs() });
}
