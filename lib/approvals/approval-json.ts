import "server-only";
import type { Approval } from "@/lib/db/client";
import type { ApprovalStatusValue as ApprovalStatus } from "@/lib/schemas/approval-statuses";
import { findConnectionType } from "@/lib/platforms/registry";
import { maySeeInFull, refusalToDecide, type RequestOwner } from "@/lib/approvals/approval-access";
import type { CurrentBefore } from "@/lib/approvals/before-state";

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

/** What others are told of a request on a private connection: its type, nothing of its account or input. */
const privateSummary = (row: Pick<Approval, "connectionType">) =>
  `A write to a private ${findConnectionType(row.connectionType)?.name ?? row.connectionType} connection; only its owner can see and decide it.`;

/**
 * The Approval of the approval.* webhooks. A webhook reaches the team's systems (a Slack channel,
 * say), so a request on a private connection carries no more of it than its type there.
 */
export function approvalWebhookJson(row: Approval) {
  const json = approvalJson(row);
  return row.connectionOwnerId === null ? json : { ...json, summary: privateSummary(row) };
}

/** A request as `approval list` prints it (CONTRACT §8). */
export function approvalListJson(row: Approval) {
  return {
    id: row.id,
    status: effectiveStatus(row),
    operation_id: row.operationId,
    connection_id: row.connectionId,
    summary: row.summary,
    mcp_server_id: row.mcpServerId,
    // An agent's request names its conversation (CONTRACT §11); an MCP server's keeps §8's shape.
    ...(row.conversationId !== null && { conversation_id: row.conversationId }),
    // A workflow run's approval step names its workflow and run (CONTRACT §13).
    ...(row.workflowRunId !== null && { workflow_id: row.workflowId, run_id: row.workflowRunId }),
    requested_by: row.requestedById,
    created_at: Math.floor(Number(row.createdAtMs) / 1000),
    expires_at: Number(row.expiresAt),
  };
}

/**
 * The Approval object of the approval.* webhooks and the dashboard: the list's, plus who decided
 * and when once decided.
 */
function approvalJson(row: Approval) {
  return {
    ...approvalListJson(row),
    ...(row.decidedAt !== null && { decided_by: row.decidedById, decided_at: Number(row.decidedAt) }),
  };
}

/**
 * The before-state read again now (read-current-before.ts), for a pending request's detail: `before`
 * stays the state it was filed with; `current` is the state now, `changed` whether they differ (and
 * `change` the sentence naming both), `current_summary` the summary made from the state now, and
 * `current_fingerprint` what an approval sends back as `seen_before`. All null (changed false) when
 * nothing was read: a decided request, a list row, an operation with no reader, a redacted view.
 */
function currentJson(now: CurrentBefore | null | undefined) {
  return {
    current: now ? now.current : null,
    changed: now?.changed ?? false,
    change: now?.change ?? null,
    current_summary: now?.summary ?? null,
    current_fingerprint: now?.fingerprint ?? null,
  };
}

/** Everything the dashboard shows of a request: the contract's object plus what a person judges it by. */
function approvalDetailJson(row: Approval) {
  return {
    ...approvalJson(row),
    operation_version: row.operationVersion,
    connection: {
      id: row.connectionId,
      type: row.connectionType,
      name: row.connectionName,
      account: row.connectionAccount,
    },
    mcp_server_name: row.mcpServerName,
    requested_by_email: row.requestedByEmail,
    decided_by_email: row.decidedByEmail,
    note: row.note,
    input: parseStored(row.input),
    before: parseStored(row.before),
    result: parseStored(row.result),
    error: row.error,
    log_id: row.logId,
    workflow: workflowOfRequest(row),
  };
}

/**
 * The workflow run a request waits in, for the dashboard: the workflow, the run, the node and,
 * in a loop, the item the write is for (`index` 0-based of `count`). Null for MCP and agent requests.
 */
function workflowOfRequest(row: Approval) {
  if (row.workflowRunId === null) return null;
  const item = parseStored(row.workflowItem) as {
    index?: number;
    count?: number;
    item?: unknown;
    name?: string;
  } | null;
  return {
    id: row.workflowId,
    name: item?.name ?? null,
    run_id: row.workflowRunId,
    node_id: row.workflowNodeId,
    item:
      item && typeof item.index === "number"
        ? { index: item.index, count: item.count ?? null, value: item.item ?? null }
        : null,
  };
}

/** What the viewer may do with the request: shown by the dashboard, enforced by decide-approval.ts. */
type ApprovalAccess = {
  private: boolean;
  redacted: boolean;
  can_approve: boolean;
  can_reject: boolean;
  cannot_approve_reason: string | null;
  cannot_reject_reason: string | null;
};

/**
 * A request as one member sees it in the dashboard. A request on another member's private
 * connection is redacted: its status, times, operation and the connection's type only, nothing of
 * what it writes, to what, or what came of it.
 */
export function approvalViewJson(
  row: Approval,
  owner: RequestOwner,
  viewerId: string,
  forbidSelfApproval: boolean,
  now?: CurrentBefore | null,
) {
  const cannotApprove = refusalToDecide(row, owner, viewerId, forbidSelfApproval, "approve");
  const cannotReject = refusalToDecide(row, owner, viewerId, forbidSelfApproval, "reject");
  const full = maySeeInFull(owner, viewerId);
  const access: ApprovalAccess = {
    private: owner.ownerId !== null,
    redacted: !full,
    can_approve: !cannotApprove,
    can_reject: !cannotReject,
    cannot_approve_reason: cannotApprove,
    cannot_reject_reason: cannotReject,
  };
  if (full) return { ...approvalDetailJson(row), ...currentJson(now), ...access };
  return {
    ...approvalDetailJson(row),
    summary: privateSummary(row),
    connection: { id: row.connectionId, type: row.connectionType, name: null, account: null },
    mcp_server_name: null,
    note: null,
    input: null,
    before: null,
    result: null,
    error: null,
    log_id: null,
    workflow: row.workflowRunId === null ? null : { ...workflowOfRequest(row)!, item: null },
    ...currentJson(null),
    ...access,
  };
}

export type ApprovalDetail = ReturnType<typeof approvalViewJson>;
