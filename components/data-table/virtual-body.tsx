"use client";

import { flexRender, type Row } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect } from "react";

export const ROW_HEIGHT = 44;
// Start the next page this many rows before the end, so fast scrolling rarely reaches a gap.
const PREFETCH_ROWS = 30;

type Props<T> = {
  rows: Row<T>[];
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
export function VirtualBody<T>({ rows, template, scrollElement, hasNextPage, isFetchingNextPage, fetchNextPage, onRowClick, isSelected }: Props<T>) {
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

  return (
    <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((item) => {
        const row = rows[item.index];
        const selected = isSelected?.(row.original) ?? false;
        const open = onRowClick ? () => onRowClick(row.original) : undefined;
        return (
          <div
            key={row.id}
            role="row"
            aria-rowindex={item.index + 2}
            aria-selected={onRowClick ? selected : undefined}
            tabIndex={open ? 0 : undefined}
            onClick={open}
            onKeyDown={open ? (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), open()) : undefined}
            className={`absolute inset-x-0 top-0 grid items-center gap-3 border-b border-zinc-100 px-3 text-sm dark:border-zinc-800 ${open ? "cursor-pointer hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500 dark:hover:bg-zinc-800/60" : ""} ${selected ? "bg-indigo-50 dark:bg-indigo-950/40" : ""}`}
            style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
          >
            {row.getVisibleCells().map((cell) => (
              <div key={cell.id} role="cell" className="min-w-0 truncate">
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </div>
            ))}
          </div>
        );
      })}
    </div>
  );
}
