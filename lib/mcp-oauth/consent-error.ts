import "server-only";
import { secrets } from "@/lib/config/env";
import { hmac, safeEqual } from "@/lib/security/hashing";
import type { AuthorizeRequest } from "@/lib/mcp-oauth/authorize-request";

// Why a choice on the consent page was refused travels back to the page in its URL
// (`consent_error`), with `consent_error_sig`: an HMAC (AUTH_SECRET) over the sentence, the
// request's client, redirect URI and state, the person, and an expiry minutes away. The page shows
// only a sentence whose signature holds, so a link cannot put its own words on Patchbay's screen.

const TTL_S = 5 * 60;

const mac = (r: AuthorizeRequest, userId: string, expires: number, message: string) =>
  hmac(
    secrets().authSecret,
    ["consent-error", r.client.id, r.redirectUri, r.state ?? "", userId, String(expires), message].join("\n"),
  ).subarray(0, 24);

/** The query parameters that carry `message` back to the consent page of `r`, for `userId`. */
export function signConsentError(r: AuthorizeRequest, userId: string, message: string): Record<string, string> {
  const expires = Math.floor(Date.now() / 1000) + TTL_S;
  return {
    consent_error: message,
    consent_error_sig: `${expires}.${mac(r, userId, expires, message).toString("base64url")}`,
  };
}

/** The refusal to show on the consent page of `r`: the URL's, when Patchbay signed it for this request and person. */
export function readConsentError(r: AuthorizeRequest, userId: string, q: URLSearchParams): string | null {
  const message = q.get("consent_error");
  const [expiresText, sig, ...rest] = (q.get("consent_error_sig") ?? "").split(".");
  if (!message || !sig || rest.length || !/^\d{1,12}$/.test(expiresText)) return null;
  const expires = Number(expiresText);
  if (expires < Date.now() / 1000) return null;
  return safeEqual(Buffer.from(sig, "base64url"), mac(r, userId, expires, message)) ? message : null;
}
