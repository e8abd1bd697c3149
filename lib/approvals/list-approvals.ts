import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/api/errors";
import { approvalDetailJson } from "@/lib/approvals/approval-json";
import type { ApprovalStatusValue as ApprovalStatus } from "@/lib/approvals/statuses";

const seconds = () => Math.floor(Date.now() / 1000);

/** A status as everyone reads it: a pending request past its expiry is `expired` (approval-json's effectiveStatus). */
function statusWhere(status: ApprovalStatus | undefined, now = seconds()): Prisma.ApprovalWhereInput {
  if (status === "pending") return { status: "pending", expiresAt: { gt: BigInt(now) } };
  if (status === "expired") return { OR: [{ status: "expired" }, { status: "pending", expiresAt: { lte: BigInt(now) } }] };
  return status ? { status } : {};
}

/** `approval list`: the team's requests, newest first. */
export async function listApprovalsForCli(teamId: string, status?: ApprovalStatus) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } }))) throw notFound(`No team ${teamId}.`);
  return db.approval.findMany({ where: { teamId, ...statusWhere(status) }, orderBy: [{ createdAtMs: "desc" }, { id: "desc" }], take: 1000 });
}

export async function teamOfApproval(id: string): Promise<string> {
  const row = await db.approval.findUnique({ where: { id }, select: { teamId: true } });
  if (!row) throw notFound(`No approval request ${id}.`);
  return row.teamId;
}

export type ApprovalFilters = { status?: ApprovalStatus; operationId?: string; mcpServerId?: string; cursor?: string; limit?: number };

const cursorOf = (row: { createdAtMs: bigint; id: string }) => Buffer.from(`${row.createdAtMs}:${row.id}`).toString("base64url");
function readCursor(cursor: string): { createdAtMs: bigint; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split(":");
  if (!/^\d{1,15}$/.test(at ?? "") || !id) throw badRequest("cursor: is not a cursor this list returned.");
  return { createdAtMs: BigInt(at), id };
}

/** The Approvals page: a page of requests, newest first, with the count still waiting for a decision. */
export async function listApprovals(teamId: string, f: ApprovalFilters) {
  const limit = f.limit ?? 50;
  const after = f.cursor ? readCursor(f.cursor) : null;
  const where: Prisma.ApprovalWhereInput = {
    teamId,
    AND: [
      statusWhere(f.status),
      f.operationId ? { operationId: f.operationId } : {},
      f.mcpServerId ? { mcpServerId: f.mcpServerId } : {},
      after ? { OR: [{ createdAtMs: { lt: after.createdAtMs } }, { createdAtMs: after.createdAtMs, id: { lt: after.id } }] } : {},
    ],
  };
  const rows = await db.approval.findMany({ where, orderBy: [{ createdAtMs: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    data: page.map(approvalDetailJson),
    next_cursor: rows.length > limit ? cursorOf(page[page.length - 1]) : null,
    pending: await countPendingApprovals(teamId),
  };
}

/** How many requests wait for a decision: the count in the navigation. */
export const countPendingApprovals = (teamId: string) => db.approval.count({ where: { teamId, ...statusWhere("pending") } });

export async function getApproval(teamId: string, id: string) {
  const row = await db.approval.findFirst({ where: { id, teamId } });
  if (!row) throw notFound(`No approval request ${id} in this team.`);
  return approvalDetailJson(row);
}
