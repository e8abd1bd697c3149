import "server-only";
import {
  providerFetch,
  providerReason,
  type HostedType,
  type ProviderResponse,
} from "@/lib/platforms/kit/provider-fetch";
import { ProviderRejection, ProviderUnavailable, type OAuthClient, type TokenSet } from "@/lib/platforms/kit/types";

// Helpers for providers that follow RFC 6749 closely; providers that do not (TikTok, Slack,
// Shopify) write their own token calls and still use tokenSetFrom/urlWith where they fit.

/** `base` with the given query parameters appended (undefined values left out). */
export function urlWith(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** A TokenSet from an RFC 6749 §5.1 token response body. */
export function tokenSetFrom(body: Record<string, unknown>, extra?: Record<string, unknown>): TokenSet {
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: String(body.access_token),
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : null,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
    scope: typeof body.scope === "string" ? body.scope : null,
    ...(extra && { extra }),
  };
}

/**
 * Provider 4xx = the provider refused (a 400 to our caller, with its reason); anything else
 * unusable = unavailable (502).
 */
function rejectOrUnavailable(providerName: string, res: ProviderResponse, what: string): never {
  // 429 is the provider's rate limit, not a verdict on the credentials.
  if (res.status >= 400 && res.status < 500 && res.status !== 429)
    throw new ProviderRejection(providerName, providerReason(res));
  throw new ProviderUnavailable(
    providerName,
    `${providerName} ${what} answered ${providerReason(res).replace(/[.]+$/, "")}.`,
  );
}

/**
 * One RFC 6749 token request (authorization_code or refresh_token grant), form-encoded, with
 * the client authenticated in the body (`client_secret_post`) or by HTTP Basic.
 */
export async function requestToken(
  providerName: string,
  hosted: HostedType,
  tokenUrl: string,
  client: OAuthClient,
  params: Record<string, string | undefined>,
  clientAuth: "body" | "basic" = "body",
): Promise<TokenSet> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, v);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (clientAuth === "basic") {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64")}`;
  } else {
    form.set("client_id", client.clientId);
    form.set("client_secret", client.clientSecret);
  }
  const res = await providerFetch(providerName, hosted, tokenUrl, { method: "POST", headers, body: form });
  const body = res.body as Record<string, unknown> | null;
  if (res.status !== 200 || typeof body?.access_token !== "string")
    rejectOrUnavailable(providerName, res, "token endpoint");
  return tokenSetFrom(body);
}

/**
 * The authorization code a provider's callback carries (`code`, or TikTok's `auth_code`); a
 * callback without one carries the provider's error instead, which becomes the rejection.
 */
export function callbackCode(providerName: string, callback: URLSearchParams, names: string[] = ["code"]): string {
  for (const name of names) {
    const code = callback.get(name);
    if (code) return code;
  }
  const error = callback.get("error");
  throw new ProviderRejection(
    providerName,
    error
      ? [error, callback.get("error_description")].filter(Boolean).join(": ")
      : `the callback carried no ${names[0]}`,
  );
}
