import type { NextRequest } from "next/server";
import { readBoundedForm } from "@/lib/http/parse";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { revokeByToken } from "@/lib/mcp-oauth/tokens";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** RFC 7009: revoking an access or refresh token ends its grant; an unknown token is answered 200 too. */
export const POST = oauthRoute("/oauth/revoke", async (req: NextRequest) => {
  const form = await readBoundedForm(req, 16 * 1024);
  const token = form.get("token");
  if (!token) throw new OAuthError("invalid_request", "token is required.");
  await revokeByToken(token);
  return {};
});
export const OPTIONS = preflight;
