"use client";

import { flexRender, type CellContext, type Column } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect } from "react";

export const ROW_HEIGHT = 44;
// Start the next page this many rows before the end, so fast scrolling rarely reaches a gap.
const PREFETCH_ROWS = 30;

type Props<T> = {
  rows: T[];
  columns: Column<T, unknown>[];
  getRowId: (row: T) => string;
  template: string;
  scrollElement: HTMLDivElement;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  onRowClick?: (row: T) => void;
  isSelected?: (row: T) => boolean;
};

/**
 * Only the rows in (and just around) the viewport are in the DOM; the next page is requested
 * when the last rendered row comes within PREFETCH_ROWS of the end of what is loaded.
 */
export function VirtualBody<T>({ rows, columns, getRowId, template, scrollElement, hasNextPage, isFetchingNextPage, fetchNextPage, onRowClick, isSelected }: Props<T>) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (lastIndex >= rows.length - PREFETCH_ROWS && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // The window of rows moves as one block; each row is memoised, so a scroll step renders only
  // the rows that come into view instead of every visible row again.
  const offset = items.length ? items[0].start : 0;
  return (
    <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
      <div className="absolute inset-x-0 top-0" style={{ transform: `translateY(${offset}px)` }}>
        {items.map((item) => {
          const row = rows[item.index];
          return (
            <VirtualRow
              key={getRowId(row)}
              row={row}
              columns={columns}
              index={item.index}
              template={template}
              selected={isSelected?.(row) ?? false}
              onRowClick={onRowClick}
            />
          );
        })}
      </div>
    </div>
  );
}

type RowProps<T> = { row: T; columns: Column<T, unknown>[]; index: number; template: string; selected: boolean; onRowClick?: (row: T) => void };

/** What a column's cell renderer reads (getValue, row.original), for one row in view. */
function cellContext<T>(column: Column<T, unknown>, original: T, index: number) {
  const getValue = () => column.accessorFn?.(original, index);
  return { column, getValue, renderValue: () => getValue() ?? null, row: { original, index } } as unknown as CellContext<T, unknown>;
}

function VirtualRowImpl<T>({ row, columns, index, template, selected, onRowClick }: RowProps<T>) {
  const open = onRowClick ? () => onRowClick(row) : undefined;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={onRowClick ? selected : undefined}
      tabIndex={open ? 0 : undefined}
      onClick={open}
      onKeyDown={open ? (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), open()) : undefined}
      className={`grid items-center gap-3 border-b border-zinc-100 px-3 text-sm dark:border-zinc-800 ${open ? "cursor-pointer hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500 dark:hover:bg-zinc-800/60" : ""} ${selected ? "bg-indigo-50 dark:bg-indigo-950/40" : ""}`}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}
    >
      {columns.map((column) => (
        <div key={column.id} role="cell" className="min-w-0 truncate">
          {flexRender(column.columnDef.cell, cellContext(column, row, index))}
        </div>
      ))}
    </div>
  );
}

// A row re-renders only when its data, position, selection or handler changes.
const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;
