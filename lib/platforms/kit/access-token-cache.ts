import "server-only";
import { createHash } from "node:crypto";
import type { TokenSet } from "@/lib/platforms/kit/types";

// White-label connections store a refresh token, not an access token: every read would first
// trade it at the provider's token endpoint, doubling the calls (and providers rate-limit that
// endpoint). The access tokens it returns are kept here, per process, until shortly before they
// expire. Keyed by a hash of the type, client and refresh token, so no secret is a map key.

const MARGIN_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 1000;
const tokens = new Map<string, { accessToken: string; expiresAt: number }>();
const pending = new Map<string, Promise<TokenSet>>();

export async function cachedAccessToken(
  parts: string[],
  grant: () => Promise<TokenSet>,
  now = Date.now(),
): Promise<string> {
  const key = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  const hit = tokens.get(key);
  if (hit && hit.expiresAt - MARGIN_MS > now) return hit.accessToken;
  // Concurrent reads of one connection share a single grant.
  let inFlight = pending.get(key);
  if (!inFlight) {
    inFlight = grant().finally(() => pending.delete(key));
    pending.set(key, inFlight);
  }
  const set = await inFlight;
  if (set.expiresAt) {
    tokens.delete(key);
    tokens.set(key, { accessToken: set.accessToken, expiresAt: set.expiresAt });
    while (tokens.size > MAX_ENTRIES) tokens.delete(tokens.keys().next().value!);
  }
  return set.accessToken;
}
