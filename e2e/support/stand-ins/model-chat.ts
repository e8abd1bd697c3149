import { createHash, randomBytes } from "node:crypto";
import { masked, type Reply, type Route, type StandInRequest } from "./stand-in-server";

// The model APIs of OpenAI (Chat Completions, POST /v1/chat/completions) and Anthropic (Messages,
// POST /v1/messages) in their wire formats, streamed (SSE) or not, replaying turns a test scripted
// for an API key. Served by the api-keys stand-in (one base URL for both types); the SDKs' baseURL
// is `<stand-in>/v1`.
//
// Authentication as each provider does it: OpenAI `Authorization: Bearer <key>`, Anthropic
// `x-api-key` + `anthropic-version` (missing → 400 invalid_request_error). `bad_scope…` → 403,
// other `bad…` → 401, in the provider's error format (see api-keys.ts).
//
// Requests are checked as the providers do, before any turn is used (400 invalid_request_error):
//   OpenAI     body not JSON; no model ("you must provide a model parameter"); no or empty messages;
//              an assistant message with tool_calls not followed by a tool message for each id; a tool
//              message with no preceding tool_calls (param "messages.[i].role").
//   Anthropic  no model, max_tokens or messages ("max_tokens: Field required"); tool_use ids without
//              tool_result blocks in the next message; a tool_result with no tool_use before it.
//
// Scripts: `POST /__stand-in/model-script {key, turns: ModelTurn[]}` → `{key, turns: n}` replaces the
// key's script; each model request with that key (either provider) uses the next turn. A key with no
// turn left answers DEFAULT_MODEL_TEXT. A turn is a text answer, tool calls (optionally after text),
// or one of the provider's errors:
//   error            OpenAI                                         Anthropic
//   401              401 invalid_request_error / invalid_api_key    401 authentication_error "invalid x-api-key"
//   429              429 type "requests" / rate_limit_exceeded      429 rate_limit_error
//   500              500 server_error                               500 api_error "Internal server error"
//   503 or 529       503 server_error "That model is currently      529 overloaded_error "Overloaded"
//                    overloaded with other requests. …"
//   "context_length" 400 invalid_request_error / param "messages"  400 invalid_request_error
//                    / context_length_exceeded                      "prompt is too long: N tokens > 200000 maximum"
// `retry_after` (seconds) adds a `retry-after` header to the error. Every answer reports usage
// (estimated from the sizes of the request and the answer, or the turn's `usage`).
//
// Timings: `GET /__stand-in/model-timings?key=<key>` → `{timings: ModelTiming[]}`, one per answer a turn
// (or the default text) gave that key, oldest first; times are epoch milliseconds.
// The bodies a key's requests carried: the kit's `/__stand-in/requests?account=<key>` (accountOf: modelKeyOf).

export type ModelTurn = {
  /** The answer's text; with tool_calls, the text before them. Streamed word by word. */
  text?: string;
  /** Tool calls the model makes, with the arguments it passes (ids generated as the provider does). */
  tool_calls?: { name: string; arguments?: Record<string, unknown> }[];
  /** The provider's error answer instead (table above). */
  error?: 401 | 429 | 500 | 503 | 529 | "context_length";
  /** Seconds, sent as the error's `retry-after` header. */
  retry_after?: number;
  /** Milliseconds before the first byte of the answer (status and headers). */
  delay_ms?: number;
  /** Milliseconds before each streamed piece of output (default 5); an unstreamed answer waits as long in all. */
  chunk_delay_ms?: number;
  /** Token counts to report instead of the estimate. */
  usage?: { input_tokens: number; output_tokens: number };
};

export type ModelTiming = {
  path: string;
  stream: boolean;
  /** What answered: a scripted text or tool-call turn, a scripted error, or the default text. */
  turn: "text" | "tool_calls" | "error" | "default";
  status: number;
  received_at: number;
  /** When the status and headers were written. */
  first_byte_at: number | null;
  /** When the first output (a text piece or the start of a tool call) was written; unstreamed: the whole body. */
  first_token_at: number | null;
  done_at: number | null;
  /** False when the caller hung up before the end of a stream. */
  completed: boolean;
};

