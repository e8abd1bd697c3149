import type { Prisma } from "@/lib/db/client";

/** Spec §2.1/§5.3: the team's shared connections plus the caller's own private ones. */
export function visibleConnections(teamId: string, userId: string): Prisma.ConnectionWhereInput {
  return { teamId, OR: [{ ownerUserId: null }, { ownerUserId: userId }] };
}
