import "server-only";
import type { Tx } from "@/lib/db/transaction";
import { deactivateWorkflowsActivatedBy } from "@/lib/workflows/workflow-consent";
import { downgradeServersAllowedBy } from "@/lib/mcp-servers/mcp-servers";

/**
 * What a team owner consented to as an owner ends when they stop being one (SECURITY.md,
 * "Writes a workflow makes"): the write workflows they activated stop (with the reason, an audit
 * event and `workflow.deactivated`; their queued runs are refused), and the MCP servers they set
 * to `allowed` go back to `approval`. In the transaction of the role change or the removal, so
 * there is no moment when the consent stands without an owner behind it.
 */
export async function withdrawOwnerConsent(
  tx: Tx,
  teamId: string,
  user: { id: string; email: string },
  why: "demoted" | "left",
) {
  const gone = why === "demoted" ? "is no longer a team owner" : "is no longer in the team";
  const workflowsDeactivated = await deactivateWorkflowsActivatedBy(
    tx,
    teamId,
    user.id,
    `Deactivated because ${user.email}, the team owner who activated it, ${gone}, and its writes ran without approval on their consent; a team owner can activate it again.`,
  );
  const serversDowngraded = await downgradeServersAllowedBy(
    tx,
    teamId,
    user.id,
    `${user.email}, the team owner who let it write without approval, ${gone}.`,
  );
  return { workflowsDeactivated, serversDowngraded: serversDowngraded.length };
}
