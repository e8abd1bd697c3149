import { createHash, randomBytes } from "node:crypto";
import {
  OAuthBook,
  RateLimits,
  authorizeControls,
  startStandInServer,
  testClient,
  type Reply,
  type Route,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";
import { workspace } from "./google-workspace";
import { marketing } from "./google-marketing";
import {
  DEPTH_RESOURCES,
  depthRoutes,
  depthSearch,
  seedAdGroups,
  type AdsAdGroup,
  type AdsNegative,
} from "./google-depth";

// Stand-in for Google (ga4, gads, gsc): accounts.google.com, oauth2.googleapis.com,
// openidconnect.googleapis.com and the three product APIs, at their real paths and in Google's
// wire format (form token requests, {error, error_description} from the token endpoint,
// {error: {code, message, status, details}} from the APIs).
//
// Values a test posts as white-label credentials:
// - client_id `bad…`       → 401 invalid_client "The OAuth client was not found."
// - client_secret `bad…`   → 401 invalid_client "Unauthorized"
// - refresh_token `bad_scope…` → the refresh works but grants no scope, so the API call answers
//                            403 PERMISSION_DENIED "Request had insufficient authentication scopes."
// - refresh_token `bad…`   → 400 invalid_grant "Token has been expired or revoked."
// - developer_token `bad_unapproved…` → 403 DEVELOPER_TOKEN_NOT_APPROVED (test-account-only token)
// - developer_token `bad…` → 401 DEVELOPER_TOKEN_INVALID "The developer token is not valid."
// Any other value works; the OAuth app is testClient("GOOGLE").
//
// Read calls (the MCP tools), with deterministic data derived from the account and the arguments:
// - POST /v1beta/properties/{id}:runReport: any property; rows are the dimensions' values
//   (dates of the range, or a fixed list per dimension) × a hash-derived value per metric. A
//   metric or dimension name outside the stand-in's small schema → 400 INVALID_ARGUMENT
//   "Field foo is not a valid metric. …", as GA4 answers an unknown name.
// - POST /v18/customers/{id}/googleAds:search: the GAQL's SELECT fields, LIMIT rows (at most 25);
//   a statement without FROM → 400 QUERY_ERROR; customer IDs beginning with 999 → 403
//   USER_PERMISSION_DENIED (reached only through a manager; login-customer-id does not help here).
//   FROM campaign answers from the account's campaigns (below), `WHERE campaign.id = N` honoured:
//   campaign.id/name/status/campaign_budget, campaign_budget.amount_micros/period/explicitly_shared
//   and customer.currency_code are the stored state; other fields (metrics …) are derived as above.
// - POST /webmasters/v3/sites/{site}/searchAnalytics/query: rows per dimension value, rowLimit
//   and startRow honoured, sorted by clicks descending.
//
// Writes (the write operations), kept in memory per customer ID and seen by later searches. Every
// customer (USD) has three campaigns, ids digits("<customer>/campaign/<i>", 11) for i = 0..2:
// "Brand — US" (ENABLED, 50.00 a day), "Generic — EU" (ENABLED, 25.00 a day on an explicitly
// shared budget) and "Display — Remarketing" (PAUSED, 10.00 a day), one DAILY budget each.
// - POST /v18/customers/{id}/campaigns:mutate: `update` operations with `updateMask` status
//   (ENABLED, PAUSED) and/or name; POST /v18/customers/{id}/campaignBudgets:mutate: `update` with
//   amount_micros (amountMicros accepted too) and/or name. All operations are checked before any
//   is applied (atomic, as without partialFailure); validateOnly applies nothing and answers {}.
//   Answer: {results: [{resourceName}]}, plus the `campaign` / `campaignBudget` with
//   responseContentType MUTABLE_RESOURCE. Errors are GoogleAdsFailures located at the operation:
//   no operations → fieldError REQUIRED; no create/update/remove → requestError OPERATION_REQUIRED;
//   no mask → fieldMaskError FIELD_MASK_MISSING; another field → FIELD_NOT_FOUND; a resource name
//   of another shape → requestError RESOURCE_NAME_MALFORMED; an unknown id (or one of another
//   customer) → mutateError RESOURCE_NOT_FOUND "Resource was not found."; a status outside the
//   enum → 400 "Invalid value at 'operations[0].update.status' …"; an amount not a multiple of
//   10000 micros → campaignBudgetError NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT. create and remove
//   are not implemented (501). Auth, developer token and 999… customers as for the search.
//
// The week-to-week reports and changes (search terms, keywords, ad groups, negative keywords, GA4
// realtime and metadata, URL inspection, sitemaps) are served by google-depth.ts: see its header.

const CLIENT = testClient("GOOGLE");
const SCOPE = {
  analytics: "https://www.googleapis.com/auth/analytics.readonly",
  ads: "https://www.googleapis.com/auth/adwords",
  searchConsole: "https://www.googleapis.com/auth/webmasters.readonly",
};
const EMAIL_SCOPE = "https://www.googleapis.com/auth/userinfo.email";

/**
 * A product on Google's app served by this same stand-in (its types share Google's sign-in and
 * token endpoints): the scopes it may ask for and its API routes, given the shared Google pieces.
 */
export type GoogleExtension = {
  types: string[];
  scopes: string[];
  routes(google: GoogleKit): Record<string, Route>;
};
export type GoogleKit = {
  /** The grant of the request's `Authorization: Bearer` token ({account, scope}), or null. */
  bearer(req: StandInRequest): { account: string; scope: string } | null;
  /** Whether a granted scope list (space-separated) holds any of `wanted`. */
  hasScope(granted: string, ...wanted: string[]): boolean;
  apiError: typeof apiError;
  unauthenticated: typeof unauthenticated;
  insufficientScopes: typeof insufficientScopes;
  /** Google's 429 RESOURCE_EXHAUSTED "Quota exceeded …" for an account RateLimits throttles (else null). */
  throttled(account: string, service: string): Reply | null;
  digits(seed: string, n: number): string;
};
const EXTENSIONS: GoogleExtension[] = [workspace, marketing];

const KNOWN_SCOPES = new Set([
  "openid",
  "email",
  "profile",
  EMAIL_SCOPE,
  "https://www.googleapis.com/auth/userinfo.profile",
  ...Object.values(SCOPE),
  ...EXTENSIONS.flatMap((e) => e.scopes),
]);
/** What a white-label refresh token (one this stand-in did not issue) is taken to grant. */
const ALL_SCOPES = ["openid", EMAIL_SCOPE, ...Object.values(SCOPE), ...EXTENSIONS.flatMap((e) => e.scopes)].join(" ");

const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const subOf = (account: string) => `1${digits(`sub:${account}`, 20)}`;
/**
 * The account's own Ads customer ID. Never one beginning with 999, which the stand-in reserves for
 * a customer reached only through a manager (about 1 derived ID in 1,000 began so, and then every
 * Ads call of that test's account was refused).
 */
export const adsCustomerOf = (account: string) => digits(`ads:${account}`, 10).replace(/^999/, "199");

const tokenError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error, error_description: description },
  headers: { "cache-control": "no-store" },
});

