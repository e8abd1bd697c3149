"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterSelect, FilterText } from "@/components/data-table/filter-controls";
import { useRowDetail } from "@/components/data-table/use-row-detail";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { OPERATION_COLUMNS_TEMPLATE, operationColumns } from "@/components/operations/columns";
import { OperationDetailPanel } from "@/components/operations/operation-detail-panel";
import {
  OPERATION_FILTER_KEYS,
  filterOperations,
  platformsOf,
  useOperationsCatalogue,
  type CatalogueOperation,
} from "@/lib/queries/operations";
import { plural } from "@/lib/text/plural";

const KINDS = ["read", "write"] as const;

/** The operations catalogue: search and filters in the URL, the table, an operation's detail in a side panel. */
export function OperationsExplorer({ teamId }: { teamId: string }) {
  const { filters, setFilters, setFilter } = useUrlFilters(OPERATION_FILTER_KEYS);
  const catalogue = useOperationsCatalogue(teamId);
  const all = useMemo(() => catalogue.data ?? [], [catalogue.data]);
  const shown = useMemo(() => filterOperations(all, filters), [all, filters]);
  const platforms = useMemo(() => platformsOf(all), [all]);
  const platformName = useMemo(() => new Map(platforms.map((p) => [p.type, p.name])), [platforms]);
  const columns = useMemo(() => operationColumns(teamId), [teamId]);
  const { openId, open, close, returnFocus } = useRowDetail();
  const opened = openId ? all.find((op) => op.id === openId) : undefined;
  const filtered = Object.keys(filters).length > 0;
  const writes = all.filter((op) => op.kind === "write").length;

  return (
    <div className="space-y-4">
      <div className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-3">
        <FilterText
          label="Search"
          value={filters.q}
          placeholder="pause campaign, report, note…"
          mono={false}
          onChange={(v) => setFilter("q", v)}
        />
        <FilterSelect
          label="Platform"
          value={filters.platform}
          options={platforms.map((p) => p.type)}
          optionLabel={(t) => platformName.get(t) ?? t}
          anyLabel="All platforms"
          onChange={(v) => setFilter("platform", v)}
        />
        <FilterSelect
          label="Kind"
          value={filters.kind}
          options={KINDS}
          optionLabel={(k) => (k === "write" ? "Writes" : "Reads")}
          anyLabel="Reads and writes"
          onChange={(v) => setFilter("kind", v)}
        />
      </div>
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <p data-testid="operations-count" aria-live="polite">
          {catalogue.isPending
            ? "Loading the catalogue…"
            : filtered
              ? `${shown.length.toLocaleString("en")} of ${plural(all.length, "operation")} match`
              : `${plural(all.length, "operation")} · ${plural(writes, "write")}`}
        </p>
        {filtered && (
          <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setFilters({})}>
            Clear filters
          </button>
        )}
      </div>
      <DataTable<CatalogueOperation>
        key={JSON.stringify(filters)}
        label="Operations"
        data={shown}
        columns={columns}
        template={OPERATION_COLUMNS_TEMPLATE}
        getRowId={(op) => op.id}
        isLoading={catalogue.isPending}
        error={catalogue.error}
        refetch={catalogue.refetch}
        onRowClick={open}
        isSelected={(op) => op.id === openId}
        focusRowId={returnFocus}
        timeZoneNote={false}
        empty={
          <EmptyState title={filtered ? "No operation matches" : "No operations on this server"}>
            {filtered ? (
              <p>Try other words, or clear the filters.</p>
            ) : (
              <p>No connection type with operations is configured on this server.</p>
            )}
          </EmptyState>
        }
      />
      {opened && <OperationDetailPanel team={teamId} operation={opened} onClose={close} />}
    </div>
  );
}
