"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { Switch } from "@/components/ui/switch";
import { OwnershipBadges } from "@/components/agent/badges";
import { Composer } from "@/components/agent/composer";
import { LiveTurnView, TurnView } from "@/components/agent/turn-view";
import { useTeamConnections } from "@/components/agent/use-team-connections";
import { ApiRequestError } from "@/lib/queries/api-client";
import {
  agentKeys,
  conversationOptions,
  useSetShared,
  useTurnStream,
  type AgentConversationJson,
  type AgentTurnResult,
  type LiveTurn,
} from "@/lib/queries/agent";
import { plural } from "@/lib/text/plural";
import { useDocumentTitle } from "@/components/ui/use-document-title";

const muted = "text-zinc-600 dark:text-zinc-400";
const FOCUS = "focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600";
const backLink = "text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/** A conversation's result folded into its cached copy: the turn replaced (or added), the title as it is now. */
const withTurn = (c: AgentConversationJson | undefined, result: AgentTurnResult) =>
  c && { ...c, title: result.title, turns: [...c.turns.filter((t) => t.id !== result.turn.id), result.turn] };

/** The live turn while the conversation's copy does not hold it yet (then the copy shows it). */
const liveToShow = (live: LiveTurn | null, turns: { id: string }[]) =>
  live && !(live.turnId && turns.some((t) => t.id === live.turnId)) ? live : null;

/**
 * One conversation: its turns (a streamed reply as it is written, each operation, a write waiting
 * for approval with its decision in place), followed while a turn runs or waits; the composer.
 */
export function ConversationView({
  teamId,
  conversationId,
  userId,
}: {
  teamId: string;
  conversationId: string;
  userId: string;
}) {
  const stream = useTurnStream(teamId);
  // While a reply streams in, the stream is the truth: no poll overwrites it half-way.
  const query = useQuery({ ...conversationOptions(teamId, conversationId), enabled: !stream.streaming });
  if (query.data) return <Loaded teamId={teamId} conversation={query.data} userId={userId} stream={stream} />;
  if (query.isPending) {
    return (
      <div className="space-y-4" aria-hidden="true">
        <div className="h-4 w-24 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
        <div className="h-8 w-72 max-w-full animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
        <div className="ml-auto h-10 w-1/2 animate-pulse rounded-2xl bg-zinc-200 dark:bg-zinc-800" />
        <div className="h-24 w-3/4 animate-pulse rounded-2xl bg-zinc-200 dark:bg-zinc-800" />
      </div>
    );
  }
  const missing = query.error instanceof ApiRequestError && query.error.status === 404;
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold tracking-tight">{missing ? "No such conversation" : "Conversation"}</h1>
      <ErrorNote
        error={query.error}
        title={
          missing
            ? "It belongs to another team, or to a member who has not shared it."
            : "This conversation could not be loaded."
        }
      />
      <Link href={`/${teamId}/agent`} className="btn-secondary">
        All conversations
      </Link>
    </div>
  );
}

