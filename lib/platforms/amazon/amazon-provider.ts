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
import { OperationInputError } from "@/lib/platforms/kit/operation-types";
import { amazonDocs } from "@/lib/platforms/amazon/amazon-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
export const hosted = (type: string) => hostedType(amazonTypes, type);

// Amazon Ads through Patchbay's Login with Amazon (LwA) client (AMAZON), approved for the Amazon
// Ads API: authorization code (with PKCE) at www.amazon.com/ap/oa, tokens at
// api.amazon.com/auth/o2/token (access tokens last an hour, refresh tokens do not expire).
// Scope advertising::campaign_management for the API, profile for the LwA user profile, the
// identity. Every API call carries Amazon-Advertising-API-ClientId (the LwA client ID), the
// bearer token and, except /v2/profiles, Amazon-Advertising-API-Scope (a profile ID: one
// advertiser account in one marketplace) on the host of the profile's region. Errors are
// {code, details} (or message); rate limits are HTTP 429 with Retry-After.

export const PROVIDER = "Amazon Ads";
// https://advertising.amazon.com/API/docs/en-us/guides/account-management/authorization/authorization-grants
const AUTHORIZE_URL = "https://www.amazon.com/ap/oa";
// https://advertising.amazon.com/API/docs/en-us/guides/get-started/retrieve-access-token
const TOKEN_URL = "https://api.amazon.com/auth/o2/token";
// https://developer.amazon.com/docs/login-with-amazon/obtain-customer-profile.html
const PROFILE_URL = "https://api.amazon.com/user/profile";
const SCOPES: OAuthScope[] = [
  {
    name: "advertising::campaign_management",
    allows:
      "Manage the Amazon Ads accounts you can reach: see profiles, campaigns and reports, pause and enable campaigns, change budgets",
    changes: true,
  },
  { name: "profile", allows: "See your Amazon user ID, name and email address" },
];

/** The API host of each advertising region (https://advertising.amazon.com/API/docs/en-us/reference/api-overview). */
const REGION_HOSTS = {
  na: "https://advertising-api.amazon.com",
  eu: "https://advertising-api-eu.amazon.com",
  fe: "https://advertising-api-fe.amazon.com",
} as const;
export type Region = keyof typeof REGION_HOSTS;
export const REGIONS = Object.keys(REGION_HOSTS) as Region[];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#232F3E", "a", "#FF9900");

/** "UNAUTHORIZED: Not authorized to access scope 123" from {code, details} / {code, message}. */
export function amazonReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : null;
  const text = b && [b.details, b.message, b.detail].find((v) => typeof v === "string" && v);
  if (b && text) return b.code !== undefined && b.code !== null ? `${String(b.code)}: ${String(text)}` : String(text);
  return providerReason(res);
}

function clientIdOf(): string {
  const id = process.env.OAUTH_AMAZON_CLIENT_ID;
  if (!id) throw new ProviderUnavailable(PROVIDER, "Patchbay's Amazon app is not configured (OAUTH_AMAZON_CLIENT_ID).");
  return id;
}

export const accessTokenOf = (credentials: FreshCredentials) =>
  credentials.kind === "oauth" ? credentials.tokens.accessToken : "";

/**
 * A 4xx / 5xx of the Ads API as the error the framework reports: 429 = rate limit; a 401 about the
 * profile ("Not authorized to access scope", "No matching advertiser found for scope") refuses
 * the request, any other 401 the token; other 4xx = Amazon refused; 5xx = unavailable.
 */
function amazonFailure(res: ProviderResponse, what: string): Error {
  const reason = amazonReason(res);
  if (res.status === 429) return new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, reason));
  if (res.status === 401 && /scope/i.test(reason)) return new ProviderRejection(PROVIDER, reason);
  if (res.status >= 400 && res.status < 500) return rejection(PROVIDER, res, reason);
  return new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(reason)}`);
}

export type AdsCall = {
  region: Region;
  /** The profile ID sent as Amazon-Advertising-API-Scope; none for /v2/profiles. */
  profileId?: string;
  method?: "GET" | "POST" | "PUT";
  body?: unknown;
  /** The versioned media type of the resource (Content-Type and Accept), e.g. application/vnd.spCampaign.v3+json. */
  mediaType?: string;
  headers?: Record<string, string>;
};

/** One Amazon Ads API call on the region's host; the JSON body of a 2xx answer. */
export async function adsApiCall(
  type: string,
  accessToken: string,
  path: string,
  what: string,
  { region, profileId, method = "GET", body, mediaType = "application/json", headers = {} }: AdsCall,
): Promise<unknown> {
  const res = await providerFetch(PROVIDER, hosted(type), `${REGION_HOSTS[region]}${path}`, {
    method,
    headers: {
      "Amazon-Advertising-API-ClientId": clientIdOf(),
      authorization: `Bearer ${accessToken}`,
      ...(profileId && { "Amazon-Advertising-API-Scope": profileId }),
      accept: mediaType,
      ...(body !== undefined && { "content-type": mediaType }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (res.status < 200 || res.status >= 300) throw amazonFailure(res, what);
  if (res.body === null)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with a body that is not JSON.`);
  return res.body;
}

