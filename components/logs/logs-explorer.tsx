"use client";

import { useMemo } from "react";
import { usePathname, useRouter } from "next/navigation";
import { useDetailParam } from "@/components/ui/use-detail-param";
import { DataTable } from "@/components/data-table/data-table";
import { EmptyState } from "@/components/data-table/empty-state";
import { FilterDateTime, FilterSelect, FilterText } from "@/components/data-table/filter-controls";
import { useUrlFilters } from "@/components/data-table/use-url-filters";
import { LocalTime } from "@/components/time/local-time";
import { LOG_COLUMNS_TEMPLATE, logColumns, SEARCH_COLUMNS_TEMPLATE } from "@/components/logs/columns";
import { LogDetailPanel } from "@/components/logs/log-detail-panel";
import { LogSearchBox } from "@/components/logs/log-search-box";
import { LOG_FILTER_KEYS, useInfiniteLogs, type LogRow } from "@/lib/queries/logs";
import { LOG_SOURCE_TYPES, LOG_STATUSES } from "@/lib/schemas/logs";
import { plural } from "@/lib/text/plural";
import { searchWords } from "@/lib/text/search-words";

/** `older`: the team has logs from before the window's start, which the window hides. */
export type HistoryWindowInfo = { plan: string; days: number; cutoff: number; older: boolean };

/** The logs explorer: §4.10 filters in the URL, the virtualized infinite table, the detail panel. */
export function LogsExplorer({ teamId, history }: { teamId: string; history: HistoryWindowInfo }) {
  const { filters, setFilters, setFilter } = useUrlFilters(LOG_FILTER_KEYS);
  const query = useInfiniteLogs(teamId, filters);
  const logs = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  // The open log is in the URL (?log=…): the ledger and other pages link to one log.
  const { openId, open: openLog, close, returnFocus } = useDetailParam("log", logs);
  const router = useRouter();
  const pathname = usePathname();
  const filtered = Object.keys(filters).length > 0;
  const words = useMemo(() => (filters.q ? searchWords(filters.q) : []), [filters.q]);
  const columns = useMemo(() => logColumns(words), [words]);
  // Said only when the window hides something: a team with no older logs has nothing cut off.
  const windowNote = history.older && (
    <>
      Older logs are outside the <strong className="font-semibold capitalize">{history.plan}</strong> plan&apos;s{" "}
      {history.days}-day history window: nothing before <LocalTime seconds={history.cutoff} className="font-medium" />{" "}
      is shown (it is stored, and returns if the plan&apos;s window grows).
    </>
  );

  return (
    <div className="space-y-4">
      <div className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-4">
        <LogSearchBox value={filters.q} onChange={(v) => setFilter("q", v)} />
        <FilterSelect
          label="Source type"
          value={filters.source_type}
          options={LOG_SOURCE_TYPES}
          onChange={(v) => setFilter("source_type", v)}
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          options={LOG_STATUSES}
          onChange={(v) => setFilter("status", v)}
        />
        <FilterText
          label="Operation ID"
          value={filters.operation_id}
          placeholder="ga4.run_report"
          onChange={(v) => setFilter("operation_id", v)}
        />
        <FilterText
          label="Source ID"
          value={filters.source_id}
          placeholder="wf_…"
          onChange={(v) => setFilter("source_id", v)}
        />
        <FilterText
          label="Run ID"
          value={filters.source_run_id}
          placeholder="run_…"
          onChange={(v) => setFilter("source_run_id", v)}
        />
        <FilterDateTime
          label="Started after"
          value={filters.started_after}
          onChange={(v) => setFilter("started_after", v)}
        />
        <FilterDateTime
          label="Started before"
          value={filters.started_before}
          onChange={(v) => setFilter("started_before", v)}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <p>
          History window: last {plural(history.days, "day")} (since <LocalTime seconds={history.cutoff} />
          ).
        </p>
        {filtered && (
          <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setFilters({})}>
            Clear filters
          </button>
        )}
      </div>
      <DataTable<LogRow>
        key={JSON.stringify(filters)}
        label="Operation logs"
        data={logs}
        columns={columns}
        template={words.length ? SEARCH_COLUMNS_TEMPLATE : LOG_COLUMNS_TEMPLATE}
        getRowId={(l) => l.id}
        isLoading={query.isPending}
        error={query.error}
        refetch={query.refetch}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        onRowClick={openLog}
        isSelected={(l) => l.id === openId}
        focusRowId={returnFocus}
        empty={
          <EmptyState
            title={
              filters.q
                ? `No logs match “${filters.q}”${Object.keys(filters).length > 1 ? " with these filters" : ""}`
                : filtered
                  ? "No logs match these filters"
                  : "No logs yet"
            }
          >
            {filters.q ? (
              <p>
                Every word must begin a word of a log&apos;s operation, source, input, output or error. Try fewer or
                shorter words, or clear the search. {windowNote}
              </p>
            ) : filtered ? (
              <p>Loosen or clear the filters. {windowNote}</p>
            ) : (
              <p>Logs appear here when a workflow runs, an agent takes a step or an MCP tool is called. {windowNote}</p>
            )}
          </EmptyState>
        }
        end={
          windowNote && (
            <p data-testid="history-window-note" className="mt-1">
              {windowNote}
            </p>
          )
        }
      />
      {openId && (
        <LogDetailPanel
          teamId={teamId}
          logId={openId}
          onClose={close}
          onShowRun={(runId) =>
            router.push(`${pathname}?${new URLSearchParams({ source_run_id: runId })}`, { scroll: false })
          }
        />
      )}
    </div>
  );
}
