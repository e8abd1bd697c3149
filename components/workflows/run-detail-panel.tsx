"use client";

import Link from "next/link";
import { useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { ErrorNote } from "@/components/ui/error-note";
import { JsonView } from "@/components/logs/json-view";
import { LocalTime } from "@/components/time/local-time";
import { NodeStatusBadge, RunStatusBadge } from "@/components/workflows/badges";
import { formatDuration, startedBy, triggerLabel } from "@/components/workflows/format";
import { workflowRunQuery, type WorkflowRunDetail } from "@/lib/queries/workflows";
import { plural } from "@/lib/text/plural";

const term = "text-zinc-500 dark:text-zinc-400";

/**
 * One run in full, in a side panel like the approvals' detail: what happened, then each node with
 * its input and output.
 */
export function RunDetailPanel({ team, runId, onClose }: { team: string; runId: string; onClose: () => void }) {
  const { data: run, error, isPending } = useQuery(workflowRunQuery(team, runId));
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
          <RunBody team={team} run={run} />
        ) : null}
      </div>
    </aside>
  );
}

const BOX = {
  bad: "border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200",
  warn: "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100",
  busy: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-200",
};

function Outcome({ run }: { run: WorkflowRunDetail }) {
  const failed = run.nodes.find((n) => n.node_id === run.failed_node_id);
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

function RunBody({ team, run }: { team: string; run: WorkflowRunDetail }) {
  const succeeded = run.nodes.filter((n) => n.status === "success").length;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <RunStatusBadge status={run.status} />
        <span className={term} data-testid="run-node-count">
          {run.nodes.length ? `${succeeded} of ${plural(run.nodes.length, "node")} succeeded` : "No node has run"}
        </span>
      </div>
      <Outcome run={run} />
      <dl className="grid grid-cols-[7.5rem_1fr] gap-x-3 gap-y-2">
        <dt className={term}>Workflow</dt>
        <dd className="min-w-0 wrap-anywhere">{run.workflow_name}</dd>
        <dt className={term}>Trigger</dt>
        <dd>
          {triggerLabel(run.trigger)}
          {run.slot_at !== null && (
            <span className={term}>
              {" "}
              · the <LocalTime seconds={run.slot_at / 1000} /> slot
            </span>
          )}
        </dd>
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
        {run.taken_over && (
          <>
            <dt className={term}>Taken over</dt>
            <dd>Its first instance stopped mid-run; another one continued it.</dd>
          </>
        )}
      </dl>

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
        {run.nodes.length === 0 ? (
          <p className={term}>{run.status === "refused" ? "None ran." : "None has started yet."}</p>
        ) : (
          <ol className="space-y-3">
            {run.nodes.map((n, i) => (
              <li
                key={n.node_id}
                data-testid="run-node"
                className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
              >
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h4 id={`run-node-${i}`} className="font-medium">
                      {i + 1}. {n.label}
                    </h4>
                    <p className={`break-all font-mono text-xs ${term}`}>
                      {n.node_id}
                      {n.operation_id ? ` · ${n.operation_id}` : ""}
                    </p>
                  </div>
                  <NodeStatusBadge status={n.status} />
                </div>
                <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-4">
                  <div>
                    <dt className={`text-xs ${term}`}>Duration</dt>
                    <dd className="tabular-nums">{formatDuration(n.duration_ms)}</dd>
                  </div>
                  <div>
                    <dt className={`text-xs ${term}`}>Retries</dt>
                    <dd className="tabular-nums">{n.retry_attempts}</dd>
                  </div>
                  <div>
                    <dt className={`text-xs ${term}`}>Credits</dt>
                    <dd className="tabular-nums">{n.credits}</dd>
                  </div>
                  <div>
                    <dt className={`text-xs ${term}`}>Cache</dt>
                    <dd>{n.cache_hit ? "hit" : "—"}</dd>
                  </div>
                </dl>
                {n.error && (
                  <p
                    className="mt-2 wrap-anywhere rounded-md bg-rose-50 px-2 py-1 text-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
                    data-testid="run-node-error"
                  >
                    {n.error}
                  </p>
                )}
                {!run.redacted && (
                  <div className="mt-2 space-y-2">
                    <JsonSection
                      title="Input"
                      name={`${n.label} (${n.node_id})`}
                      value={n.input}
                      empty={n.status === "skipped" ? "Skipped: it did not run." : "none"}
                      open={false}
                    />
                    <JsonSection
                      title="Output"
                      name={`${n.label} (${n.node_id})`}
                      value={n.output}
                      empty={n.status === "start" ? "Not finished yet." : "none"}
                      open={n.status !== "skipped"}
                    />
                  </div>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
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
