import { flexRender, type Table } from "@tanstack/react-table";

/** The column headers, sticky at the top of the scroll container, in the rows' grid. */
export function TableHeader<T>({ table, template }: { table: Table<T>; template: string }) {
  return (
    <div
      role="rowgroup"
      className="sticky top-0 z-10 border-b border-zinc-200 bg-zinc-50/95 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95"
    >
      {table.getHeaderGroups().map((group) => (
        <div
          key={group.id}
          role="row"
          aria-rowindex={1}
          className="grid gap-3 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400"
          style={{ gridTemplateColumns: template }}
        >
          {group.headers.map((header, c) => (
            <div key={header.id} role="columnheader" aria-colindex={c + 1} className="truncate">
              {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
