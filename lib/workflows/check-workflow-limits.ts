import "server-only";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { workflowMaxActiveSchedules, workflowMaxNodes } from "@/lib/config/limits";

// The limits a workflow is held to when it is saved (README "Limits"): its nodes, and the team's
// active scheduled workflows, which the scheduler starts without anyone asking.

/** Why a workflow has too many nodes (WORKFLOW_MAX_NODES), or null. */
export function nodeCountProblem(count: number): string | null {
  const max = workflowMaxNodes();
  return count > max
    ? `nodes: the workflow has ${count} nodes; the limit is ${max} per workflow (WORKFLOW_MAX_NODES)`
    : null;
}

/**
 * Refuses (409) to set one more workflow running on a schedule when the team's other active
 * scheduled workflows already reach WORKFLOW_MAX_ACTIVE_SCHEDULES. `workflowId` is the one being
 * saved (null when it is new), which is not counted.
 */
export async function checkScheduleRoom(teamId: string, workflowId: string | null) {
  const max = workflowMaxActiveSchedules();
  const others = await db.workflow.count({
    where: { teamId, active: true, schedule: { not: null }, ...(workflowId && { id: { not: workflowId } }) },
  });
  if (others >= max) {
    throw new ApiError(
      409,
      `This team already has ${others} active workflows with a schedule; the limit is ${max} per team (WORKFLOW_MAX_ACTIVE_SCHEDULES). Deactivate one or remove its schedule first, or save this one inactive or without a schedule.`,
    );
  }
}