function Loaded({
  teamId,
  conversation: c,
  userId,
  stream,
}: {
  teamId: string;
  conversation: AgentConversationJson;
  userId: string;
  stream: ReturnType<typeof useTurnStream>;
}) {
  const client = useQueryClient();
  const { nameOf, models } = useTeamConnections(teamId);
  const setShared = useSetShared(teamId, c.id);
  const [draft, setDraft] = useState("");
  const [sendError, setSendError] = useState<unknown>(null);
  useDocumentTitle(`${c.title} · Agent · Patchbay`);
  const mine = c.user.id === userId;
  const last = c.turns.at(-1);
  const live = liveToShow(stream.live, c.turns);
  const detailKey = agentKeys.detail(teamId, c.id);
  // The model connection is among them when the conversation took every connection: it runs no operation.
  const isModel = (id: string) => id === c.model_connection_id || models.some((m) => m.id === id);
  const usable = c.connection_ids.filter((id) => !isModel(id));

  const disabledReason = stream.streaming
    ? "The agent is answering…"
    : last?.status === "running"
      ? "The agent is still on the last message; you can write once it answers."
      : last?.status === "waiting_approval"
        ? "A write above waits for a person: approve or reject it and the agent carries on. " +
          "You can write once it answers."
        : null;

  // The page follows the newest text while the reader is at the bottom; scrolled up, it stays put.
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      following.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 160;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  const liveText = live?.text.length ?? 0;
  const liveSteps = live?.steps.length ?? 0;
  useEffect(() => {
    if (following.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [c.turns.length, last?.status, last?.steps.length, liveText, liveSteps]);

  const onDecided = () => void client.invalidateQueries({ queryKey: detailKey });

  const send = () => {
    const message = draft.trim();
    if (!message || disabledReason) return;
    setSendError(null);
    following.current = true;
    // The box is emptied once the server took the message: refused (a teammate's turn runs), it stays to send.
    const path = `/v1/agent/conversations/${encodeURIComponent(c.id)}/messages`;
    stream
      .send(path, { message }, () => setDraft(""))
      .then(
        (result) => {
          client.setQueryData(detailKey, (old: AgentConversationJson | undefined) => withTurn(old, result));
          void client.invalidateQueries({ queryKey: agentKeys.lists(teamId) });
        },
        (e: unknown) => {
          setSendError(e);
          void client.invalidateQueries({ queryKey: detailKey });
        },
      );
  };

  return (
    <div className="max-w-4xl space-y-6">
      <div className="space-y-2">
        <Link href={`/${teamId}/agent`} className={backLink}>
          ← Agent
        </Link>
        <h1 className="wrap-anywhere text-2xl font-semibold tracking-tight">{c.title}</h1>
        <div className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-sm ${muted}`}>
          <OwnershipBadges mine={mine} shared={c.shared} />
          <span>
            <span className="font-mono text-xs">{c.model}</span> on {nameOf(c.model_connection_id)}
          </span>
          {!mine && <span className="break-all">started by {c.user.email}</span>}
        </div>
        <div className="flex flex-wrap items-start gap-x-6 gap-y-2 text-sm">
          <details className="min-w-0">
            <summary className={`cursor-pointer rounded ${muted} ${FOCUS}`}>
              {usable.length ? `May use ${plural(usable.length, "connection")}` : "Uses no connection"}
            </summary>
            {usable.length ? (
              <ul className="mt-1 list-disc space-y-0.5 pl-5">
                {usable.map((id) => (
                  <li key={id} className="wrap-anywhere">
                    {nameOf(id)}
                  </li>
                ))}
              </ul>
            ) : (
              <p className={`mt-1 ${muted}`}>None: the agent answers from what it knows.</p>
            )}
          </details>
          {mine && (
            <label className="inline-flex items-center gap-2">
              <Switch
                checked={c.shared}
                disabled={setShared.isPending}
                onChange={(shared) => setShared.mutate(shared)}
              />
              Shared with the team
            </label>
          )}
        </div>
        {setShared.isError && <ErrorNote error={setShared.error} title="Sharing did not change" />}
      </div>

      <ol aria-label="Conversation" className="space-y-8">
        {c.turns.map((turn) => (
          <TurnView key={turn.id} turn={turn} teamId={teamId} nameOf={nameOf} onDecided={onDecided} />
        ))}
        {live && <LiveTurnView live={live} teamId={teamId} nameOf={nameOf} onDecided={onDecided} />}
      </ol>

      {sendError !== null && <ErrorNote error={sendError} title="Not sent" />}
      {/* A child of the whole page's box, so it stays at the bottom of the screen while the page scrolls. */}
      <Composer
        value={draft}
        onChange={setDraft}
        onSend={send}
        disabledReason={disabledReason}
        sending={stream.streaming}
      />
    </div>
  );
}
