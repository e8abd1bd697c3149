import type { AuthLinkStatusValue } from "@/lib/queries/auth-links";

const styles: Record<AuthLinkStatusValue, string> = {
  pending: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200",
  connected: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200",
  expired: "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

export function StatusBadge({ status }: { status: AuthLinkStatusValue }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${styles[status]}`}>
      {status === "pending" ? "Pending" : status === "connected" ? "Connected" : "Expired"}
    </span>
  );
}
