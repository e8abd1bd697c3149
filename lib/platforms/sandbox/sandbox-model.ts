import "server-only";
import { randomToken } from "@/lib/security/ids";
import { readBoundedText } from "@/lib/http/parse";

// The sandbox model (CONTRACT §11): a model inside Patchbay that speaks OpenAI's Chat Completions
// format, streaming or not, and follows a fixed script, so a conversation runs through the real
// agent loop (its model client, tools, approvals, logs and ledger) without a model key. It reads
// the member's last message and what happened since: find the operation, run it on the first
// connection that can, answer with what came back.

type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type ChatMessage = {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
};

type Plan = { operationId: string; tool: "run_operation" | "run_write_operation"; input: Record<string, unknown> };
type Move = { text: string } | { call: { name: string; arguments: Record<string, unknown> } };

const SANDBOX_MODEL_PLAIN_ANSWER =
  "I am the sandbox model. Ask me for a report (I run sandbox.report and tell you the sessions of the last 7 days), or write “note: …” and I ask to save that note on the sandbox account: a write, so a person approves it first.";

const textOf = (m: ChatMessage | undefined) =>
  typeof m?.content === "string"
    ? m.content
    : Array.isArray(m?.content)
      ? m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("")
      : "";

const parse = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** What the script does for this message: a `note:` (it wins), a report, or nothing to run. */
function planFor(message: string): Plan | null {
  const at = message.indexOf("note:");
  if (at !== -1)
    return {
      operationId: "sandbox.set_note",
      tool: "run_write_operation",
      input: { note: message.slice(at + "note:".length).trim() },
    };
  if (/report/i.test(message))
    return { operationId: "sandbox.report", tool: "run_operation", input: { metric: "sessions", days: 7 } };
  return null;
}

/** The script's next move, from the conversation so far (the member's last message and what followed it). */
function sandboxModelMove(messages: ChatMessage[]): Move {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const plan = planFor(textOf(messages[lastUser]));
  if (!plan) return { text: SANDBOX_MODEL_PLAIN_ANSWER };
  const since = messages.slice(lastUser + 1);
  const calls = since.flatMap((m) => m.tool_calls ?? []);
  const last = calls.at(-1);
  if (!last) return { call: { name: "find_operations", arguments: { query: plan.operationId } } };
  const result = parse(textOf(since.find((m) => m.role === "tool" && m.tool_call_id === last.id)));
  const error = typeof result.error === "string" ? result.error : null;
  if (last.function.name === "find_operations") {
    if (error) return { text: `I could not search the catalogue: ${error}` };
    const ops = Array.isArray(result.operations)
      ? (result.operations as { id?: unknown; connection_ids?: unknown }[])
      : [];
    const ids = ops.find((o) => o.id === plan.operationId)?.connection_ids;
    const connectionId = Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : null;
    if (!connectionId)
      return {
        text: `No connection of this conversation can run ${plan.operationId}: add a sandbox connection to it and ask again.`,
      };
    return {
      call: {
        name: plan.tool,
        arguments: { operation_id: plan.operationId, connection_id: connectionId, input: plan.input },
      },
    };
  }
  if (plan.operationId === "sandbox.set_note") {
    if (error) return { text: `The note was not saved: ${error}` };
    const previous = typeof result.previous_note === "string" ? ` (it replaced “${result.previous_note}”)` : "";
    return { text: `Saved the note “${String(result.note)}” on the sandbox account${previous}.` };
  }
  if (error) return { text: `The report failed: ${error}` };
  return { text: `The sandbox account had ${String(result.total)} sessions over the last 7 days.` };
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** POST /sandbox/model/v1/chat/completions: the script's move as a Chat Completions answer or stream. */
export async function sandboxChatCompletions(req: Request): Promise<Response> {
  const body = parse(await readBoundedText(req, 16 * 1024 * 1024)) as {
    model?: unknown;
    messages?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown };
  };
  if (!Array.isArray(body.messages))
    return Response.json(
      {
        error: {
          message: "messages is required: an array of chat messages.",
          type: "invalid_request_error",
          param: "messages",
          code: null,
        },
      },
      { status: 400 },
    );
  const move = sandboxModelMove(body.messages as ChatMessage[]);
  const id = `chatcmpl-${randomToken(24)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === "string" ? body.model : "sandbox-script-1";
  const toolCall: ToolCall | null =
    "call" in move
      ? {
          id: `call_${randomToken(24)}`,
          type: "function",
          function: { name: move.call.name, arguments: JSON.stringify(move.call.arguments) },
        }
      : null;
  const text = "text" in move ? move.text : null;
  const usage = {
    prompt_tokens: tokens(JSON.stringify(body.messages)),
    completion_tokens: tokens(text ?? toolCall!.function.arguments),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const finish = toolCall ? "tool_calls" : "stop";
  if (body.stream !== true)
    return Response.json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: text, ...(toolCall && { tool_calls: [toolCall] }) },
          finish_reason: finish,
          logprobs: null,
        },
      ],
      usage,
    });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (text) for (const piece of text.match(/\S+\s*/g) ?? [text]) events.push(chunk({ content: piece }));
  if (toolCall) {
    events.push(
      chunk({ tool_calls: [{ index: 0, ...toolCall, function: { name: toolCall.function.name, arguments: "" } }] }),
    );
    events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }));
  }
  events.push(chunk({}, finish));
  if (body.stream_options?.include_usage === true) events.push({ ...chunk({}), choices: [], usage });
  const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(sse, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
