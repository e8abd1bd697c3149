"use client";

import Link from "next/link";
import { createColumnHelper } from "@tanstack/react-table";
import { KindBadge } from "@/components/operations/kind-badge";
import { connectionLabel, type CatalogueOperation } from "@/lib/queries/operations";

const col = createColumnHelper<CatalogueOperation>();

export const OPERATION_COLUMNS_TEMPLATE = "minmax(16rem,2fr) 10rem 4.5rem minmax(9rem,1fr) minmax(12rem,1.3fr)";

const muted = "text-zinc-600 dark:text-zinc-400";

/** The catalogue's columns; `team` for the link to the Connections page. */
export function operationColumns(team: string) {
  return [
    col.accessor("title", {
      header: "Operation",
      cell: (c) => (
        <div className="min-w-0 leading-tight">
          <div className="truncate font-medium text-zinc-900 dark:text-zinc-100">{c.getValue()}</div>
          <div className={`truncate font-mono text-xs ${muted}`}>{c.row.original.id}</div>
        </div>
      ),
    }),
    col.accessor("kind", {
      header: "Kind",
      cell: (c) => <KindBadge kind={c.getValue()} requiresApproval={c.row.original.requires_approval} />,
    }),
    col.accessor("credits", { header: "Credits", cell: (c) => <span className="tabular-nums">{c.getValue()}</span> }),
    col.accessor(
      (op) => (op.connection_types.length ? op.connection_types.map((t) => t.name).join(", ") : "Built-in"),
      {
        id: "platforms",
        header: "Platforms",
        cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
      },
    ),
    col.accessor((op) => op.connections.map(connectionLabel).join(", "), {
      id: "connections",
      header: "Your connections",
      cell: (c) =>
        // A built-in utility of workflows runs on no connection.
        c.row.original.connection_types.length === 0 ? (
          <span className={muted}>Needs none; used in workflows</span>
        ) : c.getValue() ? (
          <span title={c.getValue()}>{c.getValue()}</span>
        ) : (
          // Out of the tab order: the grid is one tab stop, and the detail panel has the same link for the keyboard.
          <Link
            href={`/${team}/connections`}
            tabIndex={-1}
            onClick={(e) => e.stopPropagation()}
            className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
          >
            No connection of this type yet
          </Link>
        ),
    }),
  ];
}
