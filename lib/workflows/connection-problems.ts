import "server-only";
import { db } from "@/lib/db/client";

/**
 * Connections among `ids` that a run would fail on: deleted, or waiting for re-authorization. A
 * teammate's private connection is named by its type only.
 */
export async function connectionProblems(
  teamId: string,
  ids: string[],
  viewerUserId: string,
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const found = unique.length
    ? await db.connection.findMany({
        where: { teamId, id: { in: unique } },
        select: { id: true, needsReauthAt: true, displayName: true, type: true, ownerUserId: true },
      })
    : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  const problems = new Map<string, string>();
  for (const id of unique) {
    const c = byId.get(id);
    if (!c) problems.set(id, "deleted: rebind the workflow to another connection");
    else if (c.needsReauthAt) {
      const name =
        c.ownerUserId === null || c.ownerUserId === viewerUserId
          ? (c.displayName ?? c.type)
          : `a teammate's private ${c.type} connection`;
      problems.set(
        id,
        `needs re-authorization: ${name} no longer accepts its access; its nodes fail until it is connected again`,
      );
    }
  }
  return problems;
}
