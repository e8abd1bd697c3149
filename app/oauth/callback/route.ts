import type { NextRequest } from "next/server";
import { completeOAuth } from "@/lib/auth-links/complete-oauth";
import { clearedBindingCookie } from "@/lib/auth-links/browser-binding";
import { appUrl } from "@/lib/config/env";
import { logger } from "@/lib/observability/logger";
import { clientIp, requestIdFrom, runWithContext } from "@/lib/observability/request-context";
import { logRequest } from "@/lib/observability/request-log";

/** The one OAuth redirect URI ({APP_URL}/oauth/callback) every provider sends the browser back to. */
export async function GET(req: NextRequest) {
  const requestId = requestIdFrom(req.headers);
  return runWithContext({ requestId, ip: clientIp(req.headers) }, () => complete(req, requestId));
}

async function complete(req: NextRequest, requestId: string) {
  const t0 = performance.now();
  let location: string;
  let attemptId: string | undefined;
  try {
    ({ location, attemptId } = await completeOAuth(req.nextUrl.searchParams, req.headers.get("cookie")));
  } catch (error) {
    // The browser still gets a page that says what to do; the cause goes to the server log.
    logger.error("unhandled error", { route: "/oauth/callback", error });
    location = `${appUrl()}/connect?${new URLSearchParams({ error: "invalid_request", error_description: "Something went wrong on our side while completing the connection. Open the link again to retry." })}`;
  }
  // The query carries the provider's code and state: only their names are logged.
  logRequest({ method: "GET", path: "/oauth/callback", query: req.nextUrl.searchParams, status: 302, startedAt: t0 });
  const headers = new Headers({
    location,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-request-id": requestId,
  });
  // The attempt's binding cookie has done its work.
  if (attemptId) headers.append("set-cookie", clearedBindingCookie(attemptId));
  return new Response(null, { status: 302, headers });
}
