import "server-only";
import {
  APICallError,
  jsonSchema,
  RetryError,
  streamText,
  tool,
  type JSONSchema7,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { z } from "zod";
import { providerUrl } from "@/lib/platforms/kit/provider-fetch";
import type { ConnectionTypeDefinition, ModelDefinition } from "@/lib/platforms/kit/types";
import { redactString } from "@/lib/observability/redact";

// One call of a model connection through the Vercel AI SDK (ai 6: Node >= 18): OpenAI's Chat
// Completions (`.chat()`, not the Responses API, so any OpenAI-compatible endpoint works) or
// Anthropic's Messages, always streamed from the provider, each text delta handed on as it
// arrives. The SDK retries a 429 or 5xx at most 3 times, honouring retry-after; a 401 or 403 is
// not retried. Every failure becomes a ModelFailure with a sentence for the member.

export type ModelTool = {
  description: string;
  inputSchema: z.ZodRawShape;
  /**
   * The caller checks the input itself (the schema only describes it to the model), so an input
   * that breaks it reaches the caller, which answers with what is wrong, instead of the SDK.
   */
  checkedByCaller?: boolean;
};

export type ModelCall = {
  type: ConnectionTypeDefinition & { model: ModelDefinition };
  apiKey: string;
  model: string;
  system: string;
  messages: ModelMessage[];
  tools: Record<string, ModelTool>;
  maxOutputTokens: number;
  signal: AbortSignal;
  onText?: (delta: string) => void;
};

export type ModelStep = {
  text: string;
  toolCalls: { id: string; name: string; input: unknown }[];
  /** The assistant's messages of this call, as the next call must be sent them. */
  messages: ModelMessage[];
  usage: { input: number; output: number };
};

/** Why a model call failed: `auth` (the key was refused: the connection needs attention) or anything else. */
export class ModelFailure extends Error {
  constructor(
    message: string,
    readonly kind: "auth" | "rate_limit" | "unavailable" | "context" | "timeout" | "other",
  ) {
    super(message);
  }
}

const MAX_RETRIES = 3;

function languageModel(call: ModelCall) {
  const def = call.type;
  const baseURL = providerUrl(def, def.model.baseUrl());
  // The SDK calls nothing but this base URL's paths: a provider's answer cannot steer it elsewhere.
  const guarded: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(`${baseURL}/`))
      throw new ModelFailure(`Refused to call ${url}: not ${def.name}'s API.`, "other");
    return fetch(input, init);
  };
  if (def.model.wire === "anthropic_messages")
    return createAnthropic({ baseURL, apiKey: call.apiKey, fetch: guarded })(call.model);
  return createOpenAI({ baseURL, apiKey: call.apiKey, fetch: guarded }).chat(call.model);
}

/** The SDK's tool set of a tools table, built once per table (their JSON Schema is made once too). */
const toolSets = new WeakMap<Record<string, ModelTool>, ToolSet>();
function toolSet(tools: Record<string, ModelTool>): ToolSet {
  let set = toolSets.get(tools);
  if (!set)
    toolSets.set(
      tools,
      (set = Object.fromEntries(
        Object.entries(tools).map(([name, t]) => [
          name,
          tool({
            description: t.description,
            inputSchema: t.checkedByCaller
              ? jsonSchema(z.toJSONSchema(z.object(t.inputSchema), { io: "input" }) as JSONSchema7)
              : z.object(t.inputSchema),
          }),
        ]),
      )),
    );
  return set;
}

export async function callModel(call: ModelCall): Promise<ModelStep> {
  const tools = toolSet(call.tools);
  let failure: unknown = null;
  try {
    const result = streamText({
      model: languageModel(call),
      system: call.system,
      messages: call.messages,
      tools,
      maxRetries: MAX_RETRIES,
      maxOutputTokens: call.maxOutputTokens,
      abortSignal: call.signal,
      onError: ({ error }) => {
        failure ??= error;
      },
    });
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") call.onText?.(part.text);
      else if (part.type === "error") failure ??= part.error;
    }
    if (failure) throw describeModelFailure(failure, call);
    const [text, toolCalls, usage, response] = await Promise.all([
      result.text,
      result.toolCalls,
      result.usage,
      result.response,
    ]);
    return {
      text,
      toolCalls: toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input as unknown })),
      messages: response.messages,
      usage: { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 },
    };
  } catch (e) {
    throw describeModelFailure(failure ?? e, call);
  }
}

/** A sentence for the member: what the provider said (its own words, keys masked), never a stack. */
export function describeModelFailure(
  e: unknown,
  call: Pick<ModelCall, "type" | "model" | "signal" | "apiKey">,
): ModelFailure {
  if (e instanceof ModelFailure) return e;
  const name = call.type.name;
  if (call.signal.aborted)
    return new ModelFailure(
      `The turn ran out of time waiting for ${name}: it took longer than the conversation's time limit.`,
      "timeout",
    );
  const tries = RetryError.isInstance(e) ? e.errors.length : 1;
  const last = RetryError.isInstance(e) ? e.lastError : e;
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const said = masked(providerMessage(last), call.apiKey).slice(0, 500);
    if (status === 401 || status === 403)
      return new ModelFailure(
        `${name} refused the connection's API key (${status}: ${said}). Replace the key of the model connection and try again.`,
        "auth",
      );
    if (status === 429)
      return new ModelFailure(
        `${name} is rate-limiting this key (429: ${said}); ${tries} ${tries === 1 ? "try" : "tries"} failed. Try again in a minute.`,
        "rate_limit",
      );
    if (isContextTooLong(status, said))
      return new ModelFailure(
        `This conversation is too long for ${call.model} (${said}). Start a new conversation.`,
        "context",
      );
    if (status === 404)
      return new ModelFailure(
        `${name} has no model ${JSON.stringify(call.model)} for this key (404: ${said}).`,
        "other",
      );
    if (status !== undefined && status >= 500)
      return new ModelFailure(
        `${name} is unavailable (${status}: ${said}); ${tries} ${tries === 1 ? "try" : "tries"} failed. Try again later.`,
        "unavailable",
      );
    return new ModelFailure(`${name} refused the request (${status ?? "no status"}: ${said}).`, "other");
  }
  const message = last instanceof Error ? last.message : String(last);
  return new ModelFailure(
    `${name} could not be reached (${masked(message, call.apiKey).slice(0, 300)}).`,
    "unavailable",
  );
}

function providerMessage(e: APICallError): string {
  try {
    const body = JSON.parse(e.responseBody ?? "") as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message;
  } catch {
    // not JSON: the SDK's message stands
  }
  return e.message;
}

const isContextTooLong = (status: number | undefined, said: string) =>
  (status === 400 || status === 413) && /context[_ ]length|too long|maximum context|too many tokens/i.test(said);

/** The key itself never reaches a sentence, whatever the provider echoed. */
const masked = (text: string, apiKey: string) =>
  redactString(apiKey.length >= 8 ? text.split(apiKey).join("[redacted]") : text);
