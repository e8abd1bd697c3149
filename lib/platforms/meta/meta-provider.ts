import "server-only";
import { createHmac } from "node:crypto";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { tokenSetFrom, urlWith, callbackCode } from "@/lib/platforms/kit/oauth2";
import {
  CredentialRejected,
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { metaDocs } from "@/lib/platforms/meta/meta-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/**
 * Every type on Meta's Graph API (meta_ads here, the products of lib/platforms/meta/<product>/
 * through metaType()), so the shared calls below find each type's hosts for providerFetch.
 */
const madeTypes: ConnectionTypeDefinition[] = [];
const hosted = (type: string) => hostedType(madeTypes, type);
/** Every Meta host a type calls or sends a browser to. */
export const META_HOSTS = ["www.facebook.com", "graph.facebook.com"] as const;

/** A connection type on Meta's Graph API: registered so graphGet/graphPost may call its hosts. */
export function metaType(def: ConnectionTypeDefinition): ConnectionTypeDefinition {
  madeTypes.push(def);
  return def;
}

// Meta Ads through the Graph API: Patchbay's Meta app (META) with the dialog/code flow, or the
// caller's own app + a system-user token (white-label). A manual post is proven with
// debug_token, read with the caller's app access token (is the token valid, issued for that
// app, granted ads_read?), then /me with the token itself.

const PROVIDER = "Meta";
export const GRAPH = "https://graph.facebook.com/v21.0";
const DIALOG_URL = "https://www.facebook.com/v21.0/dialog/oauth";
const REQUIRED_PERMISSION = "ads_read";
const SCOPES: OAuthScope[] = [
  { name: "ads_read", allows: "See your ad accounts, campaigns and ad performance" },
  // The catalogue's writes (pause, activate, change budgets) need ads_management; ads_read alone refuses them.
  {
    name: "ads_management",
    allows: "Create, change, pause and activate your campaigns, ad sets and ads, and change their budgets",
    changes: true,
  },
  {
    name: "business_management",
    allows: "See and manage the businesses you have in Meta Business Manager",
    changes: true,
  },
];

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#0866FF", "M");

/** "OAuthException (code 190, subcode 463): Error validating access token: …" from a Graph error object. */
function graphErrorText(e: Json): string {
  const subcode = e.error_subcode ?? e.subcode;
  const codes = [
    e.code !== undefined && `code ${String(e.code)}`,
    subcode !== undefined && `subcode ${String(subcode)}`,
  ]
    .filter(Boolean)
    .join(", ");
  return `${typeof e.type === "string" ? e.type : "OAuthException"}${codes ? ` (${codes})` : ""}: ${String(e.message ?? "no message")}`;
}

function graphReason(res: ProviderResponse): string {
  const error = isObject(res.body) ? res.body.error : undefined;
  return isObject(error) && typeof error.message === "string" ? graphErrorText(error) : providerReason(res);
}

/**
 * Graph's throttling codes are not a verdict on the credentials: 4 (app), 17 (user), 32 (Page),
 * 613 (calls within one hour), the Business Use Case limits 80000–80014 (ads insights, Pages,
 * Instagram, ads management, WhatsApp Business Management …) and WhatsApp Cloud API's 130429
 * (throughput), 131048 (spam rate limit) and 131056 (pair rate limit).
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting/ and
 * https://developers.facebook.com/documentation/business-messaging/whatsapp/support/error-codes
 */
const THROTTLED = new Set([4, 17, 32, 613, 130429, 131048, 131056]);
const isThrottled = (code: number) => THROTTLED.has(code) || (code >= 80000 && code <= 80014);

/** One Graph GET: an error object in a 4xx = Meta refused; 5xx, throttling or a non-object = unavailable. */
export async function graphGet(type: string, url: string, what: string, accessToken?: string): Promise<Json> {
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    headers: { accept: "application/json", ...(accessToken && { authorization: `Bearer ${accessToken}` }) },
  });
  return graphAnswer(res, what);
}

/**
 * One Graph POST that updates a node (`POST /{id}` with form fields, as the Marketing API's
 * examples send them), judged like graphGet. The caller checks the answer's `success`.
 */
export async function graphPost(
  type: string,
  url: string,
  fields: Record<string, string>,
  what: string,
  accessToken: string,
): Promise<Json> {
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: "POST",
    headers: {
      accept: "application/json",
      authorization: `Bearer ${accessToken}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });
  return graphAnswer(res, what);
}

/**
 * One Graph POST with a JSON body (WhatsApp Cloud API's messages), judged like graphGet; no
 * appsecret_proof (the caller adds it to the URL when it has one).
 */
export async function graphPostJson(
  type: string,
  url: string,
  body: Record<string, unknown>,
  what: string,
  accessToken: string,
): Promise<Json> {
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: "POST",
    headers: { accept: "application/json", authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return graphAnswer(res, what);
}

function graphAnswer(res: ProviderResponse, what: string): Json {
  const error = isObject(res.body) && isObject(res.body.error) ? res.body.error : null;
  // Throttling is reported, not retried at once: Graph asks callers to wait until usage falls
  // (minutes, up to an hour), longer than a call should wait (providerFetch retries short 429s).
  if (res.status === 429 || (error !== null && isThrottled(Number(error.code))))
    throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, graphReason(res)));
  const throttled = error !== null && error.is_transient === true;
  if (res.status >= 400 && res.status < 500 && !throttled) {
    // Graph's code 190 is an access token that is invalid, expired or revoked, whatever the HTTP status.
    throw Number(error?.code) === 190
      ? new CredentialRejected(PROVIDER, graphReason(res))
      : rejection(PROVIDER, res, graphReason(res));
  }
  if (res.status !== 200 || !isObject(res.body) || error)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(graphReason(res))}`);
  return res.body;
}

