import type { ApprovalStatus } from "@/lib/queries/approvals";

const STYLES: Record<ApprovalStatus, { label: string; className: string }> = {
  pending: {
    label: "Pending",
    className: "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-200",
  },
  running: {
    label: "Running",
    className: "bg-sky-100 text-sky-900 ring-sky-600/20 dark:bg-sky-900/40 dark:text-sky-200",
  },
  succeeded: {
    label: "Succeeded",
    className: "bg-emerald-100 text-emerald-900 ring-emerald-600/20 dark:bg-emerald-900/40 dark:text-emerald-200",
  },
  failed: {
    label: "Failed",
    className: "bg-rose-100 text-rose-900 ring-rose-600/20 dark:bg-rose-900/40 dark:text-rose-200",
  },
  rejected: {
    label: "Rejected",
    className: "bg-zinc-200 text-zinc-800 ring-zinc-500/20 dark:bg-zinc-800 dark:text-zinc-200",
  },
  cancelled: {
    label: "Cancelled",
    className: "bg-orange-100 text-orange-900 ring-orange-600/20 dark:bg-orange-900/40 dark:text-orange-200",
  },
  expired: {
    label: "Expired",
    className: "bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-800 dark:text-zinc-300",
  },
};

export const statusLabel = (status: ApprovalStatus) => STYLES[status]?.label ?? status;

export function ApprovalStatusBadge({ status }: { status: ApprovalStatus }) {
  const s = STYLES[status] ?? STYLES.expired;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${s.className}`}
    >
      {s.label}
    </span>
  );
}
