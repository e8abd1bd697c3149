import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/api/errors";

/** Revokes a key (idempotent); revoked keys answer 401 from then on. `teamId` scopes the lookup when given. */
export async function revokeApiKey(keyId: string, teamId?: string) {
  const key = await db.apiKey.findFirst({ where: { id: keyId, ...(teamId && { teamId }) }, select: { id: true, revokedAt: true } });
  if (!key) throw notFound(`No API key ${keyId}.`);
  if (!key.revokedAt) await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  return { id: key.id, revoked: true as const };
}
