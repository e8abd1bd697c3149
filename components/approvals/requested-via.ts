import type { ApprovalDetail } from "@/lib/queries/approvals";

/** What filed a request: an agent conversation, or an MCP server (named unless the request is redacted). */
export const requestedVia = (a: Pick<ApprovalDetail, "redacted" | "conversation_id" | "mcp_server_name">) =>
  // Truthy, not `!== null`: an MCP server's request may leave conversation_id out rather than null it.
  a.conversation_id ? "the Agent" : a.redacted ? "an MCP server" : (a.mcp_server_name ?? "a deleted MCP server");
