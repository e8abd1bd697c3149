"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { RunStatusBadge } from "@/components/workflows/badges";
import { RunWhen } from "@/components/workflows/relative-time";
import { formatDuration, runTime, runTriggerWords, startedBy } from "@/components/workflows/format";
import type { TriggeredRun } from "@/components/workflows/trigger-api";
import { stepName, stopStep, waitingStep } from "@/components/workflows/run-steps";

const col = createColumnHelper<TriggeredRun>();

// Status fits "Waiting for approval" on one line.
// Trigger fits "Event connection.needs_reauth" over two lines.
export const RUN_COLUMNS_TEMPLATE =
  "minmax(11rem,1.3fr) minmax(9rem,1fr) minmax(10rem,1.3fr) minmax(10rem,1fr) 6rem 5rem";

const muted = "text-zinc-600 dark:text-zinc-400";

/** Where a run stopped or waits: the node, and the row of its loop. */
function At({ step }: { step: TriggeredRun["nodes"][number] | undefined }) {
  if (!step) return null;
  const name = stepName({ ...step, label: step.node_id });
  return (
    <div className={`truncate text-xs ${muted}`} title={stepName(step)}>
      at {name}
    </div>
  );
}

export const runColumns = [
  col.accessor((r) => runTime(r), {
    id: "started",
    header: "Started",
    cell: (c) => <RunWhen run={c.row.original} />,
  }),
  col.accessor((r) => runTriggerWords(r), {
    id: "trigger",
    header: "Trigger",
    cell: (c) => (
      <div className="min-w-0 leading-tight" data-testid="run-trigger">
        <div className="truncate" title={c.getValue()}>
          {c.getValue()}
        </div>
        {c.row.original.version !== null && (
          <div className={`truncate text-xs ${muted}`}>
            version {c.row.original.version}
            {c.row.original.replayed_by ? " · replayed" : ""}
          </div>
        )}
      </div>
    ),
  }),
  col.accessor((r) => startedBy(r), {
    id: "started_by",
    header: "Started by",
    cell: (c) => (
      <span className="truncate" title={c.getValue()}>
        {c.getValue()}
      </span>
    ),
  }),
  col.accessor("status", {
    header: "Status",
    cell: (c) => (
      <div className="min-w-0 leading-tight">
        <RunStatusBadge status={c.getValue()} />
        {c.getValue() === "refused" && <div className={`truncate text-xs ${muted}`}>no credits</div>}
        {c.getValue() === "error" && c.row.original.failed_node_id && (
          <div className={`truncate text-xs ${muted}`}>at {c.row.original.failed_node_id}</div>
        )}
        {c.getValue() === "stopped" && <At step={stopStep(c.row.original.nodes)} />}
        {c.getValue() === "waiting_approval" && <At step={waitingStep(c.row.original.nodes)} />}
      </div>
    ),
  }),
  col.accessor("duration_ms", {
    header: "Duration",
    cell: (c) => <span className="tabular-nums">{formatDuration(c.getValue())}</span>,
  }),
  col.accessor("credits", {
    header: "Credits",
    cell: (c) => <span className="tabular-nums">{c.getValue() ?? "—"}</span>,
  }),
];
