const COLOURS: Record<string, string> = {
  succeeded: "bg-emerald-100 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-900/40 dark:text-emerald-300",
  failed: "bg-rose-100 text-rose-800 ring-rose-600/20 dark:bg-rose-900/40 dark:text-rose-300",
  pending: "bg-amber-100 text-amber-800 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-300",
  delivering: "bg-sky-100 text-sky-800 ring-sky-600/20 dark:bg-sky-900/40 dark:text-sky-300",
};

/** succeeded | failed | pending (waiting for its next attempt) | delivering (an attempt under way). */
export function DeliveryStatusBadge({ status }: { status: string }) {
  return (
    <span
      data-status={status}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${COLOURS[status] ?? COLOURS.pending}`}
    >
      {status}
    </span>
  );
}

/** An HTTP status as a receiver answered it: 2xx green, anything else red; none (no answer) grey. */
export function StatusCode({ code }: { code: number | null }) {
  if (code === null) return <span className="text-zinc-500 dark:text-zinc-400">—</span>;
  const ok = code >= 200 && code < 300;
  return (
    <span
      className={`font-mono text-xs font-semibold tabular-nums ${ok ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400"}`}
    >
      {code}
    </span>
  );
}