/** appsecret_proof: Graph requires it for apps with "Require App Secret" on, and it binds the token to the app. */
const appSecretProof = (accessToken: string, appSecret: string) =>
  createHmac("sha256", appSecret).update(accessToken).digest("hex");

/**
 * What a Graph call for a connection carries: its access token and, when the app secret is
 * known (the white-label app's, or Patchbay's META app for OAuth connections), the
 * appsecret_proof that apps with "Require App Secret" demand.
 */
export function graphAuth(credentials: FreshCredentials): { accessToken: string; proof: Record<string, string> } {
  const [accessToken, appSecret] =
    credentials.kind === "oauth"
      ? [credentials.tokens.accessToken, process.env.OAUTH_META_CLIENT_SECRET]
      : [credentials.credentials.access_token, credentials.credentials.app_secret];
  return { accessToken, proof: appSecret ? { appsecret_proof: appSecretProof(accessToken, appSecret) } : {} };
}

/**
 * The appsecret_proof for another token the connection obtained (a Page access token read
 * with the user token), with the same app secret graphAuth uses; {} when none is known.
 */
export function graphProofFor(credentials: FreshCredentials, accessToken: string): Record<string, string> {
  const appSecret =
    credentials.kind === "oauth" ? process.env.OAUTH_META_CLIENT_SECRET : credentials.credentials.app_secret;
  return appSecret ? { appsecret_proof: appSecretProof(accessToken, appSecret) } : {};
}

/** GET /me with the token: the Facebook user (or system user) the token acts for. */
async function me(type: string, accessToken: string, appSecret: string) {
  const body = await graphGet(
    type,
    urlWith(`${GRAPH}/me`, { fields: "id,name", appsecret_proof: appSecretProof(accessToken, appSecret) }),
    "the /me call",
    accessToken,
  );
  if (typeof body.id !== "string" || !body.id)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the /me call without an id.`);
  return { id: body.id, name: typeof body.name === "string" && body.name ? body.name : undefined };
}

/** debug_token with the app access token `<app_id>|<app_secret>`: valid, issued for this app, granted ads_read. */
async function debugToken(type: string, appId: string, appSecret: string, accessToken: string) {
  const body = await graphGet(
    type,
    urlWith(`${GRAPH}/debug_token`, { input_token: accessToken, access_token: `${appId}|${appSecret}` }),
    "the debug_token call",
  );
  const data = body.data;
  if (!isObject(data))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the debug_token call without data.`);
  if (data.is_valid !== true) {
    throw new ProviderRejection(
      PROVIDER,
      isObject(data.error) ? graphErrorText(data.error) : "debug_token reports the access token is not valid.",
    );
  }
  if (String(data.app_id ?? "") !== appId) {
    throw new ProviderRejection(
      PROVIDER,
      `the access token was issued for app ${String(data.app_id ?? "(unknown)")}, not for app_id ${appId}.`,
    );
  }
  const scopes = Array.isArray(data.scopes) ? data.scopes.map(String) : [];
  if (!scopes.includes(REQUIRED_PERMISSION)) {
    throw new ProviderRejection(
      PROVIDER,
      `the access token lacks the ${REQUIRED_PERMISSION} permission (granted: ${scopes.join(", ") || "none"}). Generate a new system-user token with ${REQUIRED_PERMISSION} ticked.`,
    );
  }
}

/**
 * Patchbay's Meta app (META) with the dialog/code flow, asking for `scopes`; the identity call is
 * GET /me, so a Facebook user connected again replaces their connection of that type.
 */
export function metaOAuth(
  scopes: readonly OAuthScope[],
  identity = "See your name and Facebook user ID",
): OAuthDefinition {
  return {
    provider: "META",
    providerName: PROVIDER,
    scopes,
    identity,
    pkce: false,
    // https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
    authorizeUrl: ({ client, redirectUri, state }) =>
      urlWith(DIALOG_URL, {
        client_id: client.clientId,
        redirect_uri: redirectUri,
        state,
        response_type: "code",
        scope: scopes.map((s) => s.name).join(","),
      }),
    async exchangeCode({ type, client, redirectUri, callback }) {
      const body = await graphGet(
        type,
        urlWith(`${GRAPH}/oauth/access_token`, {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uri: redirectUri,
          code: callbackCode(PROVIDER, callback),
        }),
        "the token exchange",
      );
      if (typeof body.access_token !== "string" || !body.access_token)
        throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the token exchange without an access_token.`);
      return tokenSetFrom(body);
    },
    async identify({ type, client }, tokens) {
      const user = await me(type, tokens.accessToken, client.clientSecret);
      return { rotationKey: `account:${user.id}`, accountId: user.id, accountName: user.name ?? user.id };
    },
  };
}

export const metaTypes: ConnectionTypeDefinition[] = [
  metaType({
    type: "meta_ads",
    name: "Meta Ads",
    logo,
    authMethods: ["oauth", "manual"],
    credentialFields: ["app_id", "app_secret", "access_token"],
    docs: metaDocs.meta_ads,
    family: "white_label",
    hosts: META_HOSTS,
    oauth: metaOAuth(SCOPES),
    async verify(credentials, ctx) {
      await debugToken(ctx.type, credentials.app_id, credentials.app_secret, credentials.access_token);
      const user = await me(ctx.type, credentials.access_token, credentials.app_secret);
      return { rotationKey: `name:${ctx.name}`, accountId: user.id, accountName: user.name };
    },
  }),
];
