import "server-only";
import { cachedAccessToken } from "@/lib/platforms/kit/access-token-cache";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { requestToken, urlWith, callbackCode } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type FreshCredentials,
  type OAuthClient,
  type OAuthDefinition,
  type OAuthScope,
  type VerifiedAccount,
} from "@/lib/platforms/kit/types";
import { googleDocs } from "@/lib/platforms/google/google-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/**
 * Every type on Google's app, as googleType() made it (the types of lib/platforms/google/<product>/
 * included), so the shared calls below find each type's hosts for providerFetch (which calls nothing else).
 */
const madeTypes: ConnectionTypeDefinition[] = [];
const hosted = (type: string) => hostedType(madeTypes, type);

// Google Analytics 4, Google Ads and Search Console: one Google OAuth client (GOOGLE) with a
// scope per type, or the caller's own client + refresh token (white-label). A manual post is
// proven by a refresh grant at Google's token endpoint followed by one read call of the
// type's own API, so a token that lacks the type's scope is caught before anything is stored.

const PROVIDER = "Google";
const AUTHORIZE_URL = "https://accounts.google.com/o/oauth2/v2/auth";
const TOKEN_URL = "https://oauth2.googleapis.com/token";
const USERINFO_URL = "https://openidconnect.googleapis.com/v1/userinfo";

/** Every Google host the three types (and their MCP tools) call or send a browser to. */
const GOOGLE_HOSTS = [
  "accounts.google.com",
  "oauth2.googleapis.com",
  "openidconnect.googleapis.com",
  "www.googleapis.com",
  "analyticsadmin.googleapis.com",
  "analyticsdata.googleapis.com",
  "googleads.googleapis.com",
];
/** The Google Ads API version every Ads call uses (verification and the MCP tools alike). */
export const GOOGLE_ADS_API = "https://googleads.googleapis.com/v18";

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo;

/**
 * Google API errors are `{error: {code, message, status, details}}`; the Ads API adds a
 * GoogleAdsFailure detail whose error codes (DEVELOPER_TOKEN_NOT_APPROVED …) say more than
 * the HTTP-level status. providerReason would lead with the numeric code, so build it here.
 */
function googleReason(res: ProviderResponse): string {
  const error = isObject(res.body) ? res.body.error : undefined;
  if (!isObject(error)) return providerReason(res);
  const adsErrors: string[] = [];
  for (const detail of Array.isArray(error.details) ? error.details : []) {
    if (
      !isObject(detail) ||
      !String(detail["@type"] ?? "").endsWith("GoogleAdsFailure") ||
      !Array.isArray(detail.errors)
    )
      continue;
    for (const e of detail.errors) {
      if (!isObject(e)) continue;
      const code = isObject(e.errorCode) ? Object.values(e.errorCode)[0] : undefined;
      adsErrors.push(code ? `${String(code)}: ${String(e.message ?? "")}` : String(e.message ?? ""));
    }
  }
  if (adsErrors.length) return adsErrors.join("; ");
  if (typeof error.message === "string")
    return error.status ? `${String(error.status)}: ${error.message}` : error.message;
  return providerReason(res);
}

/**
 * One authenticated call of a Google API (GET, or POST with a JSON body): 4xx = Google refused
 * (credentials, scope, or the request itself), the rest unusable.
 */
export async function googleApiCall(
  type: string,
  url: string,
  accessToken: string,
  what: string,
  {
    headers = {},
    body,
    method,
  }: { headers?: Record<string, string>; body?: unknown; method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" } = {},
): Promise<Json> {
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      ...(body !== undefined && { "content-type": "application/json" }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // 429 is Google's quota, not a verdict on the credentials (providerFetch already retried it).
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, googleReason(res)));
  if (res.status >= 400 && res.status < 500) throw rejection(PROVIDER, res, googleReason(res));
  // A DELETE (and some updates) answer 204 or an empty body: nothing to read.
  if ((res.status === 204 || (res.status === 200 && res.text === "")) && method !== undefined && method !== "GET")
    return {};
  if (res.status !== 200 || !isObject(res.body))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(googleReason(res))}`);
  return res.body;
}

const googleGet = (
  type: string,
  url: string,
  accessToken: string,
  what: string,
  headers: Record<string, string> = {},
) => googleApiCall(type, url, accessToken, what, { headers });

/** The list a Google API returns under `key`: absent when the account has none, otherwise an array. */
export function listOf(body: Json, key: string, what: string): Json[] {
  const value = body[key];
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with a body whose ${key} is not a list.`);
  return value.filter(isObject);
}

