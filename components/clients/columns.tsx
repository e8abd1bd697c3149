"use client";

import Link from "next/link";
import { createColumnHelper } from "@tanstack/react-table";
import { HealthBadge } from "@/components/connections/health-badge";
import { ClientPlatforms } from "@/components/clients/client-platforms";
import { SpendTrend } from "@/components/clients/spend-trend";
import { formatCredits } from "@/components/overview/format";
import { LocalTime } from "@/components/time/local-time";
import type { ClientRow, ClientSort } from "@/lib/schemas/clients";

const col = createColumnHelper<ClientRow>();

export const CLIENT_COLUMNS_TEMPLATE =
  "minmax(10rem,1.4fr) 10rem minmax(7rem,1fr) 5.5rem 4.5rem 5rem 4.5rem 10.5rem 4.5rem";

const muted = "text-zinc-600 dark:text-zinc-400";

export const clientHref = (team: string, row: { id: string }) => `/${team}/clients/${encodeURIComponent(row.id)}`;

type Ctx = {
  team: string;
  typeOf: (type: string) => { name: string; logo: string | null } | undefined;
  sort: ClientSort;
  desc: boolean;
  onSort: (sort: ClientSort) => void;
};

/** A header that sorts by its column; it says which way the list is sorted now. */
function SortHeader({ ctx, by, label }: { ctx: Ctx; by: ClientSort; label: string }) {
  const active = ctx.sort === by;
  return (
    <button
      type="button"
      onClick={() => ctx.onSort(by)}
      className="inline-flex items-center gap-1 uppercase tracking-wide hover:text-zinc-900 dark:hover:text-zinc-100"
      aria-label={`Sort by ${label}${active ? (ctx.desc ? ", sorted high to low" : ", sorted low to high") : ""}`}
    >
      {label}
      {active && <span aria-hidden="true">{ctx.desc ? "↓" : "↑"}</span>}
    </button>
  );
}

export const clientColumns = (ctx: Ctx) => [
  col.accessor((r) => r.external_id ?? "", {
    id: "name",
    header: () => <SortHeader ctx={ctx} by="name" label="Client" />,
    cell: (c) => (
      <Link
        href={clientHref(ctx.team, c.row.original)}
        onClick={(e) => e.stopPropagation()}
        className="font-medium text-zinc-900 hover:underline dark:text-zinc-100"
        data-testid="client-link"
      >
        {c.row.original.external_id ?? <span className="italic">No client</span>}
      </Link>
    ),
  }),
  col.accessor("health", {
    header: "Health",
    cell: (c) => {
      const { health, connections } = c.row.original;
      if (!health) return <span className={muted}>—</span>;
      const failing = connections.filter((x) => x.health === health);
      return (
        <HealthBadge
          health={health}
          error={
            health === "healthy"
              ? null
              : failing.map((x) => `${x.display_name ?? x.type}: ${x.health_error ?? ""}`).join("; ")
          }
        />
      );
    },
  }),
  col.accessor((r) => r.connections.length, {
    id: "connections",
    header: () => <SortHeader ctx={ctx} by="connections" label="Platforms" />,
    cell: (c) => <ClientPlatforms connections={c.row.original.connections} typeOf={ctx.typeOf} />,
  }),
  col.accessor("credits", {
    header: () => <SortHeader ctx={ctx} by="credits" label="Credits" />,
    cell: (c) => <span className="tabular-nums">{formatCredits(c.getValue())}</span>,
  }),
  col.accessor("trend", {
    header: "Trend",
    cell: (c) => <SpendTrend trend={c.getValue()} current={c.row.original.credits} />,
  }),
  col.accessor("operations_7d", {
    header: () => <SortHeader ctx={ctx} by="operations" label="Ops 7d" />,
    cell: (c) => <span className="tabular-nums">{c.getValue().toLocaleString("en")}</span>,
  }),
  col.accessor("errors_7d", {
    header: () => <SortHeader ctx={ctx} by="errors" label="Errors" />,
    cell: (c) => (
      <span className={`tabular-nums ${c.getValue() ? "font-medium text-rose-700 dark:text-rose-400" : ""}`}>
        {c.getValue().toLocaleString("en")}
      </span>
    ),
  }),
  col.accessor("last_activity", {
    header: () => <SortHeader ctx={ctx} by="last_activity" label="Last activity" />,
    cell: (c) => {
      const v = c.getValue();
      return v === null ? (
        <span className={muted}>Never</span>
      ) : (
        <LocalTime seconds={v} className={`tabular-nums ${muted}`} />
      );
    },
  }),
  col.accessor("pending_links", {
    header: "Pending",
    cell: (c) =>
      c.getValue() ? (
        <span className="tabular-nums" title={`${c.getValue()} pending auth links`}>
          {c.getValue()}
        </span>
      ) : (
        <span className={muted}>—</span>
      ),
  }),
];
