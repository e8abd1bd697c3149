import "server-only";
import type { Approval } from "@/lib/db/client";
import type { ApprovalStatusValue as ApprovalStatus } from "@/lib/approvals/statuses";

const now = () => Math.floor(Date.now() / 1000);

/** A pending request past its expiry reads `expired` everywhere, before the sweeper has stored it. */
export const effectiveStatus = (row: Pick<Approval, "status" | "expiresAt">, at = now()): ApprovalStatus =>
  (row.status === "pending" && Number(row.expiresAt) <= at ? "expired" : row.status) as ApprovalStatus;

/** A stored JSON column (input, before-state, result) as the value it holds. */
export const parseStored = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** A request as `approval list` prints it (CONTRACT §8). */
export function approvalListJson(row: Approval) {
  return {
    id: row.id,
    status: effectiveStatus(row),
    operation_id: row.operationId,
    connection_id: row.connectionId,
    summary: row.summary,
    mcp_server_id: row.mcpServerId,
    requested_by: row.requestedById,
    created_at: Math.floor(Number(row.createdAtMs) / 1000),
    expires_at: Number(row.expiresAt),
  };
}

/** The Approval object of the approval.* webhooks and the dashboard: the list's, plus who decided and when once decided. */
export function approvalJson(row: Approval) {
  return { ...approvalListJson(row), ...(row.decidedAt !== null && { decided_by: row.decidedById, decided_at: Number(row.decidedAt) }) };
}

/** Everything the dashboard shows of a request: the contract's object plus what a person judges it by. */
export function approvalDetailJson(row: Approval) {
  return {
    ...approvalJson(row),
    operation_version: row.operationVersion,
    connection: { id: row.connectionId, type: row.connectionType, name: row.connectionName, account: row.connectionAccount },
    mcp_server_name: row.mcpServerName,
    requested_by_email: row.requestedByEmail,
    decided_by_email: row.decidedByEmail,
    note: row.note,
    input: parseStored(row.input),
    before: parseStored(row.before),
    result: parseStored(row.result),
    error: row.error,
    log_id: row.logId,
  };
}

export type ApprovalDetail = ReturnType<typeof approvalDetailJson>;
