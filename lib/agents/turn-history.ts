import "server-only";
import type { ModelMessage } from "ai";
import { db } from "@/lib/db/client";
import { storedBodyText, type TruncatedBody } from "@/lib/logs/stored-body";
import { jsonBytesWithin } from "@/lib/config/limits";
import { agentLimits } from "@/lib/agents/limits";

// What a turn keeps of its tool results and what a later turn sends the model of them.
// - A result is stored and sent at most AGENT_TOOL_RESULT_MAX_BYTES of JSON: past that it is the
//   logs' truncation marker (its beginning, its size) with a note telling the model it was cut.
// - In a shared conversation the model of one member's turn never reads what another member's
//   private connection returned: those results read as withheld, exactly where the logs API
//   redacts the same result for that member (SECURITY.md, "Agents").

/** A tool result as the model reads it and the turn stores it: whole when small enough, else cut with a note. */
export function capToolResult(value: Record<string, unknown>): Record<string, unknown> {
  const limit = agentLimits().toolResultBytes;
  if (jsonBytesWithin(value, limit) <= limit) return value;
  const marker = JSON.parse(storedBodyText(value, limit)!) as TruncatedBody;
  return {
    ...marker,
    note: `This result was ${marker.original_bytes} bytes of JSON, more than the ${limit} a tool result may hold (AGENT_TOOL_RESULT_MAX_BYTES): only its beginning is in "preview". Ask for less (a shorter date range, fewer fields or rows) to read it whole.`,
  };
}

const WITHHELD = {
  withheld:
    "This result came from another member's private connection: only its owner can read it. Tell the member you cannot see it; do not guess it.",
};

type TurnMessages = { userId: string; messages: ModelMessage[] };

/** The operation tools whose results come from a connection, and how to find which one. */
function connectionOf(toolName: string, input: unknown): { connectionId?: string; approvalId?: string } | null {
  const a = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  if (toolName === "run_operation" || toolName === "run_write_operation")
    return { connectionId: typeof a.connection_id === "string" ? a.connection_id : undefined };
  if (toolName === "get_operation_result")
    return { approvalId: typeof a.approval_id === "string" ? a.approval_id : undefined };
  return null; // find_operations, get_operation_inputs: the catalogue, no account's data
}

/**
 * The turns' messages with each result of another member's turn withheld when it came from a
 * connection `viewerId` may not read now: another member's private connection, or one that is
 * gone (nothing left says whose it was). The viewer's own turns are left whole.
 */
export async function redactOthersPrivateResults(
  teamId: string,
  viewerId: string,
  turns: TurnMessages[],
): Promise<ModelMessage[][]> {
  const sources = new Map<string, { connectionId?: string; approvalId?: string }>();
  for (const t of turns) {
    if (t.userId === viewerId) continue;
    for (const m of t.messages) {
      if (m.role !== "assistant" || typeof m.content === "string") continue;
      for (const p of m.content) {
        if (p.type !== "tool-call") continue;
        const source = connectionOf(p.toolName, p.input);
        if (source) sources.set(p.toolCallId, source);
      }
    }
  }
  if (!sources.size) return turns.map((t) => t.messages);
  const approvalIds = [...sources.values()].flatMap((s) => (s.approvalId ? [s.approvalId] : []));
  const approvals = approvalIds.length
    ? await db.approval.findMany({
        where: { teamId, id: { in: approvalIds } },
        select: { id: true, connectionId: true },
      })
    : [];
  const connectionIdOf = (s: { connectionId?: string; approvalId?: string }) =>
    s.connectionId ?? approvals.find((a) => a.id === s.approvalId)?.connectionId;
  const connectionIds = [...new Set([...sources.values()].flatMap((s) => connectionIdOf(s) ?? []))];
  const connections = await db.connection.findMany({
    where: { teamId, id: { in: connectionIds } },
    select: { id: true, ownerUserId: true },
  });
  const readable = (s: { connectionId?: string; approvalId?: string }) => {
    const id = connectionIdOf(s);
    const c = id === undefined ? undefined : connections.find((x) => x.id === id);
    // A call that named no connection (or no request of this team) ran nothing on one: its result is a refusal.
    if (id === undefined) return true;
    return c !== undefined && (c.ownerUserId === null || c.ownerUserId === viewerId);
  };
  const hidden = new Set([...sources.entries()].filter(([, s]) => !readable(s)).map(([id]) => id));
  return turns.map((t) =>
    t.userId === viewerId
      ? t.messages
      : t.messages.map((m): ModelMessage => {
          if (m.role !== "tool") return m;
          return {
            ...m,
            content: m.content.map((p) =>
              p.type === "tool-result" && hidden.has(p.toolCallId)
                ? { ...p, output: { type: "json", value: WITHHELD } }
                : p,
            ),
          };
        }),
  );
}
