import "server-only";
import { appUrl } from "@/lib/config/env";
import { randomToken } from "@/lib/security/ids";
import { sha256Hex, safeEqual } from "@/lib/security/hashing";

// The OAuth `state` proves a callback belongs to an attempt; this cookie proves it arrives in
// the browser that pressed Continue. Without it, someone could start the flow for their own
// link and hand the provider's URL to a victim, whose account would land in their team.
// One cookie per attempt (two tabs do not overwrite each other), sent only to the callback:
// SameSite=Lax (the provider's redirect back is a top-level GET, which Lax cookies go with),
// HttpOnly, and Secure when the app is served over https.

const COOKIE_PREFIX = "patchbay_oauth_";
const CALLBACK_PATH = "/oauth/callback";
/** Long enough for a provider's sign-in with two-factor prompts, short enough to leave nothing behind. */
export const ATTEMPT_LIFETIME_SECONDS = 30 * 60;

const cookieName = (attemptId: string) => `${COOKIE_PREFIX}${attemptId}`;
const secure = () => (appUrl().startsWith("https://") ? "; Secure" : "");

/** A fresh binding for an attempt: the value for the browser's cookie, and the hash to store with the attempt. */
export function newBrowserBinding() {
  const value = randomToken(32);
  return { value, hash: sha256Hex(value) };
}

export const bindingCookie = (attemptId: string, value: string) =>
  `${cookieName(attemptId)}=${value}; Path=${CALLBACK_PATH}; Max-Age=${ATTEMPT_LIFETIME_SECONDS}; HttpOnly; SameSite=Lax${secure()}`;

export const clearedBindingCookie = (attemptId: string) =>
  `${cookieName(attemptId)}=; Path=${CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure()}`;

/** True when the request's cookie for this attempt matches the stored hash. */
export function browserMatches(cookieHeader: string | null, attemptId: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const name = cookieName(attemptId);
  const value = (cookieHeader ?? "")
    .split(";")
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  return !!value && safeEqual(Buffer.from(sha256Hex(value), "hex"), Buffer.from(storedHash, "hex"));
}
