import "server-only";
import { db } from "@/lib/db/client";
import { unauthorized } from "@/lib/api/errors";
import { sha256Hex } from "@/lib/security/hashing";
import { API_KEY_PATTERN } from "@/lib/api-keys/api-key-format";

export type Principal = {
  team: { id: string; name: string; plan: string };
  user: { id: string; email: string };
  apiKeyId: string;
};

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves `Authorization: Bearer <key>` to the key's team and creating user. The key is
 * looked up by its SHA-256 through a unique index, so the comparison never runs over the
 * secret itself (no timing signal about how much of a guess matched).
 */
export async function authenticateApiKey(authorization: string | null): Promise<Principal> {
  if (!authorization) throw unauthorized("Missing Authorization header; send `Authorization: Bearer <API key>`.");
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("Malformed Authorization header; expected `Bearer <API key>`.");
  const key = match[1];
  if (!API_KEY_PATTERN.test(key)) throw unauthorized("Invalid API key.");
  const row = await db.apiKey.findUnique({
    where: { hash: sha256Hex(key) },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      team: { select: { id: true, name: true, plan: true } },
      createdBy: { select: { id: true, email: true } },
    },
  });
  if (!row) throw unauthorized("Invalid API key.");
  if (row.revokedAt) throw unauthorized("This API key was revoked.");
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Recorded at minute resolution so reads do not turn into a write per request.
    void db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { team: row.team, user: row.createdBy, apiKeyId: row.id };
}
