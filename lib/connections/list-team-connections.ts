import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { connectionPublicSelect, connectionToJson } from "@/lib/connections/connection-to-json";

/**
 * Every connection of a team, private ones included, for the operator's command line
 * (`connection list`): each as GET /v1/connections/{id} shows it, plus whose private connection
 * it is (only they can put it in an MCP server or a workflow) and whether it needs re-authorizing.
 */
export async function listTeamConnections(teamId: string) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } })))
    throw notFound(`No team ${teamId.slice(0, 255)}.`);
  const rows = await db.connection.findMany({
    where: { teamId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { ...connectionPublicSelect, needsReauthAt: true },
  });
  return rows.map((row) => ({
    ...connectionToJson(row),
    owner_user_id: row.ownerUserId,
    needs_reauth: row.needsReauthAt !== null,
  }));
}
