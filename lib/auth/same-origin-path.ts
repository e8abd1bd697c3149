// Where a browser may be sent after signing in: only a path of this app. The check runs on the
// URL as the browser will read it (the WHATWG parser drops tabs and newlines and reads "\" as
// "/"), so "/%09/evil.example" or "/\evil.example" cannot become "//evil.example", which a
// browser takes for another site. Anything else becomes "/".

const BASE = "http://patchbay.invalid";

export function sameOriginPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  // "/.//evil.example" parses to the path "//evil.example": as a Location that is another host.
  const path = `${url.pathname.replace(/^\/+/, "/")}${url.search}${url.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}
