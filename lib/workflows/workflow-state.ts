/**
 * What a workflow's badge says, and what every count of "active" workflows counts: Active when
 * its schedule, a webhook or events start it, Manual when it runs only when started (Run now, the
 * CLI, the API) and was not deactivated, Inactive otherwise. The dashboard's badges, its counts
 * and the CLI agree on it.
 */
export const WORKFLOW_STATES = ["active", "manual", "inactive"] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export function workflowState(w: { active: boolean; schedule: string | null; triggerType?: string }): WorkflowState {
  if (!w.active) return "inactive";
  return w.schedule || (w.triggerType !== undefined && w.triggerType !== "manual") ? "active" : "manual";
}

export const WORKFLOW_STATE_LABEL: Record<WorkflowState, string> = {
  active: "Active",
  manual: "Manual",
  inactive: "Inactive",
};
