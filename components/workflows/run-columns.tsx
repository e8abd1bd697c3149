"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { RunStatusBadge } from "@/components/workflows/badges";
import { RunWhen } from "@/components/workflows/relative-time";
import { formatDuration, runTime, startedBy, triggerLabel } from "@/components/workflows/format";
import type { WorkflowRun } from "@/lib/queries/workflows";

const col = createColumnHelper<WorkflowRun>();

export const RUN_COLUMNS_TEMPLATE = "minmax(11rem,1.3fr) 7rem minmax(10rem,1.3fr) minmax(7rem,0.9fr) 6rem 5rem";

const muted = "text-zinc-600 dark:text-zinc-400";

export const runColumns = [
  col.accessor((r) => runTime(r), {
    id: "started",
    header: "Started",
    cell: (c) => <RunWhen run={c.row.original} />,
  }),
  col.accessor("trigger", { header: "Trigger", cell: (c) => triggerLabel(c.getValue()) }),
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
