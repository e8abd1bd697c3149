import "server-only";
import { db } from "@/lib/db/client";

// The other way from charge-logs-href.ts: from a log or a workflow run to the ledger entry that
// charged for it, shown on the Ledger page through its own filters (the entry's service and its
// second), so the link is one any member could have typed.

type Entry = { serviceType: string; serviceId: string | null; createdAt: bigint };

const ENTRY_SELECT = { serviceType: true, serviceId: true, createdAt: true } as const;

function ledgerHref(teamId: string, entry: Entry) {
  const at = String(entry.createdAt);
  const query = new URLSearchParams({
    service_type: entry.serviceType,
    ...(entry.serviceId && { service_id: entry.serviceId }),
    created_after: at,
    created_before: at,
  });
  return `/${encodeURIComponent(teamId)}/ledger?${query}`;
}

/** The ledger entry that charged workflow run `runId` of the team, on the Ledger page; null before it ends. */
export async function runChargeHref(teamId: string, runId: string): Promise<string | null> {
  const run = await db.workflowRun.findFirst({ where: { id: runId, teamId }, select: { workflowId: true } });
  if (!run) return null;
  // (teamId, serviceId) is an index prefix: the workflow's entries, not the team's.
  const entry = await db.creditLedgerEntry.findFirst({
    where: { teamId, serviceId: run.workflowId, runId },
    select: ENTRY_SELECT,
  });
  return entry ? ledgerHref(teamId, entry) : null;
}

/**
 * The ledger entry that charged for log `logId` of the team: its workflow run's, its MCP call's,
 * or its agent turn's (an approved write of the agent is charged with the turn that asked for it).
 * Null for a log nothing charged for (a refused call, a run still going, simulated activity).
 */
export async function logChargeHref(teamId: string, logId: string): Promise<string | null> {
  const log = await db.operationLog.findFirst({
    where: { id: logId, teamId },
    select: { id: true, sourceType: true, sourceId: true, sourceRunId: true, metadata: true },
  });
  if (!log || !log.sourceId) return null;
  const where = { teamId, serviceId: log.sourceId };
  let entry: Entry | null = null;
  if (log.sourceRunId) {
    entry = await db.creditLedgerEntry.findFirst({ where: { ...where, runId: log.sourceRunId }, select: ENTRY_SELECT });
  } else if (log.sourceType === "agent") {
    const metadata = JSON.parse(log.metadata) as { turn_id?: unknown; approval_id?: unknown };
    const turnId =
      typeof metadata.turn_id === "string"
        ? metadata.turn_id
        : typeof metadata.approval_id === "string"
          ? (
              await db.approval.findFirst({
                where: { id: metadata.approval_id, teamId },
                select: { agentTurnId: true },
              })
            )?.agentTurnId
          : null;
    if (turnId) entry = await db.creditLedgerEntry.findFirst({ where: { ...where, turnId }, select: ENTRY_SELECT });
  } else {
    entry = await db.creditLedgerEntry.findFirst({ where: { ...where, logId: log.id }, select: ENTRY_SELECT });
  }
  return entry ? ledgerHref(teamId, entry) : null;
}
