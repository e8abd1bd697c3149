import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { oauthRedirectUri, secrets } from "@/lib/config/env";
import { hmac, safeEqual } from "@/lib/security/hashing";
import { readBoundedForm } from "@/lib/http/parse";
import { parseSandboxScope, SANDBOX_SCOPES, type SandboxScope } from "@/lib/platforms/sandbox/sandbox-scopes";

/** Like a real provider's, the sandbox's forms are small: a bigger body is refused unread (413). */
export const SANDBOX_FORM_BYTES = 16 * 1024;

// The sandbox provider's authorize page and its authorization codes. Codes are signed and
// short-lived, and each is redeemed once (remembered by this process: the sandbox is for demos
// and tests, not for several instances).

export const SANDBOX_CLIENT_ID = "sandbox-client";
const CODE_LIFETIME_MS = 10 * 60 * 1000;

type CodeGrant = {
  account: string;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  scope: SandboxScope[];
  exp: number;
  nonce: string;
};

const sign = (payload: string) =>
  hmac(secrets().authSecret, `sandbox-code:${payload}`).subarray(0, 18).toString("base64url");

function issueCode(grant: Omit<CodeGrant, "exp" | "nonce">): string {
  const payload = Buffer.from(
    JSON.stringify({ ...grant, exp: Date.now() + CODE_LIFETIME_MS, nonce: randomBytes(9).toString("base64url") }),
  ).toString("base64url");
  return `sbx_code.${payload}.${sign(payload)}`;
}

const redeemed = new Set<string>();

/** The grant a code stands for, or the RFC 6749 reason it is not valid. */
export function redeemCode(
  code: string,
  clientId: string,
  redirectUri: string | null,
  verifier: string | null,
): CodeGrant | string {
  const [prefix, payload, mac] = code.split(".");
  if (prefix !== "sbx_code" || !payload || !mac || !safeEqual(Buffer.from(mac), Buffer.from(sign(payload))))
    return "authorization code is invalid";
  const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Omit<CodeGrant, "scope"> & {
    scope?: SandboxScope[];
  };
  // A code signed before codes carried their scope stands for the read scope it was asked for then.
  const grant: CodeGrant = { ...parsed, scope: parsed.scope ?? ["sandbox.read"] };
  if (grant.exp < Date.now()) return "authorization code expired";
  if (redeemed.has(grant.nonce)) return "authorization code was already used";
  if (grant.clientId !== clientId) return "authorization code was issued to another client";
  if (redirectUri !== grant.redirectUri) return "redirect_uri does not match the authorization request";
  if (
    grant.challenge !== null &&
    (!verifier || createHash("sha256").update(verifier).digest("base64url") !== grant.challenge)
  ) {
    return "code_verifier does not match code_challenge";
  }
  redeemed.add(grant.nonce);
  return grant;
}

const html = (status: number, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox · Authorize</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f4f5;margin:0;padding:40px 16px;color:#18181b}main{max-width:420px;margin:auto;background:#fff;border:1px solid #e4e4e7;border-radius:16px;padding:28px}
h1{font-size:20px;margin:0 0 8px}p{color:#52525b;line-height:1.5;font-size:14px}label{display:block;font-size:14px;margin:16px 0 4px}input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #d4d4d8;border-radius:8px;font:inherit}
.row{display:flex;gap:8px;margin-top:20px}button{flex:1;padding:10px;border-radius:8px;font:600 14px system-ui;cursor:pointer;border:1px solid #d4d4d8;background:#fff}button[value=approve]{background:#7c3aed;border-color:#7c3aed;color:#fff}
.err{color:#be123c}ul.scopes{padding-left:20px;font-size:14px;line-height:1.6}code{font-size:12px;color:#52525b}</style></head><body><main>${body}</main></body></html>`,
    {
      status,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY" },
    },
  );

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Checks the authorize request as a provider must before it may redirect anywhere. */
function checkRequest(q: URLSearchParams): string | null {
  if (q.get("response_type") !== "code") return "response_type must be code.";
  if (q.get("client_id") !== (process.env.OAUTH_SANDBOX_CLIENT_ID || SANDBOX_CLIENT_ID))
    return "client_id is not a registered client.";
  if (q.get("redirect_uri") !== oauthRedirectUri()) return "redirect_uri is not registered for this client.";
  if (!q.get("state")) return "state is required.";
  if (q.get("code_challenge") && q.get("code_challenge_method") !== "S256")
    return "code_challenge_method must be S256.";
  return null;
}

/**
 * The client's redirect_uri with the error a provider sends back once client and redirect_uri are
 * known good (RFC 6749 §4.1.2.1).
 */
function errorRedirect(q: URLSearchParams, error: string, description: string): Response {
  const target = new URL(q.get("redirect_uri")!);
  target.searchParams.set("state", q.get("state")!);
  target.searchParams.set("error", error);
  target.searchParams.set("error_description", description);
  return new Response(null, { status: 302, headers: { location: target.toString(), "cache-control": "no-store" } });
}

/** The requested scopes, or the redirect that refuses an unknown one. */
function requestedScopes(q: URLSearchParams): SandboxScope[] | Response {
  const scope = parseSandboxScope(q.get("scope"));
  return "unknown" in scope
    ? errorRedirect(q, "invalid_scope", `scope ${scope.unknown} is not a sandbox scope`)
    : scope.scopes;
}

/** GET: the consent page, a form that posts back to this same URL, naming each scope asked for. */
export async function sandboxAuthorizePage(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const problem = checkRequest(q);
  if (problem) return html(400, `<h1>Invalid authorization request</h1><p class="err">${escape(problem)}</p>`);
  const scopes = requestedScopes(q);
  if (scopes instanceof Response) return scopes;
  const lines = scopes.map((s) => `<li>${escape(SANDBOX_SCOPES[s])} <code>${escape(s)}</code></li>`).join("");
  return html(
    200,
    `<h1>Sandbox</h1><p>An app wants to:</p><ul class="scopes">${lines}</ul>
<form method="post"><label for="account">Account</label><input id="account" name="account" value="${escape(q.get("account") || "sandbox-user")}">
<div class="row"><button type="submit" name="decision" value="deny">Deny</button><button type="submit" name="decision" value="approve">Approve</button></div></form>`,
  );
}

/** POST: the user's decision; redirects to the app's callback with a code or error=access_denied. */
export async function sandboxAuthorizeDecision(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const problem = checkRequest(q);
  if (problem) return html(400, `<h1>Invalid authorization request</h1><p class="err">${escape(problem)}</p>`);
  const scopes = requestedScopes(q);
  if (scopes instanceof Response) return scopes;
  const form = await readBoundedForm(req, SANDBOX_FORM_BYTES);
  const target = new URL(q.get("redirect_uri")!);
  target.searchParams.set("state", q.get("state")!);
  if (form.get("decision") !== "approve") {
    target.searchParams.set("error", "access_denied");
    target.searchParams.set("error_description", "The user denied the request.");
  } else {
    const account = (form.get("account") || "sandbox-user").trim().slice(0, 64) || "sandbox-user";
    target.searchParams.set(
      "code",
      issueCode({
        account: `acct_${account}`,
        clientId: q.get("client_id")!,
        redirectUri: q.get("redirect_uri")!,
        challenge: q.get("code_challenge"),
        scope: scopes,
      }),
    );
  }
  return new Response(null, { status: 302, headers: { location: target.toString(), "cache-control": "no-store" } });
}
