import "server-only";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { tokenSetFrom, urlWith, callbackCode } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type TokenSet,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { hubspotDocs } from "@/lib/platforms/hubspot/hubspot-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(hubspotTypes, type);

// HubSpot CRM through Patchbay's public HubSpot app (HUBSPOT). The token endpoint is RFC 6749
// shaped but answers errors as {status: "BAD_AUTH_CODE", message, correlationId}; identity is
// the access-token metadata call, which names the portal (hub_id, hub_domain) and the scopes
// actually granted.

const PROVIDER = "HubSpot";
const AUTHORIZE_URL = "https://app.hubspot.com/oauth/authorize";
const TOKEN_URL = "https://api.hubapi.com/oauth/v1/token";
const TOKEN_INFO_URL = "https://api.hubapi.com/oauth/v1/access-tokens/";
const REQUIRED_SCOPE = "crm.objects.contacts.read";
// The write scope is for hubspot.contact.upsert (lib/platforms/hubspot/hubspot-writes.ts).
const SCOPES: OAuthScope[] = [
  { name: "oauth", allows: "Install the app in your HubSpot account and see which account it is" },
  { name: REQUIRED_SCOPE, allows: "See the contacts in your CRM and their properties" },
  // hubspot.contact.upsert creates and updates contacts.
  { name: "crm.objects.contacts.write", allows: "Create, update and delete the contacts in your CRM", changes: true },
  // hubspot.deals.list, hubspot.deal.update_stage, hubspot.companies.list and hubspot.company.create
  // (https://developers.hubspot.com/docs/apps/legacy-apps/authentication/scopes).
  { name: "crm.objects.deals.read", allows: "See the deals in your CRM and their properties" },
  { name: "crm.objects.deals.write", allows: "Create, update and delete the deals in your CRM", changes: true },
  { name: "crm.objects.companies.read", allows: "See the companies in your CRM and their properties" },
  { name: "crm.objects.companies.write", allows: "Create, update and delete the companies in your CRM", changes: true },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#FF7A59", "H");

/** "BAD_AUTH_CODE: missing or unknown auth code" from HubSpot's error body. */
function hubspotReason(res: ProviderResponse): string {
  const b = isObject(res.body) ? res.body : null;
  if (b && typeof b.message === "string") {
    const code =
      typeof b.category === "string"
        ? b.category
        : typeof b.errorType === "string"
          ? b.errorType
          : typeof b.status === "string"
            ? b.status
            : undefined;
    return code ? `${code}: ${b.message}` : b.message;
  }
  return providerReason(res);
}

function rejectOrUnavailable(res: ProviderResponse, what: string): never {
  // https://developers.hubspot.com/docs/developer-tooling/platform/usage-guidelines (429 errorType RATE_LIMIT)
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, hubspotReason(res)));
  if (res.status >= 400 && res.status < 500 && res.status !== 429) throw rejection(PROVIDER, res, hubspotReason(res));
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(hubspotReason(res))}`);
}

/**
 * One call of HubSpot's CRM API with the connection's token (GET, or POST with a JSON body):
 * 4xx = HubSpot refused (INVALID_AUTHENTICATION, MISSING_SCOPES, VALIDATION_ERROR …), the rest unusable.
 */
export async function hubspotApiCall(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
  body?: unknown,
): Promise<Json> {
  // HubSpot connects only through OAuth (no credential fields), so there is always a token.
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: "application/json",
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // 201: a create (POST /crm/v3/objects/<type>) answers the new object.
  if ((res.status !== 200 && res.status !== 201) || !isObject(res.body)) rejectOrUnavailable(res, what);
  return res.body;
}

/**
 * A GET of one CRM object: its body, or null when HubSpot answers 404 (no such object); other
 * refusals as hubspotApiCall.
 */
export async function hubspotGetOrNull(
  type: string,
  url: string,
  credentials: FreshCredentials,
  what: string,
): Promise<Json | null> {
  const accessToken = credentials.kind === "oauth" ? credentials.tokens.accessToken : "";
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
  });
  if (res.status === 404) return null;
  if (res.status !== 200 || !isObject(res.body)) rejectOrUnavailable(res, what);
  return res.body;
}

/** One form-encoded call of HubSpot's token endpoint (client credentials in the body, as HubSpot requires). */
async function token(type: string, params: Record<string, string>): Promise<TokenSet> {
  const res = await providerFetch(PROVIDER, hosted(type), TOKEN_URL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(params),
  });
  const body = isObject(res.body) ? res.body : null;
  if (res.status !== 200 || typeof body?.access_token !== "string" || !body.access_token)
    rejectOrUnavailable(res, "the token call");
  return tokenSetFrom(body);
}

const hubspotOAuth: OAuthDefinition = {
  provider: "HUBSPOT",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See which HubSpot account you connected",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: SCOPES.map((s) => s.name).join(" "),
      state,
    }),
  exchangeCode: ({ type, client, redirectUri, callback }) =>
    token(type, {
      grant_type: "authorization_code",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uri: redirectUri,
      code: callbackCode(PROVIDER, callback),
    }),
  async refresh({ type, client }, refreshToken) {
    const tokens = await token(type, {
      grant_type: "refresh_token",
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    });
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  },
  async identify({ type }, tokens) {
    const res = await providerFetch(
      PROVIDER,
      hosted(type),
      `${TOKEN_INFO_URL}${encodeURIComponent(tokens.accessToken)}`,
      { headers: { accept: "application/json" } },
    );
    const info = isObject(res.body) ? res.body : null;
    if (res.status !== 200) rejectOrUnavailable(res, "the access-token metadata call");
    const hubId = typeof info?.hub_id === "number" || typeof info?.hub_id === "string" ? String(info.hub_id) : "";
    if (!info || !hubId)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the access-token metadata call without a hub_id.`);
    // The metadata call works for any live token; the scopes it lists are what the portal granted.
    const scopes = Array.isArray(info.scopes) ? info.scopes.map(String) : [];
    if (!scopes.includes(REQUIRED_SCOPE)) {
      throw new ProviderRejection(
        PROVIDER,
        `MISSING_SCOPES: This app hasn't been granted all required scopes to make this call (required: ${REQUIRED_SCOPE}; granted: ${scopes.join(", ") || "none"}).`,
      );
    }
    const domain = typeof info.hub_domain === "string" && info.hub_domain ? info.hub_domain : undefined;
    return { rotationKey: `account:${hubId}`, accountId: hubId, accountName: domain ?? `HubSpot ${hubId}` };
  },
};

export const hubspotTypes: ConnectionTypeDefinition[] = [
  {
    type: "hubspot",
    name: "HubSpot",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: hubspotDocs.hubspot,
    family: "oauth_only",
    hosts: ["app.hubspot.com", "api.hubapi.com"],
    oauth: hubspotOAuth,
  },
];
