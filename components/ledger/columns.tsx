"use client";

import Link from "next/link";
import { createColumnHelper } from "@tanstack/react-table";
import type { CreditLogJson } from "@/lib/schemas/credits";
import { LocalTime } from "@/components/time/local-time";

const col = createColumnHelper<CreditLogJson>();

export const LEDGER_COLUMNS_TEMPLATE = "10.5rem 6rem minmax(10rem,1.4fr) minmax(9rem,1fr) 5rem 7.5rem 9rem";

/** Where an entry's link leads (lib/credits/charge-logs-href.ts), by service; Copilot drafts run nothing. */
const LINK_TEXT: Partial<Record<CreditLogJson["service"]["type"], string>> = {
  workflow: "Logs of this charge",
  mcp: "Log of this call",
  agent: "Logs of this turn",
};

export function ledgerColumns(teamId: string) {
  return [
    col.accessor("created_at", {
      header: "Charged",
      cell: (c) => <LocalTime seconds={c.getValue()} className="tabular-nums text-zinc-600 dark:text-zinc-400" />,
    }),
    col.accessor((e) => e.service.type, {
      id: "service_type",
      header: "Service",
      cell: (c) => (
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-medium uppercase text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          {c.getValue()}
        </span>
      ),
    }),
    col.accessor((e) => e.service.name ?? "", {
      id: "service_name",
      header: "Charged to",
      cell: (c) => (
        <span title={c.row.original.service.id ?? undefined}>
          {c.getValue() || <span className="text-zinc-600 dark:text-zinc-400">—</span>}{" "}
          <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{c.row.original.service.id}</span>
        </span>
      ),
    }),
    col.accessor((e) => e.user?.email ?? "", {
      id: "user",
      header: "User",
      cell: (c) => c.getValue() || <span className="text-zinc-600 dark:text-zinc-400">system</span>,
    }),
    col.accessor("credits_used", {
      header: "Credits",
      cell: (c) => <span className="tabular-nums font-medium">{c.getValue().toLocaleString("en")}</span>,
    }),
    col.accessor("credits_remaining", {
      header: "Balance after",
      cell: (c) => (
        <span className={`tabular-nums ${c.getValue() < 0 ? "font-semibold text-rose-600 dark:text-rose-400" : ""}`}>
          {c.getValue().toLocaleString("en")}
        </span>
      ),
    }),
    col.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      // The server finds exactly what the entry paid for: the run's logs, the call's log, or the turn's.
      cell: (c) => {
        const { id, service } = c.row.original;
        const text = LINK_TEXT[service.type];
        return text && service.id ? (
          <Link
            href={`/${teamId}/ledger/${id}/logs`}
            className="rounded text-indigo-600 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-400"
          >
            {text}
          </Link>
        ) : null;
      },
    }),
  ];
}
