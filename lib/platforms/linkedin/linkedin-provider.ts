import "server-only";
import {
  hostedType,
  providerFetch,
  providerReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { requestToken, urlWith, callbackCode } from "@/lib/platforms/kit/oauth2";
import {
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { linkedinDocs } from "@/lib/platforms/linkedin/linkedin-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(linkedinTypes, type);

// LinkedIn Ads: only through Patchbay's LinkedIn app (LINKEDIN), since LinkedIn grants the
// advertising scopes per app after review. Identity is the OpenID Connect userinfo of the
// member who approved.

const PROVIDER = "LinkedIn";
const AUTHORIZE_URL = "https://www.linkedin.com/oauth/v2/authorization";
const TOKEN_URL = "https://www.linkedin.com/oauth/v2/accessToken";
const USERINFO_URL = "https://api.linkedin.com/v2/userinfo";
// rw_ads is for the campaign status write (lib/platforms/linkedin/linkedin-writes.ts).
const SCOPES: OAuthScope[] = [
  { name: "openid", allows: "Use your LinkedIn account to sign in" },
  { name: "profile", allows: "See your name and profile picture" },
  { name: "email", allows: "See your primary email address" },
  { name: "r_ads", allows: "See your ad accounts, campaigns and creatives" },
  { name: "r_ads_reporting", allows: "See the reporting of your ad accounts" },
  // linkedin_ads.campaign.set_status pauses, resumes and archives campaigns.
  { name: "rw_ads", allows: "Create, change and manage your ad accounts, campaigns and creatives", changes: true },
];

/** The Marketing API version (YYYYMM) every versioned call names; LinkedIn keeps each for a year. */
const LINKEDIN_VERSION = "202510";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#0A66C2", "in");

/**
 * LinkedIn API errors: {status, serviceErrorCode, code, message}; the token endpoint uses OAuth's
 * {error, error_description}.
 */
function linkedinReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : {};
  if (typeof b.message === "string" && (b.code !== undefined || b.serviceErrorCode !== undefined))
    return `${String(b.code ?? `serviceErrorCode ${String(b.serviceErrorCode)}`)}: ${b.message}`;
  return providerReason(res);
}

/**
 * One GET of LinkedIn's versioned REST API (https://api.linkedin.com/rest/…, Rest.li 2.0 query
 * syntax already in `url`) with the connection's token: 4xx = LinkedIn refused, the rest unusable.
 */
export async function linkedinRestGet(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
): Promise<Json> {
  // LinkedIn Ads connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      "linkedin-version": LINKEDIN_VERSION,
      "x-restli-protocol-version": "2.0.0",
    },
  });
  if (res.status >= 400 && res.status < 500 && res.status !== 429) throw rejection(PROVIDER, res, linkedinReason(res));
  if (res.status !== 200 || !isObject(res.body))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(linkedinReason(res))}`);
  return res.body;
}

/**
 * One Rest.li PARTIAL_UPDATE of LinkedIn's versioned REST API: a POST of `{patch: {$set}}` with
 * the X-RestLi-Method header, answered 204 No Content. 4xx = LinkedIn refused, the rest unusable.
 */
export async function linkedinRestPartialUpdate(
  type: string,
  url: string,
  credentials: FreshCredentials,
  set: Json,
  what: string,
): Promise<void> {
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  // https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/methods
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      "content-type": "application/json",
      "linkedin-version": LINKEDIN_VERSION,
      "x-restli-protocol-version": "2.0.0",
      "x-restli-method": "PARTIAL_UPDATE",
    },
    body: JSON.stringify({ patch: { $set: set } }),
  });
  if (res.status >= 400 && res.status < 500 && res.status !== 429) throw rejection(PROVIDER, res, linkedinReason(res));
  if (res.status !== 204 && res.status !== 200)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(linkedinReason(res))}`);
}

const linkedinOAuth: OAuthDefinition = {
  provider: "LINKEDIN",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See your name, profile picture and email address",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: redirectUri,
      state,
      scope: SCOPES.map((s) => s.name).join(" "),
    }),
  exchangeCode: ({ type, client, redirectUri, callback }) =>
    requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, callback),
      redirect_uri: redirectUri,
    }),
  async refresh({ type, client }, refreshToken) {
    const tokens = await requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  },
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), USERINFO_URL, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
    });
    if (res.status >= 400 && res.status < 500 && res.status !== 429)
      throw rejection(PROVIDER, res, linkedinReason(res));
    const me = isObject(res.body) ? res.body : null;
    if (res.status !== 200 || typeof me?.sub !== "string" || !me.sub) {
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} answered the userinfo call with ${sentence(res.status === 200 ? "no subject (sub)" : linkedinReason(res))}`,
      );
    }
    const name = [me.email, me.name].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${me.sub}`, accountId: me.sub, accountName: name ?? me.sub };
  },
};

export const linkedinTypes: ConnectionTypeDefinition[] = [
  {
    type: "linkedin_ads",
    name: "LinkedIn Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: linkedinDocs.linkedin_ads,
    family: "oauth_only",
    hosts: ["www.linkedin.com", "api.linkedin.com"],
    oauth: linkedinOAuth,
  },
];