/** Google's API error body (google.rpc.Status over HTTP/JSON). */
const apiError = (code: number, status: string, message: string, details: unknown[] = []): Reply => ({
  status: code,
  json: { error: { code, message, status, ...(details.length && { details }) } },
});

const insufficientScopes = (service: string, method: string) =>
  apiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      domain: "googleapis.com",
      metadata: { service, method },
    },
  ]);

const unauthenticated = () =>
  apiError(
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED",
        domain: "googleapis.com",
      },
    ],
  );

type FieldPath = { fieldName: string; index?: number }[];

const adsFailure = (
  code: number,
  status: string,
  message: string,
  errorCode: Record<string, string>,
  errorMessage: string,
  fieldPath?: FieldPath,
) =>
  apiError(code, status, message, [
    {
      "@type": "type.googleapis.com/google.ads.googleads.v18.errors.GoogleAdsFailure",
      errors: [{ errorCode, message: errorMessage, ...(fieldPath && { location: { fieldPathElements: fieldPath } }) }],
      requestId: randomBytes(11).toString("base64url"),
    },
  ]);

/** A mutate's refusal of one of its operations: 400 INVALID_ARGUMENT with the failure located at it. */
const badOperation = (errorCode: Record<string, string>, errorMessage: string, fieldPath: FieldPath) =>
  adsFailure(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", errorCode, errorMessage, fieldPath);

type AdsBudget = { id: string; name: string; amountMicros: string; period: "DAILY"; explicitlyShared: boolean };
type AdsCampaign = { id: string; name: string; status: string; budgetId: string };
type AdsAccount = {
  currency: string;
  campaigns: AdsCampaign[];
  budgets: Map<string, AdsBudget>;
  adGroups: AdsAdGroup[];
  negatives: AdsNegative[];
};

const ADS_CAMPAIGNS = [
  { name: "Brand — US", status: "ENABLED", micros: 50_000_000, shared: false },
  { name: "Generic — EU", status: "ENABLED", micros: 25_000_000, shared: true },
  { name: "Display — Remarketing", status: "PAUSED", micros: 10_000_000, shared: false },
];
const snake = (s: string) => s.trim().replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every date from..to (YYYY-MM-DD, inclusive), at most `max`. */
function datesBetween(from: string, to: string, max = 400): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && out.length < max; t += DAY_MS)
    out.push(isoDay(t));
  return out;
}

