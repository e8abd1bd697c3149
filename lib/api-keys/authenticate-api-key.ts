import "server-only";
import { db, dbEngine } from "@/lib/db/client";
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
 * The SHA-256 of the key in `Authorization: Bearer <key>`, after its shape is checked (401s for
 * a missing, malformed or impossible key). Keys are looked up by this hash through a unique
 * index, so the comparison never runs over the secret itself (no timing signal about how much
 * of a guess matched).
 */
export function apiKeyHash(authorization: string | null): string {
  if (!authorization) throw unauthorized("Missing Authorization header; send `Authorization: Bearer <API key>`.");
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized("Malformed Authorization header; expected `Bearer <API key>`.");
  const key = match[1];
  if (!API_KEY_PATTERN.test(key)) throw unauthorized("Invalid API key.");
  return sha256Hex(key);
}

/** Resolves `Authorization: Bearer <key>` to the key's team and creating user (one indexed join). */
export const authenticateApiKey = (authorization: string | null) => confirmApiKey(apiKeyHash(authorization));

/**
 * The key with this hash, read from the database now: refused (401) when it does not exist or
 * was revoked, else its team and creating user. This one statement runs on every request,
 * whatever this process remembers (`lastConfirmed`).
 */
export async function confirmApiKey(hash: string): Promise<Principal> {
  const [row] = await findKey({ hash });
  if (!row || row.revokedAt !== null) {
    confirmed.delete(hash);
    throw unauthorized(row ? "This API key was revoked." : "Invalid API key.");
  }
  const now = Date.now();
  const lastUsed = row.lastUsedAt ?? 0;
  if (!(now - lastUsed <= LAST_USED_RESOLUTION_MS)) {
    // Recorded at minute resolution so reads do not turn into a write per request.
    void db.apiKey.update({ where: { id: row.keyId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  const principal: Principal = {
    team: { id: row.teamId, name: row.teamName, plan: row.plan, historyDays: row.historyDays },
    user: { id: row.userId, email: row.email },
    apiKeyId: row.keyId,
    role: null,
  };
  if (REMEMBER) remember(hash, principal);
  return principal;
}

/**
 * What `confirmApiKey` last answered in this process for this key hash, on PostgreSQL; never
 * an authorization by itself. A read-only handler may start with it while `confirmApiKey` runs
 * on another pool connection, so that the request costs one round trip of latency instead of
 * two; its answer is released only if the confirmation gives the same principal
 * (lib/api/with-auth.ts). On SQLite a read is a call into this process, not a round trip: there
 * is nothing to overlap, and nothing is remembered.
 */
export const lastConfirmed = (hash: string): Principal | undefined => confirmed.get(hash);

/** Same team (with its name, plan and history), same user, same key, same role. */
export const samePrincipal = (a: Principal, b: Principal) =>
  a.apiKeyId === b.apiKeyId &&
  a.role === b.role &&
  a.user.id === b.user.id &&
  a.user.email === b.user.email &&
  a.team.id === b.team.id &&
  a.team.name === b.team.name &&
  a.team.plan === b.team.plan &&
  a.team.historyDays === b.team.historyDays;

const REMEMBER = dbEngine() === "postgresql";
const MAX_REMEMBERED = 10_000;
const confirmed = new Map<string, Principal>();

function remember(hash: string, principal: Principal) {
  const known = confirmed.get(hash);
  if (known && samePrincipal(known, principal)) return;
  // Bounded: past the limit the oldest entry goes (a key used again is simply confirmed sequentially once).
  if (!known && confirmed.size >= MAX_REMEMBERED) confirmed.delete(confirmed.keys().next().value!);
  confirmed.set(hash, principal);
}
