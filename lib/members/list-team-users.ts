import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { listMembers } from "@/lib/members/list-members";

/** A team's people as the operator's command line lists them (`user list`): owners first, as Settings shows them. */
export async function listTeamUsers(teamId: string) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } })))
    throw notFound(`No team ${teamId.slice(0, 255)}.`);
  return (await listMembers(teamId)).map(({ user_id, ...member }) => ({ id: user_id, ...member }));
}
