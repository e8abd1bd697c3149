/** What an empty table means and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 px-6 py-16 text-center">
      <p className="font-medium text-zinc-900 dark:text-zinc-100">{title}</p>
      {children && <div className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{children}</div>}
    </div>
  );
}
