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
import { snapchatDocs } from "@/lib/platforms/snapchat/snapchat-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(snapchatTypes, type);

// Snapchat Ads through the Snapchat Marketing API (adsapi.snapchat.com/v1) and Patchbay's Snap
// OAuth app (SNAPCHAT), made in Snap Business Manager. RFC 6749 authorization code at
// accounts.snapchat.com with the client credentials in the form body; access tokens last 30
// minutes and refresh with the refresh token. Answers are {request_status, request_id, …}; errors
// add debug_message, display_message and error_code. 429 is the rate limit.
// https://developers.snap.com/api/marketing-api/Ads-API/authentication

const PROVIDER = "Snapchat";
export const SNAPCHAT_API = "https://adsapi.snapchat.com/v1";
// https://developers.snap.com/api/marketing-api/Ads-API/authentication (User Auth via Redirect)
const AUTHORIZE_URL = "https://accounts.snapchat.com/login/oauth2/authorize";
// https://developers.snap.com/api/marketing-api/Ads-API/authentication (access and refresh tokens)
const TOKEN_URL = "https://accounts.snapchat.com/login/oauth2/access_token";
// https://developers.snap.com/api/marketing-api/Ads-API/user (Get Authenticated User)
const ME_URL = `${SNAPCHAT_API}/me`;

// The Marketing API's one scope covers reads and writes alike.
const SCOPES: OAuthScope[] = [
  {
    name: "snapchat-marketing-api",
    allows:
      "See and manage your organizations, ad accounts, campaigns, ad squads, ads and their stats, as your roles allow",
    changes: true,
  },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#FFFC00", "S", "#000");

/** "E1002: Ad account not found (request_id …)" from Snapchat's error body. */
function snapchatReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : null;
  const message = b && [b.display_message, b.debug_message].find((v) => typeof v === "string" && v !== "");
  if (b && typeof message === "string") {
    const code = typeof b.error_code === "string" && b.error_code ? `${b.error_code}: ` : "";
    const id = typeof b.request_id === "string" && b.request_id ? ` (request_id ${b.request_id})` : "";
    return `${code}${message}${id}`;
  }
  return providerReason(res);
}

/** 429 = the rate limit; other 4xx = Snapchat refused (401: the token); the rest = unavailable. */
function refuse(res: ProviderResponse, what: string): never {
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, snapchatReason(res)));
  if (res.status >= 400 && res.status < 500) throw rejection(PROVIDER, res, snapchatReason(res));
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(snapchatReason(res))}`);
}

/**
 * One call of the Marketing API with the connection's token: GET, or PUT with a JSON body.
 * Returns the body of a 200 whose request_status is SUCCESS.
 */
export async function snapchatApi(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
  put?: unknown,
): Promise<Json> {
  // Snapchat Ads connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: put === undefined ? "GET" : "PUT",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      ...(put !== undefined && { "content-type": "application/json" }),
    },
    ...(put !== undefined && { body: JSON.stringify(put) }),
  });
  if (res.status !== 200) refuse(res, what);
  const body = isObject(res.body) ? res.body : null;
  if (!body || String(body.request_status).toUpperCase() !== "SUCCESS")
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(snapchatReason(res))}`);
  return body;
}

/**
 * The entities of a list answer (`campaigns: [{sub_request_status, campaign}]`); a sub-request
 * that failed is Snapchat's refusal of that entity.
 */
export function snapchatEntities(body: Json, plural: string, singular: string): Json[] {
  const list = Array.isArray(body[plural]) ? body[plural].filter(isObject) : [];
  return list.map((entry) => {
    if (String(entry.sub_request_status ?? "SUCCESS").toUpperCase() !== "SUCCESS" || !isObject(entry[singular])) {
      const why = [entry.sub_request_error_reason, entry.debug_message, entry.display_message].find(
        (v) => typeof v === "string" && v !== "",
      );
      throw new ProviderRejection(PROVIDER, String(why ?? `the ${singular} sub-request failed`));
    }
    return entry[singular];
  });
}

const snapchatOAuth: OAuthDefinition = {
  provider: "SNAPCHAT",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See which Snapchat user you connected",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: SCOPES.map((s) => s.name).join(" "),
      state,
    }),
  exchangeCode: ({ type, client, redirectUri, callback }) =>
    requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, callback),
      redirect_uri: redirectUri,
    }),
  refresh: ({ type, client }, refreshToken) =>
    requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    }),
  async identify({ type }, tokens) {
    const res = await providerFetch(PROVIDER, hosted(type), ME_URL, {
      headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
    });
    if (res.status !== 200) refuse(res, "the /me call");
    const me = isObject(res.body) && isObject(res.body.me) ? res.body.me : null;
    const id = typeof me?.id === "string" ? me.id : "";
    if (!me || !id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the /me call without a user id.`);
    const name = [me.email, me.display_name].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${id}`, accountId: id, accountName: name ?? id };
  },
};

export const snapchatTypes: ConnectionTypeDefinition[] = [
  {
    type: "snapchat_ads",
    name: "Snapchat Ads",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: snapchatDocs.snapchat_ads,
    family: "oauth_only",
    hosts: ["accounts.snapchat.com", "adsapi.snapchat.com"],
    oauth: snapchatOAuth,
  },
];