export const DEFAULT_MODEL_TEXT = "This is the model stand-in's answer: no turn was scripted for this key.";

const SCRIPT_PATH = "/__stand-in/model-script";
const TIMINGS_PATH = "/__stand-in/model-timings";
const MODEL_ERRORS = new Set<unknown>([401, 429, 500, 503, 529, "context_length"]);
const DEFAULT_CHUNK_DELAY_MS = 5;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => (ms > 0 ? new Promise<void>((ok) => setTimeout(ok, ms)) : Promise.resolve());
const hash = (v: string) => createHash("sha256").update(v).digest("hex");
/** Error messages are long single lines; written here in parts. */
const sentences = (...parts: string[]) => parts.join(" ");
/** An Anthropic organization ID (a UUID) derived from the key. */
const organization = (key: string) =>
  hash(key)
    .slice(0, 32)
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (n: number) => [...randomBytes(n)].map((b) => BASE62[b % 62]).join("");
const tokens = (v: unknown) => Math.max(1, Math.ceil((typeof v === "string" ? v : JSON.stringify(v ?? "")).length / 4));
/** Word-sized pieces, whitespace kept: "The quick fox" → ["The ", "quick ", "fox"]. */
const words = (text: string) => (text ? text.split(/(?<=\s)(?=\S)/) : []);
const slices = (s: string, size: number) =>
  Array.from({ length: Math.ceil(s.length / size) }, (_, i) => s.slice(i * size, (i + 1) * size));

/** The key a model request authenticates with (Anthropic's x-api-key, else a Bearer token), or null. */
export function modelKeyOf(req: StandInRequest): string | null {
  const key = req.headers["x-api-key"] ?? /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
  return key ? String(key) : null;
}

// ---- Refusals (shared with GET /v1/models) ----

const openaiError = (status: number, message: string, type: string, param: string | null, code: string | null) => ({
  status,
  json: { error: { message, type, param, code } },
  headers: { "x-request-id": `req_${hash(`${message}/${now()}`).slice(0, 32)}` },
});

/** OpenAI's answer to a missing or refused key (`scope`: what a `bad_scope…` key lacks), else null. */
export function openaiRefusal(req: StandInRequest, scope: string): Reply | null {
  const key = /^Bearer (.*)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
  if (!key)
    return openaiError(
      401,
      sentences(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer",
        "auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're",
        "accessing the API from your browser and are prompted for a username and password. You can obtain an API",
        "key from https://platform.openai.com/account/api-keys.",
      ),
      "invalid_request_error",
      null,
      null,
    );
  if (key.startsWith("bad_scope"))
    return openaiError(
      403,
      sentences(
        `You have insufficient permissions for this operation. Missing scopes: ${scope}. Check that you have the`,
        "correct role in your organization (Reader, Writer, Owner) and project (Member, Owner), and if you're using",
        "a restricted API key, that it has the necessary scopes.",
      ),
      "invalid_request_error",
      null,
      null,
    );
  if (key.startsWith("bad")) return openaiInvalidKey(key);
  return null;
}

const openaiInvalidKey = (key: string) =>
  openaiError(
    401,
    sentences(
      `Incorrect API key provided: ${masked(key)}.`,
      "You can find your API key at https://platform.openai.com/account/api-keys.",
    ),
    "invalid_request_error",
    null,
    "invalid_api_key",
  );

const anthropicError = (status: number, type: string, message: string): Reply => {
  const requestId = `req_011C${base62(20)}`;
  return {
    status,
    json: { type: "error", error: { type, message }, request_id: requestId },
    headers: { "request-id": requestId },
  };
};

/** Anthropic's answer to a missing anthropic-version or a missing or refused key, else null. */
export function anthropicRefusal(req: StandInRequest): Reply | null {
  const key = String(req.headers["x-api-key"] ?? "");
  if (!req.headers["anthropic-version"])
    return anthropicError(400, "invalid_request_error", "anthropic-version: header is required");
  if (!key) return anthropicError(401, "authentication_error", "x-api-key header is required");
  if (key.startsWith("bad_scope"))
    return anthropicError(
      403,
      "permission_error",
      "Your API key does not have permission to use the specified resource.",
    );
  if (key.startsWith("bad")) return anthropicError(401, "authentication_error", "invalid x-api-key");
  return null;
}

