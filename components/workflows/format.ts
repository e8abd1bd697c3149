import type { WorkflowRun } from "@/lib/queries/workflows";
import type { RunTriggerFields, RunTriggerType } from "@/components/workflows/trigger-api";

/** A run's or a node's duration: "850 ms", "3.2 s", "2 min 05 s". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h} h ${String(m).padStart(2, "0")} min` : `${m} min ${sec} s`;
}

const TRIGGERS: Record<RunTriggerType, string> = {
  schedule: "Schedule",
  manual: "Manual",
  simulated: "Simulated",
  webhook: "Webhook",
  event: "Event",
  api: "API",
  replay: "Replay",
};
export const triggerLabel = (trigger: string) => TRIGGERS[trigger as RunTriggerType] ?? trigger;

/** A run's trigger in words: "Webhook", "Event connection.needs_reauth", "Replay of run_…". */
export function runTriggerWords(run: Pick<RunTriggerFields, "trigger" | "trigger_data" | "replay_of">): string {
  if (run.trigger === "replay" && run.replay_of) return `Replay of ${run.replay_of}`;
  if (run.trigger === "event" && run.trigger_data && "event" in run.trigger_data)
    return `Event ${run.trigger_data.event.type}`;
  return triggerLabel(run.trigger);
}

/** Who started a run: a person, the schedule, or the operator's command line. */
export function startedBy(run: Pick<WorkflowRun, "started_by"> & { trigger: string }): string {
  if (run.started_by) return run.started_by;
  if (run.trigger === "schedule") return "the schedule";
  if (run.trigger === "manual") return "the command line";
  if (run.trigger === "webhook") return "its webhook URL";
  if (run.trigger === "event") return "an event";
  return "—";
}

/** When a run started, or (still queued) when it was due; Unix ms. */
export const runTime = (run: Pick<WorkflowRun, "started_at" | "due_at">) => run.started_at ?? run.due_at;
