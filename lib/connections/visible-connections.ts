import "server-only";
import { read, type Prisma } from "@/lib/db/client";

/** Spec §2.1/§5.3: the team's shared connections plus the caller's own private ones. */
export function visibleConnections(teamId: string, userId: string): Prisma.ConnectionWhereInput {
  return { teamId, OR: [{ ownerUserId: null }, { ownerUserId: userId }] };
}

/**
 * The same rule for the hot reads: the connections a user sees, newest first, without the
 * credentials column.
 */
export function selectVisibleConnections(teamId: string, userId: string) {
  return read
    .selectFrom("Connection")
    .select(["id", "type", "displayName", "externalId", "ownerUserId", "createdAt", "updatedAt"])
    .where("teamId", "=", teamId)
    .where((eb) => eb.or([eb("ownerUserId", "is", null), eb("ownerUserId", "=", userId)]))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc");
}
