/** An explanation in place of a control the viewer cannot use. */
export function Notice({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <div
      data-testid={testId}
      className="rounded-lg border border-zinc-200 bg-zinc-50 p-4 text-sm dark:border-zinc-800 dark:bg-zinc-950/40"
    >
      <p className="font-medium text-zinc-900 dark:text-zinc-100">{title}</p>
      <div className="mt-1 text-zinc-600 dark:text-zinc-400">{children}</div>
    </div>
  );
}
