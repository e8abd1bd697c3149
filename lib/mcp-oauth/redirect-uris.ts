import { isIP } from "node:net";

// Redirect URIs a client may register (OAuth 2.1 §2.3.1 and RFC 8252 for native apps): https;
// http only to a loopback IP literal or localhost; a native app's private-use scheme
// (cursor://…, vscode://…). Never a fragment, credentials, or a scheme that runs code.

const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);
const LOOPBACK_LITERALS = new Set(["127.0.0.1", "[::1]"]);
export const MAX_REDIRECT_URIS = 10;

/** Why `raw` cannot be a redirect URI, or null when it can. */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== "string" || !raw) return "must be a non-empty string";
  if (raw.length > 2000) return "is longer than 2000 characters";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URI";
  }
  if (url.hash || raw.includes("#")) return "must not contain a #fragment";
  if (url.username || url.password) return "must not contain a user name or password";
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `must not use the ${url.protocol} scheme`;
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return "must use https (http only for a loopback address such as http://127.0.0.1:port/…)";
  return null;
}

const isLoopbackHost = (host: string) =>
  LOOPBACK_LITERALS.has(host) || host === "localhost" || (isIP(host) === 4 && host.startsWith("127."));

/**
 * Does the `requested` redirect URI match one registered? Exactly, character for character,
 * except that a loopback IP literal's port may differ (RFC 8252 §7.3: a native app listens on
 * whatever port the system gives it at that moment).
 */
export function matchesRegistered(requested: string, registered: string[]): boolean {
  if (registered.includes(requested)) return true;
  let want: URL;
  try {
    want = new URL(requested);
  } catch {
    return false;
  }
  if (want.protocol !== "http:" || !LOOPBACK_LITERALS.has(want.hostname)) return false;
  return registered.some((r) => {
    try {
      const have = new URL(r);
      return (
        have.protocol === "http:" &&
        have.hostname === want.hostname &&
        have.pathname === want.pathname &&
        have.search === want.search
      );
    } catch {
      return false;
    }
  });
}
