import type { NextRequest } from "next/server";
import { json } from "@/lib/http/json";
import { readBoundedText } from "@/lib/http/parse";
import { clientIp } from "@/lib/observability/request-context";
import { enforceRateLimit } from "@/lib/rate-limit/hit-rate-limit";
import { rateLimits } from "@/lib/rate-limit/limits";
import { OAUTH_CORS } from "@/lib/mcp-oauth/metadata";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { registerClient } from "@/lib/mcp-oauth/clients";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

const MAX_BYTES = 16 * 1024;

/** RFC 7591 Dynamic Client Registration, for MCP clients without a metadata document. */
export const POST = oauthRoute("/oauth/register", async (req: NextRequest) => {
  const ip = clientIp(req.headers);
  const limit = await enforceRateLimit(rateLimits().oauthRegister, ip ?? "unknown");
  let body: unknown;
  try {
    body = JSON.parse(await readBoundedText(req, MAX_BYTES));
  } catch (e) {
    if (e instanceof SyntaxError) throw new OAuthError("invalid_client_metadata", "The body must be JSON.");
    throw e;
  }
  const registered = await registerClient(body, ip);
  return json(registered, { status: 201, headers: { ...OAUTH_CORS, ...limit } });
});
export const OPTIONS = preflight;