// ---- Request checks ----

type Message = { role?: unknown; content?: unknown; tool_calls?: { id?: unknown }[]; tool_call_id?: unknown };
type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown };

function openaiInvalid(body: unknown): Reply | null {
  const invalid = (message: string, param: string | null = null, code: string | null = null) =>
    openaiError(400, message, "invalid_request_error", param, code);
  if (!body || typeof body !== "object" || Array.isArray(body))
    return invalid(
      sentences(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP",
        "library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have",
        "trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      ),
    );
  const { model, messages } = body as { model?: unknown; messages?: unknown };
  if (typeof model !== "string" || !model) return invalid("you must provide a model parameter");
  if (!Array.isArray(messages))
    return invalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!messages.length)
    return invalid(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "messages",
      "empty_array",
    );
  const list = messages as Message[];
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (m?.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      const answered = new Set<unknown>();
      for (let j = i + 1; j < list.length && list[j]?.role === "tool"; j++) answered.add(list[j].tool_call_id);
      const missing = m.tool_calls.map((c) => c?.id).filter((id) => !answered.has(id));
      if (missing.length)
        return invalid(
          sentences(
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each",
            `'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
          ),
          `messages.[${i}].role`,
        );
    }
    if (m?.role === "tool") {
      let j = i - 1;
      while (j >= 0 && list[j]?.role === "tool") j--;
      const calls = j >= 0 && list[j]?.role === "assistant" ? (list[j].tool_calls ?? []) : [];
      if (!calls.some((c) => c?.id === m.tool_call_id))
        return invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
    }
  }
  return null;
}

function anthropicInvalid(body: unknown): Reply | null {
  const invalid = (message: string) => anthropicError(400, "invalid_request_error", message);
  if (!body || typeof body !== "object" || Array.isArray(body)) return invalid("Request body must be a JSON object");
  const b = body as { model?: unknown; max_tokens?: unknown; messages?: unknown };
  if (typeof b.model !== "string" || !b.model) return invalid("model: Field required");
  if (b.max_tokens === undefined) return invalid("max_tokens: Field required");
  if (typeof b.max_tokens !== "number" || b.max_tokens < 1)
    return invalid("max_tokens: Input should be a valid integer");
  if (!Array.isArray(b.messages)) return invalid("messages: Field required");
  const list = b.messages as Message[];
  const blocks = (m: Message | undefined, type: string) =>
    Array.isArray(m?.content) ? (m.content as Block[]).filter((c) => c?.type === type) : [];
  for (let i = 0; i < list.length; i++) {
    const uses = list[i]?.role === "assistant" ? blocks(list[i], "tool_use").map((c) => c.id) : [];
    const next = list[i + 1]?.role === "user" ? blocks(list[i + 1], "tool_result").map((c) => c.tool_use_id) : [];
    const missing = uses.filter((id) => !next.includes(id));
    if (missing.length)
      return invalid(
        sentences(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after:`,
          `${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block`,
          "in the next message.",
        ),
      );
    if (list[i]?.role === "user" && Array.isArray(list[i].content)) {
      const before = i > 0 && list[i - 1]?.role === "assistant" ? blocks(list[i - 1], "tool_use").map((c) => c.id) : [];
      const content = list[i].content as Block[];
      const k = content.findIndex((c) => c?.type === "tool_result" && !before.includes(c.tool_use_id));
      if (k >= 0)
        return invalid(
          sentences(
            `messages.${i}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks:`,
            `${String(content[k].tool_use_id)}. Each \`tool_result\` block must have a corresponding`,
            "`tool_use` block in the previous message.",
          ),
        );
    }
  }
  return null;
}

// ---- Answers ----

type Answer = {
  model: string;
  text: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown> }[];
  inputTokens: number;
  outputTokens: number;
  chunkDelayMs: number;
};

/** One SSE event of an answer; `output` events (text pieces, tool-call pieces) are paced. */
type Event = { data: string; output: boolean };

