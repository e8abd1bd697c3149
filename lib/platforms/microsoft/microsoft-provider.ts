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
import { microsoftDocs } from "@/lib/platforms/microsoft/microsoft-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(microsoftTypes, type);

// Microsoft Advertising (the Bing Ads API v13) through Patchbay's app on the Microsoft identity
// platform (MICROSOFT): authorization code with PKCE on the v2.0 endpoints of the `common`
// tenant, scope msads.manage plus offline_access for a refresh token. Microsoft may return a
// new refresh token on each refresh (the old one is to be discarded). Every API call also
// carries Patchbay's developer token (MICROSOFT_ADS_DEVELOPER_TOKEN, server configuration like
// GOOGLE_ADS_DEVELOPER_TOKEN). The REST (JSON) endpoints of v13 are used: errors come as an
// ApplicationFault {TrackingId, Type, OperationErrors | Errors | BatchErrors: [{Code, ErrorCode,
// Message}]}, a rate limit as HTTP 429 / error code 117 CallRateExceeded.

export const PROVIDER = "Microsoft Advertising";
// https://learn.microsoft.com/en-us/advertising/guides/authentication-oauth-consent
const AUTHORIZE_URL = "https://login.microsoftonline.com/common/oauth2/v2.0/authorize";
// https://learn.microsoft.com/en-us/advertising/guides/authentication-oauth-get-tokens
const TOKEN_URL = "https://login.microsoftonline.com/common/oauth2/v2.0/token";
export const CUSTOMER_API = "https://clientcenter.api.bingads.microsoft.com/CustomerManagement/v13";
export const CAMPAIGN_API = "https://campaign.api.bingads.microsoft.com/CampaignManagement/v13";
export const REPORTING_API = "https://reporting.api.bingads.microsoft.com/Reporting/v13";
const MSADS_SCOPE = "https://ads.microsoft.com/msads.manage";
const SCOPES: OAuthScope[] = [
  {
    name: MSADS_SCOPE,
    allows:
      "Manage your Microsoft Advertising accounts: see their campaigns and reports, pause and enable campaigns, change budgets",
    changes: true,
  },
  { name: "offline_access", allows: "Keep this access when you are not signed in (a refresh token)" },
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A provider's reason as the end of our sentence, without a doubled full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

const logo = monogramLogo("#107C10", "MA");

/** The error entries of an ApplicationFault (flat, or wrapped in `ApplicationFault`). */
function faultErrors(body: unknown): Json[] {
  if (!isObject(body)) return [];
  const fault = isObject(body.ApplicationFault) ? body.ApplicationFault : body;
  return ["OperationErrors", "Errors", "BatchErrors", "PartialErrors"].flatMap((key) =>
    Array.isArray(fault[key]) ? (fault[key] as unknown[]).filter(isObject) : [],
  );
}

/** "CallRateExceeded (117): You have exceeded …" for each error, joined. */
export function errorsReason(errors: Json[]): string {
  return errors
    .map((e) => {
      const code = [e.ErrorCode, e.Code].filter((v) => v !== undefined && v !== null && v !== "");
      const text = typeof e.Message === "string" ? e.Message : "";
      const where = typeof e.Index === "number" ? ` (item ${e.Index})` : "";
      const head = code.length === 2 ? `${String(code[0])} (${String(code[1])})` : code.map(String).join("");
      return `${head}${head && text ? ": " : ""}${text}${where}`;
    })
    .filter(Boolean)
    .join("; ");
}

function microsoftReason(res: ProviderResponse): string {
  const errors = faultErrors(res.body);
  if (errors.length) return errorsReason(errors);
  const fault = isObject(res.body) && isObject(res.body.ApplicationFault) ? res.body.ApplicationFault : res.body;
  if (isObject(fault) && typeof fault.ErrorMessage === "string") return fault.ErrorMessage;
  return providerReason(res);
}

/** Patchbay's developer token, read at call time: server configuration, required by every API call. */
function developerToken(): string {
  const token = process.env.MICROSOFT_ADS_DEVELOPER_TOKEN;
  if (!token)
    throw new ProviderRejection(
      PROVIDER,
      "no Microsoft Advertising developer token: this server has no MICROSOFT_ADS_DEVELOPER_TOKEN.",
    );
  return token;
}

export type AccountScope = { customerId?: string; accountId?: string };

/**
 * One call of a Bing Ads API v13 REST operation (POST, or PUT for updates) with the user's
 * token, the developer token and the customer / account headers. 429 or code 117 = rate limit;
 * other 4xx = Microsoft refused (401 = the token); 5xx or a non-JSON answer = unavailable.
 */
export async function msadsCall(
  type: string,
  url: string,
  accessToken: string,
  what: string,
  body: Json,
  { customerId, accountId, method = "POST" }: AccountScope & { method?: "POST" | "PUT" } = {},
): Promise<Json> {
  const res = await providerFetch(PROVIDER, hosted(type), url, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      DeveloperToken: developerToken(),
      ...(customerId && { CustomerId: customerId }),
      ...(accountId && { CustomerAccountId: accountId }),
      "content-type": "application/json",
      accept: "application/json",
    },
    body: JSON.stringify(body),
  });
  const codes = faultErrors(res.body).map((e) => Number(e.Code));
  if (res.status === 429 || (res.status !== 200 && codes.includes(117)))
    throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, microsoftReason(res)));
  if (res.status >= 400 && res.status < 500) {
    // 109 AuthenticationTokenExpired / 105 InvalidCredentials speak of the token whatever the status.
    const reason = microsoftReason(res);
    throw codes.includes(109) ? rejection(PROVIDER, { ...res, status: 401 }, reason) : rejection(PROVIDER, res, reason);
  }
  if (res.status !== 200 || !isObject(res.body))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${sentence(microsoftReason(res))}`);
  return res.body;
}

/** The access token of a Microsoft Advertising connection (OAuth only, refreshed by the framework). */
export const accessTokenOf = (credentials: FreshCredentials) =>
  credentials.kind === "oauth" ? credentials.tokens.accessToken : "";

/** Partial errors of a 200 answer (UpdateCampaigns, GetCampaignsByIds): Microsoft refused those items. */
export function partialErrors(body: Json): Json[] {
  return (Array.isArray(body.PartialErrors) ? body.PartialErrors : []).filter(isObject);
}

/** GetUser (Customer Management): the signed-in user and their roles per customer. */
export async function getUser(type: string, accessToken: string): Promise<Json> {
  // https://learn.microsoft.com/en-us/advertising/customer-management-service/getuser
  return msadsCall(type, `${CUSTOMER_API}/User/Query`, accessToken, "the GetUser call", { UserId: null });
}

/**
 * The customer (manager account) an ad account is reached through: `given`, else the one of the
 * user's customer roles that lists the account, else the user's only customer.
 */
export async function customerOf(
  type: string,
  accessToken: string,
  accountId: string,
  given: string | undefined,
): Promise<string> {
  if (given) return given;
  const user = await getUser(type, accessToken);
  const roles = (Array.isArray(user.CustomerRoles) ? user.CustomerRoles : []).filter(isObject);
  const ids = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const listing = roles.find((r) => [...ids(r.AccountIds), ...ids(r.LinkedAccountIds)].includes(accountId));
  const customers = [...new Set(roles.map((r) => String(r.CustomerId ?? "")).filter(Boolean))];
  const customer = listing ? String(listing.CustomerId ?? "") : customers.length === 1 ? customers[0] : "";
  if (!customer)
    throw new OperationInputError(
      `customer_id is required: account ${accountId} is not listed in one of your customers' roles (customers: ${customers.join(", ") || "none"}); see microsoft_ads.accounts.list.`,
    );
  return customer;
}

