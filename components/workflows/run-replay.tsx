"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNote } from "@/components/ui/error-note";
import { JsonView } from "@/components/logs/json-view";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { workflowRunQuery } from "@/lib/queries/workflows";
import { useReplayRun, type TriggeredRunDetail } from "@/components/workflows/trigger-api";

// Replay in the run view (CONTRACT §13): a replay's nodes taken from the run it replays, and
// Retry from this step on a failed or stopped run.

const term = "text-zinc-500 dark:text-zinc-400";
const link = "font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300";

/**
 * The nodes a replay did not run: their outputs were taken from the original run, so they have no
 * log here; each shows the original's label and output, marked "from run_…".
 */
export function ReplayedNodes({
  team,
  originalId,
  nodeIds,
  onOpenRun,
}: {
  team: string;
  originalId: string;
  nodeIds: string[];
  onOpenRun: (id: string) => void;
}) {
  const original = useQuery(workflowRunQuery(team, originalId));
  return (
    <>
      {nodeIds.map((id, i) => {
        const steps = original.data?.nodes.filter((n) => n.node_id === id) ?? [];
        const label = steps[0]?.label ?? id;
        const output = steps.length > 1 ? steps.map((s) => s.output) : steps[0]?.output;
        return (
          <li
            key={id}
            data-testid="run-node-replayed"
            className="rounded-lg border border-dashed border-zinc-300 bg-zinc-50/60 p-3 dark:border-zinc-700 dark:bg-zinc-950/40"
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h4 className="font-medium">
                  {i + 1}. {label}
                </h4>
                <p className={`break-all font-mono text-xs ${term}`}>{id}</p>
              </div>
              <span className="inline-flex items-center whitespace-nowrap rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-900 ring-1 ring-inset ring-indigo-600/20 dark:bg-indigo-950/60 dark:text-indigo-200">
                from {originalId}
              </span>
            </div>
            <p className={`mt-1 ${term}`}>
              Not run again: its output was taken from{" "}
              <a
                href={`?run=${encodeURIComponent(originalId)}`}
                className={`${link} font-mono text-xs`}
                onClick={(e) => {
                  if (e.metaKey || e.ctrlKey || e.shiftKey) return;
                  e.preventDefault();
                  onOpenRun(originalId);
                }}
              >
                {originalId}
              </a>
              <span className="sr-only"> for {label}</span>, so it has no log in this run.
            </p>
            {output !== undefined && output !== null && (
              <details className="mt-2 rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
                <summary className="cursor-pointer rounded-lg px-3 py-1.5 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
                  Output (from the original run)
                </summary>
                <ScrollRegion
                  label={`Output of ${label} (${id}) from ${originalId}`}
                  className="border-t border-zinc-200 px-3 py-2 font-mono text-xs dark:border-zinc-800"
                >
                  <JsonView value={output} />
                </ScrollRegion>
              </details>
            )}
          </li>
        );
      })}
    </>
  );
}

/**
 * Retry from this step: a confirmation that says what a replay does (the nodes before this one are
 * not run again, writes already done are not sent again), then the new run opens in the panel.
 * The server's refusal (409: already replayed, a write would run twice, a truncated output…) is
 * shown in the dialog.
 */
export function RetryFromStep({
  team,
  run,
  nodeId,
  label,
  onOpenRun,
}: {
  team: string;
  run: TriggeredRunDetail;
  nodeId: string;
  label: string;
  onOpenRun: (id: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const replay = useReplayRun(team);
  const close = () => {
    setOpen(false);
    replay.reset();
  };
  const isDefault = nodeId === (run.failed_node_id ?? run.replay?.default_from);
  return (
    <div className="mt-2">
      <button
        type="button"
        className={isDefault ? "btn-primary px-3 py-1.5" : "btn-secondary px-3 py-1.5"}
        onClick={() => setOpen(true)}
        data-testid="retry-from-step"
        aria-label={`Retry from this step: ${label}`}
      >
        Retry from this step
      </button>
      <Dialog open={open} onClose={close} title={`Retry from “${label}”?`} className="max-w-md">
        <div className="space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
          <p>
            A new run of this run&apos;s definition (version {run.version ?? "as it ran"}), with the same trigger data,
            starts at <span className="font-mono text-xs">{nodeId}</span>. The nodes before it are not run again: their
            outputs are taken from this run.
          </p>
          <p className="font-medium text-zinc-900 dark:text-zinc-100">
            Writes already done are not sent again.
            {run.replay?.last_write ? (
              <>
                {" "}
                The last one that succeeded was <span className="font-mono text-xs">{run.replay.last_write}</span>.
              </>
            ) : null}
          </p>
          <p>A run is replayed once; the new run is charged 1 credit plus what it runs.</p>
          {replay.error && <ErrorNote error={replay.error} title="Not replayed" />}
        </div>
        <div className="mt-5 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={close} data-autofocus>
            Cancel
          </button>
          <button
            type="button"
            className="btn-primary"
            disabled={replay.isPending}
            onClick={() =>
              // Awaited rather than mutate's onSuccess: the refetch the replay causes hides this
              // button (the run is replayed now), and a per-call callback of an unmounted
              // component never fires, so the new run would not open.
              void replay
                .mutateAsync({ runId: run.id, from: nodeId })
                .then((r) => {
                  setOpen(false);
                  onOpenRun(r.run_id);
                })
                .catch(() => undefined /* shown in the dialog: replay.error */)
            }
          >
            {replay.isPending ? "Starting…" : "Retry from this step"}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
