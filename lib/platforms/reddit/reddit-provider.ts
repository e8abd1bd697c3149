import "server-only";
import {
  hostedType,
  providerFetch,
  providerReason,
  rateLimitReason,
  rejection,
  type ProviderResponse,
} from "@/lib/platforms/kit/provider-fetch";
import { callbackCode, tokenSetFrom, urlWith } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type FreshCredentials,
  type OAuthContext,
  type OAuthDefinition,
  type OAuthScope,
  type TokenSet,
} from "@/lib/platforms/kit/types";
import { redditDocs } from "@/lib/platforms/reddit/reddit-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(redditTypes, type);

// Reddit Ads through the Reddit Ads API v3 (ads-api.reddit.com/api/v3) and Patchbay's Reddit app
// (REDDIT). OAuth 2.0 authorization code on Reddit's own OAuth (www.reddit.com/api/v1): the
// authorize page asks duration=permanent for a refresh token, the token call authenticates the
// app by HTTP Basic and may answer a refused code with HTTP 200 and {"error": "invalid_grant"}.
// Access tokens expire; refresh tokens last until revoked. Every request carries a descriptive
// User-Agent, as Reddit requires. Ads API bodies are {"data": …}; errors {"error": {…}}.
// https://business.reddithelp.com/s/article/Reddit-Ads-API (Authenticate your developer application)

const PROVIDER = "Reddit";
export const REDDIT_API = "https://ads-api.reddit.com/api/v3";
// https://github.com/reddit-archive/reddit/wiki/OAuth2 (authorize, duration=permanent)
const AUTHORIZE_URL = "https://www.reddit.com/api/v1/authorize";
// https://github.com/reddit-archive/reddit/wiki/OAuth2 (retrieving the access token, HTTP Basic)
const TOKEN_URL = "https://www.reddit.com/api/v1/access_token";
// https://ads-api.reddit.com/docs/v3/ (GET /me)
const ME_URL = `${REDDIT_API}/me`;

/** `<platform>:<app ID>:<version> (by …)`, the form Reddit asks every client to identify itself with. */
const REDDIT_USER_AGENT = "web:patchbay-ads-connector:v1.0 (by Patchbay, https://patchbay.dev)";

const SCOPES: OAuthScope[] = [
  { name: "adsread", allows: "See your ad accounts, campaigns, ad groups, ads and their reports" },
  // reddit_ads.campaign.set_status needs it.
  { name: "adsedit", allows: "Create and change your campaigns, ad groups and ads", changes: true },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#FF4500", "R");

/** "NOT_FOUND: campaign not found" or "configured_status: 'X' is not a valid value" from Reddit's error body. */
function redditReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : null;
  const err = b && isObject(b.error) ? b.error : null;
  if (err) {
    const fields = (Array.isArray(err.fields) ? err.fields : [])
      .filter(isObject)
      .map((f) => `${String(f.field ?? "?")}: ${String(f.message ?? "invalid").slice(0, 200)}`);
    const message = typeof err.message === "string" ? err.message : null;
    const code = err.code !== undefined && err.code !== null ? `${String(err.code)}: ` : "";
    const text = [message, ...fields].filter(Boolean).join("; ");
    if (text) return `${code}${text}`;
  }
  return providerReason(res);
}

/** 429 = the rate limit; other 4xx = Reddit refused (401: the token); the rest = unavailable. */
function refuse(res: ProviderResponse, what: string): never {
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, redditReason(res)));
  if (res.status >= 400 && res.status < 500) throw rejection(PROVIDER, res, redditReason(res));
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(redditReason(res))}`);
}

/**
 * One call of the Reddit Ads API v3 with the connection's token and Patchbay's User-Agent: GET,
 * or POST / PATCH with a JSON body. Returns the body of a 200.
 */
export async function redditApi(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
  send?: { method: "POST" | "PATCH"; body: unknown },
): Promise<Json> {
  // Reddit Ads connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: send?.method ?? "GET",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      "user-agent": REDDIT_USER_AGENT,
      ...(send && { "content-type": "application/json" }),
    },
    ...(send && { body: JSON.stringify(send.body) }),
  });
  if (res.status !== 200) refuse(res, what);
  if (!isObject(res.body)) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without a JSON body.`);
  return res.body;
}

/** One form-encoded call of Reddit's token endpoint, the app authenticated by HTTP Basic. */
async function token({ type, client }: OAuthContext, params: Record<string, string>): Promise<TokenSet> {
  const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64");
  const res = await providerFetch(PROVIDER, hosted(type), TOKEN_URL, {
    method: "POST",
    headers: {
      authorization: `Basic ${basic}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "user-agent": REDDIT_USER_AGENT,
    },
    body: new URLSearchParams(params),
  });
  const body = isObject(res.body) ? res.body : null;
  // Reddit answers a refused code or refresh token with HTTP 200 and {"error": "invalid_grant"}.
  if (res.status === 200 && typeof body?.error === "string") throw new ProviderRejection(PROVIDER, providerReason(res));
  if (res.status !== 200 || typeof body?.access_token !== "string" || !body.access_token) refuse(res, "the token call");
  return tokenSetFrom(body);
}

const redditOAuth: OAuthDefinition = {
  provider: "REDDIT",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See which Reddit account you connected",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      response_type: "code",
      state,
      redirect_uri: redirectUri,
      // A refresh token comes only with a permanent grant.
      duration: "permanent",
      scope: SCOPES.map((s) => s.name).join(","),
    }),
  exchangeCode: (ctx) =>
    token(ctx, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, ctx.callback),
      redirect_uri: ctx.redirectUri,
    }),
  refresh: (ctx, refreshToken) => token(ctx, { grant_type: "refresh_token", refresh_token: refreshToken }),
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), ME_URL, {
      headers: {
        authorization: `Bearer ${tokens.accessToken}`,
        accept: "application/json",
        "user-agent": REDDIT_USER_AGENT,
      },
    });
    if (res.status !== 200) refuse(res, "the /me call");
    const me = isObject(res.body) && isObject(res.body.data) ? res.body.data : null;
    const id = typeof me?.id === "string" ? me.id : "";
    if (!me || !id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the /me call without an id.`);
    const name = typeof me.username === "string" && me.username ? me.username : id;
    return { rotationKey: `account:${id}`, accountId: id, accountName: name };
  },
};

export const redditTypes: ConnectionTypeDefinition[] = [
  {
    type: "reddit_ads",
    name: "Reddit Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: redditDocs.reddit_ads,
    family: "oauth_only",
    hosts: ["www.reddit.com", "ads-api.reddit.com"],
    oauth: redditOAuth,
  },
];
