import type { NextRequest } from "next/server";
import { readBoundedForm } from "@/lib/http/parse";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { exchangeCode, refreshTokens } from "@/lib/mcp-oauth/tokens";
import { oauthRoute, preflight } from "@/lib/mcp-oauth/oauth-route";

export const dynamic = "force-dynamic";

/** The token endpoint (OAuth 2.1 §3.2): form-encoded, public clients name themselves by client_id. */
export const POST = oauthRoute("/oauth/token", async (req: NextRequest) => {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type))
    throw new OAuthError("invalid_request", "Send the token request as application/x-www-form-urlencoded.");
  const form = await readBoundedForm(req, 16 * 1024);
  // A public client that authenticates as confidential ones do (HTTP Basic, RFC 6749 §2.3.1)
  // still names itself: its client_id is taken from there; a secret proves nothing here.
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
  if (basic && !form.get("client_id")) {
    const id = Buffer.from(basic[1], "base64").toString("utf8").split(":")[0];
    if (id) form.set("client_id", safeDecode(id));
  }
  const grant = form.get("grant_type");
  if (grant === "authorization_code") return exchangeCode(form);
  if (grant === "refresh_token") return refreshTokens(form);
  if (!grant) throw new OAuthError("invalid_request", "grant_type is required.");
  throw new OAuthError(
    "unsupported_grant_type",
    `grant_type ${JSON.stringify(grant)} is not supported; use authorization_code or refresh_token.`,
  );
});
export const OPTIONS = preflight;

/** Basic credentials are form-encoded (RFC 6749 §2.3.1); a malformed escape is taken as it is. */
function safeDecode(value: string) {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}
