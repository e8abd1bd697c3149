import { randomBytes } from "node:crypto";
import { APICallError, generateText, streamText, tool, type LanguageModel, type ModelMessage } from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { z } from "zod";
import { test, expect } from "../fixtures";
import { isPostgres } from "../support/instances";
import { DEFAULT_MODEL_TEXT } from "../support/stand-ins/model-chat";
import { modelRequestCount, modelRequests, modelStandInUrl, modelTimings, scriptModel } from "../support/model-script";

// The model stand-ins (e2e/support/stand-ins/model-chat.ts) against the real client libraries the
// agent uses, no product code: the AI SDK with @ai-sdk/openai's Chat Completions model and
// @ai-sdk/anthropic's Messages model, both pointed at the stand-in. Whatever these parse, the
// provider's wire format allows; each test has its own key, so its script and requests are its own.

test.skip(
  isPostgres(),
  "the model stand-ins against the AI SDK, no product code and no database: this runs in the SQLite pass",
);

type Provider = {
  name: "openai" | "anthropic";
  path: string;
  newKey(): string;
  model(key: string): LanguageModel;
  toolCallId: RegExp;
  /** The provider's message for a refused key. */
  refused: RegExp;
};

const base = () => `${modelStandInUrl()}/v1`;
const PROVIDERS: Provider[] = [
  {
    name: "openai",
    path: "/v1/chat/completions",
    newKey: () => `sk-proj-${randomBytes(16).toString("hex")}`,
    model: (apiKey) => createOpenAI({ baseURL: base(), apiKey }).chat("gpt-4o-mini"),
    toolCallId: /^call_[A-Za-z0-9]{24}$/,
    refused: /^Incorrect API key provided: .{3}\*+.{4}\. You can find your API key at https:\/\/platform\.openai\.com/,
  },
  {
    name: "anthropic",
    path: "/v1/messages",
    newKey: () => `sk-ant-api03-${randomBytes(16).toString("hex")}`,
    model: (apiKey) => createAnthropic({ baseURL: base(), apiKey })("claude-haiku-4-5"),
    toolCallId: /^toolu_01[A-Za-z0-9]{22}$/,
    refused: /^invalid x-api-key$/,
  },
];

/** A tool without execute: the model's call comes back to the caller. */
const tools = {
  list_connections: tool({
    description: "Lists the team's connections of one type.",
    inputSchema: z.object({ type: z.string(), limit: z.number().optional() }),
  }),
};

/** One model call, streamed (streamText, every text delta kept) or not (generateText); errors thrown. */
async function call(
  stream: boolean,
  { model, input, maxRetries }: { model: LanguageModel; input: string | ModelMessage[]; maxRetries?: number },
) {
  const messages: ModelMessage[] = typeof input === "string" ? [{ role: "user", content: input }] : input;
  if (!stream) {
    const r = await generateText({ model, messages, maxRetries, tools });
    const { text, toolCalls, usage, finishReason } = r; // getters: not copied by a spread
    return { text, deltas: [text], toolCalls, usage, finishReason, messages: r.response.messages };
  }
  const r = streamText({ model, messages, maxRetries, tools, onError: () => {} });
  const deltas: string[] = [];
  for await (const part of r.fullStream) {
    if (part.type === "error") throw part.error;
    if (part.type === "text-delta") deltas.push(part.text);
  }
  return {
    text: deltas.join(""),
    deltas,
    toolCalls: await r.toolCalls,
    usage: await r.usage,
    finishReason: await r.finishReason,
    messages: (await r.response).messages,
  };
}

/** The APICallError a call failed with. */
async function failure(promise: Promise<unknown>): Promise<APICallError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!APICallError.isInstance(error)) throw new Error(`expected an APICallError, got ${String(error)}`);
  return error;
}