/** Writes `events`, waiting chunk_delay_ms before each output event, and records the timing. */
async function* paced(events: Event[], delayMs: number, timing: ModelTiming): AsyncGenerator<string> {
  timing.first_byte_at = now();
  try {
    for (const e of events) {
      if (e.output) {
        await sleep(delayMs);
        timing.first_token_at ??= now();
      }
      yield e.data;
    }
    timing.completed = true;
  } finally {
    timing.done_at = now();
  }
}

function openaiAnswer(a: Answer, stream: boolean, includeUsage: boolean): { events: Event[]; json: unknown } {
  const id = `chatcmpl-${base62(29)}`;
  const base = {
    id,
    created: Math.floor(Date.now() / 1000),
    model: a.model,
    service_tier: "default",
    system_fingerprint: `fp_${hash(a.model).slice(0, 10)}`,
  };
  const finish = a.toolCalls.length ? "tool_calls" : "stop";
  const usage = {
    prompt_tokens: a.inputTokens,
    completion_tokens: a.outputTokens,
    total_tokens: a.inputTokens + a.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
  const calls = a.toolCalls.map((c) => ({
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
  if (!stream)
    return {
      events: [],
      json: {
        ...base,
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: a.text || null,
              refusal: null,
              annotations: [],
              ...(calls.length && { tool_calls: calls }),
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage,
      },
    };
  const chunk = (delta: object, output: boolean, finishReason: string | null = null): Event => ({
    data: `data: ${JSON.stringify({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage && { usage: null }),
    })}\n\n`,
    output,
  });
  const events: Event[] = [];
  // The first chunk carries the role: with an empty content before text, with the first call otherwise.
  if (a.text || !calls.length) events.push(chunk({ role: "assistant", content: "", refusal: null }, false));
  for (const piece of words(a.text)) events.push(chunk({ content: piece }, true));
  calls.forEach((c, index) => {
    const start = { index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } };
    events.push(
      chunk(
        index === 0 && !a.text ? { role: "assistant", content: null, tool_calls: [start] } : { tool_calls: [start] },
        true,
      ),
    );
    for (const piece of slices(c.function.arguments, 12))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, true));
  });
  events.push(chunk({}, false, finish));
  if (includeUsage)
    events.push({
      data: `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`,
      output: false,
    });
  events.push({ data: "data: [DONE]\n\n", output: false });
  return { events, json: null };
}

function anthropicAnswer(a: Answer, stream: boolean): { events: Event[]; json: unknown } {
  const id = `msg_01${base62(22)}`;
  const stop = a.toolCalls.length ? "tool_use" : "end_turn";
  const cache = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const content = [
    ...(a.text ? [{ type: "text", text: a.text }] : []),
    ...a.toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
  ];
  const message = { id, type: "message", role: "assistant", model: a.model };
  if (!stream)
    return {
      events: [],
      json: {
        ...message,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: a.inputTokens, ...cache, output_tokens: a.outputTokens, service_tier: "standard" },
      },
    };
  const event = (data: { type: string } & Record<string, unknown>, output = false): Event => ({
    data: `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`,
    output,
  });
  const events: Event[] = [
    event({
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: a.inputTokens, ...cache, output_tokens: 1, service_tier: "standard" },
      },
    }),
  ];
  content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(event({ type: "content_block_start", index, content_block: { type: "text", text: "" } }));
      if (index === 0) events.push(event({ type: "ping" }));
      for (const text of words(a.text))
        events.push(event({ type: "content_block_delta", index, delta: { type: "text_delta", text } }, true));
    } else {
      const { id: toolId, name, input } = block as { id: string; name: string; input: unknown };
      events.push(
        event(
          { type: "content_block_start", index, content_block: { type: "tool_use", id: toolId, name, input: {} } },
          true,
        ),
      );
      if (index === 0) events.push(event({ type: "ping" }));
      events.push(event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }));
      for (const partial_json of slices(JSON.stringify(input), 12))
        events.push(
          event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }, true),
        );
    }
    events.push(event({ type: "content_block_stop", index }));
  });
  events.push(
    event({
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { input_tokens: a.inputTokens, ...cache, output_tokens: a.outputTokens },
    }),
    event({ type: "message_stop" }),
  );
  return { events, json: null };
}

