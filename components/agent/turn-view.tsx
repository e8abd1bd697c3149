"use client";

import { Markdown } from "@/components/ui/markdown";
import { LocalTime } from "@/components/time/local-time";
import { ApprovalCard } from "@/components/agent/approval-card";
import { StepRow } from "@/components/agent/step-row";
import type { AgentStep, AgentTurnJson, LiveTurn } from "@/lib/queries/agent";
import { plural } from "@/lib/text/plural";

const muted = "text-zinc-600 dark:text-zinc-400";
const MESSAGE = [
  "max-w-[85%] whitespace-pre-wrap wrap-anywhere rounded-2xl rounded-br-md bg-indigo-600 px-4 py-2",
  "text-sm text-white sm:max-w-[75%]",
].join(" ");
const REPLY = [
  "rounded-2xl rounded-tl-md border border-zinc-200 bg-white px-4 py-3",
  "dark:border-zinc-800 dark:bg-zinc-900",
].join(" ");

type Shared = { teamId: string; nameOf: (connectionId: string) => string; onDecided: () => void };

/** One exchange: the member's message, then what the agent did and said. */
export function TurnView({ turn, ...shared }: Shared & { turn: AgentTurnJson }) {
  return (
    <li id={turn.id} data-testid="agent-turn" data-status={turn.status} className="scroll-mt-4 space-y-3">
      <MemberMessage message={turn.message} />
      <AgentSide>
        <Steps steps={turn.steps} {...shared} />
        {turn.status === "completed" && turn.reply && <Reply text={turn.reply} />}
        {turn.status === "failed" && (
          <Callout tone="bad" title="The turn failed">
            {turn.reply}
          </Callout>
        )}
        {turn.status === "refused" && (
          <Callout tone="warn" title="Refused">
            {turn.reply}
          </Callout>
        )}
        {turn.status === "running" && <Working />}
        {turn.status === "waiting_approval" && (
          <p className={`text-sm ${muted}`}>The agent carries on once the write above is approved or rejected.</p>
        )}
        <TurnMeta turn={turn} />
      </AgentSide>
    </li>
  );
}

/** The turn being streamed: the reply as the model writes it, each operation as it runs. */
export function LiveTurnView({ live, ...shared }: Shared & { live: LiveTurn }) {
  return (
    <li data-testid="agent-turn" data-status="streaming" className="space-y-3">
      <MemberMessage message={live.message} />
      <AgentSide>
        <Steps steps={live.steps} {...shared} />
        {live.text ? <Reply text={live.text} streaming /> : <Working />}
      </AgentSide>
    </li>
  );
}

function MemberMessage({ message }: { message: string }) {
  return (
    <div className="flex justify-end">
      <div data-testid="agent-message" className={MESSAGE}>
        <span className="sr-only">Message: </span>
        {message}
      </div>
    </div>
  );
}

function AgentSide({ children }: { children: React.ReactNode }) {
  return (
    <div className="max-w-full space-y-2 sm:max-w-[85%]">
      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Agent</p>
      {children}
    </div>
  );
}

function Steps({ steps, teamId, nameOf, onDecided }: Shared & { steps: AgentStep[] }) {
  if (!steps.length) return null;
  return (
    <ul aria-label="Operations" className="space-y-1.5">
      {steps.map((step, i) => (
        <li key={`${i}-${step.approval_id ?? step.log_id ?? ""}`}>
          {step.approval_id ? (
            <ApprovalCard
              teamId={teamId}
              step={step}
              approvalId={step.approval_id}
              connectionName={nameOf(step.connection_id)}
              onDecided={onDecided}
            />
          ) : (
            <StepRow teamId={teamId} step={step} connectionName={nameOf(step.connection_id)} />
          )}
        </li>
      ))}
    </ul>
  );
}

function Reply({ text, streaming = false }: { text: string; streaming?: boolean }) {
  return (
    <div data-testid="agent-reply" aria-busy={streaming} className={REPLY}>
      <Markdown source={text} />
      {streaming && (
        <span aria-hidden="true" className="mt-1 inline-block h-4 w-1.5 animate-pulse bg-zinc-400 align-middle" />
      )}
    </div>
  );
}

function Working() {
  return (
    <p data-testid="agent-working" className={`flex items-center gap-2 text-sm ${muted}`}>
      <span aria-hidden="true" className="inline-flex gap-1">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="h-1.5 w-1.5 animate-bounce rounded-full bg-zinc-400"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      The agent is working…
    </p>
  );
}

const CALLOUT = {
  bad: "border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200",
  warn: "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-200",
};

function Callout({ tone, title, children }: { tone: keyof typeof CALLOUT; title: string; children: React.ReactNode }) {
  return (
    <div data-testid="agent-turn-error" className={`rounded-lg border p-3 text-sm ${CALLOUT[tone]}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5 wrap-anywhere">{children}</p>
    </div>
  );
}

/** What the turn cost: its credits (the team's Patchbay bill) and its tokens (the team's own model bill). */
function TurnMeta({ turn }: { turn: AgentTurnJson }) {
  const { input_tokens, output_tokens, model_calls } = turn.usage;
  const tokens = `${input_tokens.toLocaleString("en")} tokens in, ${output_tokens.toLocaleString("en")} out`;
  const parts = [
    turn.credits === null ? "Credits charged when it ends" : plural(turn.credits, "credit"),
    model_calls > 0 && `${tokens} · ${plural(model_calls, "model call")}`,
  ].filter(Boolean);
  // Plain inline text, so a narrow screen wraps it between words rather than leaving a dot at a line's end.
  return (
    <p data-testid="agent-turn-usage" className={`text-xs ${muted}`}>
      {parts.join(" · ")} · <LocalTime seconds={turn.started_at} />
    </p>
  );
}
