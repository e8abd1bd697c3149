import "server-only";
import { db } from "@/lib/db/client";
import { badRequest } from "@/lib/errors/api-error";
import { visibleConnections } from "@/lib/connections/visible-connections";

/**
 * The one rule for every path that binds connections to something that will later act on them
 * (an MCP server's saved permissions; next, workflows and approvals): the person binding must
 * be able to see each connection (the team's shared ones and their own private ones), and a
 * private connection goes only to a resource its owner owns. So nobody, a team owner included,
 * can route another member's private connection through a server they can mint tokens for.
 * Returns the ids, once each; anything else is named in a 400, never silently dropped.
 */
export async function checkBindableConnections(input: {
  teamId: string;
  actorUserId: string;
  resourceOwnerUserId: string | null;
  ids: string[];
  resource: string;
}): Promise<string[]> {
  const unique = [...new Set(input.ids)];
  if (!unique.length) return unique;
  const found = await db.connection.findMany({
    where: { ...visibleConnections(input.teamId, input.actorUserId), id: { in: unique } },
    select: { id: true, ownerUserId: true },
  });
  const visible = new Map(found.map((c) => [c.id, c.ownerUserId]));
  const missing = unique.filter((id) => !visible.has(id));
  if (missing.length)
    throw badRequest(`connection_ids: no connection ${missing.join(", ")} that you can use in this team.`);
  const misplaced = unique.filter((id) => visible.get(id) !== null && visible.get(id) !== input.resourceOwnerUserId);
  if (misplaced.length) {
    throw badRequest(
      `connection_ids: ${misplaced.join(", ")} ${misplaced.length > 1 ? "are" : "is"} private to you, and a private connection can only be given to your own ${input.resource}s; share it with the team first.`,
    );
  }
  return unique;
}
