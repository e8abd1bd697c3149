import "server-only";
import { maySeeInFull, ownerOfRequest } from "@/lib/approvals/approval-access";
import { db, type Approval } from "@/lib/db/client";
import { transaction, type Tx } from "@/lib/db/transaction";
import { appUrl } from "@/lib/config/env";
import { newId } from "@/lib/security/ids";
import { emitWebhookEvent } from "@/lib/webhooks/emit";
import { OperationRefusal, type ScopedConnection } from "@/lib/operations/run-operation";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import type { McpPrincipal } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { approvalWebhookJson, effectiveStatus, parseStored } from "@/lib/approvals/approval-json";
import { readBeforeState, storedBefore } from "@/lib/approvals/before-state";
import { UNSTORABLE } from "@/lib/http/parse";
import { approvalTtlSeconds } from "@/lib/schemas/write-policy";

/**
 * Where a person approves or rejects a request: a link that signs them in if needed and then
 * opens its detail on the team's Approvals page (app/approvals/[id]).
 */
const approveUrl = (id: string) => `${appUrl()}/approvals/${encodeURIComponent(id)}`;

/**
 * Who files a request: an MCP server's token or OAuth grant (CONTRACT §8), or an agent
 * conversation's turn (§11), on behalf of a member.
 */
export type ApprovalOrigin = {
  teamId: string;
  user: { id: string; email: string } | null;
  mcp?: { serverId: string; serverName: string; tokenId: string | null; grantId: string | null };
  agent?: { conversationId: string; turnId: string };
  /** A workflow run's approval step (CONTRACT §13): `item` is the loop's item, `name` the workflow's. */
  workflow?: {
    workflowId: string;
    workflowName: string;
    runId: string;
    nodeId: string;
    item: { index: number; count: number; item: unknown } | null;
  };
};

/** The origin of a request filed through /mcp by `principal`. */
export const mcpOrigin = (principal: McpPrincipal): ApprovalOrigin => ({
  teamId: principal.server.teamId,
  user: principal.user,
  mcp: {
    serverId: principal.server.id,
    serverName: principal.server.name,
    tokenId: principal.via === "mcp_token" ? principal.tokenId : null,
    grantId: principal.via === "oauth" ? principal.tokenId : null,
  },
});

const ITEM_MAX_CHARS = 8000;

/** The workflow, and the loop's item a request is for, as stored with it (a large item is named, not kept). */
function workflowItemText(w: NonNullable<ApprovalOrigin["workflow"]>): string {
  const text = JSON.stringify({ name: w.workflowName, ...(w.item ?? {}) });
  if (text.length <= ITEM_MAX_CHARS || !w.item) return text;
  return JSON.stringify({
    name: w.workflowName,
    ...w.item,
    item: `(an item of ${text.length.toLocaleString("en-US")} characters; its input above shows what is written)`,
  });
}

/**
 * Files a checked write (scope and input already validated) as a request a person decides:
 * its summary, the object's state now when the operation can read it, who asked through which
 * server or conversation. It expires after APPROVAL_TTL_MINUTES. `approval.requested` goes out with it.
 */