/** A refresh grant with the given client: Google's invalid_grant / invalid_client come back as rejections. */
async function refreshGrant(type: string, client: OAuthClient, refreshToken: string) {
  return requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
  });
}

/**
 * An access token for a Google connection: an OAuth connection's (already refreshed), or a
 * white-label connection's own client + refresh token exchanged at Google's token endpoint.
 */
export async function googleAccessToken(type: string, credentials: FreshCredentials): Promise<string> {
  if (credentials.kind === "oauth") return credentials.tokens.accessToken;
  const { client_id, client_secret, refresh_token } = credentials.credentials;
  return cachedAccessToken([type, client_id, client_secret, refresh_token], () =>
    refreshGrant(type, { clientId: client_id, clientSecret: client_secret }, refresh_token),
  );
}

/**
 * The developer token Ads API calls carry: a white-label connection's own, or for OAuth
 * connections Patchbay's (GOOGLE_ADS_DEVELOPER_TOKEN, the token of the app's manager account).
 */
export function googleAdsDeveloperToken(credentials: FreshCredentials): string | undefined {
  return credentials.kind === "manual"
    ? credentials.credentials.developer_token
    : process.env.GOOGLE_ADS_DEVELOPER_TOKEN || undefined;
}

export type ApiCheck = (
  type: string,
  accessToken: string,
  credentials: Record<string, string>,
) => Promise<Omit<VerifiedAccount, "rotationKey">>;

