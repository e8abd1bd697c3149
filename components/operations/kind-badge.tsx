/** Read or Write, and for a write that needs a person's yes, "needs approval". */
export function KindBadge({ kind, requiresApproval }: { kind: "read" | "write"; requiresApproval: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <span
        className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
          kind === "write"
            ? "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-200"
            : "bg-sky-100 text-sky-900 ring-sky-600/20 dark:bg-sky-900/40 dark:text-sky-200"
        }`}
      >
        {kind === "write" ? "Write" : "Read"}
      </span>
      {kind === "write" && requiresApproval && (
        <span className="text-xs text-zinc-600 dark:text-zinc-400">needs approval</span>
      )}
    </span>
  );
}
