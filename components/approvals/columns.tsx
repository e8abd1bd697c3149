"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { LiveCountdown } from "@/components/auth-links/live-countdown";
import { LocalTime } from "@/components/time/local-time";
import { ApprovalStatusBadge } from "@/components/approvals/approval-status-badge";
import { requestedVia } from "@/components/approvals/requested-via";
import { itemWords, workflowOf } from "@/components/approvals/workflow-origin";
import type { ApprovalDetail } from "@/lib/queries/approvals";

const col = createColumnHelper<ApprovalDetail>();

export const APPROVAL_COLUMNS_TEMPLATE =
  "10.5rem 6rem minmax(12rem,2.4fr) minmax(8rem,1fr) minmax(8rem,1fr) minmax(9rem,1.2fr) 10.5rem";

const muted = "text-zinc-600 dark:text-zinc-400";

/** Two lines in one 44 px row: the value, and what qualifies it. */
function TwoLines({ first, second, mono }: { first: React.ReactNode; second?: React.ReactNode; mono?: boolean }) {
  return (
    <div className="min-w-0 leading-tight">
      <div className={`truncate ${mono ? "font-mono text-xs" : ""}`}>{first}</div>
      {second && <div className={`truncate text-xs ${muted}`}>{second}</div>}
    </div>
  );
}

/** The list's columns; `typeName` turns a connection type into its product name. */
export function approvalColumns(typeName: (type: string) => string) {
  return [
    col.accessor("created_at", {
      header: "Requested",
      cell: (c) => <LocalTime seconds={c.getValue()} className={`tabular-nums ${muted}`} />,
    }),
    col.accessor("status", { header: "Status", cell: (c) => <ApprovalStatusBadge status={c.getValue()} /> }),
    // The summary is what a person decides on: two lines of it, not one.
    col.accessor("summary", {
      header: "Summary",
      cell: (c) => (
        <span
          title={c.getValue()}
          className="line-clamp-2 whitespace-normal text-[13px] leading-[18px] text-zinc-900 dark:text-zinc-100"
        >
          {c.getValue()}
        </span>
      ),
    }),
    col.accessor("operation_id", {
      header: "Operation",
      cell: (c) => <span className="font-mono text-xs">{c.getValue()}</span>,
    }),
    col.accessor((a) => (a.redacted ? "Private connection" : (a.connection.name ?? a.connection.id)), {
      id: "connection",
      header: "Connection",
      cell: (c) => <TwoLines first={c.getValue()} second={typeName(c.row.original.connection.type)} />,
    }),
    col.accessor((a) => a.requested_by_email ?? "", {
      id: "requested_by",
      header: "Requested by",
      cell: (c) => {
        const workflow = workflowOf(c.row.original);
        const item = workflow?.item ? ` · ${itemWords(workflow.item)}` : "";
        // A workflow's run that no person started (its schedule, a trigger, the CLI) names the workflow first.
        if (workflow && !c.getValue())
          return (
            <TwoLines
              first={requestedVia(c.row.original).replace(/^the /, "")}
              second={`a run no person started${item}`}
            />
          );
        return (
          <TwoLines
            first={c.getValue() || <span className={muted}>an agent</span>}
            second={`via ${requestedVia(c.row.original)}${item}`}
          />
        );
      },
    }),
    col.accessor("expires_at", {
      header: "Expiry",
      cell: (c) =>
        c.row.original.status === "pending" ? (
          <span className="text-amber-800 dark:text-amber-200">
            <LiveCountdown expiresAt={c.getValue() * 1000} />
          </span>
        ) : c.row.original.status === "expired" ? (
          <span className={muted}>Expired</span>
        ) : (
          <span className={muted}>—</span>
        ),
    }),
  ];
}