for (const p of PROVIDERS) {
  test.describe(p.name, () => {
    for (const stream of [false, true]) {
      const mode = stream ? "streamed" : "not streamed";

      test(`${mode}: a scripted tool call comes back parsed; its result reaches the next request`, async () => {
        const key = p.newKey();
        await scriptModel(modelStandInUrl(), key, [
          { tool_calls: [{ name: "list_connections", arguments: { type: "slack", limit: 5 } }] },
          { text: "You have 2 Slack connections." },
        ]);
        const prompt: ModelMessage = { role: "user", content: "Which Slack connections do I have?" };
        const first = await call(stream, { model: p.model(key), input: [prompt] });
        expect(first.finishReason).toBe("tool-calls");
        expect(first.toolCalls).toHaveLength(1);
        const [toolCall] = first.toolCalls;
        expect(toolCall).toMatchObject({ toolName: "list_connections", input: { type: "slack", limit: 5 } });
        expect(toolCall.toolCallId).toMatch(p.toolCallId);
        expect(first.usage.inputTokens).toBeGreaterThan(0);
        expect(first.usage.outputTokens).toBeGreaterThan(0);

        const result = [{ id: "conn_1" }, { id: "conn_2" }];
        const second = await call(stream, {
          model: p.model(key),
          input: [
            prompt,
            ...first.messages,
            {
              role: "tool",
              content: [
                {
                  type: "tool-result",
                  toolCallId: toolCall.toolCallId,
                  toolName: "list_connections",
                  output: { type: "json", value: result },
                },
              ],
            },
          ],
        });
        expect(second.text).toBe("You have 2 Slack connections.");
        expect(second.finishReason).toBe("stop");

        const bodies = await modelRequests(modelStandInUrl(), key);
        expect(bodies).toHaveLength(2);
        expect(Boolean(bodies[0].stream)).toBe(stream);
        const toolNames = (bodies[0].tools ?? []).map((t) =>
          p.name === "openai" ? (t.function as { name: string }).name : t.name,
        );
        expect(toolNames).toEqual(["list_connections"]);
        // The tool result as each API carries it: a tool message, or a tool_result block in a user message.
        const sent = bodies[1].messages;
        if (p.name === "openai") {
          const message = sent.find((m) => m.role === "tool");
          expect(message).toMatchObject({ tool_call_id: toolCall.toolCallId });
          expect(JSON.parse(String(message?.content))).toEqual(result);
        } else {
          const blocks = sent.flatMap((m) =>
            Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : [],
          );
          expect(blocks.find((b) => b.type === "tool_result")).toMatchObject({ tool_use_id: toolCall.toolCallId });
        }
      });

      test(`${mode}: a text answer, its usage and its timings`, async () => {
        const key = p.newKey();
        const text = "Patchbay connects your tools, and this answer arrives in pieces.";
        await scriptModel(modelStandInUrl(), key, [{ text, delay_ms: 300, chunk_delay_ms: 20 }]);
        const started = Date.now();
        const answer = await call(stream, { model: p.model(key), input: "What is Patchbay?" });
        expect(Date.now() - started).toBeGreaterThanOrEqual(300);
        expect(answer.text).toBe(text);
        if (stream) expect(answer.deltas.length).toBeGreaterThan(1);
        expect(answer.finishReason).toBe("stop");
        expect(answer.usage.inputTokens).toBeGreaterThan(0);
        expect(answer.usage.outputTokens).toBeGreaterThan(0);
        expect(answer.usage.totalTokens).toBe(answer.usage.inputTokens! + answer.usage.outputTokens!);

        const [timing] = await modelTimings(modelStandInUrl(), key);
        expect(timing).toMatchObject({ path: p.path, stream, turn: "text", status: 200, completed: true });
        expect(timing.first_byte_at! - timing.received_at).toBeGreaterThanOrEqual(299);
        expect(timing.first_token_at!).toBeGreaterThanOrEqual(timing.first_byte_at!);
        // Ten pieces at 20 ms each: the answer ends well after its first piece when streamed.
        if (stream) expect(timing.done_at! - timing.first_token_at!).toBeGreaterThanOrEqual(150);
      });

      test(`${mode}: a 429 with retry-after 1 is retried after a second and then answered`, async () => {
        const key = p.newKey();
        await scriptModel(modelStandInUrl(), key, [{ error: 429, retry_after: 1 }, { text: "Recovered." }]);
        const started = Date.now();
        const answer = await call(stream, { model: p.model(key), input: "Hello", maxRetries: 1 });
        expect(answer.text).toBe("Recovered.");
        expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
        expect(await modelRequestCount(modelStandInUrl(), key)).toBe(2);
        expect((await modelTimings(modelStandInUrl(), key)).map((t) => [t.turn, t.status])).toEqual([
          ["error", 429],
          ["text", 200],
        ]);
      });

      test(`${mode}: a scripted 401 is an APICallError with the provider's message, not retried`, async () => {
        const key = p.newKey();
        await scriptModel(modelStandInUrl(), key, [{ error: 401 }]);
        const error = await failure(call(stream, { model: p.model(key), input: "Hello" }));
        expect(error.statusCode).toBe(401);
        expect(error.message).toMatch(p.refused);
        expect(error.isRetryable).toBe(false);
        expect(await modelRequestCount(modelStandInUrl(), key)).toBe(1);
      });

      test(`${mode}: a bad… key is refused before any scripted turn`, async () => {
        const key = `bad-${p.newKey()}`;
        await scriptModel(modelStandInUrl(), key, [{ text: "Never sent." }]);
        const error = await failure(call(stream, { model: p.model(key), input: "Hello" }));
        expect(error.statusCode).toBe(401);
        expect(error.message).toMatch(p.refused);
        expect(await modelRequestCount(modelStandInUrl(), key)).toBe(1);
        expect(await modelTimings(modelStandInUrl(), key)).toEqual([]);
      });

      test(`${mode}: without a turn left, the fixed default text`, async () => {
        const key = p.newKey();
        await scriptModel(modelStandInUrl(), key, [{ text: "Scripted." }]);
        expect((await call(stream, { model: p.model(key), input: "One" })).text).toBe("Scripted.");
        expect((await call(stream, { model: p.model(key), input: "Two" })).text).toBe(DEFAULT_MODEL_TEXT);
        expect((await call(stream, { model: p.model(p.newKey()), input: "Unscripted" })).text).toBe(DEFAULT_MODEL_TEXT);
      });
    }

    test("the other scripted errors, in the provider's format", async () => {
      const expected =
        p.name === "openai"
          ? {
              500: [500, { type: "server_error", code: null }, /^The server had an error processing your request/],
              529: [503, { type: "server_error", code: null }, /^That model is currently overloaded/],
              context_length: [
                400,
                { type: "invalid_request_error", param: "messages", code: "context_length_exceeded" },
                /^This model's maximum context length is 128000 tokens\. However, your messages resulted in \d+ tokens/,
              ],
            }
          : {
              500: [500, { type: "api_error" }, /^Internal server error$/],
              529: [529, { type: "overloaded_error" }, /^Overloaded$/],
              context_length: [
                400,
                { type: "invalid_request_error" },
                /^prompt is too long: \d+ tokens > 200000 maximum$/,
              ],
            };
      for (const [turn, [status, fields, message]] of Object.entries(expected) as [
        string,
        [number, Record<string, unknown>, RegExp],
      ][]) {
        const key = p.newKey();
        await scriptModel(modelStandInUrl(), key, [
          { error: turn === "context_length" ? turn : (Number(turn) as 500) },
        ]);
        const error = await failure(call(false, { model: p.model(key), input: "Hello", maxRetries: 0 }));
        expect(error.statusCode, turn).toBe(status);
        expect(error.message, turn).toMatch(message);
        const body = JSON.parse(error.responseBody!);
        expect(p.name === "openai" ? body.error : body, turn).toMatchObject(
          p.name === "openai" ? fields : { type: "error", error: fields },
        );
      }
    });
  });
}

