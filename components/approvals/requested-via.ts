import type { ApprovalDetail } from "@/lib/queries/approvals";
import { workflowOf } from "@/components/approvals/workflow-origin";

/**
 * What filed a request: a workflow's run (named), an agent conversation, or an MCP server (named
 * unless the request is redacted).
 */
export function requestedVia(a: ApprovalDetail): string {
  const workflow = workflowOf(a);
  if (workflow) return `the workflow ${workflow.name ? `“${workflow.name}”` : "run"}`;
  // Truthy, not `!== null`: an MCP server's request may leave conversation_id out rather than null it.
  return a.conversation_id ? "the Agent" : a.redacted ? "an MCP server" : (a.mcp_server_name ?? "a deleted MCP server");
}
