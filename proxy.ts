import { NextResponse, type NextRequest } from "next/server";
import { appUrl, isProductionMode } from "@/lib/config/env";

// Strict-Transport-Security depends on how this instance runs (production mode with an https
// APP_URL), which next.config.mjs headers() cannot see: they are fixed when the app is built.
const hsts = isProductionMode() && appUrl().startsWith("https://") ? "max-age=31536000; includeSubDomains" : null;

// Runs before routing, only for the requests the matcher below selects.
export function proxy(req: NextRequest) {
  // A path whose percent-escapes do not decode (e.g. /v1/logs/%FF, /invite/%ED%A0%80/accept)
  // would otherwise fail inside the router with an HTML 500. Such a segment is taken literally
  // (its `%` escaped), so the route it reaches answers as for any other id: 404 for an id, 405
  // for a method the path does not list, the unknown-path 404 elsewhere, the link's own error
  // for an invite or connect token.
  const path = req.nextUrl.pathname;
  if (path.includes("%")) {
    const literal = path
      .split("/")
      .map((segment) => (decodes(segment) ? segment : segment.replace(/%/g, "%25")))
      .join("/");
    if (literal !== path)
      return withHsts(req, NextResponse.rewrite(new URL(`${literal}${req.nextUrl.search}`, req.url)));
  }
  return withHsts(req, NextResponse.next());
}

function decodes(segment: string) {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function withHsts(req: NextRequest, res: NextResponse) {
  // Browsers only honour HSTS received over https, i.e. behind the TLS-terminating proxy.
  if (hsts && req.headers.get("x-forwarded-proto")?.startsWith("https"))
    res.headers.set("Strict-Transport-Security", hsts);
  return res;
}

// The proxy costs a whole extra pass over the response body (measured: ~1.2 ms on a 60 KB
// page), so it runs only where it has work: paths holding a percent sign (only those can fail
// to decode; the app's own links never have one), and requests that arrived over https through
// a proxy (for HSTS; plain-http deployments, the tests and the benchmarks never pay for it).
export const config = {
  matcher: [
    "/:path(.*%.*)",
    {
      source: "/((?!_next/static|_next/image).*)",
      has: [{ type: "header", key: "x-forwarded-proto", value: "https.*" }],
    },
  ],
};
