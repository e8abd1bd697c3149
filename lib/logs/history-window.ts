import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";
import { historyDaysOf } from "@/lib/teams/plans";

/** The oldest Unix second the team's plan lets it see (spec §4.10: older logs are stored but not returned). */
export async function historyWindow(teamId: string, nowSeconds = Math.floor(Date.now() / 1000)) {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { plan: true, historyDays: true } });
  if (!team) throw notFound("Team not found.");
  const days = historyDaysOf(team);
  return { days, cutoff: nowSeconds - days * 86_400 };
}