const checkAnalytics: ApiCheck = async (type, accessToken) => {
  const what = "the Analytics Admin API call (accountSummaries)";
  const body = await googleGet(
    type,
    "https://analyticsadmin.googleapis.com/v1beta/accountSummaries?pageSize=1",
    accessToken,
    what,
  );
  const [first] = listOf(body, "accountSummaries", what);
  return {
    accountId: typeof first?.account === "string" ? first.account.replace(/^accounts\//, "") : undefined,
    accountName: stringOr(first?.displayName),
  };
};

const checkSearchConsole: ApiCheck = async (type, accessToken) => {
  const what = "the Search Console API call (sites.list)";
  const body = await googleGet(type, "https://www.googleapis.com/webmasters/v3/sites", accessToken, what);
  const [first] = listOf(body, "siteEntry", what);
  return { accountId: stringOr(first?.siteUrl), accountName: stringOr(first?.siteUrl) };
};

const checkAds: ApiCheck = async (type, accessToken, credentials) => {
  const what = "the Google Ads API call (customers:listAccessibleCustomers)";
  const body = await googleGet(type, `${GOOGLE_ADS_API}/customers:listAccessibleCustomers`, accessToken, what, {
    "developer-token": credentials.developer_token,
  });
  const names = body.resourceNames === undefined ? [] : body.resourceNames;
  if (!Array.isArray(names))
    throw new ProviderUnavailable(
      PROVIDER,
      `${PROVIDER} answered ${what} with a body whose resourceNames is not a list.`,
    );
  const first = typeof names[0] === "string" ? names[0].replace(/^customers\//, "") : undefined;
  return { accountId: first, accountName: first };
};

export function stringOr(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

/**
 * The shared Google OAuth client, asking for `openid email` plus the one scope of the type
 * (Google's own wording of each).
 */
function googleOAuth(own: readonly OAuthScope[]): OAuthDefinition {
  const names = own.map((s) => s.name);
  return {
    provider: "GOOGLE",
    providerName: PROVIDER,
    scopes: [
      { name: "openid", allows: "Associate you with your personal info on Google" },
      { name: "email", allows: "See your primary Google Account email address" },
      ...own,
    ],
    identity: "See your Google account's email address",
    pkce: true,
    authorizeUrl: ({ client, redirectUri, state, codeChallenge }) =>
      urlWith(AUTHORIZE_URL, {
        response_type: "code",
        client_id: client.clientId,
        redirect_uri: redirectUri,
        scope: ["openid", "email", ...names].join(" "),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallenge ? "S256" : undefined,
        // A refresh token on every consent, and earlier grants of the same client kept.
        access_type: "offline",
        prompt: "consent",
        include_granted_scopes: "true",
      }),
    exchangeCode: ({ type, client, redirectUri, callback, codeVerifier }) =>
      requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
        grant_type: "authorization_code",
        code: callbackCode(PROVIDER, callback),
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    async refresh({ type, client }, refreshToken) {
      // Google does not rotate refresh tokens: the answer has none, the old one stays valid.
      const tokens = await refreshGrant(type, client, refreshToken);
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    },
    async identify({ type }, tokens) {
      const me = await googleGet(type, USERINFO_URL, tokens.accessToken, "the userinfo call");
      if (typeof me.sub !== "string" || !me.sub)
        throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the userinfo call without a subject (sub).`);
      // Granular consent lets the user untick the type's scope while still approving.
      const granted = tokens.scope?.split(/\s+/);
      const missing = granted ? names.filter((n) => !granted.includes(n)) : [];
      if (granted && missing.length) {
        throw new ProviderRejection(
          PROVIDER,
          `the account did not grant the scope ${missing.join(" ")} (granted: ${granted.join(" ") || "none"}); connect again and keep it ticked.`,
        );
      }
      return {
        rotationKey: `account:${me.sub}`,
        accountId: me.sub,
        accountName: stringOr(me.email) ?? stringOr(me.name) ?? me.sub,
      };
    },
  };
}

/**
 * A connection type on Google's app: OAuth with `openid email` plus the type's own scopes (only
 * the types that need a scope ask for it; include_granted_scopes keeps the user's earlier grants
 * to Patchbay), or white-label (the caller's client + refresh token, `credentialFields`).
 * `hosts`: the Google API hosts the type calls beside the sign-in ones. `check` is the identity
 * read of a manual post, made with the type's own API so a token without its scope is refused.
 */
export function googleType(def: {
  type: string;
  name: string;
  logo: string;
  scopes: readonly OAuthScope[];
  credentialFields: string[];
  docs: string;
  hosts?: readonly string[];
  check: ApiCheck;
}): ConnectionTypeDefinition {
  const made: ConnectionTypeDefinition = {
    type: def.type,
    name: def.name,
    logo: def.logo,
    authMethods: ["oauth", "manual"],
    credentialFields: def.credentialFields,
    docs: def.docs,
    family: "white_label",
    hosts: [...GOOGLE_HOSTS, ...(def.hosts ?? [])],
    oauth: googleOAuth(def.scopes),
    async verify(credentials, ctx) {
      const accessToken = await googleAccessToken(ctx.type, { kind: "manual", credentials });
      const account = await def.check(ctx.type, accessToken, credentials);
      return { ...account, rotationKey: `name:${ctx.name}` };
    },
  };
  madeTypes.push(made);
  return made;
}

export const googleTypes: ConnectionTypeDefinition[] = [
  googleType({
    type: "ga4",
    name: "Google Analytics 4",
    logo: logo("#E37400", "GA"),
    scopes: [
      {
        name: "https://www.googleapis.com/auth/analytics.readonly",
        allows: "See and download your Google Analytics data",
      },
    ],
    credentialFields: ["client_id", "client_secret", "refresh_token"],
    docs: googleDocs.ga4,
    check: checkAnalytics,
  }),
  googleType({
    type: "gads",
    name: "Google Ads",
    logo: logo("#1A73E8", "Ads"),
    scopes: [
      {
        name: "https://www.googleapis.com/auth/adwords",
        allows: "See, edit, create and delete your Google Ads accounts and data",
        changes: true,
      },
    ],
    credentialFields: ["client_id", "client_secret", "refresh_token", "developer_token"],
    docs: googleDocs.gads,
    check: checkAds,
  }),
  googleType({
    type: "gsc",
    name: "Google Search Console",
    logo: logo("#188038", "SC"),
    scopes: [
      {
        name: "https://www.googleapis.com/auth/webmasters.readonly",
        allows: "View Search Console data for your verified sites",
      },
    ],
    credentialFields: ["client_id", "client_secret", "refresh_token"],
    docs: googleDocs.gsc,
    // The URL Inspection API (search_console.url_inspection) lives on its own host.
    hosts: ["searchconsole.googleapis.com"],
    check: checkSearchConsole,
  }),
];
