import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors/api-error";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";

/**
 * Whether a member may approve a write request they filed themselves (CONTRACT §8 lets any member
 * approve; a team may ask for a second person). Applies to every pending request at once: it is
 * read when a request is approved. Rejecting your own request stays allowed.
 */
export async function setForbidSelfApproval(teamId: string, forbid: boolean) {
  await transaction(async (tx) => {
    const before = await tx.team.findUnique({ where: { id: teamId }, select: { forbidSelfApproval: true } });
    if (!before) throw notFound(`No team ${teamId}.`);
    if (before.forbidSelfApproval === forbid) return;
    await tx.team.update({ where: { id: teamId }, data: { forbidSelfApproval: forbid } });
    await recordAuditEvent(tx, {
      teamId,
      action: "team.self_approval_change",
      target: { type: "team", id: teamId },
      details: { from: before.forbidSelfApproval, to: forbid },
    });
  });
  return { id: teamId, forbid_self_approval: forbid };
}

/** The team's settings the dashboard's settings page shows every member. */
export async function getTeamSettings(teamId: string) {
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: { lowCreditsPercent: true, forbidSelfApproval: true },
  });
  if (!team) throw notFound(`No team ${teamId}.`);
  return { low_credits_percent: team.lowCreditsPercent, forbid_self_approval: team.forbidSelfApproval };
}
