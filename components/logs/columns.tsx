"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { LogRow } from "@/lib/queries/logs";
import { StatusBadge } from "@/components/logs/status-badge";
import { Highlight } from "@/components/logs/highlight";
import { LocalTime } from "@/components/time/local-time";

const col = createColumnHelper<LogRow>();

export const LOG_COLUMNS_TEMPLATE =
  "10.5rem 5.5rem minmax(10rem,1.4fr) minmax(10rem,1.2fr) minmax(7rem,0.8fr) minmax(8rem,1fr) 4rem 4.5rem";
/** With a search, the run's column gives its place to where the body matched. */
export const SEARCH_COLUMNS_TEMPLATE =
  "10.5rem 5.5rem minmax(10rem,1.4fr) minmax(10rem,1.2fr) minmax(14rem,2fr) minmax(8rem,1fr) 4rem 4.5rem";

const NO_WORDS: string[] = [];

const runColumn = col.accessor((l) => l.source.run_id ?? "", {
  id: "run",
  header: "Run",
  cell: (c) =>
    c.getValue() ? (
      <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{c.getValue()}</span>
    ) : (
      <span className="text-zinc-600 dark:text-zinc-400">—</span>
    ),
});

const matchColumn = (words: string[]) =>
  col.accessor((l) => l.match ?? "", {
    id: "match",
    header: "Match",
    cell: (c) =>
      c.getValue() ? (
        <span className="block truncate font-mono text-xs text-zinc-700 dark:text-zinc-300" title={c.getValue()}>
          <Highlight text={c.getValue()} words={words} />
        </span>
      ) : (
        <span className="text-zinc-600 dark:text-zinc-400">in operation or source</span>
      ),
  });

/** The explorer's columns; with a search's `words`, matches are marked and the body's match shown. */
export const logColumns = (words: string[] = NO_WORDS) => [
  col.accessor("started_at", {
    header: "Started",
    cell: (c) => <LocalTime seconds={c.getValue()} className="tabular-nums text-zinc-600 dark:text-zinc-400" />,
  }),
  col.accessor("status", { header: "Status", cell: (c) => <StatusBadge status={c.getValue()} /> }),
  col.accessor("operation_id", {
    header: "Operation",
    cell: (c) => (
      <span className="font-mono text-xs text-zinc-900 dark:text-zinc-100">
        <Highlight text={c.getValue()} words={words} />
        {c.row.original.operation_version != null && (
          <span className="text-zinc-600 dark:text-zinc-400"> v{c.row.original.operation_version}</span>
        )}
      </span>
    ),
  }),
  col.accessor((l) => l.source.name ?? l.source.id ?? "", {
    id: "source",
    header: "Source",
    cell: (c) => (
      <span>
        <span className="mr-1.5 rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-medium uppercase text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          {c.row.original.source.type}
        </span>
        {c.getValue() ? (
          <Highlight text={c.getValue()} words={words} />
        ) : (
          <span className="text-zinc-600 dark:text-zinc-400">—</span>
        )}
      </span>
    ),
  }),
  words.length ? matchColumn(words) : runColumn,
  col.accessor((l) => l.user?.email ?? "", {
    id: "user",
    header: "User",
    cell: (c) => c.getValue() || <span className="text-zinc-600 dark:text-zinc-400">system</span>,
  }),
  col.accessor("credits_used", {
    header: "Credits",
    cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
  }),
  col.accessor((l) => (l.completed_at != null ? l.completed_at - l.started_at : null), {
    id: "duration",
    header: "Took",
    cell: (c) =>
      c.getValue() === null ? (
        <span className="text-sky-700 dark:text-sky-300">running</span>
      ) : (
        <span className="tabular-nums">{c.getValue()} s</span>
      ),
  }),
];
