/** Placeholder rows in the table's grid while the first page loads. */
export function SkeletonRows({ columns, rows = 8, template }: { columns: number; rows?: number; template: string }) {
  return (
    <div aria-hidden="true" data-testid="skeleton-rows">
      {Array.from({ length: rows }, (_, r) => (
        <div
          key={r}
          className="grid items-center gap-3 border-b border-zinc-100 px-3 py-3 dark:border-zinc-800"
          style={{ gridTemplateColumns: template }}
        >
          {Array.from({ length: columns }, (_, c) => (
            <div
              key={c}
              className="h-3.5 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800"
              style={{ width: `${55 + ((r * 7 + c * 13) % 40)}%` }}
            />
          ))}
        </div>
      ))}
    </div>
  );
}
