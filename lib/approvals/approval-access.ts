import "server-only";
import { db, type Approval } from "@/lib/db/client";

// Who may see a request in full and decide it (CONTRACT §8 narrowed, "Consent that holds"): a
// request on a private connection is its owner's alone; any member sees and decides the rest. A
// private connection reaches an MCP request only through its owner's own token on its owner's
// server, so its requests are always filed by that owner.

/**
 * Whose request this is to see and decide: `ownerId` null when any member may (a shared
 * connection); `alsoSeenBy`, the member who decided a request whose connection is gone.
 */
export type RequestOwner = { ownerId: string | null; alsoSeenBy?: string | null };

/** The owner of each of these connections (null: shared); a deleted connection is absent. */
export async function connectionOwners(teamId: string, connectionIds: string[]): Promise<Map<string, string | null>> {
  if (!connectionIds.length) return new Map();
  const rows = await db.connection.findMany({
    where: { teamId, id: { in: [...new Set(connectionIds)] } },
    select: { id: true, ownerUserId: true },
  });
  return new Map(rows.map((r) => [r.id, r.ownerUserId]));
}

/**
 * A request's owner for seeing and deciding. A deleted connection no longer says whether it was
 * private (the request keeps its type and name, not its owner), so its requests stay with the
 * member who filed them: the connection's owner whenever it was private.
 */
export function requestOwner(
  row: Pick<Approval, "connectionId" | "connectionOwnerId" | "requestedById" | "decidedById">,
  owners: Map<string, string | null>,
): RequestOwner {
  if (owners.has(row.connectionId)) return { ownerId: owners.get(row.connectionId) ?? null };
  // A request keeps its private connection's owner (filed since it was recorded): exact, also once
  // the connection is gone.
  if (row.connectionOwnerId !== null) return { ownerId: row.connectionOwnerId };
  return { ownerId: row.requestedById ?? "", alsoSeenBy: row.decidedById };
}

export const maySeeInFull = (owner: RequestOwner, viewerId: string) =>
  owner.ownerId === null || owner.ownerId === viewerId || owner.alsoSeenBy === viewerId;

/** One request's owner, looked up now. */
export async function ownerOfRequest(
  row: Pick<Approval, "teamId" | "connectionId" | "connectionOwnerId" | "requestedById" | "decidedById">,
): Promise<RequestOwner> {
  return requestOwner(row, await connectionOwners(row.teamId, [row.connectionId]));
}

/**
 * Why `userId` may not approve (or reject) this request, or null when they may: a request on a
 * private connection is decided by that connection's owner only, and a team that forbids
 * approving your own request lets its requester reject it but not approve it.
 */
export function refusalToDecide(
  row: Pick<Approval, "id" | "requestedById">,
  owner: RequestOwner,
  userId: string,
  forbidSelfApproval: boolean,
  decision: "approve" | "reject",
): string | null {
  if (!maySeeInFull(owner, userId)) {
    return `Approval request ${row.id} writes to a private connection: it belongs to that connection's owner, and only they can see, approve or reject it.`;
  }
  if (decision === "approve" && forbidSelfApproval && row.requestedById === userId) {
    return `Approval request ${row.id} is your own: this team requires another member to approve a request (Settings → MCP servers → Approvals). You can still reject it.`;
  }
  return null;
}
