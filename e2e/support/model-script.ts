import type { ModelTiming, ModelTurn } from "./stand-ins/model-chat";

// Test side of the model stand-in (stand-ins/model-chat.ts): script the turns a key's model requests
// get, then read what the product sent and when the answers were written. The stand-in serves the
// openai and anthropic connection types at one base URL; a model client's baseURL is `<that>/v1`.

/** A request body as the stand-in received it (Chat Completions or Messages), untyped beyond the basics. */
type ModelRequestBody = {
  model: string;
  messages: Record<string, unknown>[];
  system?: unknown;
  tools?: Record<string, unknown>[];
  stream?: boolean;
  [field: string]: unknown;
};

const MODEL_PATHS = new Set(["/v1/chat/completions", "/v1/messages"]);

/** The base URL of the model stand-in, from the PROVIDER_BASE_URLS global-setup gave the run. */
export function modelStandInUrl(): string {
  const url = (JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}") as Record<string, string>).openai;
  if (!url) throw new Error("PROVIDER_BASE_URLS has no openai stand-in (e2e/global-setup.ts sets it)");
  return url;
}

/** Replaces `key`'s script: its next model requests (either provider) get these turns, in order. */
export async function scriptModel(standInUrl: string, key: string, turns: ModelTurn[]): Promise<void> {
  const res = await fetch(`${standInUrl}/__stand-in/model-script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, turns }),
  });
  if (!res.ok) throw new Error(`scripting the model stand-in failed: ${res.status} ${await res.text()}`);
}

async function journal(standInUrl: string, key: string) {
  const res = await fetch(`${standInUrl}/__stand-in/requests?${new URLSearchParams({ account: key })}`);
  const { requests } = (await res.json()) as { requests: { path: string; json: ModelRequestBody }[] };
  return requests.filter((r) => MODEL_PATHS.has(r.path));
}

/** The bodies of the model requests made with `key` (refused ones included), oldest first. */
export async function modelRequests(standInUrl: string, key: string): Promise<ModelRequestBody[]> {
  return (await journal(standInUrl, key)).map((r) => r.json);
}

/** How many model requests were made with `key` (refused ones included). */
export async function modelRequestCount(standInUrl: string, key: string): Promise<number> {
  return (await journal(standInUrl, key)).length;
}

/** When each answer to `key` was received and written (epoch ms), oldest first: for latency benchmarks. */
export async function modelTimings(standInUrl: string, key: string): Promise<ModelTiming[]> {
  const res = await fetch(`${standInUrl}/__stand-in/model-timings?${new URLSearchParams({ key })}`);
  return ((await res.json()) as { timings: ModelTiming[] }).timings;
}
