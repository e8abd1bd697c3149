import "server-only";
import { issuer, mcpResource } from "@/lib/mcp-oauth/metadata";
import { OAuthError } from "@/lib/mcp-oauth/oauth-error";
import { resolveClient, type OAuthClientInfo } from "@/lib/mcp-oauth/clients";
import { matchesRegistered } from "@/lib/mcp-oauth/redirect-uris";

// An authorization request (OAuth 2.1 §4.1.1 with PKCE, RFC 8707's `resource`), checked in the
// order that decides where an error may go: until the client and its redirect URI are known
// good, an error is shown on our own page (never sent to an unchecked address); after that it
// goes back to the client with `state` and `iss` (RFC 9207) — but only for a person who is
// signed in. A signed-out visitor sees it on our page: anyone can register a client whose
// redirect URI is any site, and an authorization endpoint that sends a visitor straight there
// is an open redirector under Patchbay's name (RFC 9700 §4.11.2).

export type AuthorizeRequest = {
  client: OAuthClientInfo;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
};

export type CheckedAuthorize =
  | { kind: "ok"; request: AuthorizeRequest }
  | { kind: "page"; title: string; message: string }
  | { kind: "redirect"; location: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 2000;

/** `redirect_uri` with the response parameters added to its query, `iss` always. */
export function responseRedirect(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuer() })) if (v != null) url.searchParams.append(k, v);
  return url.toString();
}

/**
 * `signedIn`: whether a person is signed in (only then may an error go back to the client);
 * `ip`: the address asking, which client metadata document fetches are counted against.
 */
export async function checkAuthorizeRequest(
  q: URLSearchParams,
  { signedIn = false, ip = null }: { signedIn?: boolean; ip?: string | null } = {},
): Promise<CheckedAuthorize> {
  const one = (name: string) => q.get(name) ?? "";
  const clientId = one("client_id");
  if (!clientId)
    return { kind: "page", title: "This sign-in link is incomplete", message: "It names no client (client_id)." };
  let client: OAuthClientInfo;
  try {
    client = await resolveClient(clientId, ip);
  } catch (e) {
    if (!(e instanceof OAuthError)) throw e;
    const busy = e.code === "temporarily_unavailable";
    return {
      kind: "page",
      title: busy ? "Too many apps asked at once" : "This app is not known here",
      message: e.description,
    };
  }
  const asked = q.get("redirect_uri");
  let redirectUri: string;
  if (asked === null || asked === "") {
    if (client.redirectUris.length !== 1)
      return { kind: "page", title: "This sign-in link is incomplete", message: "It names no redirect_uri." };
    redirectUri = client.redirectUris[0];
  } else if (matchesRegistered(asked, client.redirectUris)) {
    redirectUri = asked;
  } else {
    return {
      kind: "page",
      title: "This app's return address is not registered",
      message: `${client.name} asked to send you back to ${asked}, which is not one of the addresses it registered. Nothing was shared.`,
    };
  }
  const state = q.get("state");
  const back = (error: string, description: string): CheckedAuthorize =>
    signedIn
      ? { kind: "redirect", location: responseRedirect(redirectUri, { error, error_description: description, state }) }
      : { kind: "page", title: "This sign-in link is not valid", message: `${description} (${error})` };
  if (state !== null && state.length > MAX_STATE) return back("invalid_request", `state is longer than ${MAX_STATE}.`);
  if (one("response_type") !== "code")
    return back("unsupported_response_type", 'response_type must be "code" (authorization code with PKCE).');
  const challenge = one("code_challenge");
  const method = one("code_challenge_method");
  if (!challenge) return back("invalid_request", "code_challenge is required (PKCE with S256).");
  if (method !== "S256")
    return back("invalid_request", `code_challenge_method must be S256${method ? `, not ${method}` : ""}.`);
  if (!CHALLENGE.test(challenge))
    return back("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters).");
  const resources = q.getAll("resource");
  if (resources.length > 1) return back("invalid_target", "Name one resource.");
  const resource = resources[0] ?? mcpResource();
  if (resource !== mcpResource())
    return back("invalid_target", `This server issues tokens for ${mcpResource()} only, not ${resource}.`);
  return { kind: "ok", request: { client, redirectUri, state, codeChallenge: challenge, resource } };
}

/** The request's parameters, to carry through sign-in and the consent form unchanged. */
export function authorizeQuery(r: AuthorizeRequest): URLSearchParams {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: r.client.id,
    redirect_uri: r.redirectUri,
    code_challenge: r.codeChallenge,
    code_challenge_method: "S256",
    resource: r.resource,
  });
  if (r.state !== null) q.set("state", r.state);
  return q;
}