/** GA4's date forms: YYYY-MM-DD, today, yesterday, NdaysAgo. */
function ga4Date(v: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  if (v === "today") return isoDay(Date.now());
  if (v === "yesterday") return isoDay(Date.now() - DAY_MS);
  const m = /^(\d+)daysAgo$/.exec(v);
  return m ? isoDay(Date.now() - Number(m[1]) * DAY_MS) : null;
}

const GA4_METRICS = new Set([
  "sessions",
  "totalUsers",
  "newUsers",
  "activeUsers",
  "screenPageViews",
  "conversions",
  "totalRevenue",
  "engagementRate",
  "bounceRate",
  "eventCount",
  "averageSessionDuration",
]);
const GA4_DIMENSION_VALUES: Record<string, string[]> = {
  country: ["United States", "Germany", "United Kingdom", "France", "Japan"],
  deviceCategory: ["desktop", "mobile", "tablet"],
  sessionDefaultChannelGroup: ["Organic Search", "Direct", "Paid Search", "Referral", "Email"],
  sessionSource: ["google", "(direct)", "newsletter", "bing"],
  pagePath: ["/", "/pricing", "/blog", "/docs", "/signup"],
  city: ["New York", "Berlin", "London", "Paris", "Tokyo"],
  eventName: ["page_view", "session_start", "first_visit", "purchase"],
};
const GA4_RATIOS = new Set(["engagementRate", "bounceRate"]);

/** Google's authorize page shows errors to the user instead of redirecting when the client or redirect is wrong. */
const errorPage = (status: number, error: string, text: string): Reply => ({
  status,
  text: `Error ${status}: ${error}\n\n${text}\n`,
});

