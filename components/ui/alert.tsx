/** A problem the user must read: the one style for errors shown in a form or a page. */
export function Alert({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <div
      role="alert"
      className={`rounded-lg border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200 ${className}`}
    >
      {children}
    </div>
  );
}
