import { expect, type APIRequestContext } from "@playwright/test";
import { apiAs, type SeededUser } from "../fixtures";

// The agent API as its specs drive it (CONTRACT §11): connections made through /v1, a model
// connection on the OpenAI stand-in whose key a test scripts, a conversation's last turn awaited,
// and the tool results the product sent the model.

export type AgentTurn = {
  status: string;
  reply: string;
  credits: number | null;
  steps: { operation_id: string; connection_id: string; status: string; log_id: string | null; approval_id?: string }[];
};
export type AgentTurnResult = { id: string; title: string; turn: AgentTurn };

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A connection made through POST /v1/connections; its id. */
export async function connection(
  api: APIRequestContext,
  type: string,
  credentials: Record<string, string>,
  extra = {},
): Promise<string> {
  const res = await api.post("/v1/connections", {
    data: { connection_type: type, name: `${type} ${unique()}`, credentials, ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

export const sandboxConnection = (api: APIRequestContext, extra = {}) =>
  connection(api, "sandbox_key", { api_key: `sk-sandbox-${unique()}` }, extra);

/** An OpenAI model connection (the stand-in) of `user`'s, shared with the team, and its key to script. */
export async function openAiModel(user: SeededUser) {
  const api = await apiAs(user);
  const key = `sk-openai-${unique()}`;
  return { api, key, id: await connection(api, "openai", { api_key: key }) };
}

/** The conversation's last turn once it has `status` (polled: the server continues turns on its own). */
export async function lastTurn(api: APIRequestContext, id: string, status: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const body = await (await api.get(`/v1/agent/conversations/${id}`)).json();
    const turn = body.turns?.at(-1) as AgentTurn | undefined;
    if (turn?.status === status) return turn;
    if (Date.now() > until) throw new Error(`last turn of ${id} is ${JSON.stringify(turn)}, not ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The tool results the product sent the model in one request, in either wire format (Chat Completions; Messages). */
export function toolResults(body: { messages: Record<string, unknown>[] }): string[] {
  return body.messages.flatMap((m) => {
    if (m.role === "tool") return [String(m.content)];
    if (m.role === "user" && Array.isArray(m.content))
      return (m.content as { type: string; content?: unknown }[])
        .filter((p) => p.type === "tool_result")
        .map((p) => (typeof p.content === "string" ? p.content : JSON.stringify(p.content)));
    return [];
  });
}
