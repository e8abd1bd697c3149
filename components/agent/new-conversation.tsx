"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/ui/error-note";
import { Switch } from "@/components/ui/switch";
import { MessageField } from "@/components/agent/composer";
import { ConnectionPicker } from "@/components/agent/connection-picker";
import { LiveTurnView } from "@/components/agent/turn-view";
import { useTeamConnections, type TeamConnection } from "@/components/agent/use-team-connections";
import { agentKeys, conversationOptions, useTurnStream } from "@/lib/queries/agent";

const muted = "text-zinc-600 dark:text-zinc-400";
const SANDBOX_HINT =
  "The sandbox model follows a script: a message with “report” runs the sandbox report; " +
  "“note: …” asks to save that note, a write that waits for approval.";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/**
 * A new conversation: the model connection and model, the connections the agent may use, whether
 * the team sees it, and the first message. The first reply streams here; once the turn ends (or
 * waits for an approval) the conversation's own page takes over.
 */
export function NewConversation({ teamId }: { teamId: string }) {
  const connections = useTeamConnections(teamId);
  if (connections.isPending) {
    return (
      <div aria-hidden="true" className="card space-y-4 p-4">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="h-9 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
        ))}
      </div>
    );
  }
  if (connections.error) {
    return (
      <div className="space-y-3">
        <ErrorNote error={connections.error} title="The team's connections could not be loaded." />
        <button type="button" className="btn-secondary" onClick={() => void connections.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (!connections.models.length) return <NoModel teamId={teamId} sandboxDocs={connections.sandboxModelDocs} />;
  return (
    <ConversationForm
      teamId={teamId}
      models={connections.models}
      tools={connections.tools}
      defaultModelOf={connections.defaultModelOf}
      nameOf={connections.nameOf}
    />
  );
}

/** No model to talk to yet: how to add one. */
function NoModel({ teamId, sandboxDocs }: { teamId: string; sandboxDocs: string | null }) {
  return (
    <div data-testid="agent-no-model" className="card space-y-3 p-4 text-sm sm:p-6">
      <h2 className="text-base font-semibold">First, a model connection</h2>
      <p className={muted}>
        The agent runs on your team&apos;s own model account: add an <strong>OpenAI</strong> or{" "}
        <strong>Anthropic</strong> connection with its API key on the{" "}
        <Link href={`/${teamId}/connections`} className={link}>
          Connections page
        </Link>{" "}
        (New connection). Its calls are billed by that provider; the operations the agent runs are charged in credits
        like any other.
      </p>
      {sandboxDocs && (
        <p className={muted}>
          To try it without a key, add a <strong>Sandbox model</strong> connection the same way: a model inside Patchbay
          with a fixed script (
          <a href={new URL(sandboxDocs).pathname} className={link}>
            what it answers
          </a>
          ).
        </p>
      )}
      <Link href={`/${teamId}/connections`} className="btn-primary">
        Add a model connection
      </Link>
    </div>
  );
}

function ConversationForm({
  teamId,
  models,
  tools,
  defaultModelOf,
  nameOf,
}: {
  teamId: string;
  models: TeamConnection[];
  tools: TeamConnection[];
  defaultModelOf: (type: string) => string | null;
  nameOf: (id: string) => string;
}) {
  const router = useRouter();
  const client = useQueryClient();
  const stream = useTurnStream(teamId);
  const [modelConnectionId, setModelConnectionId] = useState(models[0].id);
  const [model, setModel] = useState("");
  const [picked, setPicked] = useState<Set<string>>(() => new Set(tools.map((c) => c.id)));
  const [shared, setShared] = useState(false);
  const [message, setMessage] = useState("");
  const [error, setError] = useState<unknown>(null);
  const modelSelectId = useId();
  const modelNameId = useId();
  const sharedHelpId = useId();
  const chosen = models.find((m) => m.id === modelConnectionId) ?? models[0];
  const defaultModel = defaultModelOf(chosen.type);

  const start = () => {
    const text = message.trim();
    if (!text || stream.live) return;
    setError(null);
    const everyOne = tools.every((c) => picked.has(c.id));
    stream
      .send("/v1/agent/conversations", {
        model_connection_id: chosen.id,
        ...(model.trim() && { model: model.trim() }),
        // Every connection is the server's default; a choice is sent as it is.
        ...(!everyOne && { connection_ids: tools.filter((c) => picked.has(c.id)).map((c) => c.id) }),
        shared,
        message: text,
      })
      .then(async (result) => {
        await client.prefetchQuery(conversationOptions(teamId, result.id));
        void client.invalidateQueries({ queryKey: agentKeys.lists(teamId) });
        router.replace(`/${teamId}/agent/${result.id}`);
      })
      .catch((e: unknown) => setError(e));
  };

  if (stream.live) {
    return (
      <ol aria-label="Conversation" className="space-y-8">
        <LiveTurnView live={stream.live} teamId={teamId} nameOf={nameOf} onDecided={() => undefined} />
      </ol>
    );
  }

  return (
    <form
      aria-label="New conversation"
      className="card space-y-5 p-4 sm:p-6"
      onSubmit={(e) => {
        e.preventDefault();
        start();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={modelSelectId} className="mb-1 block text-sm font-medium">
            Model connection
          </label>
          <select
            id={modelSelectId}
            className="input"
            value={chosen.id}
            onChange={(e) => setModelConnectionId(e.target.value)}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.typeName})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={modelNameId} className="mb-1 block text-sm font-medium">
            Model <span className={`font-normal ${muted}`}>(optional)</span>
          </label>
          <input
            id={modelNameId}
            className="input font-mono"
            value={model}
            maxLength={200}
            placeholder={defaultModel ?? "the provider's default"}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${modelNameId}-help`}
            onChange={(e) => setModel(e.target.value)}
          />
          <p id={`${modelNameId}-help`} className={`mt-1 text-xs ${muted}`}>
            Its name at {chosen.typeName}; left empty, {defaultModel ?? "the provider's default"}.
          </p>
        </div>
      </div>

      <ConnectionPicker teamId={teamId} connections={tools} selected={picked} onChange={setPicked} />

      <div>
        <label className="inline-flex items-center gap-2 text-sm font-medium">
          <Switch checked={shared} onChange={setShared} aria-describedby={sharedHelpId} />
          Share with the team
        </label>
        <p id={sharedHelpId} className={`mt-1 text-xs ${muted}`}>
          {shared
            ? "Every member sees the conversation and can continue it."
            : "Only you see it; you can share it later."}
        </p>
      </div>

      <div>
        <MessageField
          value={message}
          onChange={setMessage}
          onSend={start}
          label="First message"
          placeholder="What should the agent find out or do?"
          rows={4}
          describedBy={`${modelSelectId}-hint`}
        />
        <p id={`${modelSelectId}-hint`} className={`mt-1 text-xs ${muted}`}>
          {chosen.type === "sandbox_model"
            ? SANDBOX_HINT
            : "Enter sends · Shift+Enter starts a new line. Writes wait for a person's approval."}
        </p>
      </div>

      {error !== null && <ErrorNote error={error} title="The conversation did not start" />}

      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={!message.trim()}>
          Start conversation
        </button>
        <Link href={`/${teamId}/agent`} className="btn-secondary">
          Cancel
        </Link>
      </div>
    </form>
  );
}
