import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { badRequest, notFound } from "@/lib/errors/api-error";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/** The team's credits.low threshold, a whole percent of the limit (CONTRACT §6); applies from the next charge. */
export async function setLowCreditsPercent(teamId: string, percent: number) {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw badRequest("The low-credits threshold must be a whole percent from 0 to 100.");
  const before = await db.team.findUnique({ where: { id: teamId }, select: { lowCreditsPercent: true } });
  if (!before) throw notFound(`No team ${teamId}.`);
  await transaction(async (tx) => {
    await tx.team.update({ where: { id: teamId }, data: { lowCreditsPercent: percent } });
    await recordAuditEvent(tx, {
      teamId,
      action: "team.low_credits_change",
      target: { type: "team", id: teamId },
      details: { from: before.lowCreditsPercent, to: percent },
    });
  });
  return { id: teamId, low_credits_percent: percent };
}
