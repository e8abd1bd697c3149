import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db/client";

// The sandbox provider's own record of revoked grants (CONTRACT §4 `sandbox revoke`), kept in
// the app's database because the sandbox lives inside the app: every instance and the CLI see
// the same revocations. A grant is one authorization: the refresh token it issued (or, for a
// white-label connection, the refresh token the caller brought) and the access tokens minted
// from it, which carry the grant's id.

/** A grant's id: a digest of its refresh token, so no token is stored here. */
export const grantOf = (refreshToken: string) =>
  createHash("sha256").update(`sandbox-grant:${refreshToken}`).digest("base64url").slice(0, 32);

/**
 * A new refresh token for `account` and the scopes granted: `sbx_rt.<account>.<nonce>.<scopes>`,
 * one grant per authorization; a refresh keeps the grant's scopes, as at a real provider.
 */
export const issueRefreshToken = (account: string, scope: readonly string[]) =>
  `sbx_rt.${Buffer.from(account).toString("base64url")}.${randomBytes(9).toString("base64url")}.${Buffer.from(scope.join(" ")).toString("base64url")}`;

/**
 * The account and scopes a refresh token the sandbox issued names; null for a caller's own. The
 * older forms (`sbx_rt.<account>.<nonce>`, `sbx_rt.<account>`) come from grants that asked for
 * sandbox.read only.
 */
export function grantOfRefreshToken(token: string): { account: string; scope: string[] } | null {
  if (!token.startsWith("sbx_rt.")) return null;
  const parts = token.slice("sbx_rt.".length).split(".");
  if (parts.length < 2) return { account: token.slice("sbx_rt.".length), scope: ["sandbox.read"] };
  const scope = parts[2]
    ? Buffer.from(parts[2], "base64url").toString("utf8").split(" ").filter(Boolean)
    : ["sandbox.read"];
  return { account: Buffer.from(parts[0], "base64url").toString("utf8"), scope };
}

export async function isRevoked(grant: string | undefined): Promise<boolean> {
  if (!grant) return false;
  return (await db.sandboxRevokedGrant.count({ where: { grant } })) > 0;
}

/** Revokes the grant behind a refresh token: it and every access token minted from it stop working. */
export async function revokeGrant(refreshToken: string): Promise<void> {
  const grant = grantOf(refreshToken);
  await db.sandboxRevokedGrant.upsert({ where: { grant }, create: { grant }, update: {} });
}