const microsoftOAuth: OAuthDefinition = {
  provider: "MICROSOFT",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See your Microsoft Advertising user name and which customers and accounts you can reach",
  pkce: true,
  authorizeUrl: ({ client, redirectUri, state, codeChallenge }) =>
    urlWith(AUTHORIZE_URL, {
      client_id: client.clientId,
      response_type: "code",
      redirect_uri: redirectUri,
      response_mode: "query",
      scope: SCOPES.map((s) => s.name).join(" "),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: codeChallenge ? "S256" : undefined,
    }),
  exchangeCode: ({ type, client, redirectUri, callback, codeVerifier }) =>
    requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, callback),
      redirect_uri: redirectUri,
      scope: SCOPES.map((s) => s.name).join(" "),
      code_verifier: codeVerifier,
    }),
  async refresh({ type, client }, refreshToken) {
    const tokens = await requestToken(PROVIDER, hosted(type), TOKEN_URL, client, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      scope: SCOPES.map((s) => s.name).join(" "),
    });
    // Microsoft may rotate the refresh token: the new one replaces the old, which is discarded.
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  },
  async identify({ type }, tokens) {
    const body = await getUser(type, tokens.accessToken);
    const user = isObject(body.User) ? body.User : null;
    const id = user && (typeof user.Id === "string" || typeof user.Id === "number") ? String(user.Id) : "";
    if (!user || !id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the GetUser call without a user Id.`);
    const contact = isObject(user.ContactInfo) ? user.ContactInfo : {};
    const name = [contact.Email, user.UserName].find((v): v is string => typeof v === "string" && v !== "");
    return { rotationKey: `account:${id}`, accountId: id, accountName: name ?? `Microsoft Advertising user ${id}` };
  },
};

export const microsoftTypes: ConnectionTypeDefinition[] = [
  {
    type: "microsoft_ads",
    name: "Microsoft Advertising",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: microsoftDocs.microsoft_ads,
    family: "oauth_only",
    hosts: [
      "login.microsoftonline.com",
      "clientcenter.api.bingads.microsoft.com",
      "campaign.api.bingads.microsoft.com",
      "reporting.api.bingads.microsoft.com",
      // Where PollGenerateReport's ReportDownloadUrl points (a ZIP file).
      "bingadsappsstorageprod.blob.core.windows.net",
    ],
    oauth: microsoftOAuth,
  },
];
