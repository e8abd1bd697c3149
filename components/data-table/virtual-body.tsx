"use client";

import { flexRender, type CellContext, type Column } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useRef, useState } from "react";

const ROW_HEIGHT = 44;
// Start the next page this many rows before the end, so fast scrolling rarely reaches a gap.
const PREFETCH_ROWS = 30;
/** Rows PageUp / PageDown move the focus by. */
const PAGE_ROWS = 10;

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
  focusRowId?: { id: string } | null;
};

/**
 * Only the rows in (and just around) the viewport are in the DOM; the next page is requested
 * when the last rendered row comes within PREFETCH_ROWS of the end of what is loaded.
 *
 * The keyboard (the ARIA grid pattern, by rows): one row is in the tab order at a time; the
 * arrow keys, Home, End, PageUp and PageDown move the focus between rows (scrolling one that
 * is not rendered yet into view first), Enter or Space opens the row. The row that had the focus
 * keeps its place in the tab order, so Tab leaves the table and Shift+Tab comes back to it.
 */
export function VirtualBody<T>({
  rows,
  columns,
  getRowId,
  template,
  scrollElement,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  onRowClick,
  isSelected,
  focusRowId,
}: Props<T>) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, rows.length - 1);
  // The row to move the focus to once it is rendered (it may first have to scroll into view).
  const pendingFocus = useRef<number | null>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (lastIndex >= rows.length - PREFETCH_ROWS && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(index, rows.length - 1));
      setActive(target);
      const rendered = body.current?.querySelector<HTMLElement>(`[data-row-index="${target}"]`);
      if (rendered) return focusInView(rendered);
      // Not rendered yet: the virtualizer scrolls to where it will be, and it gets the focus once
      // that renders it (the effect below).
      pendingFocus.current = target;
      virtualizer.scrollToIndex(target, { align: "auto" });
    },
    [rows.length, virtualizer],
  );

  // After each render: focus the pending row once it is in the DOM.
  useEffect(() => {
    const index = pendingFocus.current;
    if (index === null) return;
    const el = body.current?.querySelector<HTMLElement>(`[data-row-index="${index}"]`);
    if (el) {
      pendingFocus.current = null;
      focusInView(el);
    }
  });

  // The detail panel closed: the focus goes back to the row it was opened from.
  useEffect(() => {
    if (!focusRowId) return;
    const index = rows.findIndex((r) => getRowId(r) === focusRowId.id);
    if (index >= 0) focusRow(index);
    // Acted on once per request: a new object asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- acted on once per request object, not when rows change
  }, [focusRowId]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const from = Number(
      (e.target as HTMLElement).closest<HTMLElement>("[data-row-index]")?.dataset.rowIndex ?? activeIndex,
    );
    const to = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: from + PAGE_ROWS,
      PageUp: from - PAGE_ROWS,
    }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    focusRow(to);
  };

  // The window of rows moves as one block; each row is memoised, so a scroll step renders only
  // the rows that come into view instead of every visible row again.
  const offset = items.length ? items[0].start : 0;
  return (
    <div
      ref={body}
      role="rowgroup"
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
      onKeyDown={onKeyDown}
    >
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
              tabbable={item.index === activeIndex}
              onRowClick={onRowClick}
              onFocusRow={setActive}
            />
          );
        })}
      </div>
    </div>
  );
}

/**
 * Focuses a rendered row and brings all of it into view: inside the table (clear of the sticky
 * header, which the virtualizer's offsets leave out) and on the screen, when the table itself
 * reaches past the window's edge (a short window).
 */
function focusInView(row: HTMLElement) {
  row.focus({ preventScroll: true });
  row.scrollIntoView({ block: "nearest" });
}

type RowProps<T> = {
  row: T;
  columns: Column<T, unknown>[];
  index: number;
  template: string;
  selected: boolean;
  tabbable: boolean;
  onRowClick?: (row: T) => void;
  onFocusRow: (index: number) => void;
};

/** What a column's cell renderer reads (getValue, row.original), for one row in view. */
function cellContext<T>(column: Column<T, unknown>, original: T, index: number) {
  const getValue = () => column.accessorFn?.(original, index);
  return {
    column,
    getValue,
    renderValue: () => getValue() ?? null,
    row: { original, index },
  } as unknown as CellContext<T, unknown>;
}

function VirtualRowImpl<T>({ row, columns, index, template, selected, tabbable, onRowClick, onFocusRow }: RowProps<T>) {
  const open = onRowClick ? () => onRowClick(row) : undefined;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={onRowClick ? selected : undefined}
      data-row-index={index}
      tabIndex={tabbable ? 0 : -1}
      onFocus={() => onFocusRow(index)}
      onClick={open}
      onKeyDown={open ? (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), open()) : undefined}
      className={`grid items-center gap-3 border-b border-zinc-100 px-3 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-600 dark:border-zinc-800 dark:focus-visible:ring-indigo-400 ${open ? "cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/60" : ""} ${selected ? "bg-indigo-50 dark:bg-indigo-950/40" : ""}`}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}
    >
      {columns.map((column, c) => (
        <div key={column.id} role="gridcell" aria-colindex={c + 1} className="min-w-0 truncate">
          {flexRender(column.columnDef.cell, cellContext(column, row, index))}
        </div>
      ))}
    </div>
  );
}

// A row re-renders only when its data, position, selection, tab stop or handler changes.
const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;
