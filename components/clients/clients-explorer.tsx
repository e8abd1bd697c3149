"use client";

import { useMemo } from "react";
import { useRouter } from "next/navigation";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterSelect, FilterText } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { HEALTH_WORDS } from "@/components/connections/health-badge";
import { CLIENT_COLUMNS_TEMPLATE, clientColumns, clientHref } from "@/components/clients/columns";
import { LocalTime } from "@/components/time/local-time";
import { CLIENT_FILTER_KEYS, useInfiniteClients } from "@/lib/queries/clients";
import { useConnectionTypes } from "@/lib/queries/connections";
import { CLIENT_SORTS, type ClientRow, type ClientSort } from "@/lib/schemas/clients";
import { CONNECTION_HEALTHS } from "@/lib/schemas/connections";
import { plural } from "@/lib/text/plural";

const SORT_WORDS: Record<ClientSort, string> = {
  name: "Name",
  credits: "Credits this period",
  operations: "Operations, 7 days",
  errors: "Errors, 7 days",
  last_activity: "Last activity",
  connections: "Connections",
};

/** Names A→Z first, numbers and times high→low first. */
const DESC_FIRST: Record<ClientSort, boolean> = {
  name: false,
  credits: true,
  operations: true,
  errors: true,
  last_activity: true,
  connections: true,
};

/** The Clients page: one row per external_id; search, health, sort in the URL; the shared virtualized table. */
export function ClientsExplorer({ teamId }: { teamId: string }) {
  const { filters, setFilters, setFilter } = useUrlFilters(CLIENT_FILTER_KEYS);
  const query = useInfiniteClients(teamId, filters);
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  const first = query.data?.pages[0];
  const types = useConnectionTypes(teamId);
  const router = useRouter();
  const sort = (CLIENT_SORTS as readonly string[]).includes(filters.sort ?? "") ? (filters.sort as ClientSort) : "name";
  const desc = filters.order ? filters.order === "desc" : DESC_FIRST[sort];
  const typeByName = useMemo(() => new Map((types.data ?? []).map((t) => [t.type, t])), [types.data]);
  const columns = useMemo(
    () =>
      clientColumns({
        team: teamId,
        typeOf: (t) => typeByName.get(t),
        sort,
        desc,
        // The same column again turns the order around; another column starts in its own direction.
        onSort: (by) => {
          const nextDesc = by === sort ? !desc : DESC_FIRST[by];
          setFilters({
            ...filters,
            sort: by === "name" ? undefined : by,
            order: nextDesc === DESC_FIRST[by] ? undefined : nextDesc ? "desc" : "asc",
          });
        },
      }),
    [teamId, typeByName, sort, desc, filters, setFilters],
  );
  const filtered = Boolean(filters.q || filters.health);

  return (
    <div className="space-y-4">
      <div className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-3">
        <FilterText
          label="Search clients"
          value={filters.q}
          placeholder="External ID or connection name"
          mono={false}
          onChange={(v) => setFilter("q", v)}
        />
        <FilterSelect
          label="Health"
          value={filters.health}
          options={CONNECTION_HEALTHS}
          optionLabel={(h) =>
            h === "healthy"
              ? "All connections healthy"
              : `Any ${HEALTH_WORDS[h as keyof typeof HEALTH_WORDS].toLowerCase()}`
          }
          onChange={(v) => setFilter("health", v)}
        />
        <FilterSelect
          label="Sort by"
          value={filters.sort}
          options={CLIENT_SORTS.filter((s) => s !== "name")}
          optionLabel={(s) => SORT_WORDS[s as ClientSort]}
          anyLabel={SORT_WORDS.name}
          onChange={(v) => setFilters({ ...filters, sort: v, order: undefined })}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <p data-testid="clients-summary">
          {first ? (
            <>
              {plural(first.total, "client")}
              {filtered ? " match" : ""}. Credits: this billing period (since{" "}
              <LocalTime seconds={first.period.start} dateOnly />
              ); the trend shows the three periods before it, then this one.
            </>
          ) : (
            " "
          )}
        </p>
        {filtered && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            onClick={() => setFilters({ sort: filters.sort, order: filters.order })}
          >
            Clear filters
          </button>
        )}
      </div>
      <DataTable<ClientRow>
        key={JSON.stringify(filters)}
        label="Clients"
        data={rows}
        columns={columns}
        template={CLIENT_COLUMNS_TEMPLATE}
        getRowId={(r) => r.id}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        onRowClick={(r) => router.push(clientHref(teamId, r))}
        empty={
          <EmptyState title={filtered ? "No client matches these filters" : "No clients yet"}>
            {filtered ? (
              <p>Loosen or clear the filters.</p>
            ) : (
              <p>
                A client appears here when a connection or an auth link carries its <code>external_id</code>: create an
                auth link with one for each of your customers.
              </p>
            )}
          </EmptyState>
        }
      />
    </div>
  );
}
