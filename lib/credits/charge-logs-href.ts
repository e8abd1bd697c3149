import "server-only";
import { db } from "@/lib/db/client";

// Entries written before the ledger kept its run, log or turn (migrations 0014, 0017), and
// simulated ones, are found by their workflow, MCP server or conversation and the time of the
// charge: a run's logs start at its charge's time and end within minutes; a call's log starts at
// its charge's time; a simulated conversation's steps follow its charge within minutes.
const OLD_LOGS_BEFORE_S = 60;
const OLD_LOGS_AFTER_S = { workflow: 15 * 60, mcp: 60, agent: 5 * 60 } as Record<string, number>;

/**
 * Where "Logs of this charge" leads for one ledger entry of a team: the logs of exactly the
 * workflow run it charged, the log of the MCP call it charged (opened), or the logs of the agent
 * turn it charged (for a turn that ran no operation, its place in the conversation when the viewer
 * can see it). Null for an entry of another team, or one with nothing to show (a Copilot draft,
 * simulated activity).
 */
export async function chargeLogsHref(teamId: string, viewerUserId: string, entryId: number): Promise<string | null> {
  const entry = await db.creditLedgerEntry.findFirst({
    where: { id: entryId, teamId },
    select: { runId: true, logId: true, turnId: true, serviceType: true, serviceId: true, createdAt: true },
  });
  if (!entry) return null;
  const logs = (query: Record<string, string>) => `/${encodeURIComponent(teamId)}/logs?${new URLSearchParams(query)}`;
  if (entry.runId) return logs({ source_run_id: entry.runId });
  if (entry.logId) return logs({ ...(entry.serviceId && { source_id: entry.serviceId }), log: entry.logId });
  if (entry.turnId) {
    const turn = await db.agentTurn.findFirst({
      where: { id: entry.turnId, teamId },
      select: { id: true, conversationId: true, startedAt: true, completedAt: true, steps: true },
    });
    if (!turn) return null;
    // A turn that ran no operation has no logs: its charge paid for the answer, which the
    // conversation shows to those who can see it (its creator, or everyone once shared).
    if (turn.steps === "[]") {
      const readable = await db.agentConversation.count({
        where: { id: turn.conversationId, teamId, OR: [{ shared: true }, { userId: viewerUserId }] },
      });
      return readable
        ? `/${encodeURIComponent(teamId)}/agent/${encodeURIComponent(turn.conversationId)}#${turn.id}`
        : null;
    }
    // One turn at a time per conversation: its steps' logs (approved writes included) are the
    // conversation's logs between the turn's start and end.
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
