import type { RunNode, WorkflowRun } from "@/lib/queries/workflows";

// A run's steps as the run view reads them (CONTRACT §13): the steps of one node together (a node
// that loops has one per row), and why a step was skipped or stopped, in words.

/** One node of a run and its steps: one, or one per row of its loop (plus the loop's own `empty` or error step). */
export type RunNodeGroup<S extends RunNode = RunNode> = {
  node_id: string;
  label: string;
  operation_id: string | null;
  steps: S[];
  /** The node looped: its steps are rows. */
  loops: boolean;
  /** How many rows its list had, when known. */
  iterations: number | null;
};

export function groupSteps<S extends RunNode>(steps: S[]): RunNodeGroup<S>[] {
  const groups = new Map<string, RunNodeGroup<S>>();
  for (const s of steps) {
    const g = groups.get(s.node_id);
    if (g) g.steps.push(s);
    else
      groups.set(s.node_id, {
        node_id: s.node_id,
        label: s.label,
        operation_id: s.operation_id,
        steps: [s],
        loops: false,
        iterations: null,
      });
  }
  for (const g of groups.values()) {
    g.loops = g.steps.some((s) => s.iteration !== null) || g.steps.some((s) => s.reason === "empty");
    g.iterations = g.steps.find((s) => s.iterations !== null)?.iterations ?? (g.loops ? 0 : null);
  }
  return [...groups.values()];
}

/** "row 3 of 12", for a step of a loop; "" otherwise. */
export const rowWords = (s: Pick<RunNode, "iteration" | "iterations">) =>
  s.iteration === null ? "" : `row ${s.iteration + 1}${s.iterations !== null ? ` of ${s.iterations}` : ""}`;

/** A step as a person names it: "Note each day, row 3 of 12", or the node's label. */
export const stepName = (s: Pick<RunNode, "label" | "iteration" | "iterations">) =>
  s.iteration === null ? s.label : `${s.label}, ${rowWords(s)}`;

/** A step that filed its approval request and waits for the decision. */
export const isWaiting = (s: Pick<RunNode, "status" | "approval_id">) => s.status === "start" && s.approval_id !== null;

/** The step that ended the run early (a flow.stop, or an approval not given), if any. */
export const stopStep = <S extends RunNode>(steps: S[]) => steps.find((s) => s.status === "stop");

/** The step a run waits at for an approval, if any. */
export const waitingStep = <S extends RunNode>(steps: S[]) => steps.find(isWaiting);

const STOPPED: Record<string, string> = {
  rejected: "the approval was rejected; nothing was written",
  expired: "nobody decided before the approval request expired; nothing was written",
  cancelled:
    "the approval request was cancelled (the workflow was deactivated or deleted, or its connection deleted, while it waited); nothing was written",
};

/** Why a step stopped, in words (no full stop at its end): an approval that was not given, or flow.stop's reason. */
export const stopReason = (reason: string | null) =>
  reason === null ? "no reason given" : (STOPPED[reason] ?? reason.trim().replace(/[.!]+$/, ""));

/**
 * Why a step did not run or did not finish, in a sentence; null when its status says it all
 * (it succeeded, or it failed with its error shown beside it).
 */
export function stepNote(s: RunNode, run: Pick<WorkflowRun, "nodes" | "failed_node_id">): string | null {
  if (s.status === "skipped") {
    if (s.reason === "condition") return "Skipped: the condition did not hold.";
    if (s.reason === "empty") return "Skipped: the list was empty.";
    const stop = stopStep(run.nodes);
    if (stop) return `Skipped: the run stopped at ${stepName(stop)}.`;
    if (run.failed_node_id || run.nodes.some((n) => n.status === "error")) return "Skipped: an earlier step failed.";
    return "Skipped.";
  }
  if (s.status === "stop") {
    if (s.reason === "rejected" || s.reason === "expired" || s.reason === "cancelled")
      return `Stopped: ${stopReason(s.reason)}.`;
    return `Stopped the run: ${stopReason(s.reason)}.`;
  }
  if (isWaiting(s)) return "Waiting for approval: a team member decides on the Approvals page.";
  return null;
}
