"use client";

import Link from "next/link";
import { stateOf, type WorkflowTrigger } from "@/components/workflows/trigger-api";
import { createColumnHelper } from "@tanstack/react-table";
import { ActiveBadge, RunStatusBadge, WritesBadge } from "@/components/workflows/badges";
import { runWhen, useNow, When } from "@/components/workflows/relative-time";
import { LocalTime } from "@/components/time/local-time";
import { scheduleSummary } from "@/components/workflows/schedule-words";
import { runTime } from "@/components/workflows/format";
import type { WorkflowListItem, WorkflowRun } from "@/lib/queries/workflows";
import { plural } from "@/lib/text/plural";

const col = createColumnHelper<WorkflowListItem>();

export const WORKFLOW_COLUMNS_TEMPLATE =
  "minmax(10rem,1.3fr) minmax(10rem,1fr) minmax(10rem,1.2fr) 9.5rem 11rem 4.5rem minmax(8rem,0.9fr)";

const muted = "text-zinc-600 dark:text-zinc-400";

function TwoLines({ first, second, title }: { first: React.ReactNode; second?: React.ReactNode; title?: string }) {
  return (
    <div className="min-w-0 leading-tight" title={title}>
      <div className="truncate">{first}</div>
      {second && <div className={`truncate text-xs ${muted}`}>{second}</div>}
    </div>
  );
}

/** The last run's status and when, relative; the exact time below. */
function LastRun({ run }: { run: WorkflowRun }) {
  const now = useNow();
  const at = runTime(run);
  return (
    <div className="min-w-0 leading-tight">
      <div className="flex min-w-0 items-center gap-1.5">
        <RunStatusBadge status={run.status} />
        {now !== null && <span className="truncate text-xs">{runWhen(run, now)}</span>}
      </div>
      <LocalTime seconds={at / 1000} className={`block truncate text-xs tabular-nums ${muted}`} />
    </div>
  );
}

/** The Workflows page's columns; `team` for the links to each workflow's page. */
export function workflowColumns(team: string) {
  return [
    col.accessor("name", {
      header: "Workflow",
      cell: (c) => (
        <TwoLines
          first={
            // Out of the tab order: the grid is one tab stop, and Enter on the row opens the same page.
            <Link
              href={`/${team}/workflows/${c.row.original.id}`}
              tabIndex={-1}
              onClick={(e) => e.stopPropagation()}
              className="font-medium text-zinc-900 underline-offset-2 hover:underline dark:text-zinc-100"
            >
              {c.getValue()}
            </Link>
          }
          second={plural(c.row.original.nodes.length, "node")}
        />
      ),
    }),
    col.accessor("active", {
      header: "Status",
      cell: (c) => {
        const w = c.row.original;
        return (
          <div className="min-w-0 leading-tight" title={w.deactivated_reason ?? undefined}>
            <div className="flex items-center gap-1">
              <ActiveBadge state={stateOf(w)} />
              {w.writes && <WritesBadge />}
            </div>
            {!w.active && w.deactivated_reason && (
              <div className="mt-0.5 truncate text-xs text-rose-700 dark:text-rose-300">{w.deactivated_reason}</div>
            )}
          </div>
        );
      },
    }),
    col.accessor((w) => scheduleSummary(w.schedule, w.timezone).words, {
      id: "schedule",
      header: "Schedule",
      cell: (c) => {
        const s = scheduleSummary(c.row.original.schedule, c.row.original.timezone);
        const trigger = (c.row.original as WorkflowListItem & { trigger?: WorkflowTrigger }).trigger;
        if (trigger?.type === "webhook") return <TwoLines first="Webhook" second="A POST to its URL" />;
        if (trigger?.type === "event")
          return (
            <TwoLines
              first="Events"
              second={(trigger.events ?? []).join(", ")}
              title={(trigger.events ?? []).join(", ")}
            />
          );
        return (
          <TwoLines
            first={s.words}
            second={s.zone ?? "Runs when started"}
            title={c.row.original.schedule ?? undefined}
          />
        );
      },
    }),
    col.accessor("next_run_at", {
      header: "Next run",
      cell: (c) => {
        const next = c.getValue();
        const w = c.row.original;
        return next !== null ? (
          <When ms={next * 1000} stacked />
        ) : (
          <span className={muted}>{w.schedule && !w.active ? "Not while inactive" : "—"}</span>
        );
      },
    }),
    col.accessor((w) => w.last_run?.status ?? "", {
      id: "last_run",
      header: "Last run",
      cell: (c) => {
        const run = c.row.original.last_run;
        if (!run) return <span className={muted}>Never run</span>;
        return <LastRun run={run} />;
      },
    }),
    col.accessor("credits_this_period", {
      header: "Credits",
      cell: (c) => (
        <span className="tabular-nums" title="Credits this billing period">
          {c.getValue().toLocaleString("en")}
        </span>
      ),
    }),
    col.accessor((w) => w.connection_problems.length, {
      id: "connections",
      header: "Connections",
      cell: (c) => {
        const problems = c.row.original.connection_problems;
        if (!problems.length) return <span className={muted}>OK</span>;
        const first = problems[0];
        return (
          <div
            className="min-w-0 leading-tight text-amber-800 dark:text-amber-200"
            title={problems.map((p) => `${p.node_id}: ${p.problem}`).join("\n")}
            data-testid="connection-problem"
          >
            <div className="truncate font-medium">
              <span aria-hidden="true">⚠ </span>
              {plural(problems.length, "node fails", "nodes fail")}
            </div>
            <div className="truncate text-xs">{first.problem.split(":")[0]}</div>
          </div>
        );
      },
    }),
  ];
}
