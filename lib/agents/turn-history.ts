import "server-only";
import type { ModelMessage, ToolResultPart } from "ai";
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
    "This came from another member's private connection, or from a step that carried its data: only that member can read it. Tell the member you cannot see it; do not guess it.",
};

/** Where a stored tool result says whose alone it is (its log's `privateTo`); providers ignore this key. */
const MARK = "patchbay";

/** A tool result for the model, marked with whose alone it is when its log is private (null: the team's). */
export function toolResultPart(
  toolCallId: string,
  toolName: string,
  value: Record<string, unknown>,
  privateTo: string | null = null,
): ToolResultPart {
  return {
    type: "tool-result",
    toolCallId,
    toolName,
    output: { type: "json", value: value as never },
    providerOptions: { [MARK]: { private_to: privateTo } },
  };
}

/** The mark's owner (null: the team's), or undefined for a result stored before results were marked. */
const markOf = (p: ToolResultPart): string | null | undefined => {
  const mark = p.providerOptions?.[MARK];
  if (!mark || !("private_to" in mark)) return undefined;
  return typeof mark.private_to === "string" ? mark.private_to : null;
};

type TurnMessages = { userId: string; messages: ModelMessage[] };
type Source = { connectionId?: string; approvalId?: string };

/** The operation tools whose results come from a connection, and how to find which one. */
function connectionOf(toolName: string, input: unknown): Source | null {
  const a = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  if (toolName === "run_operation" || toolName === "run_write_operation")
    return { connectionId: typeof a.connection_id === "string" ? a.connection_id : undefined };
  if (toolName === "get_operation_result")
    return { approvalId: typeof a.approval_id === "string" ? a.approval_id : undefined };
  return null; // find_operations, get_operation_inputs: the catalogue, no account's data
}

/**
 * Whose alone each tool result of a turn stored before results were marked is: its connection's
 * owner when private, "gone" when the connection no longer exists (nothing says whose it was).
 */
async function unmarkedOwners(teamId: string, turns: TurnMessages[], marked: Set<string>) {
  const sources = new Map<string, Source>();
  for (const t of turns)
    for (const m of t.messages) {
      if (m.role !== "assistant" || typeof m.content === "string") continue;
      for (const p of m.content) {
        if (p.type !== "tool-call" || marked.has(p.toolCallId)) continue;
        const source = connectionOf(p.toolName, p.input);
        if (source) sources.set(p.toolCallId, source);
      }
    }
  const owners = new Map<string, string | null>();
  if (!sources.size) return owners;
  const approvalIds = [...sources.values()].flatMap((s) => (s.approvalId ? [s.approvalId] : []));
  const approvals = approvalIds.length
    ? await db.approval.findMany({
        where: { teamId, id: { in: approvalIds } },
        select: { id: true, connectionId: true },
      })
    : [];
  const connectionIdOf = (s: Source) => s.connectionId ?? approvals.find((a) => a.id === s.approvalId)?.connectionId;
  const connections = await db.connection.findMany({
    where: { teamId, id: { in: [...new Set([...sources.values()].flatMap((s) => connectionIdOf(s) ?? []))] } },
    select: { id: true, ownerUserId: true },
  });
  for (const [callId, s] of sources) {
    const id = connectionIdOf(s);
    // A call that named no connection (or no request of this team) ran nothing on one: its result is a refusal.
    if (id === undefined) continue;
    const c = connections.find((x) => x.id === id);
    owners.set(callId, c === undefined ? "gone" : c.ownerUserId);
  }
  return owners;
}

/** Whose alone each tool result of these turns is: its mark, else (older turns) its connection's owner. */
async function resultOwners(teamId: string, turns: TurnMessages[]) {
  const privateTo = new Map<string, string | null>();
  for (const t of turns)
    for (const m of t.messages) {
      if (m.role !== "tool") continue;
      for (const p of m.content) {
        if (p.type !== "tool-result") continue;
        const mark = markOf(p);
        if (mark !== undefined) privateTo.set(p.toolCallId, mark);
      }
    }
  for (const [id, owner] of await unmarkedOwners(teamId, turns, new Set(privateTo.keys()))) privateTo.set(id, owner);
  return privateTo;
}

/**
 * Which turns carry their member's private data: a turn whose model read a result of its member's
 * private connection, and every later turn of that member in the conversation (the model reads
 * the conversation so far). Such a turn's answer is that member's alone, as its logs are.
 */
function carryingTurns(turns: TurnMessages[], privateTo: Map<string, string | null>): boolean[] {
  const carriers = new Set<string>();
  return turns.map((t) => {
    const reads = t.messages.some(
      (m) =>
        m.role === "tool" &&
        m.content.some((p) => p.type === "tool-result" && privateTo.get(p.toolCallId) === t.userId),
    );
    if (reads) carriers.add(t.userId);
    return carriers.has(t.userId);
  });
}

/** For each turn, whether its answer is its member's alone (it carries their private data). */
export async function turnsCarryingPrivate(teamId: string, turns: TurnMessages[]): Promise<boolean[]> {
  return carryingTurns(turns, await resultOwners(teamId, turns));
}

const WITHHELD_TURN =
  "(This answer used another member's private connection: only they can read it, so it is withheld here. Do not guess what it said.)";

/**
 * The turns' messages as `viewerId`'s model may read them, exactly where the logs API and the
 * conversation redact the same data for the viewer: another member's turn that carries their
 * private data keeps only their message (its answer, calls and results are withheld), and any
 * other result of a connection that is gone or private to someone else is withheld with its
 * call's input. `readsPrivate`: what is left holds the viewer's own private data, so what this
 * turn runs may carry it (its logs are the viewer's alone too).
 */
export async function redactOthersPrivateResults(
  teamId: string,
  viewerId: string,
  turns: TurnMessages[],
): Promise<{ messages: ModelMessage[][]; readsPrivate: boolean }> {
  const privateTo = await resultOwners(teamId, turns);
  const carrying = carryingTurns(turns, privateTo);
  const hidden = new Set<string>();
  for (const [id, owner] of privateTo) if (owner !== null && owner !== viewerId) hidden.add(id);
  const readsPrivate = turns.some((t, i) => t.userId === viewerId && carrying[i]);
  const messages = turns.map((t, i): ModelMessage[] => {
    if (t.userId === viewerId) return t.messages;
    if (carrying[i])
      return [...t.messages.filter((m) => m.role === "user"), { role: "assistant", content: WITHHELD_TURN }];
    return t.messages.map((m): ModelMessage => {
      if (m.role === "tool")
        return {
          ...m,
          content: m.content.map((p) =>
            p.type === "tool-result" && hidden.has(p.toolCallId)
              ? { ...p, output: { type: "json", value: WITHHELD } }
              : p,
          ),
        };
      if (m.role === "assistant" && typeof m.content !== "string")
        return {
          ...m,
          content: m.content.map((p) =>
            p.type === "tool-call" && hidden.has(p.toolCallId) ? { ...p, input: WITHHELD } : p,
          ),
        };
      return m;
    });
  });
  return { messages, readsPrivate };
}
