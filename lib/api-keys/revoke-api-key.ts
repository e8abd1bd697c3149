import "server-only";
import { db } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { notFound } from "@/lib/errors/api-error";

/** Revokes a key (idempotent); revoked keys answer 401 from then on. `teamId` scopes the lookup when given. */
export async function revokeApiKey(keyId: string, teamId?: string) {
  const key = await db.apiKey.findFirst({
    where: { id: keyId, ...(teamId && { teamId }) },
    select: { id: true, teamId: true, prefix: true, name: true, revokedAt: true },
  });
  if (!key) throw notFound(`No API key ${keyId}.`);
  if (!key.revokedAt) {
    await transaction(async (tx) => {
      // Conditional, so two revokes at once record one event.
      const { count } = await tx.apiKey.updateMany({
        where: { id: key.id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count)
        await recordAuditEvent(tx, {
          teamId: key.teamId,
          action: "api_key.revoke",
          target: { type: "api_key", id: key.id },
          details: { name: key.name, prefix: key.prefix },
        });
    });
  }
  return { id: key.id, revoked: true as const };
}
