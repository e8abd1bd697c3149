import "server-only";
import {
  hostedType,
  providerFetch,
  providerReason,
  rateLimitReason,
  rejection,
  type ProviderResponse,
} from "@/lib/platforms/kit/provider-fetch";
import { callbackCode, requestToken, urlWith } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type FreshCredentials,
  type OAuthDefinition,
  type OAuthScope,
} from "@/lib/platforms/kit/types";
import { pinterestDocs } from "@/lib/platforms/pinterest/pinterest-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(pinterestTypes, type);

// Pinterest Ads through Pinterest API v5 and Patchbay's Pinterest app (PINTEREST). RFC 6749
// authorization code: the authorize page is www.pinterest.com/oauth/, the token call
// api.pinterest.com/v5/oauth/token with the app authenticated by HTTP Basic; access tokens
// expire (30 days) and refresh with the refresh token. Errors are {code, message}; a 429 is the
// rate limit. https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/

const PROVIDER = "Pinterest";
export const PINTEREST_API = "https://api.pinterest.com/v5";
// https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
const AUTHORIZE_URL = "https://www.pinterest.com/oauth/";
// https://developers.pinterest.com/docs/api/v5/oauth-token (OpenAPI: POST /oauth/token, security basic)
const TOKEN_URL = `${PINTEREST_API}/oauth/token`;
// https://developers.pinterest.com/docs/api/v5/user_account-get
const USER_ACCOUNT_URL = `${PINTEREST_API}/user_account`;

// Scope names and meanings from Pinterest's OpenAPI description (pinterest_oauth2 security scheme).
const SCOPES: OAuthScope[] = [
  { name: "ads:read", allows: "See your ad accounts, campaigns, ad groups, ads and their analytics" },
  // pinterest_ads.campaign.set_status and pinterest_ads.campaign.set_daily_budget need it.
  { name: "ads:write", allows: "Create, update or delete ads, ad groups and campaigns", changes: true },
  { name: "user_accounts:read", allows: "See your Pinterest user account" },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#E60023", "P");

/** "code 2: AdAccount not found." from Pinterest's {code, message} error body. */
function pinterestReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : null;
  if (b && typeof b.message === "string")
    return b.code !== undefined && b.code !== null ? `code ${String(b.code)}: ${b.message}` : b.message;
  return providerReason(res);
}

/** 429 = the rate limit; other 4xx = Pinterest refused (401: the token); the rest = unavailable. */
function refuse(res: ProviderResponse, what: string): never {
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, pinterestReason(res)));
  if (res.status >= 400 && res.status < 500) throw rejection(PROVIDER, res, pinterestReason(res));
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(pinterestReason(res))}`);
}

/**
 * One call of Pinterest API v5 with the connection's token: GET, or PATCH with a JSON body.
 * Returns the JSON body of a 200 (an object, or an array for analytics).
 */
export async function pinterestApi(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
  patch?: unknown,
): Promise<unknown> {
  // Pinterest Ads connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: patch === undefined ? "GET" : "PATCH",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      ...(patch !== undefined && { "content-type": "application/json" }),
    },
    ...(patch !== undefined && { body: JSON.stringify(patch) }),
  });
  if (res.status !== 200 || (res.body === null && res.text !== "")) refuse(res, what);
  if (!isObject(res.body) && !Array.isArray(res.body))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without a JSON body.`);
  return res.body;
}

const pinterestOAuth: OAuthDefinition = {
  provider: "PINTEREST",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See which Pinterest account you connected",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      // Pinterest takes the scopes comma-separated.
      scope: SCOPES.map((s) => s.name).join(","),
      state,
    }),
  exchangeCode: ({ type, client, redirectUri, callback }) =>
    requestToken(
      PROVIDER,
      hosted(type),
      TOKEN_URL,
      client,
      { grant_type: "authorization_code", code: callbackCode(PROVIDER, callback), redirect_uri: redirectUri },
      "basic",
    ),
  refresh: ({ type, client }, refreshToken) =>
    requestToken(
      PROVIDER,
      hosted(type),
      TOKEN_URL,
      client,
      { grant_type: "refresh_token", refresh_token: refreshToken },
      "basic",
    ),
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), USER_ACCOUNT_URL, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
    });
    if (res.status !== 200) refuse(res, "the user_account call");
    const account = isObject(res.body) ? res.body : null;
    const id = typeof account?.id === "string" || typeof account?.id === "number" ? String(account.id) : "";
    if (!account || !id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the user_account call without an id.`);
    const name = [account.username, account.business_name].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${id}`, accountId: id, accountName: name ?? `Pinterest ${id}` };
  },
};

export const pinterestTypes: ConnectionTypeDefinition[] = [
  {
    type: "pinterest_ads",
    name: "Pinterest Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: pinterestDocs.pinterest_ads,
    family: "oauth_only",
    hosts: ["www.pinterest.com", "api.pinterest.com"],
    oauth: pinterestOAuth,
  },
];

/** Pinterest's per-item answer of a bulk write: its data, or its exceptions as the refusal. */
export function pinterestItem(body: unknown, what: string): Json {
  const items = isObject(body) && Array.isArray(body.items) ? body.items : [];
  const item = items.find(isObject);
  if (!item) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without items.`);
  const exceptions = (Array.isArray(item.exceptions) ? item.exceptions : []).filter(isObject);
  if (exceptions.length)
    throw new ProviderRejection(
      PROVIDER,
      exceptions.map((e) => `code ${String(e.code ?? "?")}: ${String(e.message ?? "no message")}`).join("; "),
    );
  if (!isObject(item.data)) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without data.`);
  return item.data;
}
