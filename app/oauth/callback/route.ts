import type { NextRequest } from "next/server";
import { completeOAuth } from "@/lib/auth-links/complete-oauth";

/** The one OAuth redirect URI ({APP_URL}/oauth/callback) every provider sends the browser back to. */
export async function GET(req: NextRequest) {
  const location = await completeOAuth(req.nextUrl.searchParams);
  return new Response(null, { status: 302, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}
