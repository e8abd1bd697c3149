/**
 * Spec §4.6: the caller's redirect_url with result parameters appended. The caller's own query
 * is kept byte for byte (not re-encoded) and its fragment stays last; an appended name the URL
 * already carries gets the `service_` prefix. Undefined or null values are left out.
 */
export function resultRedirectUrl(redirectUrl: string, params: Record<string, string | null | undefined>): string {
  const hashAt = redirectUrl.indexOf("#");
  const base = hashAt === -1 ? redirectUrl : redirectUrl.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : redirectUrl.slice(hashAt);
  const taken = new Set(new URL(base).searchParams.keys());
  const appended = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== null)
    .map(
      ([name, value]) =>
        `${encodeURIComponent(taken.has(name) ? `service_${name}` : name)}=${encodeURIComponent(value)}`,
    )
    .join("&");
  if (!appended) return redirectUrl;
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}${appended}${hash}`;
}
