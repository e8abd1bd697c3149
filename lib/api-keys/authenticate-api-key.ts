import "server-only";
import { db, driverRead } from "@/lib/db/client";
import { unauthorized } from "@/lib/api/errors";
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

const KEY_LOOKUP = `
  SELECT k."id" AS "keyId", k."revokedAt" AS "revokedAt", k."lastUsedAt" AS "lastUsedAt",
         t."id" AS "teamId", t."name" AS "teamName", t."plan" AS "plan", t."historyDays" AS "historyDays",
         u."id" AS "userId", u."email" AS "email"
  FROM "ApiKey" k JOIN "Team" t ON t."id" = k."teamId" JOIN "User" u ON u."id" = k."createdByUserId"
  WHERE k."hash" = $1`;

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
  // One join through the driver: this runs on every request.
  const rows = await driverRead<KeyRow>(KEY_LOOKUP, [sha256Hex(key)]);
  const row = rows[0];
  if (!row) throw unauthorized("Invalid API key.");
  if (row.revokedAt !== null) throw unauthorized("This API key was revoked.");
  const now = Date.now();
  const lastUsed = row.lastUsedAt === null ? 0 : new Date(row.lastUsedAt).getTime();
  if (!(now - lastUsed <= LAST_USED_RESOLUTION_MS)) {
    // Recorded at minute resolution so reads do not turn into a write per request.
    void db.apiKey.update({ where: { id: row.keyId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return {
    team: { id: row.teamId, name: row.teamName, plan: row.plan, historyDays: row.historyDays === null ? null : Number(row.historyDays) },
    user: { id: row.userId, email: row.email },
    apiKeyId: row.keyId,
    role: null,
  };
}

type KeyRow = {
  keyId: string;
  revokedAt: unknown;
  lastUsedAt: string | number | Date | null;
  teamId: string;
  teamName: string;
  plan: string;
  historyDays: number | bigint | null;
  userId: string;
  email: string;
};