function openaiFailure(turn: ModelTurn, key: string, model: string, inputTokens: number): Reply {
  const requestId = `req_${hash(`${key}/${now()}`).slice(0, 32)}`;
  const seconds = turn.retry_after ?? 20;
  const reply = (() => {
    switch (turn.error) {
      case 401:
        return openaiInvalidKey(key);
      case 429:
        return openaiError(
          429,
          sentences(
            `Rate limit reached for ${model} in organization org-${hash(key).slice(0, 24)} on requests per min`,
            `(RPM): Limit 500, Used 500, Requested 1. Please try again in ${seconds}s.`,
            "Visit https://platform.openai.com/account/rate-limits to learn more.",
          ),
          "requests",
          null,
          "rate_limit_exceeded",
        );
      case 503:
      case 529:
        return openaiError(
          503,
          sentences(
            "That model is currently overloaded with other requests. You can retry your request, or contact us",
            "through our help center at help.openai.com if the error persists.",
            `(Please include the request ID ${requestId} in your message.)`,
          ),
          "server_error",
          null,
          null,
        );
      case "context_length":
        return openaiError(
          400,
          sentences(
            "This model's maximum context length is 128000 tokens.",
            `However, your messages resulted in ${128_000 + inputTokens} tokens.`,
            "Please reduce the length of the messages.",
          ),
          "invalid_request_error",
          "messages",
          "context_length_exceeded",
        );
      default:
        return openaiError(
          500,
          sentences(
            "The server had an error processing your request. Sorry about that! You can retry your request, or",
            "contact us through our help center at help.openai.com if you keep seeing this error.",
            `(Please include the request ID ${requestId} in your email.)`,
          ),
          "server_error",
          null,
          null,
        );
    }
  })();
  return withRetryAfter(reply, turn);
}

function anthropicFailure(turn: ModelTurn, key: string, inputTokens: number): Reply {
  const reply = (() => {
    switch (turn.error) {
      case 401:
        return anthropicError(401, "authentication_error", "invalid x-api-key");
      case 429:
        return anthropicError(
          429,
          "rate_limit_error",
          sentences(
            `This request would exceed the rate limit for your organization (${organization(key)}) of 50,000 input`,
            "tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the",
            "response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or",
            "try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your",
            "options for a rate limit increase.",
          ),
        );
      case 503:
      case 529:
        return anthropicError(529, "overloaded_error", "Overloaded");
      case "context_length":
        return anthropicError(
          400,
          "invalid_request_error",
          `prompt is too long: ${200_000 + inputTokens} tokens > 200000 maximum`,
        );
      default:
        return anthropicError(500, "api_error", "Internal server error");
    }
  })();
  return withRetryAfter(reply, turn);
}

const withRetryAfter = (reply: Reply, turn: ModelTurn): Reply =>
  turn.retry_after === undefined
    ? reply
    : { ...reply, headers: { ...reply.headers, "retry-after": String(turn.retry_after) } };

/** Why `turns` is not a script, or null. */
function scriptProblem(turns: unknown): string | null {
  if (!Array.isArray(turns)) return "turns must be an array";
  for (const [i, t] of (turns as ModelTurn[]).entries()) {
    if (!t || typeof t !== "object") return `turns[${i}] must be an object`;
    if (t.error !== undefined && !MODEL_ERRORS.has(t.error))
      return `turns[${i}].error must be one of ${[...MODEL_ERRORS].join(", ")}`;
    if (t.text !== undefined && typeof t.text !== "string") return `turns[${i}].text must be a string`;
    if (
      t.tool_calls !== undefined &&
      (!Array.isArray(t.tool_calls) || t.tool_calls.some((c) => typeof c?.name !== "string"))
    )
      return `turns[${i}].tool_calls must be an array of {name, arguments}`;
    if (t.error === undefined && t.text === undefined && !t.tool_calls?.length)
      return `turns[${i}] needs text, tool_calls or error`;
  }
  return null;
}

/**
 * The model routes and their test controls, to spread into the routes of the stand-in that serves
 * the openai and anthropic types. Scripts and timings live as long as the stand-in.
 */
