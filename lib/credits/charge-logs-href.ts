import "server-only";
import { db } from "@/lib/db/client";

// Entries written before the ledger kept its run or log (migration 0014) are found by their
// workflow or MCP server and the time of the charge: a run's logs start at its charge's time and
// end within minutes; a call's log starts at its charge's time.
const OLD_LOGS_BEFORE_S = 60;
const OLD_LOGS_AFTER_S = { workflow: 15 * 60, mcp: 60 } as Record<string, number>;

/**
 * Where "Logs of this charge" leads for one ledger entry of a team: the logs of exactly the
 * workflow run it charged, the log of the MCP call it charged (opened), or the logs of the agent
 * turn it charged. Null for an entry of another team, or one with no logs to show (a turn that
 * ran no tool, a Copilot draft, simulated activity).
 */
export async function chargeLogsHref(teamId: string, entryId: number): Promise<string | null> {
  const entry = await db.creditLedgerEntry.findFirst({
    where: { id: entryId, teamId },
    select: { runId: true, logId: true, turnId: true, serviceType: true, serviceId: true, createdAt: true },
  });
  if (!entry) return null;
  const logs = (query: Record<string, string>) => `/${encodeURIComponent(teamId)}/logs?${new URLSearchParams(query)}`;
  if (entry.runId) return logs({ source_run_id: entry.runId });
  if (entry.logId) return logs({ ...(entry.serviceId && { source_id: entry.serviceId }), log: entry.logId });
  if (entry.turnId) {
    // One turn at a time per conversation: its steps' logs (approved writes included) are the
    // conversation's logs between the turn's start and end.
    const turn = await db.agentTurn.findFirst({
      where: { id: entry.turnId, teamId },
      select: { conversationId: true, startedAt: true, completedAt: true, steps: true },
    });
    if (!turn || turn.steps === "[]") return null;
    return logs({
      source_id: turn.conversationId,
      started_after: String(turn.startedAt),
      started_before: String(turn.completedAt ?? entry.createdAt),
    });
  }
  const after = OLD_LOGS_AFTER_S[entry.serviceType];
  if (after === undefined || !entry.serviceId) return null;
  const at = Number(entry.createdAt);
  return logs({
    source_id: entry.serviceId,
    started_after: String(Math.max(0, at - OLD_LOGS_BEFORE_S)),
    started_before: String(at + after),
  });
}
