import type { ConnectionHealth } from "@/lib/schemas/connections";

// A connection's health (CONTRACT §12) in one badge, the same on every page that lists connections.

const styles: Record<ConnectionHealth, string> = {
  healthy: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  needs_reauth: "bg-rose-100 text-rose-800 dark:bg-rose-900/50 dark:text-rose-200",
  unreachable: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
};

export const HEALTH_WORDS: Record<ConnectionHealth, string> = {
  healthy: "Healthy",
  needs_reauth: "Needs re-authorization",
  unreachable: "Unreachable",
};

/** The badge; `error` (why it is not healthy) is its tooltip and its accessible description. */
export function HealthBadge({ health, error }: { health: ConnectionHealth; error?: string | null }) {
  return (
    <span
      data-testid="health-badge"
      data-health={health}
      title={error ?? undefined}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${styles[health]}`}
    >
      {HEALTH_WORDS[health]}
      {error ? <span className="sr-only">: {error}</span> : null}
    </span>
  );
}
