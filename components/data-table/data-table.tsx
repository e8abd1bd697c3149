"use client";

import { getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { useId, useState } from "react";
import { useFillWindow } from "@/components/data-table/use-fill-window";
import { TableHeader } from "@/components/data-table/table-header";
import { VirtualBody } from "@/components/data-table/virtual-body";
import { SkeletonRows } from "@/components/data-table/skeleton-rows";
import { ErrorState } from "@/components/data-table/error-state";
import { MoreColumns, templateMinWidth } from "@/components/data-table/hidden-columns";
import { TimeZoneNote } from "@/components/time/local-time";
import { plural } from "@/lib/text/plural";

type Props<T> = {
  label: string;
  data: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's idiom: columns of mixed value types
  columns: ColumnDef<T, any>[];
  /** CSS grid-template-columns shared by the header, the rows and the skeleton. */
  template: string;
  /**
   * Below this width the table scrolls sideways instead of squeezing (390 px phones); at least
   * what the template's columns need, which is the default.
   */
  minWidth?: number;
  getRowId: (row: T) => string;
  isLoading: boolean;
  error: unknown;
  refetch: () => unknown;
  /** Paging of an infinite query; a table given all its rows at once leaves them out. */
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?: () => unknown;
  onRowClick?: (row: T) => void;
  isSelected?: (row: T) => boolean;
  /** Shown when the list is empty: what it means and what to do. */
  empty: React.ReactNode;
  /** Shown after the last row once every page is loaded. */
  end?: React.ReactNode;
  /** Whether the end-of-list line says which time zone the times are in (not for a table without times). */
  timeZoneNote?: boolean;
  /**
   * The scroll container's height classes, for a table inside a page (shorter than the window).
   * Without them the table fills the window below its top (the explorers).
   */
  heightClass?: string;
  /** Fill the window below the table's top even with `heightClass` (a minimum height, say). */
  fillWindow?: boolean;
  /**
   * A row to give the keyboard focus back to (the one whose detail panel just closed); each
   * new value is acted on once.
   */
  focusRowId?: { id: string } | null;
};

const NO_ROWS: never[] = [];

const noMorePages = () => undefined;

/** TanStack Table over an infinite query, virtualized: the explorers' shared machinery. */
export function DataTable<T>(props: Props<T>) {
  const {
    label,
    data,
    columns,
    template,
    getRowId,
    isLoading,
    error,
    hasNextPage = false,
    isFetchingNextPage = false,
    fetchNextPage = noMorePages,
  } = props;
  // State, not a ref: when Next hides this route (back-navigation keeps it in a hidden
  // <Activity>) React detaches the element and attaches it again on reveal, after the
  // virtualizer's effects ran; a re-render with the element lets it observe again.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  // The table model gives the columns (accessors, cells, headers). Rows are not built for every
  // loaded item: at 20,000 loaded rows that rebuild cost a dropped frame on every page arriving;
  // the virtual body renders cells for the rows in view straight from `data`.
  const table = useReactTable({ data: NO_ROWS, columns, getCoreRowModel: getCoreRowModel() });
  const rows = data;
  const minWidth = Math.max(props.minWidth ?? 0, templateMinWidth(template));
  const scrollId = useId();
  useFillWindow(scrollElement, props.fillWindow ?? props.heightClass === undefined);

  // The scroll container holds the grid (only rows inside it, as the grid role requires) and,
  // after it, the end-of-list line and the loading, empty and error states.
  // A list shorter than the window keeps the card to its rows (no empty block under them); a
  // longer one scrolls inside it.
  return (
    <div>
      {/* An empty table hides no values: its empty state says what to do instead. */}
      {rows.length > 0 && <MoreColumns scroller={scrollElement} label={`${label}, out of view`} />}
      <div
        ref={setScrollElement}
        id={scrollId}
        data-testid="data-table-scroll"
        // scroll-pt: the sticky header's height, so a row the keyboard brings into view is not under it.
        className={`card overflow-auto scroll-pt-9 ${props.heightClass ?? ""}`}
      >
        <div style={{ minWidth }}>
          <div
            role="grid"
            aria-label={label}
            aria-rowcount={hasNextPage ? -1 : rows.length + 1}
            aria-colcount={columns.length}
            aria-busy={isLoading || isFetchingNextPage}
          >
            <TableHeader table={table} template={template} />
            {!isLoading && rows.length > 0 && scrollElement && (
              <VirtualBody
                rows={rows}
                columns={table.getVisibleLeafColumns()}
                getRowId={getRowId}
                template={template}
                scrollElement={scrollElement}
                hasNextPage={hasNextPage}
                isFetchingNextPage={isFetchingNextPage}
                fetchNextPage={fetchNextPage}
                onRowClick={props.onRowClick}
                isSelected={props.isSelected}
                focusRowId={props.focusRowId}
              />
            )}
          </div>
          {!isLoading && rows.length > 0 && scrollElement && (
            <div className="px-3 py-3 text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
              {error ? (
                <ErrorState error={error} onRetry={fetchNextPage} />
              ) : isFetchingNextPage || hasNextPage ? (
                <span>Loading more…</span>
              ) : (
                <div data-testid="end-of-list">
                  <span>{plural(rows.length, "row")} · end of the list.</span>{" "}
                  {props.timeZoneNote !== false && <TimeZoneNote />} {props.end}
                </div>
              )}
            </div>
          )}
          {isLoading && !error && <SkeletonRows columns={columns.length} template={template} />}
        </div>
        {/* Outside the min-width so a phone sees the whole message, not a slice of it. */}
        {error && !rows.length ? (
          <ErrorState error={error} onRetry={props.refetch} />
        ) : !isLoading && !rows.length ? (
          props.empty
        ) : null}
      </div>
    </div>
  );
}
