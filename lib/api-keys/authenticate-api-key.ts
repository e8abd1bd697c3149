import "server-only";
import { db } from "@/lib/db/client";
import { prepared, read } from "@/lib/db/read";
import { unauthorized } from "@/lib/errors/api-error";
import { sha256Hex } from "@/lib/security/hashing";
import { API_KEY_PATTERN } from "@/lib/api-keys/api-key-format";

/** Who is calling: through an API key (integrators) or a signed-in session (the dashboard). */
export type Principal = {
  team: { id: string; name: string; plan: string; historyDays: number | null };
  user: { id: string; email: string };
  /** Set for API-key requests. */
  apiKeyId: string | null;
  /** The user's role in the team, for session requests (owner-only settings); null for API keys. */
  role: "owner" | "member" | null;
};

const LAST_USED_RESOLUTION_MS = 60_000;

const findKey = prepared((a: { hash: string }) =>
  read
    .selectFrom("ApiKey as k")
    .innerJoin("Team as t", "t.id", "k.teamId")
    .innerJoin("User as u", "u.id", "k.createdByUserId")
    .select([
      "k.id as keyId",
      "k.revokedAt",
      "k.lastUsedAt",
      "t.id as teamId",
      "t.name as teamName",
      "t.plan",
      "t.historyDays",
      "u.id as userId",
      "u.email",
    ])
    .where("k.hash", "=", a.hash),
);

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
  // One indexed join, on every request.
  const [row] = await findKey({ hash: sha256Hex(key) });
  if (!row) throw unauthorized("Invalid API key.");
  if (row.revokedAt !== null) throw unauthorized("This API key was revoked.");
  const now = Date.now();
  const lastUsed = row.lastUsedAt ?? 0;
  if (!(now - lastUsed <= LAST_USED_RESOLUTION_MS)) {
    // Recorded at minute resolution so reads do not turn into a write per request.
    void db.apiKey.update({ where: { id: row.keyId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return {
    team: { id: row.teamId, name: row.teamName, plan: row.plan, historyDays: row.historyDays },
    user: { id: row.userId, email: row.email },
    apiKeyId: row.keyId,
    role: null,
  };
}
