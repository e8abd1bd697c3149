import "server-only";
import { type z } from "zod";
import type { ModelMessage } from "ai";
import { db, type AgentConversation, type AgentTurn, type Prisma } from "@/lib/db/client";
import { ApiError, forbidden, notFound } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";
import { newId } from "@/lib/security/ids";
import {
  TITLE_MAX,
  type AgentStep,
  type AgentTurnJson,
  type createConversationBodySchema,
  type postMessageBodySchema,
} from "@/lib/schemas/agents";
import { startTurn, type TurnListener } from "@/lib/agents/run-turn";
import { findModelConnection } from "@/lib/agents/model-access";
import { turnsCarryingPrivate } from "@/lib/agents/turn-history";

// Agent conversations (CONTRACT §11): created by a member on a model connection they can see,
// with the connections they pick (all they see by default); seen by their creator, and by the
// whole team once shared. Another team's conversation, or another member's unshared one, is a 404.

type Caller = { team: { id: string }; user: { id: string; email: string } };

/** "The first message cut to at most 60 characters." */
export const titleFrom = (message: string) => {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1).trimEnd()}…`;
};

const seconds = (ms: bigint) => Math.floor(Number(ms) / 1000);

function turnJson(t: AgentTurn): AgentTurnJson {
  return {
    id: t.id,
    message: t.message,
    status: t.status as AgentTurnJson["status"],
    reply: t.reply,
    steps: JSON.parse(t.steps) as AgentStep[],
    credits: t.credits,
    usage: { input_tokens: t.inputTokens, output_tokens: t.outputTokens, model_calls: t.modelCalls },
    started_at: Number(t.startedAt),
    completed_at: t.completedAt === null ? null : Number(t.completedAt),
  };
}

function summaryJson(c: AgentConversation) {
  return {
    id: c.id,
    title: c.title,
    model_connection_id: c.modelConnectionId,
    model: c.model,
    connection_ids: JSON.parse(c.connectionIds) as string[],
    shared: c.shared,
    user: { id: c.userId, email: c.userEmail },
    created_at: seconds(c.createdAt),
    updated_at: seconds(c.updatedAt),
  };
}

const readable = (caller: Caller): Prisma.AgentConversationWhereInput => ({
  teamId: caller.team.id,
  OR: [{ shared: true }, { userId: caller.user.id }],
});

async function conversationOf(caller: Caller, id: string): Promise<AgentConversation> {
  const row = await db.agentConversation.findFirst({ where: { id, ...readable(caller) } });
  if (!row) throw notFound(`No conversation ${id} that you can see in this team.`);
  return row;
}

export async function createConversation(
  caller: Caller,
  body: z.infer<typeof createConversationBodySchema>,
  listener?: TurnListener,
) {
  const visible = visibleConnections(caller.team.id, caller.user.id);
  const model = await findModelConnection(caller, body.model_connection_id);
  let connectionIds: string[];
  if (body.connection_ids === undefined) {
    const all = await db.connection.findMany({ where: visible, select: { id: true }, orderBy: { createdAt: "asc" } });
    connectionIds = all.map((c) => c.id);
  } else {
    connectionIds = [...new Set(body.connection_ids)];
    const seen = await db.connection.findMany({
      where: { ...visible, id: { in: connectionIds } },
      select: { id: true },
    });
    const missing = connectionIds.find((id) => !seen.some((c) => c.id === id));
    if (missing !== undefined)
      throw forbidden(
        `connection_ids: ${missing.slice(0, 255)} is not a connection you can use (it is not in this team, or it is another member's private connection). Nothing was created.`,
      );
  }
  const now = BigInt(Date.now());
  const conversation = await db.agentConversation.create({
    data: {
      id: newId("conv"),
      teamId: caller.team.id,
      userId: caller.user.id,
      userEmail: caller.user.email,
      title: titleFrom(body.message),
      modelConnectionId: model.id,
      model: body.model ?? model.model.defaultModel,
      connectionIds: JSON.stringify(connectionIds),
      shared: body.shared ?? false,
      createdAt: now,
      updatedAt: now,
    },
  });
  const turn = await startTurn(conversation, caller.user, body.message, listener);
  return { id: conversation.id, title: conversation.title, turn: turnJson(turn) };
}

export async function postMessage(
  caller: Caller,
  id: string,
  body: z.infer<typeof postMessageBodySchema>,
  listener?: TurnListener,
) {
  const conversation = await conversationOf(caller, id);
  await refuseWhileBusy(conversation.id);
  const turn = await startTurn(conversation, caller.user, body.message, listener);
  return { id: conversation.id, title: conversation.title, turn: turnJson(turn) };
}

/** One turn at a time: a message while the last one runs or waits for approval is a 409 saying which. */
async function refuseWhileBusy(conversationId: string) {
  const busy = await db.agentTurn.findFirst({
    where: { conversationId, status: { in: ["running", "waiting_approval"] } },
    select: { status: true, waitingApprovalId: true },
  });
  if (!busy) return;
  throw new ApiError(
    409,
    busy.status === "running"
      ? "The conversation's last turn is still running; send the next message once it ends."
      : `The conversation waits for a person to decide approval request ${busy.waitingApprovalId}; send the next message once it is decided.`,
  );
}

/**
 * A conversation the caller may see, with every turn. Another member's turn that carries their
 * private data (it read their private connection, or came after one that did) shows its message
 * and steps but not its answer, as the logs redact what it read (SECURITY.md, "The agent").
 */
export async function getConversation(caller: Caller, id: string) {
  const conversation = await conversationOf(caller, id);
  const turns = await db.agentTurn.findMany({ where: { conversationId: id }, orderBy: { seq: "asc" } });
  const carrying = turns.some((t) => t.userId !== caller.user.id)
    ? await turnsCarryingPrivate(
        conversation.teamId,
        turns.map((t) => ({ userId: t.userId, messages: JSON.parse(t.messages) as ModelMessage[] })),
      )
    : [];
  return {
    ...summaryJson(conversation),
    turns: turns.map((t, i) =>
      // A failed or refused turn's reply is Patchbay's own sentence, never the model's.
      carrying[i] && t.userId !== caller.user.id && t.status !== "failed" && t.status !== "refused"
        ? { ...turnJson(t), reply: WITHHELD_REPLY }
        : turnJson(t),
    ),
  };
}

const WITHHELD_REPLY =
  "This answer used the private connection of the member who asked: only they can read it, as only they read its logs.";

/** The caller's conversations and the team's shared ones, most recent first; `q` searches titles and messages. */
export async function listConversations(caller: Caller, q?: string) {
  const words = (q ?? "").trim();
  const rows = await db.agentConversation.findMany({
    where: {
      ...readable(caller),
      ...(words && {
        AND: [{ OR: [{ title: { contains: words } }, { turns: { some: { message: { contains: words } } } }] }],
      }),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return { data: rows.map(summaryJson) };
}

/** Shares a conversation with the team, or makes it its creator's again: the creator only. */
export async function setShared(caller: Caller, id: string, shared: boolean) {
  const conversation = await conversationOf(caller, id);
  if (conversation.userId !== caller.user.id)
    throw forbidden("Only the member who started a conversation can share it or stop sharing it.");
  await db.agentConversation.update({ where: { id }, data: { shared } });
  return getConversation(caller, id);
}
