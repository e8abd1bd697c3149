import "server-only";
import { db, type Approval, type Prisma } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors/api-error";
import { decodeCursor, encodeCursor } from "@/lib/db/pagination";
import { approvalViewJson, effectiveStatus } from "@/lib/approvals/approval-json";
import { readCurrentBefore } from "@/lib/approvals/read-current-before";
import { connectionOwners, maySeeInFull, requestOwner } from "@/lib/approvals/approval-access";
import type { ApprovalStatusValue as ApprovalStatus } from "@/lib/schemas/approval-statuses";

const seconds = () => Math.floor(Date.now() / 1000);

/** A status as everyone reads it: a pending request past its expiry is `expired` (approval-json's effectiveStatus). */
function statusWhere(status: ApprovalStatus | undefined, now = seconds()): Prisma.ApprovalWhereInput {
  if (status === "pending") return { status: "pending", expiresAt: { gt: BigInt(now) } };
  if (status === "expired")
    return { OR: [{ status: "expired" }, { status: "pending", expiresAt: { lte: BigInt(now) } }] };
  return status ? { status } : {};
}

/** `approval list`: the team's requests, newest first. */
export async function listApprovalsForCli(teamId: string, status?: ApprovalStatus) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } })))
    throw notFound(`No team ${teamId}.`);
  return db.approval.findMany({
    where: { teamId, ...statusWhere(status) },
    orderBy: [{ createdAtMs: "desc" }, { id: "desc" }],
    take: 1000,
  });
}

export async function teamOfApproval(id: string): Promise<string> {
  const row = await db.approval.findUnique({ where: { id }, select: { teamId: true } });
  if (!row) throw notFound(`No approval request ${id}.`);
  return row.teamId;
}

export type ApprovalFilters = {
  status?: ApprovalStatus;
  operationId?: string;
  mcpServerId?: string;
  cursor?: string;
  limit?: number;
};

// Signed like every list's cursor (lib/db/pagination.ts) and bound to the filters it was made
// for: a forged or edited one (a NUL in its id, which PostgreSQL refuses) is a 400 before any query.
type CursorFilters = Pick<ApprovalFilters, "status" | "operationId" | "mcpServerId">;
const cursorFilters = (f: ApprovalFilters): CursorFilters => ({
  status: f.status,
  operationId: f.operationId,
  mcpServerId: f.mcpServerId,
});
const cursorOf = (f: ApprovalFilters, row: { createdAtMs: bigint; id: string }) =>
  encodeCursor("approvals", cursorFilters(f), { at: Number(row.createdAtMs), id: row.id });
function readCursor(f: ApprovalFilters, cursor: string): { createdAtMs: bigint; id: string } {
  const { at, id } = decodeCursor("approvals", cursorFilters(f), cursor);
  if (!Number.isSafeInteger(at) || at < 0 || typeof id !== "string")
    throw badRequest("Invalid cursor: pass back next_cursor exactly as it was returned.");
  return { createdAtMs: BigInt(at), id };
}

/** Who looks: the member whose session asks (what they see of private connections' requests depends on it). */
export type Viewer = { teamId: string; userId: string };

const forbidsSelfApproval = async (teamId: string) =>
  (await db.team.findUnique({ where: { id: teamId }, select: { forbidSelfApproval: true } }))?.forbidSelfApproval ??
  false;

/**
 * The requests as `viewer` sees them: another member's private connection's redacted
 * (approval-json's approvalViewJson).
 */
async function asSeenBy(viewer: Viewer, rows: Approval[]) {
  const [owners, forbidSelf] = await Promise.all([
    connectionOwners(
      viewer.teamId,
      rows.map((r) => r.connectionId),
    ),
    forbidsSelfApproval(viewer.teamId),
  ]);
  return rows.map((r) => approvalViewJson(r, requestOwner(r, owners), viewer.userId, forbidSelf));
}

/** The Approvals page: a page of requests, newest first, with the count still waiting for the viewer's decision. */
export async function listApprovals(viewer: Viewer, f: ApprovalFilters) {
  const { teamId } = viewer;
  const limit = f.limit ?? 50;
  const after = f.cursor ? readCursor(f, f.cursor) : null;
  const where: Prisma.ApprovalWhereInput = {
    teamId,
    AND: [
      statusWhere(f.status),
      f.operationId ? { operationId: f.operationId } : {},
      f.mcpServerId ? { mcpServerId: f.mcpServerId } : {},
      after
        ? { OR: [{ createdAtMs: { lt: after.createdAtMs } }, { createdAtMs: after.createdAtMs, id: { lt: after.id } }] }
        : {},
    ],
  };
  const rows = await db.approval.findMany({
    where,
    orderBy: [{ createdAtMs: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    data: await asSeenBy(viewer, page),
    next_cursor: rows.length > limit ? cursorOf(f, page[page.length - 1]) : null,
    pending: await countPendingApprovals(viewer),
  };
}

/**
 * How many requests wait for the viewer's decision (the count in the navigation): another
 * member's private connection's requests are theirs to decide, so they are not counted.
 */
async function countPendingApprovals(viewer: Viewer) {
  const waiting = await db.approval.findMany({
    where: { teamId: viewer.teamId, ...statusWhere("pending") },
    select: { connectionId: true, connectionOwnerId: true, requestedById: true, decidedById: true },
  });
  const owners = await connectionOwners(
    viewer.teamId,
    waiting.map((r) => r.connectionId),
  );
  return waiting.filter((r) => maySeeInFull(requestOwner(r, owners), viewer.userId)).length;
}

/**
 * One request as the viewer sees it. A pending one the viewer may see in full has its
 * before-state read again now (read-current-before.ts), so that the panel, its confirm dialog and
 * the agent's card show the account as it is, and say when it changed since the request was filed.
 * Read on every call (no cache): the answer is what an approval is checked against.
 */
export async function getApproval(viewer: Viewer, id: string) {
  const row = await db.approval.findFirst({ where: { id, teamId: viewer.teamId } });
  if (!row) throw notFound(`No approval request ${id} in this team.`);
  const [owners, forbidSelf] = await Promise.all([
    connectionOwners(viewer.teamId, [row.connectionId]),
    forbidsSelfApproval(viewer.teamId),
  ]);
  const owner = requestOwner(row, owners);
  const now =
    effectiveStatus(row) === "pending" && maySeeInFull(owner, viewer.userId) ? await readCurrentBefore(row) : null;
  return approvalViewJson(row, owner, viewer.userId, forbidSelf, now);
}
