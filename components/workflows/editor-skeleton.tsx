/** Placeholder cards while the catalogue (and the workflow) load. */
export function EditorSkeleton() {
  return (
    <div className="space-y-4" aria-hidden="true" data-testid="editor-skeleton">
      {[5, 9, 4].map((lines, i) => (
        <div key={i} className="card space-y-3 p-5">
          {Array.from({ length: lines }, (_, j) => (
            <div
              key={j}
              className="h-4 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800"
              style={{ width: `${40 + ((i * 17 + j * 11) % 50)}%` }}
            />
          ))}
        </div>
      ))}
    </div>
  );
}