export function modelChatRoutes(): Record<string, Route> {
  const scripts = new Map<string, ModelTurn[]>();
  const timings = new Map<string, ModelTiming[]>();

  const answer =
    (provider: "openai" | "anthropic"): Route =>
    async (req) => {
      const refusal = provider === "openai" ? openaiRefusal(req, "model.request") : anthropicRefusal(req);
      if (refusal) return refusal;
      const invalid = provider === "openai" ? openaiInvalid(req.json) : anthropicInvalid(req.json);
      if (invalid) return invalid;
      const key = modelKeyOf(req)!;
      const body = req.json as { model: string; stream?: unknown; stream_options?: { include_usage?: unknown } };
      const stream = body.stream === true;
      const scripted = scripts.get(key)?.shift();
      const turn: ModelTurn = scripted ?? { text: DEFAULT_MODEL_TEXT };
      const timing: ModelTiming = {
        path: req.path,
        stream,
        turn: !scripted
          ? "default"
          : turn.error !== undefined
            ? "error"
            : turn.tool_calls?.length
              ? "tool_calls"
              : "text",
        status: 200,
        received_at: now(),
        first_byte_at: null,
        first_token_at: null,
        done_at: null,
        completed: false,
      };
      timings.set(key, [...(timings.get(key) ?? []), timing]);
      const { system, messages, tools } = req.json as Record<string, unknown>;
      const inputTokens = turn.usage?.input_tokens ?? tokens({ system, messages, tools });
      await sleep(turn.delay_ms ?? 0);
      if (turn.error !== undefined) {
        const reply =
          provider === "openai"
            ? openaiFailure(turn, key, body.model, inputTokens)
            : anthropicFailure(turn, key, inputTokens);
        timing.status = reply.status ?? 200;
        timing.first_byte_at = timing.first_token_at = timing.done_at = now();
        timing.completed = true;
        return reply;
      }
      const a: Answer = {
        model: body.model,
        text: turn.text ?? "",
        toolCalls: (turn.tool_calls ?? []).map((c) => ({
          id: provider === "openai" ? `call_${base62(24)}` : `toolu_01${base62(22)}`,
          name: c.name,
          args: c.arguments ?? {},
        })),
        inputTokens,
        outputTokens: 0,
        chunkDelayMs: turn.chunk_delay_ms ?? DEFAULT_CHUNK_DELAY_MS,
      };
      a.outputTokens =
        turn.usage?.output_tokens ?? tokens(a.text + a.toolCalls.map((c) => c.name + JSON.stringify(c.args)).join(""));
      const built =
        provider === "openai"
          ? openaiAnswer(a, stream, body.stream_options?.include_usage === true)
          : anthropicAnswer(a, stream);
      const headers: Record<string, string> =
        provider === "openai"
          ? { "x-request-id": `req_${hash(`${key}/${now()}`).slice(0, 32)}`, "openai-processing-ms": "42" }
          : { "request-id": `req_011C${base62(20)}` };
      if (stream) return { headers, stream: paced(built.events, a.chunkDelayMs, timing) };
      // Unstreamed: the whole answer after as long as streaming its pieces would take.
      const pieces =
        words(a.text).length + a.toolCalls.reduce((n, c) => n + 1 + slices(JSON.stringify(c.args), 12).length, 0);
      await sleep(a.chunkDelayMs * pieces);
      timing.first_byte_at = timing.first_token_at = timing.done_at = now();
      timing.completed = true;
      return { headers, json: built.json };
    };

  return {
    "POST /v1/chat/completions": answer("openai"),
    "POST /v1/messages": answer("anthropic"),
    [`POST ${SCRIPT_PATH}`]: (req) => {
      const { key, turns } = (req.json ?? {}) as { key?: unknown; turns?: unknown };
      const problem = typeof key !== "string" || !key ? "key must be a non-empty string" : scriptProblem(turns);
      if (problem) return { status: 400, json: { error: problem } };
      scripts.set(key as string, [...(turns as ModelTurn[])]);
      return { json: { key, turns: (turns as ModelTurn[]).length } };
    },
    [`GET ${TIMINGS_PATH}`]: (req) => ({ json: { timings: timings.get(req.query.get("key") ?? "") ?? [] } }),
  };
}
