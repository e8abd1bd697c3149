import type { RunNodeStatus, RunStatus } from "@/lib/queries/workflows";
import { WORKFLOW_STATE_LABEL, type WorkflowState } from "@/lib/workflows/workflow-state";

const pill =
  "inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";
const TONES = {
  good: "bg-emerald-100 text-emerald-900 ring-emerald-600/20 dark:bg-emerald-900/40 dark:text-emerald-200",
  bad: "bg-rose-100 text-rose-900 ring-rose-600/20 dark:bg-rose-900/40 dark:text-rose-200",
  warn: "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/40 dark:text-amber-200",
  busy: "bg-sky-100 text-sky-900 ring-sky-600/20 dark:bg-sky-900/40 dark:text-sky-200",
  quiet: "bg-zinc-100 text-zinc-700 ring-zinc-500/20 dark:bg-zinc-800 dark:text-zinc-300",
  ended: "bg-zinc-200 text-zinc-900 ring-zinc-600/30 dark:bg-zinc-700 dark:text-zinc-100",
};

const RUN: Record<RunStatus, { label: string; tone: keyof typeof TONES }> = {
  queued: { label: "Queued", tone: "quiet" },
  running: { label: "Running", tone: "busy" },
  waiting_approval: { label: "Waiting for approval", tone: "warn" },
  success: { label: "Succeeded", tone: "good" },
  error: { label: "Failed", tone: "bad" },
  stopped: { label: "Stopped", tone: "ended" },
  refused: { label: "Refused", tone: "warn" },
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const s = RUN[status] ?? { label: status, tone: "quiet" as const };
  return <span className={`${pill} ${TONES[s.tone]}`}>{s.label}</span>;
}

const NODE: Record<RunNodeStatus, { label: string; tone: keyof typeof TONES }> = {
  start: { label: "Running", tone: "busy" },
  success: { label: "Succeeded", tone: "good" },
  error: { label: "Failed", tone: "bad" },
  skipped: { label: "Skipped", tone: "quiet" },
  stop: { label: "Stopped", tone: "ended" },
};

/** A node's (or a row's) status; `waiting`: a step that has filed its approval request and waits for the decision. */
export function NodeStatusBadge({ status, waiting = false }: { status: RunNodeStatus; waiting?: boolean }) {
  const s = waiting
    ? { label: "Waiting for approval", tone: "warn" as const }
    : (NODE[status] ?? { label: status, tone: "quiet" as const });
  return <span className={`${pill} ${TONES[s.tone]}`}>{s.label}</span>;
}

/**
 * Active, Manual or Inactive (lib/workflows/workflow-state.ts): whether the schedule runs it (Run
 * now works either way); a manual workflow has no schedule to run it.
 */
export function ActiveBadge({ state }: { state: WorkflowState }) {
  return (
    <span className={`${pill} ${state === "active" ? TONES.good : TONES.quiet}`}>{WORKFLOW_STATE_LABEL[state]}</span>
  );
}

/**
 * A workflow with at least one write node: its runs change things at a provider, without an
 * approval unless `approved` (every write waits for a person's yes).
 */
export function WritesBadge({ approved = false }: { approved?: boolean }) {
  return (
    <span
      className={`${pill} ${approved ? TONES.busy : TONES.warn}`}
      title={
        approved
          ? "Its nodes write to a provider, each write only after a person approves it."
          : "At least one node writes to a provider; its runs do so without an approval."
      }
    >
      {approved ? "Writes with approval" : "Writes"}
    </span>
  );
}