export async function fileApproval(
  origin: ApprovalOrigin,
  op: Operation,
  connection: ScopedConnection,
  input: Record<string, unknown>,
  /** `id`: the request's id, chosen by the caller; `within`: more writes that commit with the request (a run parking). */
  options: { id?: string; within?: (tx: Tx) => Promise<void> } = {},
) {
  const { teamId } = origin;
  const before = op.before ? await readBeforeState(teamId, op, connection, input) : undefined;
  const summary = op.summarize
    ? op.summarize(input, connection, before?.state)
    : `Run ${op.title} on ${connection.name ?? connection.id}.`;
  const now = Date.now();
  const expiresAt = Math.floor(now / 1000) + approvalTtlSeconds();
  const id = options.id ?? newId("apr");
  const url = approveUrl(id);
  const owner = connection.isPrivate
    ? ((await db.connection.findUnique({ where: { id: connection.id }, select: { ownerUserId: true } }))?.ownerUserId ??
      null)
    : null;
  await transaction(async (tx) => {
    const row = await tx.approval.create({
      data: {
        id,
        teamId,
        status: "pending",
        operationId: op.id,
        operationVersion: op.operationVersion,
        connectionId: connection.id,
        connectionType: connection.type,
        connectionName: connection.name,
        connectionAccount: connection.externalId,
        connectionOwnerId: owner,
        input: JSON.stringify(input),
        summary,
        before: before === undefined ? null : JSON.stringify(storedBefore(before)),
        mcpServerId: origin.mcp?.serverId ?? null,
        mcpServerName: origin.mcp?.serverName ?? null,
        mcpTokenId: origin.mcp?.tokenId ?? null,
        oauthGrantId: origin.mcp?.grantId ?? null,
        conversationId: origin.agent?.conversationId ?? null,
        agentTurnId: origin.agent?.turnId ?? null,
        workflowId: origin.workflow?.workflowId ?? null,
        workflowRunId: origin.workflow?.runId ?? null,
        workflowNodeId: origin.workflow?.nodeId ?? null,
        workflowItem: origin.workflow ? workflowItemText(origin.workflow) : null,
        requestedById: origin.user?.id ?? null,
        requestedByEmail: origin.user?.email ?? null,
        createdAtMs: BigInt(now),
        expiresAt: BigInt(expiresAt),
      },
    });
    await emitWebhookEvent(tx, teamId, "approval.requested", { approval: approvalWebhookJson(row) });
    await options.within?.(tx);
  });
  return {
    answer: { approval_id: id, status: "pending" as const, summary, approve_url: url, expires_at: expiresAt },
    say: `This write needs a person's approval before it runs: “${summary}” A member of the team can approve or reject it at ${url} until ${new Date(expiresAt * 1000).toISOString()}. Call get_operation_result with approval_id ${id} to learn the outcome.`,
  };
}

/**
 * get_operation_result: a request this MCP server (or this conversation) filed, as the agent may
 * see it. Another server's request (of the same team too) is unknown here, exactly like an id that
 * does not exist: its result may come from a connection this server cannot reach. A request on a
 * private connection is its owner's alone (approval-access.ts): to anyone else reading through the
 * same server or conversation (`readerId`), it reads as its status, without result or error.
 */
export async function readApprovalResult(
  filedBy: { teamId: string; mcpServerId: string } | { teamId: string; conversationId: string },
  approvalId: string,
  readerId: string,
) {
  // No id holds NUL or a lone surrogate, and PostgreSQL refuses them in a query.
  const row = UNSTORABLE.test(approvalId)
    ? null
    : await db.approval.findFirst({ where: { id: approvalId.slice(0, 100), ...filedBy } });
  if (!row)
    throw new OperationRefusal(
      `There is no approval request ${JSON.stringify(approvalId.slice(0, 100))} filed through this ${"conversationId" in filedBy ? "conversation" : "MCP server"}. Use the approval_id run_write_operation answered with.`,
      "unknown_approval",
    );
  if (!maySeeInFull(await ownerOfRequest(row), readerId)) return { approval_id: row.id, status: effectiveStatus(row) };
  return approvalOutcome(row);
}

/** A request's status as the agent reads it, with the write's result or why nothing was written. */
export function approvalOutcome(row: Approval) {
  const status = effectiveStatus(row);
  return {
    approval_id: row.id,
    status,
    ...(status === "succeeded" && row.result !== null && { result: parseStored(row.result) }),
    ...(status === "failed" && { error: row.error ?? "The write failed." }),
    ...(status === "rejected" && {
      error: `Rejected by ${row.decidedByEmail ?? "a team member"}${row.note ? `: ${row.note}` : ""}. Nothing was written.`,
    }),
    ...(status === "expired" && { error: "Nobody decided in time; the request expired and nothing was written." }),
    ...(status === "cancelled" && { error: row.error ?? "The request was cancelled; nothing was written." }),
  };
}
