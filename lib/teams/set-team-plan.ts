import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import type { Plan } from "@/lib/teams/plans";

/** Changes the plan. Existing API keys keep working (which is how the §5.5 403 can happen). */
export async function setTeamPlan(teamId: string, plan: Plan) {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { id: true } });
  if (!team) throw notFound(`No team ${teamId}.`);
  return db.team.update({ where: { id: teamId }, data: { plan }, select: { id: true, plan: true } });
}
