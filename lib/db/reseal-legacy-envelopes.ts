import "server-only";
import { db } from "@/lib/db/client";
import { currentEnvelopePrefix, decryptJson, encryptJson, type SealedFor } from "@/lib/security/encryption";
import { logger } from "@/lib/observability/logger";

/**
 * Re-seals, with the current key and bound to their rows, the envelopes written before rows
 * were bound ("v1") or under a key that is no longer the current one (a rotation, or a
 * passphrase's older derivation). `npm start` runs it after the migrations; each row is swapped
 * only if it still holds what was read, so instances starting together do no harm. Envelopes that
 * do not open are left as they are (and logged): a missing old key must not destroy data.
 */
export async function resealLegacyEnvelopes(): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  const current = currentEnvelopePrefix();
  const stale = { not: { startsWith: current } };
  const reseal = (envelope: string, boundTo: SealedFor): string | null => {
    if (envelope.startsWith(current)) return null;
    try {
      return encryptJson(decryptJson(envelope, boundTo), boundTo);
    } catch (e) {
      unreadable++;
      logger.warn("an encrypted value does not open with the configured keys; left as it is", {
        row: boundTo,
        reason: (e as Error).message,
      });
      return null;
    }
  };
  // Only the stale rows come back: a start with nothing to re-seal decrypts nothing.
  for (const c of await db.connection.findMany({
    where: { credentials: stale },
    select: { id: true, credentials: true },
  })) {
    const next = reseal(c.credentials, `connection:${c.id}`);
    if (next)
      resealed += (
        await db.connection.updateMany({ where: { id: c.id, credentials: c.credentials }, data: { credentials: next } })
      ).count;
  }
  for (const e of await db.webhookEndpoint.findMany({
    where: { OR: [{ secret: stale }, { previousSecret: stale }] },
    select: { id: true, secret: true, previousSecret: true },
  })) {
    const secret = reseal(e.secret, `webhook_endpoint:${e.id}`);
    const previous = e.previousSecret ? reseal(e.previousSecret, `webhook_endpoint:${e.id}`) : null;
    if (!secret && !previous) continue;
    const { count } = await db.webhookEndpoint.updateMany({
      where: { id: e.id, secret: e.secret, previousSecret: e.previousSecret },
      data: { ...(secret && { secret }), ...(previous && { previousSecret: previous }) },
    });
    resealed += count;
  }
  return { resealed, unreadable };
}
