import "server-only";
import { secrets } from "@/lib/config/env";
import { hmac, safeEqual } from "@/lib/security/hashing";

// The OAuth `state`: the attempt's id and a MAC binding it to its auth link, so a state can
// be neither forged nor moved to another link. Single use is the attempt row's usedAt.

const mac = (attemptId: string, authLinkId: string) =>
  hmac(secrets().authSecret, `oauth-state:${attemptId}:${authLinkId}`).subarray(0, 18);

export function signState(attemptId: string, authLinkId: string): string {
  return `${attemptId}.${mac(attemptId, authLinkId).toString("base64url")}`;
}

/** The attempt id a state names, before its MAC can be checked against the attempt's link. */
export function attemptIdOf(state: string): string | null {
  const m = /^(oa_[0-9A-Za-z]{20})\.([A-Za-z0-9_-]{24})$/.exec(state);
  return m ? m[1] : null;
}

export function stateMatches(state: string, attemptId: string, authLinkId: string): boolean {
  const given = Buffer.from(state.slice(state.indexOf(".") + 1), "base64url");
  return safeEqual(given, mac(attemptId, authLinkId));
}
