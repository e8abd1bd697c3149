"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { ErrorNote } from "@/components/ui/error-note";
import { JsonView } from "@/components/logs/json-view";
import { LocalTime } from "@/components/time/local-time";
import { NodeStatusBadge, RunStatusBadge } from "@/components/workflows/badges";
import { formatDuration, startedBy, triggerLabel } from "@/components/workflows/format";
import { workflowRunQuery } from "@/lib/queries/workflows";
import type { TriggeredRunDetail } from "@/components/workflows/trigger-api";
import { ReplayedNodes, RetryFromStep } from "@/components/workflows/run-replay";
import {
  groupSteps,
  isWaiting,
  rowWords,
  stepName,
  stepNote,
  stopReason,
  stopStep,
  waitingStep,
  type RunNodeGroup,
} from "@/components/workflows/run-steps";
import { plural } from "@/lib/text/plural";

const term = "text-zinc-500 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";
/** A loop's rows shown at first; the rest behind a button (a loop may have hundreds). */
const ROWS_SHOWN = 50;

/**
 * One run in full, in a side panel like the approvals' detail: what happened, then each node with
 * its input and output.
 */
export function RunDetailPanel({
  team,
  runId,
  onClose,
  onOpenRun,
}: {
  team: string;
  runId: string;
  onClose: () => void;
  /** Opens another run of the workflow in this panel (a replay, or the run it replays). */
  onOpenRun: (id: string) => void;
}) {
  const query = useQuery(workflowRunQuery(team, runId));
  const { error, isPending } = query;
  // The server's run carries §13's fields (trigger data, version, replay links) beyond the older type.
  const run = query.data as TriggeredRunDetail | undefined;
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  usePanelKeyboard(panelRef, closeRef, onClose, runId);

  return (
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="run-detail-title"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[36rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="run-detail-title" className="min-w-0 truncate font-semibold">
          Run <span className={`font-mono text-sm ${term}`}>{runId}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="btn-secondary shrink-0 px-3 py-1.5"
          aria-label="Close run detail"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 overflow-y-auto p-4 text-sm">
        {isPending ? (
          <div className="space-y-3" aria-hidden="true">
            {Array.from({ length: 6 }, (_, i) => (
              <div
                key={i}
                className="h-4 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800"
                style={{ width: `${50 + i * 8}%` }}
              />
            ))}
          </div>
        ) : error ? (
          <ErrorNote error={error} title="This run could not be loaded." />
        ) : run ? (
          <RunBody team={team} run={run} onOpenRun={onOpenRun} />
        ) : null}
      </div>
    </aside>
  );
}

const BOX = {
  bad: "border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200",
  warn: "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100",
  busy: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-200",
  ended: "border-zinc-300 bg-zinc-50 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100",
};

type Step = TriggeredRunDetail["nodes"][number];
type WorkflowRunDetail = TriggeredRunDetail;

/** Where a run's approval request is decided: the Approvals page with it open. */
const approvalHref = (team: string, id: string) => `/${team}/approvals?approval=${encodeURIComponent(id)}`;

function Outcome({ team, run }: { team: string; run: WorkflowRunDetail }) {
  const failed = run.nodes.find((n) => n.node_id === run.failed_node_id);
  const waiting = waitingStep(run.nodes);
  const stop = stopStep(run.nodes);
  const [tone, title, body]: [keyof typeof BOX, string, React.ReactNode] | [null, null, null] =
    run.status === "refused"
      ? ["warn", "Refused: no credits", run.error ?? "The team had no credits left when the run was due; nothing ran."]
      : run.status === "error"
        ? [
            "bad",
            "Failed",
            <>
              {failed ? (
                <>
                  Node <span className="font-mono text-xs">{failed.node_id}</span> failed:{" "}
                </>
              ) : null}
              {run.error ?? "no reason given"}
            </>,
          ]
        : run.status === "waiting_approval"
          ? [
              "warn",
              "Waiting for approval",
              <>
                {waiting ? (
                  <>{stepName(waiting)} waits for a team member to approve its write</>
                ) : (
                  "A write waits for a team member's approval"
                )}
                ; the run goes on once it is decided, and stops if it is rejected.
                {waiting?.approval_id && (
                  <>
                    {" "}
                    <Link href={approvalHref(team, waiting.approval_id)} className={link}>
                      Open the approval request
                    </Link>
                  </>
                )}
              </>,
            ]
          : run.status === "stopped"
            ? [
                "ended",
                "Stopped",
                stop ? (
                  <>
                    At {stepName(stop)}: {stopReason(stop.reason)}. The nodes after it were skipped.
                  </>
                ) : (
                  (run.error ?? "The run ended early; the nodes after the stop were skipped.")
                ),
              ]
            : run.status === "queued"
              ? ["busy", "Queued", "Waiting for a runner to start it; that usually takes under a second."]
              : run.status === "running"
                ? ["busy", "Running", "The nodes below update as they finish."]
                : [null, null, null];
  if (!tone) return null;
  return (
    <div role="status" data-testid="run-outcome" className={`rounded-lg border p-3 ${BOX[tone]}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5 wrap-anywhere">{body}</p>
    </div>
  );
}

const isUnderwayOrWaiting = (status: WorkflowRunDetail["status"]) =>
  status === "queued" || status === "running" || status === "waiting_approval";

/** A node went through: it has no failed, stopped or unfinished step, and at least one step succeeded. */
const succeededNode = (g: RunNodeGroup) =>
  g.steps.some((s) => s.status === "success") &&
  g.steps.every((s) => s.status === "success" || (s.status === "skipped" && s.reason === "condition"));

/** What started the run: a webhook's body, an API call's input or an event, collapsed at first. */
function TriggerData({ run }: { run: WorkflowRunDetail }) {
  const data = run.trigger_data;
  if (!data) return null;
  const [title, value] =
    "body" in data
      ? ["What started it: the webhook's body", data.body]
      : "input" in data
        ? ["What started it: the API call's input", data.input]
        : ["What started it: the event", data.event];
  return (
    <div data-testid="run-trigger-data">
      <JsonSection title={title} name={`run ${run.id}`} value={value} empty="an empty object" open={false} />
    </div>
  );
}

/** A link that opens another run in this panel (a history entry, as a row does). */
function RunLink({ id, onOpenRun }: { id: string; onOpenRun: (id: string) => void }) {
  return (
    <a
      href={`?run=${encodeURIComponent(id)}`}
      className={`${link} font-mono text-xs`}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        onOpenRun(id);
      }}
    >
      {id}
    </a>
  );
}

function RunBody({ team, run, onOpenRun }: { team: string; run: WorkflowRunDetail; onOpenRun: (id: string) => void }) {
  const groups = groupSteps(run.nodes);
  const replayed = run.replay_of ? run.replayed_nodes : [];
  // Where Retry from this step is offered: the failed (or stopped) node, and every node a replay may start at.
  const retryAt = new Set(
    run.replay && !run.replayed_by && (run.status === "error" || run.status === "stopped")
      ? [run.failed_node_id ?? run.replay.default_from, ...run.replay.from].filter((x): x is string => !!x)
      : [],
  );
  const succeeded = groups.filter(succeededNode).length;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <RunStatusBadge status={run.status} />
        <span className={term} data-testid="run-node-count">
          {groups.length ? `${succeeded} of ${plural(groups.length, "node")} succeeded` : "No node has run"}
        </span>
      </div>
      <Outcome team={team} run={run} />
      <dl className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-2">
        <dt className={term}>Workflow</dt>
        <dd className="min-w-0 wrap-anywhere">{run.workflow_name}</dd>
        <dt className={term}>Trigger</dt>
        <dd data-testid="run-detail-trigger">
          {run.trigger === "replay" && run.replay_of ? (
            <>
              Replay of <RunLink id={run.replay_of} onOpenRun={onOpenRun} />
            </>
          ) : run.trigger === "event" && run.trigger_data && "event" in run.trigger_data ? (
            <>
              Event <code className="font-mono text-xs">{run.trigger_data.event.type}</code>
            </>
          ) : (
            triggerLabel(run.trigger)
          )}
          {run.version !== null && <span className={term}> · version {run.version}</span>}
          {run.slot_at !== null && (
            <span className={term}>
              {" "}
              · the <LocalTime seconds={run.slot_at / 1000} /> slot
            </span>
          )}
        </dd>
        {run.replayed_by && (
          <>
            <dt className={term}>Replayed by</dt>
            <dd data-testid="run-replayed-by">
              <RunLink id={run.replayed_by} onOpenRun={onOpenRun} />
            </dd>
          </>
        )}
        <dt className={term}>Started by</dt>
        <dd className="min-w-0 wrap-anywhere">{startedBy(run)}</dd>
        <dt className={term}>{run.started_at !== null ? "Started" : "Due"}</dt>
        <dd>
          <LocalTime seconds={(run.started_at ?? run.due_at) / 1000} />
        </dd>
        {run.completed_at !== null && (
          <>
            <dt className={term}>Finished</dt>
            <dd>
              <LocalTime seconds={run.completed_at / 1000} />
            </dd>
          </>
        )}
        <dt className={term}>Duration</dt>
        <dd className="tabular-nums">{formatDuration(run.duration_ms)}</dd>
        <dt className={term}>Credits</dt>
        <dd className="tabular-nums">{run.credits ?? "—"}</dd>
        {/* A run parked for an approval is taken up again after the decision, which counts as a claim too. */}
        {run.taken_over &&
          (run.nodes.some((n) => n.approval_id !== null && n.status !== "start") ? (
            <>
              <dt className={term}>Continued</dt>
              <dd>After each approval decision, an instance took the run up again.</dd>
            </>
          ) : (
            <>
              <dt className={term}>Taken over</dt>
              <dd>Its first instance stopped mid-run; another one continued it.</dd>
            </>
          ))}
      </dl>

      <TriggerData run={run} />

      <div className="flex flex-col gap-2 sm:flex-row">
        <Link href={`/${team}/logs?source_run_id=${encodeURIComponent(run.id)}`} className="btn-secondary flex-1">
          Open in Logs
        </Link>
        {/* A run is charged once, when it ends; a refused one never. */}
        {run.completed_at !== null && run.status !== "refused" && (
          <Link href={`/${team}/ledger/charge?run=${encodeURIComponent(run.id)}`} className="btn-secondary flex-1">
            Its charge in the Ledger
          </Link>
        )}
      </div>

      <section aria-labelledby="run-nodes-title">
        <h3 id="run-nodes-title" className="mb-2 font-semibold">
          Nodes
        </h3>
        {run.redacted && (
          <p className={`mb-2 ${term}`} data-testid="run-redacted">
            {run.redacted}
          </p>
        )}
        {run.nodes.length === 0 && replayed.length === 0 ? (
          <p className={term}>{run.status === "refused" ? "None ran." : "None has started yet."}</p>
        ) : (
          <ol className="space-y-3">
            {run.replay_of && replayed.length > 0 && (
              <ReplayedNodes team={team} originalId={run.replay_of} nodeIds={replayed} onOpenRun={onOpenRun} />
            )}
            {groups.map((g, i) => (
              <li
                key={g.node_id}
                data-testid="run-node"
                className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
              >
                {g.loops ? (
                  <LoopNode team={team} run={run} group={g} index={i + replayed.length} />
                ) : (
                  <PlainNode team={team} run={run} step={g.steps[0]} index={i + replayed.length} />
                )}
                {retryAt.has(g.node_id) && (
                  <RetryFromStep team={team} run={run} nodeId={g.node_id} label={g.label} onOpenRun={onOpenRun} />
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function NodeHeading({
  index,
  label,
  nodeId,
  operationId,
  badge,
}: {
  index: number;
  label: string;
  nodeId: string;
  operationId: string | null;
  badge: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div className="min-w-0">
        <h4 id={`run-node-${index}`} className="font-medium">
          {index + 1}. {label}
        </h4>
        <p className={`break-all font-mono text-xs ${term}`}>
          {nodeId}
          {operationId ? ` · ${operationId}` : ""}
        </p>
      </div>
      {badge}
    </div>
  );
}

/** Why a step was skipped or stopped, or that it waits for an approval (with the request's link). */
function StepNote({ team, run, step }: { team: string; run: WorkflowRunDetail; step: Step }) {
  const note = stepNote(step, run);
  return (
    <>
      {note && (
        <p
          data-testid="run-step-note"
          className={`mt-2 wrap-anywhere ${step.status === "stop" || isWaiting(step) ? "font-medium text-zinc-900 dark:text-zinc-100" : term}`}
        >
          {note}
        </p>
      )}
      {step.approval_id && (
        <p className="mt-1">
          <Link href={approvalHref(team, step.approval_id)} className={link} data-testid="run-step-approval">
            {isWaiting(step) ? "Open the approval request" : "Its approval request"}
            <span className="sr-only"> for {stepName(step)}</span>
          </Link>
        </p>
      )}
      {step.error && (
        <p
          className="mt-2 wrap-anywhere rounded-md bg-rose-50 px-2 py-1 text-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
          data-testid="run-node-error"
        >
          {step.error}
        </p>
      )}
    </>
  );
}

/** A row's figures on one line: a loop may have hundreds of rows. */
function RowFigures({ step }: { step: Step }) {
  return (
    <p className={`mt-0.5 text-xs tabular-nums ${term}`}>
      {formatDuration(step.duration_ms)} · {plural(step.retry_attempts, "retry", "retries")} ·{" "}
      {plural(step.credits, "credit")}
      {step.cache_hit ? " · from the cache" : ""}
    </p>
  );
}

function StepFigures({ step }: { step: Step }) {
  return (
    <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-4">
      <div>
        <dt className={`text-xs ${term}`}>Duration</dt>
        <dd className="tabular-nums">{formatDuration(step.duration_ms)}</dd>
      </div>
      <div>
        <dt className={`text-xs ${term}`}>Retries</dt>
        <dd className="tabular-nums">{step.retry_attempts}</dd>
      </div>
      <div>
        <dt className={`text-xs ${term}`}>Credits</dt>
        <dd className="tabular-nums">{step.credits}</dd>
      </div>
      <div>
        <dt className={`text-xs ${term}`}>Cache</dt>
        <dd>{step.cache_hit ? "hit" : "—"}</dd>
      </div>
    </dl>
  );
}

function StepData({ run, step, openOutput }: { run: WorkflowRunDetail; step: Step; openOutput: boolean }) {
  if (run.redacted) return null;
  const name = `${stepName(step)} (${step.node_id})`;
  return (
    <div className="mt-2 space-y-2">
      <JsonSection
        title="Input"
        name={name}
        value={step.input}
        empty={step.status === "skipped" ? "Skipped: it did not run." : "none"}
        open={false}
      />
      <JsonSection
        title="Output"
        name={name}
        value={step.output}
        empty={step.status === "start" ? "Not finished yet." : "none"}
        open={openOutput}
      />
    </div>
  );
}

function PlainNode({ team, run, step, index }: { team: string; run: WorkflowRunDetail; step: Step; index: number }) {
  return (
    <>
      <NodeHeading
        index={index}
        label={step.label}
        nodeId={step.node_id}
        operationId={step.operation_id}
        badge={<NodeStatusBadge status={step.status} waiting={isWaiting(step)} />}
      />
      <StepFigures step={step} />
      <StepNote team={team} run={run} step={step} />
      <StepData run={run} step={step} openOutput={step.status !== "skipped"} />
    </>
  );
}

/** A node that looped: what became of its rows, then each row with its status, figures, input and output. */
function LoopNode({
  team,
  run,
  group: g,
  index,
}: {
  team: string;
  run: WorkflowRunDetail;
  group: RunNodeGroup<Step>;
  index: number;
}) {
  const [showAll, setShowAll] = useState(false);
  const rows = g.steps.filter((s) => s.iteration !== null);
  const own = g.steps.filter((s) => s.iteration === null);
  const count = (status: Step["status"]) => rows.filter((s) => s.status === status && !isWaiting(s)).length;
  const waiting = rows.filter(isWaiting).length;
  const total = g.iterations ?? rows.length;
  const notRun = Math.max(0, total - rows.length);
  const credits = g.steps.reduce((sum, s) => sum + s.credits, 0);
  const parts = [
    count("success") && `${count("success")} succeeded`,
    count("skipped") && `${count("skipped")} skipped`,
    count("error") && `${count("error")} failed`,
    count("stop") && `${count("stop")} stopped`,
    waiting && `${waiting} waiting for approval`,
    count("start") && `${count("start")} running`,
    notRun && `${notRun} not run`,
  ].filter(Boolean);
  const status: Step["status"] = g.steps.some((s) => s.status === "start")
    ? "start"
    : g.steps.some((s) => s.status === "stop")
      ? "stop"
      : g.steps.some((s) => s.status === "error")
        ? "error"
        : g.steps.some((s) => s.status === "success")
          ? "success"
          : "skipped";
  const shown = showAll ? rows : rows.slice(0, ROWS_SHOWN);
  return (
    <>
      <NodeHeading
        index={index}
        label={g.label}
        nodeId={g.node_id}
        operationId={g.operation_id}
        badge={<NodeStatusBadge status={status} waiting={waiting > 0} />}
      />
      <p className="mt-1" data-testid="run-loop-summary">
        For each row: {plural(total, "row")}
        {parts.length ? ` · ${parts.join(" · ")}` : ""} · {plural(credits, "credit")}
      </p>
      {own.map((s) => (
        <StepNote key={s.log_id} team={team} run={run} step={s} />
      ))}
      {rows.length > 0 && (
        <ol className="mt-2 space-y-2" aria-label={`Rows of ${g.label}`}>
          {shown.map((s) => (
            <li
              key={s.log_id}
              data-testid="run-iteration"
              className="rounded-md border border-zinc-100 bg-zinc-50/60 p-2 dark:border-zinc-800 dark:bg-zinc-950/40"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-medium">{rowWords(s).replace(/^r/, "R")}</p>
                <NodeStatusBadge status={s.status} waiting={isWaiting(s)} />
              </div>
              <RowFigures step={s} />
              <StepNote team={team} run={run} step={s} />
              <StepData run={run} step={s} openOutput={false} />
            </li>
          ))}
        </ol>
      )}
      {rows.length > shown.length && (
        <button type="button" className="btn-secondary mt-2 px-3 py-1.5" onClick={() => setShowAll(true)}>
          Show all {plural(rows.length, "row")}
        </button>
      )}
      {notRun > 0 && rows.length > 0 && (
        <p className={`mt-2 text-xs ${term}`}>
          {isUnderwayOrWaiting(run.status)
            ? `${plural(notRun, "row waits its", "rows wait their")} turn.`
            : `${plural(notRun, "row was", "rows were")} not reached: the run ended before them.`}
        </p>
      )}
    </>
  );
}

function JsonSection({
  title,
  name,
  value,
  empty,
  open,
}: {
  title: string;
  name: string;
  value: unknown;
  empty: string;
  open: boolean;
}) {
  return (
    <details open={open} className="rounded-lg border border-zinc-200 dark:border-zinc-800">
      <summary className="cursor-pointer rounded-lg px-3 py-1.5 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
        {title}
      </summary>
      <ScrollRegion
        label={`${title} of ${name}`}
        className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
      >
        {value === undefined || value === null ? (
          <span className={`font-sans ${term}`}>{empty}</span>
        ) : (
          <JsonView value={value} />
        )}
      </ScrollRegion>
    </details>
  );
}
