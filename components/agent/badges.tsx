import type { AgentStep } from "@/lib/queries/agent";

const pill =
  "inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";
const TONES = {
  good: "bg-emerald-100 text-emerald-900 ring-emerald-600/20 dark:bg-emerald-900/40 dark:text-emerald-200",
  bad: "bg-rose-100 text-rose-900 ring-rose-600/20 dark:bg-rose-900/40 dark:text-rose-200",
  warn: "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-200",
  info: "bg-indigo-100 text-indigo-900 ring-indigo-600/20 dark:bg-indigo-900/40 dark:text-indigo-200",
  quiet: "bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-800 dark:text-zinc-300",
};

const STEP: Record<AgentStep["status"], { label: string; tone: keyof typeof TONES }> = {
  success: { label: "Succeeded", tone: "good" },
  error: { label: "Failed", tone: "bad" },
  pending: { label: "Waiting for approval", tone: "warn" },
  rejected: { label: "Rejected", tone: "quiet" },
  expired: { label: "Expired", tone: "quiet" },
};

export function StepStatusBadge({ status }: { status: AgentStep["status"] }) {
  const s = STEP[status] ?? { label: status, tone: "quiet" as const };
  return <span className={`${pill} ${TONES[s.tone]}`}>{s.label}</span>;
}

/** Whose a conversation is, as the list and its page say it: started by the viewer, shared with the team. */
export function OwnershipBadges({ mine, shared }: { mine: boolean; shared: boolean }) {
  return (
    <>
      {mine && <span className={`${pill} ${TONES.info}`}>Yours</span>}
      {shared && <span className={`${pill} ${TONES.quiet}`}>Shared</span>}
    </>
  );
}
