import "server-only";
import { db } from "@/lib/db/client";
import { visibleConnections } from "@/lib/connections/visible-connections";

/** Connections the caller can see whose token refresh was refused: someone must sign in to the provider again. */
export async function listConnectionsNeedingReauth(teamId: string, userId: string) {
  const rows = await db.connection.findMany({
    where: { ...visibleConnections(teamId, userId), needsReauthAt: { not: null } },
    select: { id: true, needsReauthAt: true },
  });
  return rows.map((r) => ({ id: r.id, needs_reauth_at: r.needsReauthAt!.getTime() }));
}
