import "server-only";
import { randomToken } from "@/lib/security/ids";
import { sha256Hex } from "@/lib/security/hashing";
import { decryptJson, encryptJson } from "@/lib/security/encryption";

// An auth link's URL carries a token that lets whoever holds it connect an account to the
// team. It is stored as its SHA-256 (looked up by it, as API keys are), and sealed (AES-GCM,
// bound to the link's row) so the link's creator can share a pending link again; the database
// alone yields neither.

export const LINK_TOKEN_PATTERN = /^[0-9A-Za-z]{32}$/;

/** A new token for link `authLinkId`, with what is stored of it. */
export function newLinkToken(authLinkId: string) {
  const token = randomToken(32);
  return { token, tokenHash: sha256Hex(token), tokenSealed: encryptJson(token, `auth_link:${authLinkId}`) };
}

/** The hash a URL's token is looked up by; null for anything that cannot be a token (no query then). */
export const linkTokenHash = (token: string) => (LINK_TOKEN_PATTERN.test(token) ? sha256Hex(token) : null);

/** The token of a stored link, or null for a link created before tokens were sealed. */
export function linkTokenOf(link: { id: string; tokenSealed: string | null }): string | null {
  if (!link.tokenSealed) return null;
  try {
    return decryptJson<string>(link.tokenSealed, `auth_link:${link.id}`);
  } catch {
    return null;
  }
}
