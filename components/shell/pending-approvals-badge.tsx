"use client";

import { useQuery } from "@tanstack/react-query";
import { pendingApprovalsCountOptions } from "@/lib/queries/approvals";

/** How many approval requests wait for a decision: refetched every 30 s and after every decision. */
export function usePendingApprovals(team: string): number {
  return useQuery(pendingApprovalsCountOptions(team)).data ?? 0;
}

/**
 * The count beside "Approvals" in the navigation. The link's name then reads "Approvals 2 pending"
 * (its visible text, so voice control can say what it sees).
 */
export function PendingApprovalsBadge({ count, active }: { count: number; active: boolean }) {
  if (!count) return null;
  return (
    <span
      data-testid="pending-approvals-badge"
      className={`ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full px-1.5 text-xs font-semibold leading-5 tabular-nums ${active ? "bg-amber-300 text-zinc-950" : "bg-amber-400 text-zinc-950 dark:bg-amber-300"}`}
    >
      {count > 99 ? "99+" : count}
      <span className="sr-only"> pending</span>
    </span>
  );
}
