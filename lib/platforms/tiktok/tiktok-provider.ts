import "server-only";
import {
  hostedType,
  providerFetch,
  providerReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { urlWith, callbackCode } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { tiktokDocs } from "@/lib/platforms/tiktok/tiktok-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(tiktokTypes, type);

// TikTok Ads through the TikTok API for Business (Marketing API v1.3). Not RFC 6749: the
// authorize page takes app_id, the callback carries auth_code, the token call is JSON
// {app_id, secret, auth_code}, and every answer is HTTP 200 with {code, message, data}
// where code 0 means success. The access token does not expire, so there is no refresh.

const PROVIDER = "TikTok";
const AUTHORIZE_URL = "https://business-api.tiktok.com/portal/auth";
const TOKEN_URL = "https://business-api.tiktok.com/open_api/v1.3/oauth2/access_token/";
const USER_INFO_URL = "https://business-api.tiktok.com/open_api/v1.3/user/info/";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#000", "T", "#FE2C55");

// 40100: requests made too frequently. Rate limiting is not a verdict on the grant.
const THROTTLED = new Set([40100]);

/** `data` of a TikTok answer; code ≠ 0 in the 40000s = TikTok refused, anything else = unavailable. */
function tiktokData(res: ProviderResponse, what: string): Json {
  const body = isObject(res.body) ? res.body : null;
  if (res.status >= 400 && res.status < 500 && res.status !== 429)
    throw rejection(PROVIDER, res, body ? tiktokReason(body) : providerReason(res));
  if (res.status !== 200 || !body || typeof body.code !== "number") {
    throw new ProviderUnavailable(
      PROVIDER,
      `${PROVIDER} answered ${what} with ${sentence(body && typeof body.code === "number" ? tiktokReason(body) : providerReason(res))}`,
    );
  }
  if (body.code === 0) {
    if (!isObject(body.data))
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with code 0 but no data.`);
    return body.data;
  }
  if (body.code >= 40000 && body.code < 50000 && !THROTTLED.has(body.code))
    throw new ProviderRejection(PROVIDER, tiktokReason(body));
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(tiktokReason(body))}`);
}

/** "40102: Auth code is expired or invalid (request_id …)". */
function tiktokReason(body: Json): string {
  const id = typeof body.request_id === "string" && body.request_id ? ` (request_id ${body.request_id})` : "";
  return `${String(body.code ?? "error")}: ${String(body.message ?? "no message")}${id}`;
}

/**
 * One GET of the Marketing API (open_api/v1.3) with the connection's token in Access-Token;
 * array parameters go as JSON text, as TikTok expects. Returns `data` of a code-0 answer.
 */
export async function tiktokApiGet(
  type: string,
  url: string,
  credentials: FreshCredentials,
  params: Record<string, string | number | string[]>,
  what: string,
): Promise<Json> {
  // TikTok Ads connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const query = urlWith(
    url,
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
  );
  const res = await providerFetch(PROVIDER, hosted(type), query, {
    headers: { "Access-Token": accessToken, accept: "application/json" },
  });
  return tiktokData(res, what);
}

/**
 * One POST of the Marketing API (open_api/v1.3) with a JSON body and the connection's token in
 * Access-Token, as TikTok's write calls take it. Returns `data` of a code-0 answer.
 */
export async function tiktokApiPost(
  type: string,
  url: string,
  credentials: FreshCredentials,
  body: Json,
  what: string,
): Promise<Json> {
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: "POST",
    headers: { "Access-Token": accessToken, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  return tiktokData(res, what);
}

/** The advertiser accounts the user authorized in the OAuth flow (the token call names them). */
export function tiktokAdvertiserIds(credentials: FreshCredentials): string[] {
  const ids = credentials.kind === "oauth" ? credentials.tokens.extra?.advertiser_ids : undefined;
  return Array.isArray(ids) ? ids.map(String) : [];
}

const tiktokOAuth: OAuthDefinition = {
  provider: "TIKTOK",
  providerName: PROVIDER,
  // TikTok grants the permission scopes configured on the app in the developer portal; the
  // authorize URL names none. These are the ones Patchbay's TikTok app must be given.
  scopes: [
    {
      name: "Ad Account Management",
      allows: "See and manage the details of the advertiser accounts you authorize",
      changes: true,
    },
    // tiktok_ads.campaign.set_status pauses and enables campaigns.
    { name: "Ads Management", allows: "Create, change, pause and enable campaigns, ad groups and ads", changes: true },
    { name: "Reporting", allows: "See the reports of the advertiser accounts you authorize" },
  ],
  scopesSetOnApp: true,
  identity: "See your TikTok for Business display name and email",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, { app_id: client.clientId, state, redirect_uri: redirectUri }),
  async exchangeCode({ type, client, callback }) {
    const res = await providerFetch(PROVIDER, hosted(type), TOKEN_URL, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        app_id: client.clientId,
        secret: client.clientSecret,
        auth_code: callbackCode(PROVIDER, callback, ["auth_code", "code"]),
      }),
    });
    const data = tiktokData(res, "the token call");
    if (typeof data.access_token !== "string" || !data.access_token)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the token call without an access_token.`);
    const advertiserIds = Array.isArray(data.advertiser_ids) ? data.advertiser_ids.map(String) : [];
    return {
      accessToken: data.access_token,
      refreshToken: null,
      expiresAt: null,
      scope: Array.isArray(data.scope) ? data.scope.map(String).join(",") : null,
      extra: { advertiser_ids: advertiserIds },
    };
  },
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), USER_INFO_URL, {
      headers: { "Access-Token": tokens.accessToken, accept: "application/json" },
    });
    const data = tiktokData(res, "the user/info call");
    const id =
      typeof data.core_user_id === "string" || typeof data.core_user_id === "number" ? String(data.core_user_id) : "";
    if (!id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the user/info call without a core_user_id.`);
    const name = [data.email, data.display_name].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${id}`, accountId: id, accountName: name ?? id };
  },
};

export const tiktokTypes: ConnectionTypeDefinition[] = [
  {
    type: "tiktok_ads",
    name: "TikTok Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: tiktokDocs.tiktok_ads,
    family: "oauth_only",
    hosts: ["business-api.tiktok.com"],
    oauth: tiktokOAuth,
  },
];