function start() {
  const book = new OAuthBook();
  /** Scopes granted to each refresh token issued at consent (include_granted_scopes merges them). */
  const refreshScopes = new Map<string, Set<string>>();

  function bearer(req: StandInRequest) {
    const token = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return token ? (book.accessTokens.get(token) ?? null) : null;
  }
  const hasScope = (granted: string, ...wanted: string[]) => granted.split(" ").some((s) => wanted.includes(s));

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId)
      return errorPage(401, "invalid_client", "The OAuth client was not found.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage(
        400,
        "redirect_uri_mismatch",
        `The redirect URI in the request, ${q.get("redirect_uri") ?? "(none)"}, does not match the ones authorised for the OAuth client.`,
      );
    }
    if (q.get("response_type") !== "code")
      return errorPage(
        400,
        "unsupported_response_type",
        `Invalid response_type: ${q.get("response_type") ?? "(none)"}`,
      );
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (!scopes.length || unknown.length)
      return errorPage(400, "invalid_scope", `Some requested scopes were invalid. {invalid=[${unknown.join(", ")}]}`);
    if (!q.get("state")) return errorPage(400, "invalid_request", "Missing required parameter: state");
    if (!q.get("code_challenge") || q.get("code_challenge_method") !== "S256")
      return errorPage(
        400,
        "invalid_request",
        "Missing or unsupported code_challenge / code_challenge_method (S256 required).",
      );

    const controls = authorizeControls(q);
    const back = new URL(redirect);
    back.searchParams.set("state", q.get("state")!);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
    } else {
      // Google reports the granted scopes in their long form.
      const granted = scopes.map((s) => (s === "email" ? EMAIL_SCOPE : s)).join(" ");
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: granted,
        codeChallenge: q.get("code_challenge"),
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", granted);
      back.searchParams.set("authuser", "0");
      back.searchParams.set("prompt", "consent");
    }
    return { status: 302, redirect: back.toString() };
  }

  function token(req: StandInRequest): Reply {
    const f = req.form;
    let clientId = f.get("client_id") ?? "";
    let clientSecret = f.get("client_secret") ?? "";
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
      clientId = decodeURIComponent(id ?? "");
      clientSecret = decodeURIComponent(secret ?? "");
    }
    if (!clientId || clientId.startsWith("bad"))
      return tokenError(401, "invalid_client", "The OAuth client was not found.");
    const secretOk =
      clientId === CLIENT.clientId
        ? clientSecret === CLIENT.clientSecret
        : !!clientSecret && !clientSecret.startsWith("bad");
    if (!secretOk) return tokenError(401, "invalid_client", "Unauthorized");

    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      const issued = book.codes.get(code);
      if (issued?.tokenFailure === "server_error") return tokenError(500, "internal_failure", "Backend Error");
      const redeemed = book.redeem(code, clientId, f.get("redirect_uri"), f.get("code_verifier"));
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri")) return tokenError(400, "redirect_uri_mismatch", "Bad Request");
        if (redeemed === "code_verifier is required") return tokenError(400, "invalid_grant", "Missing code verifier.");
        if (redeemed.startsWith("code_verifier")) return tokenError(400, "invalid_grant", "Invalid code verifier.");
        return tokenError(400, "invalid_grant", "Bad Request");
      }
      const refreshToken = book.refreshTokenFor(redeemed.account);
      const scopes = refreshScopes.get(refreshToken) ?? new Set<string>();
      for (const s of redeemed.scope.split(" ")) scopes.add(s);
      refreshScopes.set(refreshToken, scopes);
      return {
        json: {
          access_token: book.issueAccessToken(redeemed.account, redeemed.scope),
          expires_in: 3599,
          refresh_token: refreshToken,
          scope: redeemed.scope,
          token_type: "Bearer",
        },
        headers: { "cache-control": "no-store" },
      };
    }
    if (grant === "refresh_token") {
      const refreshToken = f.get("refresh_token") ?? "";
      if (!refreshToken) return tokenError(400, "invalid_request", "Missing required parameter: refresh_token");
      const g = book.grantOfRefreshToken(refreshToken);
      if (!g) return tokenError(400, "invalid_grant", "Token has been expired or revoked.");
      const scope = !g.scoped
        ? ""
        : refreshScopes.has(refreshToken)
          ? [...refreshScopes.get(refreshToken)!].join(" ")
          : ALL_SCOPES;
      return {
        json: { access_token: book.issueAccessToken(g.account, scope), expires_in: 3599, scope, token_type: "Bearer" },
        headers: { "cache-control": "no-store" },
      };
    }
    return tokenError(400, "unsupported_grant_type", `Invalid grant_type: ${grant ?? ""}`);
  }

  function userinfo(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t)
      return {
        status: 401,
        json: { error: "invalid_request", error_description: "Invalid Credentials" },
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      };
    if (!hasScope(t.scope, "openid", "email", EMAIL_SCOPE))
      return insufficientScopes(
        "openidconnect.googleapis.com",
        "google.identity.openidconnect.v1.UserInfoService.GetUserInfo",
      );
    return { json: { sub: subOf(t.account), email: `${t.account}@example.com`, email_verified: true } };
  }

  function accountSummaries(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.analytics, "https://www.googleapis.com/auth/analytics.edit")) {
      return insufficientScopes(
        "analyticsadmin.googleapis.com",
        "google.analytics.admin.v1beta.AnalyticsAdminService.ListAccountSummaries",
      );
    }
    const id = digits(`ga:${t.account}`, 9);
    return {
      json: {
        accountSummaries: [
          {
            name: `accountSummaries/${id}`,
            account: `accounts/${id}`,
            displayName: `${t.account} Analytics`,
            propertySummaries: [
              {
                property: `properties/${digits(`gap:${t.account}`, 9)}`,
                displayName: "Main website",
                propertyType: "PROPERTY_TYPE_ORDINARY",
                parent: `accounts/${id}`,
              },
            ],
          },
        ],
        nextPageToken: "",
      },
    };
  }

  function sites(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.searchConsole, "https://www.googleapis.com/auth/webmasters")) {
      return insufficientScopes("searchconsole.googleapis.com", "google.searchconsole.v1.SitesService.List");
    }
    return {
      json: {
        siteEntry: [{ siteUrl: `sc-domain:${t.account.replace(/_/g, "-")}.example.com`, permissionLevel: "siteOwner" }],
      },
    };
  }

  function listAccessibleCustomers(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.ads))
      return insufficientScopes(
        "googleads.googleapis.com",
        "google.ads.googleads.v18.services.CustomerService.ListAccessibleCustomers",
      );
    return developerTokenRefusal(req) ?? { json: { resourceNames: [`customers/${adsCustomerOf(t.account)}`] } };
  }

  /** The Ads API's answer to a missing or refused developer-token header, or null when it is fine. */
  function developerTokenRefusal(req: StandInRequest): Reply | null {
    const developerToken = String(req.headers["developer-token"] ?? "");
    if (!developerToken) {
      return adsFailure(
        400,
        "INVALID_ARGUMENT",
        "Request contains an invalid argument.",
        { requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING" },
        "developer-token parameter is missing.",
      );
    }
    if (developerToken.startsWith("bad_unapproved")) {
      return adsFailure(
        403,
        "PERMISSION_DENIED",
        "The caller does not have permission",
        { authorizationError: "DEVELOPER_TOKEN_NOT_APPROVED" },
        "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.",
      );
    }
    if (developerToken.startsWith("bad")) {
      return adsFailure(
        401,
        "UNAUTHENTICATED",
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        { authenticationError: "DEVELOPER_TOKEN_INVALID" },
        "The developer token is not valid.",
      );
    }
    return null;
  }

  function runReport(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.analytics, "https://www.googleapis.com/auth/analytics.edit")) {
      return insufficientScopes(
        "analyticsdata.googleapis.com",
        "google.analytics.data.v1beta.BetaAnalyticsData.RunReport",
      );
    }
    const b = (req.json ?? {}) as {
      dateRanges?: { startDate?: string; endDate?: string }[];
      dimensions?: { name?: string }[];
      metrics?: { name?: string }[];
      limit?: number | string;
    };
    const metrics = (b.metrics ?? []).map((m) => String(m.name));
    const dimensions = (b.dimensions ?? []).map((d) => String(d.name));
    if (!metrics.length) return apiError(400, "INVALID_ARGUMENT", "A request must have at least one metric.");
    const unknownMetric = metrics.find((m) => !GA4_METRICS.has(m));
    const schemaLink =
      "For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema";
    if (unknownMetric)
      return apiError(400, "INVALID_ARGUMENT", `Field ${unknownMetric} is not a valid metric. ${schemaLink}`);
    const unknownDimension = dimensions.find((d) => d !== "date" && !GA4_DIMENSION_VALUES[d]);
    if (unknownDimension)
      return apiError(400, "INVALID_ARGUMENT", `Field ${unknownDimension} is not a valid dimension. ${schemaLink}`);
    const range = b.dateRanges?.[0] ?? {};
    const [from, to] = [ga4Date(String(range.startDate ?? "")), ga4Date(String(range.endDate ?? ""))];
    if (!from || !to) return apiError(400, "INVALID_ARGUMENT", `Invalid date range: ${JSON.stringify(range)}`);
    if (from > to)
      return apiError(400, "INVALID_ARGUMENT", "The dateRange's startDate must be on or before its endDate.");

    const property = req.params.property;
    let combos: string[][] = [[]];
    for (const d of dimensions) {
      const values = d === "date" ? datesBetween(from, to).map((v) => v.replace(/-/g, "")) : GA4_DIMENSION_VALUES[d];
      combos = combos.flatMap((c) => values.map((v) => [...c, v]));
    }
    const limit = Math.max(1, Math.min(Number(b.limit ?? 10000), 250000));
    const rows = combos.slice(0, limit).map((values) => ({
      dimensionValues: values.map((value) => ({ value })),
      metricValues: metrics.map((m) => {
        const seed = `${t.account}/${property}/${values.join("|")}/${m}`;
        return { value: GA4_RATIOS.has(m) ? (hashInt(seed, 10000) / 10000).toString() : String(hashInt(seed, 5000)) };
      }),
    }));
    return {
      json: {
        dimensionHeaders: dimensions.map((name) => ({ name })),
        metricHeaders: metrics.map((name) => ({ name, type: GA4_RATIOS.has(name) ? "TYPE_FLOAT" : "TYPE_INTEGER" })),
        ...(rows.length && { rows }),
        rowCount: combos.length,
        metadata: { currencyCode: "USD", timeZone: "America/New_York" },
        kind: "analyticsData#runReport",
      },
    };
  }

  /** The customer's campaigns and budgets, made on first use. */
  const adsAccounts = new Map<string, AdsAccount>();
  function adsAccount(customer: string): AdsAccount {
    let account = adsAccounts.get(customer);
    if (!account) {
      const budgets = new Map<string, AdsBudget>();
      const campaigns = ADS_CAMPAIGNS.map((c, i) => {
        const budget: AdsBudget = {
          id: digits(`${customer}/campaignBudget/${i}`, 11),
          name: `${c.name} budget`,
          amountMicros: String(c.micros),
          period: "DAILY",
          explicitlyShared: c.shared,
        };
        budgets.set(budget.id, budget);
        return { id: digits(`${customer}/campaign/${i}`, 11), name: c.name, status: c.status, budgetId: budget.id };
      });
      adsAccounts.set(
        customer,
        (account = { currency: "USD", campaigns, budgets, adGroups: seedAdGroups(customer, campaigns), negatives: [] }),
      );
    }
    return account;
  }

  /** Token, scope, developer token and customer access of an Ads API call (search or mutate), or null when all is well. */
  function adsRefusal(req: StandInRequest, method: string): Reply | null {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.ads))
      return insufficientScopes("googleads.googleapis.com", `google.ads.googleads.v18.services.${method}`);
    const refusal = developerTokenRefusal(req);
    if (refusal) return refusal;
    if (req.params.customer.startsWith("999")) {
      return adsFailure(
        403,
        "PERMISSION_DENIED",
        "The caller does not have permission",
        { authorizationError: "USER_PERMISSION_DENIED" },
        "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid",
      );
    }
    return null;
  }

  function adsSearch(req: StandInRequest): Reply {
    const refusal = adsRefusal(req, "GoogleAdsService.Search");
    if (refusal) return refusal;
    const t = bearer(req)!;
    const customer = req.params.customer;
    const query = String((req.json as { query?: unknown } | null)?.query ?? "");
    const m = /^\s*select\s+(.+?)\s+from\s+(\w+)(.*)$/is.exec(query);
    if (!m) {
      return adsFailure(
        400,
        "INVALID_ARGUMENT",
        "Request contains an invalid argument.",
        { queryError: "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE" },
        `Error in query: unexpected input ${query.slice(0, 40)}.`,
      );
    }
    const fields = m[1]
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    const resource = m[2];
    if (DEPTH_RESOURCES.has(resource)) {
      return (
        kit.throttled(t.account, "googleads.googleapis.com") ??
        depthSearch(kit, customer, adsAccount(customer), resource, fields, m[3])
      );
    }
    const limit = Math.min(Number(/\blimit\s+(\d+)/i.exec(m[3])?.[1] ?? 25), 25);
    const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    // FROM campaign: the stored campaigns (WHERE campaign.id = N honoured); other resources: `limit` derived rows.
    const account = resource === "campaign" ? adsAccount(customer) : null;
    const idFilter = /\bwhere\b[\s\S]*?\bcampaign\.id\s*=\s*(\d+)/i.exec(m[3])?.[1];
    const campaigns = account
      ? account.campaigns.filter((c) => idFilter === undefined || c.id === idFilter).slice(0, limit)
      : null;
    /** A field the stored state answers, or undefined. */
    function stored(c: AdsCampaign, res: string, key: string): unknown {
      const budget = account!.budgets.get(c.budgetId)!;
      if (res === "campaign")
        return {
          id: c.id,
          name: c.name,
          status: c.status,
          campaignBudget: `customers/${customer}/campaignBudgets/${budget.id}`,
        }[key];
      if (res === "campaign_budget")
        return {
          id: budget.id,
          name: budget.name,
          amountMicros: budget.amountMicros,
          period: budget.period,
          explicitlyShared: budget.explicitlyShared,
        }[key];
      if (res === "customer") return { id: customer, currencyCode: account!.currency }[key];
      return undefined;
    }
    const results = Array.from({ length: campaigns ? campaigns.length : limit }, (_, i) => {
      const row: Record<string, Record<string, unknown>> = {};
      const campaign = campaigns?.[i];
      const id = campaign?.id ?? digits(`${customer}/${resource}/${i}`, 11);
      row[camel(resource)] = { resourceName: `customers/${customer}/${camel(resource)}s/${id}` };
      for (const f of fields) {
        const [res, ...rest] = f.split(".");
        const key = camel(rest.join("."));
        const seed = `${t.account}/${customer}/${i}/${f}`;
        if (campaign && res === "campaign_budget")
          row.campaignBudget ??= { resourceName: `customers/${customer}/campaignBudgets/${campaign.budgetId}` };
        if (campaign && res === "customer") row.customer ??= { resourceName: `customers/${customer}` };
        row[camel(res)] ??= {};
        if (key === "resourceName") {
          row[camel(res)].resourceName ??= `customers/${customer}/${camel(res)}s/${id}`;
          continue;
        }
        const state = campaign ? stored(campaign, res, key) : undefined;
        row[camel(res)][key] =
          state !== undefined
            ? state
            : res === "metrics"
              ? /ctr|rate|average/.test(key)
                ? hashInt(seed, 10000) / 10000
                : String(hashInt(seed, /micros/i.test(key) ? 50_000_000 : 5000))
              : key === "id"
                ? id
                : key === "date"
                  ? isoDay(Date.now() - (i + 1) * DAY_MS)
                  : key === "name"
                    ? `${res} ${i + 1}`
                    : key === "status"
                      ? "ENABLED"
                      : `${f} ${i + 1}`;
      }
      return row;
    });
    // An empty repeated field is left out of the JSON answer, as Google's proto3 mapping does.
    return {
      json: {
        ...(results.length && { results }),
        fieldMask: fields.map(camel).join(","),
        requestId: randomBytes(11).toString("base64url"),
        queryResourceConsumption: String(limit * 10),
      },
    };
  }

  /**
   * CampaignService.MutateCampaigns and CampaignBudgetService.MutateCampaignBudgets over REST:
   * update operations only, all checked before any is applied.
   */
  function adsMutate(kind: "campaigns" | "campaignBudgets") {
    const masks = kind === "campaigns" ? new Set(["status", "name"]) : new Set(["amount_micros", "name"]);
    return (req: StandInRequest): Reply => {
      const refusal = adsRefusal(
        req,
        kind === "campaigns" ? "CampaignService.MutateCampaigns" : "CampaignBudgetService.MutateCampaignBudgets",
      );
      if (refusal) return refusal;
      const customer = req.params.customer;
      const account = adsAccount(customer);
      const body = (req.json ?? {}) as { operations?: unknown; validateOnly?: unknown; responseContentType?: unknown };
      if (!Array.isArray(body.operations) || !body.operations.length) {
        return badOperation({ fieldError: "REQUIRED" }, "The required field was not present.", [
          { fieldName: "operations" },
        ]);
      }
      const changes: { target: AdsCampaign | AdsBudget; set: Record<string, string>; resourceName: string }[] = [];
      for (const [index, raw] of (body.operations as unknown[]).entries()) {
        const at = (...rest: FieldPath): FieldPath => [{ fieldName: "operations", index }, ...rest];
        const op = (raw && typeof raw === "object" ? raw : {}) as {
          update?: Record<string, unknown>;
          updateMask?: unknown;
          create?: unknown;
          remove?: unknown;
        };
        if (op.create !== undefined || op.remove !== undefined)
          return apiError(501, "UNIMPLEMENTED", "The stand-in implements update operations only.");
        if (!op.update || typeof op.update !== "object")
          return badOperation(
            { requestError: "OPERATION_REQUIRED" },
            "Mutate operations must have 'create', 'update', or 'remove' specified.",
            at(),
          );
        const resourceName = String(op.update.resourceName ?? "");
        const m = new RegExp(`^customers/(\\d+)/${kind}/(\\d+)$`).exec(resourceName);
        if (!m) {
          return badOperation(
            { requestError: "RESOURCE_NAME_MALFORMED" },
            `Resource name '${resourceName}' is malformed: expected 'customers/{customer_id}/${kind}/{${kind === "campaigns" ? "campaign_id" : "campaign_budget_id"}}'.`,
            at({ fieldName: "update" }, { fieldName: "resource_name" }),
          );
        }
        const target =
          m[1] !== customer
            ? undefined
            : kind === "campaigns"
              ? account.campaigns.find((c) => c.id === m[2])
              : account.budgets.get(m[2]);
        if (!target)
          return badOperation(
            { mutateError: "RESOURCE_NOT_FOUND" },
            "Resource was not found.",
            at({ fieldName: "update" }, { fieldName: "resource_name" }),
          );
        if (typeof op.updateMask !== "string" || !op.updateMask.trim())
          return badOperation(
            { fieldMaskError: "FIELD_MASK_MISSING" },
            "The field mask must be provided for update operations.",
            at({ fieldName: "update_mask" }),
          );
        const set: Record<string, string> = {};
        for (const field of op.updateMask.split(",").map(snake)) {
          if (!masks.has(field))
            return badOperation(
              { fieldMaskError: "FIELD_NOT_FOUND" },
              "The field mask contained an invalid field.",
              at({ fieldName: "update_mask" }),
            );
          const value = op.update[field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
          if (field === "status" && (typeof value !== "string" || !["ENABLED", "PAUSED"].includes(value))) {
            return apiError(
              400,
              "INVALID_ARGUMENT",
              `Invalid value at 'operations[${index}].update.status' (type.googleapis.com/google.ads.googleads.v18.enums.CampaignStatusEnum.CampaignStatus), ${JSON.stringify(value ?? null)}`,
              [
                {
                  "@type": "type.googleapis.com/google.rpc.BadRequest",
                  fieldViolations: [
                    {
                      field: `operations[${index}].update.status`,
                      description: `Invalid value at 'operations[${index}].update.status', ${JSON.stringify(value ?? null)}`,
                    },
                  ],
                },
              ],
            );
          }
          if (field === "amount_micros") {
            if (/^-\d+$/.test(String(value)))
              return badOperation(
                { campaignBudgetError: "MONEY_AMOUNT_IS_NEGATIVE" },
                "A money amount was negative.",
                at({ fieldName: "update" }, { fieldName: "amount_micros" }),
              );
            if (!/^\d+$/.test(String(value ?? "")))
              return apiError(
                400,
                "INVALID_ARGUMENT",
                `Invalid value at 'operations[${index}].update.amount_micros' (TYPE_INT64), ${JSON.stringify(value ?? null)}`,
              );
            if (BigInt(String(value)) % 10_000n !== 0n) {
              return badOperation(
                { campaignBudgetError: "NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT" },
                "A money amount was not a multiple of a minimum unit.",
                at({ fieldName: "update" }, { fieldName: "amount_micros" }),
              );
            }
          }
          set[field === "amount_micros" ? "amountMicros" : field] = String(value ?? "");
        }
        changes.push({ target, set, resourceName });
      }
      if (body.validateOnly === true) return { json: {} };
      for (const c of changes) Object.assign(c.target, c.set);
      const mutable = body.responseContentType === "MUTABLE_RESOURCE";
      return {
        json: {
          results: changes.map(({ target, resourceName }) => ({
            resourceName,
            ...(mutable &&
              (kind === "campaigns"
                ? {
                    campaign: {
                      resourceName,
                      name: target.name,
                      status: (target as AdsCampaign).status,
                      campaignBudget: `customers/${customer}/campaignBudgets/${(target as AdsCampaign).budgetId}`,
                    },
                  }
                : {
                    campaignBudget: {
                      resourceName,
                      name: target.name,
                      amountMicros: (target as AdsBudget).amountMicros,
                      period: (target as AdsBudget).period,
                      explicitlyShared: (target as AdsBudget).explicitlyShared,
                    },
                  })),
          })),
        },
      };
    };
  }

  function searchAnalytics(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.searchConsole, "https://www.googleapis.com/auth/webmasters")) {
      return insufficientScopes("searchconsole.googleapis.com", "google.searchconsole.v1.SearchAnalyticsService.Query");
    }
    const b = (req.json ?? {}) as {
      startDate?: string;
      endDate?: string;
      dimensions?: string[];
      rowLimit?: number;
      startRow?: number;
    };
    if (!b.startDate || !b.endDate)
      return apiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", [
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "start_date" }] },
      ]);
    const site = req.params.site;
    const values: Record<string, string[]> = {
      query: ["patchbay", "api connections", "oauth tokens", "mcp server", "marketing data api"],
      page: ["/", "/pricing", "/docs", "/blog/launch"].map(
        (p) => `${site.replace(/^sc-domain:/, "https://").replace(/\/$/, "")}${p}`,
      ),
      country: ["usa", "deu", "gbr", "fra"],
      device: ["DESKTOP", "MOBILE", "TABLET"],
      date: datesBetween(b.startDate, b.endDate),
      searchAppearance: ["AMP_BLUE_LINK", "RICHCARD"],
    };
    let combos: string[][] = [[]];
    for (const d of b.dimensions ?? []) combos = combos.flatMap((c) => (values[d] ?? [d]).map((v) => [...c, v]));
    const rows = combos
      .map((keys) => {
        const seed = `${t.account}/${site}/${keys.join("|")}`;
        const impressions = 100 + hashInt(`${seed}/i`, 10000);
        const clicks = hashInt(`${seed}/c`, Math.floor(impressions / 5));
        return {
          ...(keys.length && { keys }),
          clicks,
          impressions,
          ctr: clicks / impressions,
          position: 1 + hashInt(`${seed}/p`, 300) / 10,
        };
      })
      .sort((a, z) => z.clicks - a.clicks)
      .slice(b.startRow ?? 0, (b.startRow ?? 0) + (b.rowLimit ?? 1000));
    return {
      json: {
        ...(rows.length && { rows }),
        responseAggregationType: (b.dimensions ?? []).includes("page") ? "byPage" : "byProperty",
      },
    };
  }

  const rateLimits = new RateLimits();
  const kit: GoogleKit = {
    bearer,
    hasScope,
    apiError,
    unauthenticated,
    insufficientScopes,
    digits,
    throttled: (account, service) =>
      rateLimits.limited(account)
        ? {
            ...apiError(
              429,
              "RESOURCE_EXHAUSTED",
              `Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service '${service}'.`,
              [
                {
                  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                  reason: "RATE_LIMIT_EXCEEDED",
                  domain: "googleapis.com",
                },
              ],
            ),
            headers: { "retry-after": account.startsWith("throttled-once") ? "1" : "60" },
          }
        : null,
  };
  return startStandInServer(
    {
      ...Object.assign({}, ...EXTENSIONS.map((e) => e.routes(kit))),
      ...depthRoutes(kit, { refusal: adsRefusal, account: adsAccount }, SCOPE),
      "GET /o/oauth2/v2/auth": authorize,
      "POST /token": token,
      "GET /v1/userinfo": userinfo,
      "GET /v1beta/accountSummaries": accountSummaries,
      "GET /webmasters/v3/sites": sites,
      "GET /v18/customers:listAccessibleCustomers": listAccessibleCustomers,
      "POST /v1beta/properties/{property}:runReport": runReport,
      "POST /v18/customers/{customer}/googleAds:search": adsSearch,
      "POST /v18/customers/{customer}/campaigns:mutate": adsMutate("campaigns"),
      "POST /v18/customers/{customer}/campaignBudgets:mutate": adsMutate("campaignBudgets"),
      "POST /webmasters/v3/sites/{site}/searchAnalytics/query": searchAnalytics,
    },
    { accountOf: (req) => bearer(req)?.account ?? null },
  );
}

export const standIn: StandInModule = {
  types: ["ga4", "gads", "gsc", ...EXTENSIONS.flatMap((e) => e.types)],
  oauthProviders: ["GOOGLE"],
  // The developer token Ads calls of OAuth connections carry (any value but bad… is accepted).
  env: { GOOGLE_ADS_DEVELOPER_TOKEN: "test-developer-token" },
  start,
};
