import "server-only";
import { createHash } from "node:crypto";
import { redeemCode, SANDBOX_CLIENT_ID } from "@/lib/providers/sandbox/sandbox-authorize";

// Server side of the sandbox provider (mounted under /sandbox). It behaves like a real OAuth
// provider's token and identity endpoints: any value is accepted except one beginning with
// "bad", which is rejected with a reason text naming the field.

const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { "cache-control": "no-store" } });

const digest = (v: string) => createHash("sha256").update(v).digest("base64url");

/** Access tokens name the account and whether the grant had the read scope. */
function issueAccessToken(account: string, scoped: boolean) {
  return `sbx_at.${Buffer.from(JSON.stringify({ account, scoped })).toString("base64url")}`;
}

function readAccessToken(token: string): { account: string; scoped: boolean } | null {
  if (!token.startsWith("sbx_at.")) return null;
  try {
    return JSON.parse(Buffer.from(token.slice("sbx_at.".length), "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

export async function sandboxToken(req: Request): Promise<Response> {
  const form = new URLSearchParams(await req.text());
  const grant = form.get("grant_type");
  const clientId = form.get("client_id") ?? "";
  const clientSecret = form.get("client_secret") ?? "";
  if (!clientId || clientId.startsWith("bad")) return oauthError(401, "invalid_client", "client_id is not a registered client");
  if (!clientSecret || clientSecret.startsWith("bad")) return oauthError(401, "invalid_client", "client_secret does not match client_id");
  if (grant === "authorization_code") {
    // Codes come only from the sandbox's own authorize page, for its own OAuth app.
    if (clientId !== (process.env.OAUTH_SANDBOX_CLIENT_ID || SANDBOX_CLIENT_ID)) return oauthError(401, "invalid_client", "client_id is not the sandbox app");
    const redeemed = redeemCode(form.get("code") ?? "", clientId, form.get("redirect_uri"), form.get("code_verifier"));
    if (typeof redeemed === "string") return oauthError(400, "invalid_grant", redeemed);
    return Response.json({
      access_token: issueAccessToken(redeemed.account, true),
      refresh_token: `sbx_rt.${redeemed.account}`,
      token_type: "Bearer",
      expires_in: 3600,
      scope: "sandbox.read",
    });
  }
  if (grant === "refresh_token") {
    const refresh = form.get("refresh_token") ?? "";
    if (!refresh) return oauthError(400, "invalid_request", "refresh_token is required");
    const scoped = !refresh.startsWith("bad_scope");
    if (refresh.startsWith("bad") && scoped) return oauthError(400, "invalid_grant", "refresh_token expired");
    // Refresh tokens the sandbox issued name their account; any other is a white-label test value.
    const account = refresh.startsWith("sbx_rt.") ? refresh.slice("sbx_rt.".length) : `acct_${digest(refresh).slice(0, 12)}`;
    return Response.json({ access_token: issueAccessToken(account, scoped), token_type: "Bearer", expires_in: 3600 });
  }
  return oauthError(400, "unsupported_grant_type", `grant_type ${grant ?? "(missing)"} is not supported`);
}

export async function sandboxMe(req: Request): Promise<Response> {
  const apiKey = req.headers.get("x-api-key");
  if (apiKey !== null) {
    if (!apiKey || apiKey.startsWith("bad")) return oauthError(401, "invalid_api_key", "api_key is not valid");
    return Response.json({ id: `acct_${digest(apiKey).slice(0, 12)}`, name: "Sandbox API-key account" });
  }
  const bearer = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
  const token = bearer ? readAccessToken(bearer) : null;
  if (!token) return oauthError(401, "invalid_token", "access token is missing or invalid");
  if (!token.scoped) return oauthError(403, "insufficient_scope", "refresh_token lacks the scope sandbox.read");
  return Response.json({ id: token.account, name: "Sandbox account" });
}