export type Profile = {
  profile_id: string;
  region: Region;
  country_code: unknown;
  currency_code: unknown;
  timezone: unknown;
  account: { id: unknown; type: unknown; name: unknown; marketplace_id: unknown };
};

/** GET /v2/profiles of one region (https://advertising.amazon.com/API/docs/en-us/reference/2/profiles). */
export async function listProfiles(type: string, accessToken: string, region: Region): Promise<Profile[]> {
  const body = await adsApiCall(type, accessToken, "/v2/profiles", "the profiles list", { region });
  if (!Array.isArray(body))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the profiles list with something other than a list.`);
  return body.filter(isObject).map((p) => {
    const info = isObject(p.accountInfo) ? p.accountInfo : {};
    return {
      profile_id: String(p.profileId ?? ""),
      region,
      country_code: p.countryCode ?? null,
      currency_code: p.currencyCode ?? null,
      timezone: p.timezone ?? null,
      account: {
        id: info.id ?? null,
        type: info.type ?? null,
        name: info.name ?? null,
        marketplace_id: info.marketplaceStringId ?? null,
      },
    };
  });
}

/** The region of a profile: `given`, else the first region whose profiles list holds it. */
export async function regionOf(
  type: string,
  accessToken: string,
  profileId: string,
  given: Region | undefined,
): Promise<Region> {
  if (given) return given;
  for (const region of REGIONS) {
    const profiles = await listProfiles(type, accessToken, region);
    if (profiles.some((p) => p.profile_id === profileId)) return region;
  }
  throw new OperationInputError(
    `profile ${profileId} is not among the Amazon Ads profiles this connection can reach in any region (see amazon_ads.profiles.list).`,
  );
}

const amazonOAuth: OAuthDefinition = {
  provider: "AMAZON",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See your Amazon user ID, name and email address",
  pkce: true,
  authorizeUrl: ({ client, redirectUri, state, codeChallenge }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      scope: SCOPES.map((s) => s.name).join(" "),
      response_type: "code",
      redirect_uri: redirectUri,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: codeChallenge ? "S256" : undefined,
    }),
  exchangeCode: ({ type, client, redirectUri, callback, codeVerifier }) =>
    requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, callback),
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    }),
  async refresh({ type, client }, refreshToken) {
    const tokens = await requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  },
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), PROFILE_URL, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
    });
    if (res.status !== 200) throw amazonFailure(res, "the user profile call");
    const body = isObject(res.body) ? res.body : {};
    const id = typeof body.user_id === "string" ? body.user_id : "";
    if (!id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the user profile call without a user_id.`);
    const name = [body.email, body.name].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${id}`, accountId: id, accountName: name ?? id };
  },
};

export const amazonTypes: ConnectionTypeDefinition[] = [
  {
    type: "amazon_ads",
    name: "Amazon Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: amazonDocs.amazon_ads,
    family: "oauth_only",
    hosts: [
      "www.amazon.com",
      "api.amazon.com",
      "advertising-api.amazon.com",
      "advertising-api-eu.amazon.com",
      "advertising-api-fe.amazon.com",
      // Where a finished report's url points (a pre-signed S3 link to a gzipped JSON file), per region.
      "offline-report-storage-us-east-1-prod.s3.amazonaws.com",
      "offline-report-storage-eu-west-1-prod.s3.eu-west-1.amazonaws.com",
      "offline-report-storage-us-west-2-prod.s3.us-west-2.amazonaws.com",
    ],
    oauth: amazonOAuth,
  },
];