// The bytes on the wire, read without a client library.
test.describe("wire format", () => {
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${modelStandInUrl()}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  test("OpenAI: chat.completion.chunk lines, a usage chunk with no choices, then [DONE]", async () => {
    const key = PROVIDERS[0].newKey();
    await scriptModel(modelStandInUrl(), key, [
      { text: "Two words.", tool_calls: [{ name: "list_connections", arguments: { type: "slack" } }] },
    ]);
    const res = await post(
      "/v1/chat/completions",
      { authorization: `Bearer ${key}` },
      {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Hi" }],
        stream: true,
        stream_options: { include_usage: true },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const lines = (await res.text()).split("\n\n").filter(Boolean);
    expect(lines.every((l) => l.startsWith("data: "))).toBe(true);
    expect(lines.at(-1)).toBe("data: [DONE]");
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.slice("data: ".length)));
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0].id)).toBe(true);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: "assistant", content: "" });
    const deltas = chunks.flatMap((c) => c.choices.map((choice: { delta: object }) => choice.delta));
    expect(deltas.map((d) => d.content ?? "").join("")).toBe("Two words.");
    const calls = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^call_/), type: "function" });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(""))).toEqual({ type: "slack" });
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  test("OpenAI: tool_calls arguments are a JSON string; a tool message must answer a tool call", async () => {
    const key = PROVIDERS[0].newKey();
    await scriptModel(modelStandInUrl(), key, [{ tool_calls: [{ name: "list_connections", arguments: { a: 1 } }] }]);
    const auth = { authorization: `Bearer ${key}` };
    const body = await (
      await post("/v1/chat/completions", auth, { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] })
    ).json();
    expect(body).toMatchObject({ object: "chat.completion", choices: [{ finish_reason: "tool_calls" }] });
    const [call] = body.choices[0].message.tool_calls;
    expect(JSON.parse(call.function.arguments)).toEqual({ a: 1 });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);

    const orphan = await post("/v1/chat/completions", auth, {
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "Hi" },
        { role: "tool", tool_call_id: "call_nothing", content: "{}" },
      ],
    });
    expect(orphan.status).toBe(400);
    expect((await orphan.json()).error).toMatchObject({ type: "invalid_request_error", param: "messages.[1].role" });
    expect(await modelTimings(modelStandInUrl(), key)).toHaveLength(1);
  });

  test("Anthropic: named events from message_start to message_stop; version and max_tokens required", async () => {
    const key = PROVIDERS[1].newKey();
    await scriptModel(modelStandInUrl(), key, [
      { text: "Two words.", tool_calls: [{ name: "list_connections", arguments: { type: "slack" } }] },
    ]);
    const headers = { "x-api-key": key, "anthropic-version": "2023-06-01" };
    const request = { model: "claude-haiku-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Hi" }] };
    const res = await post("/v1/messages", headers, { ...request, stream: true });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((e) => {
        const [, name, data] = /^event: (\w+)\ndata: (.*)$/.exec(e)!;
        const parsed = JSON.parse(data);
        expect(parsed.type).toBe(name);
        return parsed;
      });
    expect(events[0]).toMatchObject({ type: "message_start", message: { role: "assistant", content: [] } });
    expect(events.slice(-2).map((e) => e.type)).toEqual(["message_delta", "message_stop"]);
    expect(events.at(-2)).toMatchObject({
      delta: { stop_reason: "tool_use" },
      usage: { output_tokens: expect.any(Number) },
    });
    const starts = events.filter((e) => e.type === "content_block_start").map((e) => e.content_block);
    expect(starts).toMatchObject([
      { type: "text" },
      { type: "tool_use", id: expect.stringMatching(/^toolu_/), input: {} },
    ]);
    const deltas = events.filter((e) => e.type === "content_block_delta");
    expect(
      deltas
        .filter((d) => d.index === 0)
        .map((d) => d.delta.text)
        .join(""),
    ).toBe("Two words.");
    const json = deltas.filter((d) => d.index === 1).map((d) => d.delta.partial_json);
    expect(JSON.parse(json.join(""))).toEqual({ type: "slack" });

    const noVersion = await post("/v1/messages", { "x-api-key": key }, request);
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const noMaxTokens = await post("/v1/messages", headers, { ...request, max_tokens: undefined });
    expect(noMaxTokens.status).toBe(400);
    expect((await noMaxTokens.json()).error.message).toBe("max_tokens: Field required");
    const unanswered = await post("/v1/messages", headers, {
      ...request,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01x", name: "list_connections", input: {} }] },
        { role: "user", content: "And?" },
      ],
    });
    expect(unanswered.status).toBe(400);
    expect((await unanswered.json()).error.message).toMatch(/^messages\.1: `tool_use` ids were found without/);
  });
});
