import "server-only";
import type { Prisma } from "@/lib/db/client";
import { prepared, read } from "@/lib/db/read";

/** Spec §2.1/§5.3: the team's shared connections plus the caller's own private ones. */
export function visibleConnections(teamId: string, userId: string): Prisma.ConnectionWhereInput {
  return { teamId, OR: [{ ownerUserId: null }, { ownerUserId: userId }] };
}

/**
 * The same rule for the hot reads: the connections a user sees, newest first, without the
 * credentials column; narrowed to one id, one external id or one type when given.
 */
export const findVisibleConnections = prepared(
  (a: { teamId: string; userId: string; id?: string; externalId?: string; type?: string }) => {
    let q = read
      .selectFrom("Connection")
      .select(["id", "type", "displayName", "externalId", "ownerUserId", "createdAt", "updatedAt"])
      .where("teamId", "=", a.teamId)
      .where((eb) => eb.or([eb("ownerUserId", "is", null), eb("ownerUserId", "=", a.userId)]));
    if (a.id !== undefined) q = q.where("id", "=", a.id);
    if (a.externalId !== undefined) q = q.where("externalId", "=", a.externalId);
    if (a.type !== undefined) q = q.where("type", "=", a.type);
    return q.orderBy("createdAt", "desc").orderBy("id", "desc");
  },
);
