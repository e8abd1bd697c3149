"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, ApiRequestError } from "@/lib/queries/api-client";
import { retryUnlessClientError } from "@/lib/queries/retry";
import { readEventStream } from "@/lib/queries/read-event-stream";
import type { z } from "zod";
import type {
  AgentConversationSchema,
  AgentConversationSummarySchema,
  AgentStep,
  AgentTurnJson,
  AgentTurnResultSchema,
} from "@/lib/schemas/agents";

export type { AgentStep, AgentTurnJson };
export type AgentConversationJson = z.infer<typeof AgentConversationSchema>;
type AgentConversationSummary = z.infer<typeof AgentConversationSummarySchema>;
export type AgentTurnResult = z.infer<typeof AgentTurnResultSchema>;

// The Agent pages' reads and writes: the same /v1/agent routes integrators use, with the session.

export const agentKeys = {
  /** Every agent query of the team. */
  all: (teamId: string) => [teamId, "agent"] as const,
  lists: (teamId: string) => [teamId, "agent", "list"] as const,
  list: (teamId: string, q: string) => [teamId, "agent", "list", q] as const,
  detail: (teamId: string, id: string) => [teamId, "agent", "detail", id] as const,
};

export function conversationsOptions(teamId: string, q: string) {
  return queryOptions({
    queryKey: agentKeys.list(teamId, q),
    queryFn: ({ signal }) =>
      apiFetch<{ data: AgentConversationSummary[] }>(
        teamId,
        `/v1/agent/conversations${q ? `?${new URLSearchParams({ q })}` : ""}`,
        { signal },
      ).then((r) => r.data),
    retry: retryUnlessClientError,
  });
}

// While a turn runs the page follows it closely; while a write waits for a person, less often (it
// can wait an hour; a decision made on this page refreshes at once). A shared conversation shows
// what teammates ask, within a while.
const RUNNING_POLL_MS = 1_500;
const WAITING_POLL_MS = 4_000;
const SHARED_POLL_MS = 20_000;

export function conversationOptions(teamId: string, id: string) {
  return queryOptions({
    queryKey: agentKeys.detail(teamId, id),
    queryFn: ({ signal }) =>
      apiFetch<AgentConversationJson>(teamId, `/v1/agent/conversations/${encodeURIComponent(id)}`, { signal }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => {
      const last = query.state.data?.turns.at(-1);
      if (last?.status === "running") return RUNNING_POLL_MS;
      if (last?.status === "waiting_approval") return WAITING_POLL_MS;
      return query.state.data?.shared ? SHARED_POLL_MS : false;
    },
  });
}

/** Share a conversation with the team, or make it its creator's alone again. */
export function useSetShared(teamId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shared: boolean) =>
      apiFetch<AgentConversationJson>(teamId, `/v1/agent/conversations/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: JSON.stringify({ shared }),
      }),
    onSuccess: (conversation) => client.setQueryData(agentKeys.detail(teamId, id), conversation),
    onSettled: () => client.invalidateQueries({ queryKey: agentKeys.all(teamId) }),
  });
}

type TurnEvents = {
  /** The server took the message: the turn exists, and what follows belongs to it. */
  accepted: () => void;
  text: (delta: string) => void;
  step: (step: AgentStep) => void;
};

/**
 * POSTs a message and reads the turn as Server-Sent Events: the reply's text as the model writes
 * it, each operation as it runs or is filed, then the turn. A refusal before the turn exists (a
 * bad body, a busy conversation) is the usual JSON error, thrown as an ApiRequestError.
 */
async function postTurn(
  teamId: string,
  path: string,
  body: object,
  on: TurnEvents,
  signal: AbortSignal,
): Promise<AgentTurnResult> {
  // apiFetch's headers, plus the stream: apiFetch reads the whole body at once.
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "x-patchbay-team": teamId, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const json = (await res.json().catch(() => null)) as { detail?: unknown } | null;
    if (!res.ok) throw new ApiRequestError(res.status, json?.detail ?? `HTTP ${res.status}`);
    on.accepted();
    return json as AgentTurnResult;
  }
  on.accepted();
  for await (const e of readEventStream(res.body)) {
    const data = JSON.parse(e.data) as unknown;
    if (e.event === "text") on.text((data as { delta: string }).delta);
    else if (e.event === "step") on.step(data as AgentStep);
    else if (e.event === "turn") return data as AgentTurnResult;
    else if (e.event === "error") throw new ApiRequestError(500, (data as { detail?: unknown }).detail ?? "");
  }
  throw new Error(
    "The answer stopped arriving before the turn ended. The agent carries on: reload the page to see it.",
  );
}

/** The turn being streamed: the message sent, the reply so far, its operations; `turnId` once it ended. */
export type LiveTurn = { message: string; text: string; steps: AgentStep[]; turnId: string | null };

/**
 * Sends a message and follows its turn as it streams. `live` stays set after the turn ended (with
 * its `turnId`) until the next send, so the page can keep showing it until its query holds the turn.
 * Leaving the page stops reading the stream; the turn runs on at the server.
 */
export function useTurnStream(teamId: string) {
  const [live, setLive] = useState<LiveTurn | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const send = useCallback(
    async (path: string, body: { message: string } & Record<string, unknown>, onAccepted?: () => void) => {
      controller.current?.abort();
      const abort = (controller.current = new AbortController());
      setLive({ message: body.message, text: "", steps: [], turnId: null });
      try {
        const result = await postTurn(
          teamId,
          path,
          body,
          {
            accepted: () => onAccepted?.(),
            text: (delta) => setLive((l) => l && { ...l, text: l.text + delta }),
            step: (step) => setLive((l) => l && { ...l, steps: [...l.steps, step] }),
          },
          abort.signal,
        );
        setLive((l) => l && { ...l, turnId: result.turn.id });
        return result;
      } catch (e) {
        setLive(null);
        throw e;
      }
    },
    [teamId],
  );
  return { live, send, streaming: live !== null && live.turnId === null };
}
