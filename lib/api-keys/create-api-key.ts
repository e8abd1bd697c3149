import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { badRequest, forbidden, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { sha256Hex } from "@/lib/security/hashing";
import { generateApiKey } from "@/lib/api-keys/api-key-format";

/**
 * Creates an API key for a member of the team; only its hash is stored and the key is returned
 * this once. Keys need the Team plan (spec §5.2) unless the operator's CLI creates them.
 */
export async function createApiKey(input: { teamId: string; userId: string; name?: string; requireTeamPlan: boolean }) {
  const membership = await db.membership.findUnique({
    where: { teamId_userId: { teamId: input.teamId, userId: input.userId } },
    select: { team: { select: { plan: true } } },
  });
  if (!membership) {
    const team = await db.team.findUnique({ where: { id: input.teamId }, select: { id: true } });
    if (!team) throw notFound(`No team ${input.teamId}.`);
    throw badRequest(`User ${input.userId} is not a member of team ${input.teamId}.`);
  }
  if (input.requireTeamPlan && membership.team.plan !== "team") {
    throw forbidden(`API keys are available on the Team plan; this team is on ${membership.team.plan}.`);
  }
  const { key, prefix } = generateApiKey();
  const row = await transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        id: newId("key"),
        teamId: input.teamId,
        createdByUserId: input.userId,
        hash: sha256Hex(key),
        prefix,
        name: input.name ?? null,
      },
    });
    await recordAuditEvent(tx, {
      teamId: input.teamId,
      action: "api_key.create",
      target: { type: "api_key", id: created.id },
      details: { name: created.name, prefix, user_id: input.userId },
    });
    return created;
  });
  return { id: row.id, key };
}
