"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterDateTime, FilterSelect, FilterText } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { LEDGER_COLUMNS_TEMPLATE, ledgerColumns } from "@/components/ledger/columns";
import { LEDGER_FILTER_KEYS, ledgerCsvUrl, useInfiniteLedger } from "@/lib/queries/ledger";
import { SERVICE_TYPES, type CreditLogJson } from "@/lib/schemas/credits";

/** The credit ledger: §4.9 filters in the URL, the virtualized infinite table, CSV export. */
export function LedgerExplorer({ teamId }: { teamId: string }) {
  const { filters, setFilters, setFilter } = useUrlFilters(LEDGER_FILTER_KEYS);
  const query = useInfiniteLedger(teamId, filters);
  const entries = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  const columns = useMemo(() => ledgerColumns(teamId), [teamId]);
  const filtered = Object.keys(filters).length > 0;

  return (
    <div className="space-y-4">
      <div className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-5">
        <FilterSelect
          label="Service type"
          value={filters.service_type}
          options={SERVICE_TYPES}
          onChange={(v) => setFilter("service_type", v)}
        />
        <FilterText
          label="Service ID"
          value={filters.service_id}
          placeholder="wf_…"
          onChange={(v) => setFilter("service_id", v)}
        />
        <FilterText
          label="User ID"
          value={filters.user_id}
          placeholder="user_…"
          onChange={(v) => setFilter("user_id", v)}
        />
        <FilterDateTime
          label="Charged after"
          value={filters.created_after}
          onChange={(v) => setFilter("created_after", v)}
        />
        <FilterDateTime
          label="Charged before"
          value={filters.created_before}
          onChange={(v) => setFilter("created_before", v)}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The full ledger, newest first; it is never truncated by plan.
        </p>
        <div className="flex gap-2">
          {filtered && (
            <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setFilters({})}>
              Clear filters
            </button>
          )}
          <a href={ledgerCsvUrl(teamId, filters)} download className="btn-primary px-3 py-1.5">
            Export CSV{filtered ? " (filtered)" : ""}
          </a>
        </div>
      </div>
      <DataTable<CreditLogJson>
        key={JSON.stringify(filters)}
        label="Credit ledger"
        data={entries}
        columns={columns}
        template={LEDGER_COLUMNS_TEMPLATE}
        getRowId={(e) => String(e.id)}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        empty={
          <EmptyState title={filtered ? "No charges match these filters" : "No charges yet"}>
            <p>
              {filtered
                ? "Loosen or clear the filters."
                : "Each workflow run, agent conversation, copilot use or MCP call that costs credits adds a line here."}
            </p>
          </EmptyState>
        }
      />
    </div>
  );
}
