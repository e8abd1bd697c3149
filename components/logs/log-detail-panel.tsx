"use client";

import Link from "next/link";
import { useRef } from "react";
import { usePanelKeyboard } from "@/components/ui/use-panel-keyboard";
import { useLog } from "@/lib/queries/logs";
import { ApiRequestError } from "@/lib/queries/api-client";
import { StatusBadge } from "@/components/logs/status-badge";
import { JsonView } from "@/components/logs/json-view";
import { LocalTime } from "@/components/time/local-time";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { isTruncatedBody } from "@/lib/logs/stored-body";
import { PRIVATE_CONVERSATION_NAME } from "@/lib/text/conversation-name";

const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

function describeError(error: unknown) {
  if (error instanceof ApiRequestError) {
    const d = error.detail as { message?: string; history_days?: number } | string;
    if (typeof d === "object" && d?.message) return d.message;
    return error.message;
  }
  return String(error);
}

/** One log in full (GET /v1/logs/{id}): the fields, then input, output and metadata as foldable JSON. */
export function LogDetailPanel({
  teamId,
  logId,
  onClose,
  onShowRun,
}: {
  teamId: string;
  logId: string;
  onClose: () => void;
  onShowRun: (runId: string) => void;
}) {
  const { data: log, error, isLoading } = useLog(teamId, logId);
  // Where the log came from, when it has a page: its workflow, or its agent conversation.
  const sourceHref =
    log?.source.id && log.source.type === "workflow"
      ? `/${teamId}/workflows/${encodeURIComponent(log.source.id)}`
      : log?.source.id && log.source.type === "agent" && log.source.name !== PRIVATE_CONVERSATION_NAME
        ? `/${teamId}/agent/${encodeURIComponent(log.source.id)}`
        : null;
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  usePanelKeyboard(panelRef, closeRef, onClose, logId);

  return (
    <aside
      ref={panelRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby="log-detail-title"
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[30rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 id="log-detail-title" className="truncate font-semibold">
          Log <span className="font-mono text-sm text-zinc-500 dark:text-zinc-400">{logId}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="btn-secondary px-3 py-1.5"
          aria-label="Close log detail"
        >
          ✕
        </button>
      </div>
      <div className="flex-1 overflow-y-auto p-4 text-sm">
        {isLoading ? (
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
          <div
            role="alert"
            className="rounded-lg border border-rose-200 bg-rose-50 p-3 text-rose-900 dark:border-rose-900/60 dark:bg-rose-950/40 dark:text-rose-200"
          >
            {describeError(error)}
          </div>
        ) : log ? (
          <div className="space-y-4">
            <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-2">
              <dt className="text-zinc-500 dark:text-zinc-400">Status</dt>
              <dd>
                <StatusBadge status={log.status} />
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Operation</dt>
              <dd className="break-all font-mono text-xs">
                {log.operation_id}
                {log.operation_version != null && ` v${log.operation_version}`}
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Source</dt>
              <dd className="break-all">
                {log.source.type} ·{" "}
                {sourceHref ? (
                  <Link href={sourceHref} className={link} data-testid="log-source-link">
                    {log.source.name ?? log.source.id}
                  </Link>
                ) : (
                  (log.source.name ?? "—")
                )}{" "}
                <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{log.source.id}</span>
              </dd>
              {log.source.run_id && (
                <>
                  <dt className="text-zinc-500 dark:text-zinc-400">Run</dt>
                  <dd className="break-all font-mono text-xs">
                    {log.source.type === "workflow" && log.source.id ? (
                      <Link
                        href={`/${teamId}/workflows/${encodeURIComponent(log.source.id)}?run=${encodeURIComponent(log.source.run_id)}`}
                        className={link}
                        aria-label={`Run ${log.source.run_id} on its workflow's page`}
                      >
                        {log.source.run_id}
                      </Link>
                    ) : (
                      log.source.run_id
                    )}
                  </dd>
                </>
              )}
              <dt className="text-zinc-500 dark:text-zinc-400">User</dt>
              <dd className="break-all">{log.user?.email ?? "system"}</dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Started</dt>
              <dd>
                <LocalTime seconds={log.started_at} />
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Completed</dt>
              <dd>{log.completed_at != null ? <LocalTime seconds={log.completed_at} /> : "still running"}</dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Credits</dt>
              <dd>
                {log.credits_used}
                {log.cache_hit && " (cache hit)"} ·{" "}
                {/* A workflow's logs are charged together, once per run; a call's or a turn's with it. */}
                <Link href={`/${teamId}/ledger/charge?log=${encodeURIComponent(log.id)}`} className={link}>
                  {log.source.run_id ? "The run's charge" : "Its charge"} in the ledger
                </Link>
              </dd>
            </dl>
            {log.source.type === "workflow" && log.source.run_id && (
              <button type="button" className="btn-primary w-full" onClick={() => onShowRun(log.source.run_id!)}>
                All steps of this run
              </button>
            )}
            {(
              [
                ["Input", log.input],
                ["Output", log.output],
                ["Metadata", log.metadata],
              ] as const
            ).map(([title, value]: readonly [string, unknown]) => (
              <details key={title} open className="rounded-lg border border-zinc-200 dark:border-zinc-800">
                <summary className="cursor-pointer rounded-lg px-3 py-2 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
                  {title}
                </summary>
                <ScrollRegion
                  label={title}
                  className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
                >
                  {value === undefined || value === null ? (
                    <span className="text-zinc-500 dark:text-zinc-400">none</span>
                  ) : isTruncatedBody(value) ? (
                    <>
                      <p className="mb-2 font-sans text-amber-800 dark:text-amber-300">
                        Stored truncated: the original was {value.original_bytes.toLocaleString()} bytes, over the{" "}
                        {value.limit_bytes.toLocaleString()}-byte limit of a stored log body (LOG_BODY_MAX_BYTES). Its
                        beginning:
                      </p>
                      <pre className="whitespace-pre-wrap break-all">{value.preview}…</pre>
                    </>
                  ) : (
                    <JsonView value={value} />
                  )}
                </ScrollRegion>
              </details>
            ))}
          </div>
        ) : null}
      </div>
    </aside>
  );
}
