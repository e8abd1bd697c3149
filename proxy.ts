import { NextResponse, type NextRequest } from "next/server";

// Runs before routing. An API path (/v1, /mcp, /api/dashboard) whose percent-escapes do not decode (e.g. /v1/logs/%FF) would
// otherwise fail inside the router with an HTML 500; the API answers it with a JSON 400.
export function proxy(req: NextRequest) {
  try {
    decodeURIComponent(req.nextUrl.pathname);
  } catch {
    return NextResponse.json({ detail: "The path has an invalid percent-escape (it does not decode as UTF-8)." }, { status: 400 });
  }
  return NextResponse.next();
}

// Only paths holding a percent sign can fail to decode; every other request skips the proxy,
// which costs a whole extra pass over the response body (measured: ~1.2 ms on a 60 KB page).
export const config = { matcher: ["/v1/:path(.*%.*)", "/mcp/:path(.*%.*)", "/api/dashboard/:path(.*%.*)"] };
