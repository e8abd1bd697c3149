import { createHash, randomBytes } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

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
// - POST /webmasters/v3/sites/{site}/searchAnalytics/query: rows per dimension value, rowLimit
//   and startRow honoured, sorted by clicks descending.

const CLIENT = testClient("GOOGLE");
const SCOPE = {
  analytics: "https://www.googleapis.com/auth/analytics.readonly",
  ads: "https://www.googleapis.com/auth/adwords",
  searchConsole: "https://www.googleapis.com/auth/webmasters.readonly",
};
const EMAIL_SCOPE = "https://www.googleapis.com/auth/userinfo.email";
const KNOWN_SCOPES = new Set(["openid", "email", "profile", EMAIL_SCOPE, "https://www.googleapis.com/auth/userinfo.profile", ...Object.values(SCOPE)]);
/** What a white-label refresh token (one this stand-in did not issue) is taken to grant. */
const ALL_SCOPES = ["openid", EMAIL_SCOPE, ...Object.values(SCOPE)].join(" ");

const digits = (seed: string, n: number) => BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`).toString().padStart(n, "1").slice(0, n);
const subOf = (account: string) => `1${digits(`sub:${account}`, 20)}`;

const tokenError = (status: number, error: string, description: string): Reply => ({ status, json: { error, error_description: description }, headers: { "cache-control": "no-store" } });

/** Google's API error body (google.rpc.Status over HTTP/JSON). */
const apiError = (code: number, status: string, message: string, details: unknown[] = []): Reply => ({
  status: code,
  json: { error: { code, message, status, ...(details.length && { details }) } },
});

const insufficientScopes = (service: string, method: string) =>
  apiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [
    { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", domain: "googleapis.com", metadata: { service, method } },
  ]);

const unauthenticated = () =>
  apiError(
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED", domain: "googleapis.com" }],
  );

const adsFailure = (code: number, status: string, message: string, errorCode: Record<string, string>, errorMessage: string) =>
  apiError(code, status, message, [
    {
      "@type": "type.googleapis.com/google.ads.googleads.v18.errors.GoogleAdsFailure",
      errors: [{ errorCode, message: errorMessage }],
      requestId: randomBytes(11).toString("base64url"),
    },
  ]);

const hashInt = (seed: string, max: number) => parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every date from..to (YYYY-MM-DD, inclusive), at most `max`. */
function datesBetween(from: string, to: string, max = 400): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && out.length < max; t += DAY_MS) out.push(isoDay(t));
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

const GA4_METRICS = new Set(["sessions", "totalUsers", "newUsers", "activeUsers", "screenPageViews", "conversions", "totalRevenue", "engagementRate", "bounceRate", "eventCount", "averageSessionDuration"]);
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
const errorPage = (status: number, error: string, text: string): Reply => ({ status, text: `Error ${status}: ${error}\n\n${text}\n` });

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
    if (q.get("client_id") !== CLIENT.clientId) return errorPage(401, "invalid_client", "The OAuth client was not found.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage(400, "redirect_uri_mismatch", `The redirect URI in the request, ${q.get("redirect_uri") ?? "(none)"}, does not match the ones authorised for the OAuth client.`);
    }
    if (q.get("response_type") !== "code") return errorPage(400, "unsupported_response_type", `Invalid response_type: ${q.get("response_type") ?? "(none)"}`);
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (!scopes.length || unknown.length) return errorPage(400, "invalid_scope", `Some requested scopes were invalid. {invalid=[${unknown.join(", ")}]}`);
    if (!q.get("state")) return errorPage(400, "invalid_request", "Missing required parameter: state");
    if (!q.get("code_challenge") || q.get("code_challenge_method") !== "S256") return errorPage(400, "invalid_request", "Missing or unsupported code_challenge / code_challenge_method (S256 required).");

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
    if (!clientId || clientId.startsWith("bad")) return tokenError(401, "invalid_client", "The OAuth client was not found.");
    const secretOk = clientId === CLIENT.clientId ? clientSecret === CLIENT.clientSecret : !!clientSecret && !clientSecret.startsWith("bad");
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
      const scope = !g.scoped ? "" : refreshScopes.has(refreshToken) ? [...refreshScopes.get(refreshToken)!].join(" ") : ALL_SCOPES;
      return {
        json: { access_token: book.issueAccessToken(g.account, scope), expires_in: 3599, scope, token_type: "Bearer" },
        headers: { "cache-control": "no-store" },
      };
    }
    return tokenError(400, "unsupported_grant_type", `Invalid grant_type: ${grant ?? ""}`);
  }

  function userinfo(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return { status: 401, json: { error: "invalid_request", error_description: "Invalid Credentials" }, headers: { "www-authenticate": 'Bearer error="invalid_token"' } };
    if (!hasScope(t.scope, "openid", "email", EMAIL_SCOPE)) return insufficientScopes("openidconnect.googleapis.com", "google.identity.openidconnect.v1.UserInfoService.GetUserInfo");
    return { json: { sub: subOf(t.account), email: `${t.account}@example.com`, email_verified: true } };
  }

  function accountSummaries(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.analytics, "https://www.googleapis.com/auth/analytics.edit")) {
      return insufficientScopes("analyticsadmin.googleapis.com", "google.analytics.admin.v1beta.AnalyticsAdminService.ListAccountSummaries");
    }
    const id = digits(`ga:${t.account}`, 9);
    return {
      json: {
        accountSummaries: [
          {
            name: `accountSummaries/${id}`,
            account: `accounts/${id}`,
            displayName: `${t.account} Analytics`,
            propertySummaries: [{ property: `properties/${digits(`gap:${t.account}`, 9)}`, displayName: "Main website", propertyType: "PROPERTY_TYPE_ORDINARY", parent: `accounts/${id}` }],
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
    return { json: { siteEntry: [{ siteUrl: `sc-domain:${t.account.replace(/_/g, "-")}.example.com`, permissionLevel: "siteOwner" }] } };
  }

  function listAccessibleCustomers(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.ads)) return insufficientScopes("googleads.googleapis.com", "google.ads.googleads.v18.services.CustomerService.ListAccessibleCustomers");
    return developerTokenRefusal(req) ?? { json: { resourceNames: [`customers/${digits(`ads:${t.account}`, 10)}`] } };
  }

  /** The Ads API's answer to a missing or refused developer-token header, or null when it is fine. */
  function developerTokenRefusal(req: StandInRequest): Reply | null {
    const developerToken = String(req.headers["developer-token"] ?? "");
    if (!developerToken) {
      return adsFailure(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", { requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING" }, "developer-token parameter is missing.");
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
      return adsFailure(401, "UNAUTHENTICATED", "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.", { authenticationError: "DEVELOPER_TOKEN_INVALID" }, "The developer token is not valid.");
    }
    return null;
  }

  function runReport(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.analytics, "https://www.googleapis.com/auth/analytics.edit")) {
      return insufficientScopes("analyticsdata.googleapis.com", "google.analytics.data.v1beta.BetaAnalyticsData.RunReport");
    }
    const b = (req.json ?? {}) as { dateRanges?: { startDate?: string; endDate?: string }[]; dimensions?: { name?: string }[]; metrics?: { name?: string }[]; limit?: number | string };
    const metrics = (b.metrics ?? []).map((m) => String(m.name));
    const dimensions = (b.dimensions ?? []).map((d) => String(d.name));
    if (!metrics.length) return apiError(400, "INVALID_ARGUMENT", "A request must have at least one metric.");
    const unknownMetric = metrics.find((m) => !GA4_METRICS.has(m));
    const schemaLink = "For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema";
    if (unknownMetric) return apiError(400, "INVALID_ARGUMENT", `Field ${unknownMetric} is not a valid metric. ${schemaLink}`);
    const unknownDimension = dimensions.find((d) => d !== "date" && !GA4_DIMENSION_VALUES[d]);
    if (unknownDimension) return apiError(400, "INVALID_ARGUMENT", `Field ${unknownDimension} is not a valid dimension. ${schemaLink}`);
    const range = b.dateRanges?.[0] ?? {};
    const [from, to] = [ga4Date(String(range.startDate ?? "")), ga4Date(String(range.endDate ?? ""))];
    if (!from || !to) return apiError(400, "INVALID_ARGUMENT", `Invalid date range: ${JSON.stringify(range)}`);
    if (from > to) return apiError(400, "INVALID_ARGUMENT", "The dateRange's startDate must be on or before its endDate.");

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

  function adsSearch(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.ads)) return insufficientScopes("googleads.googleapis.com", "google.ads.googleads.v18.services.GoogleAdsService.Search");
    const refusal = developerTokenRefusal(req);
    if (refusal) return refusal;
    const customer = req.params.customer;
    if (customer.startsWith("999")) {
      return adsFailure(
        403,
        "PERMISSION_DENIED",
        "The caller does not have permission",
        { authorizationError: "USER_PERMISSION_DENIED" },
        "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid",
      );
    }
    const query = String((req.json as { query?: unknown } | null)?.query ?? "");
    const m = /^\s*select\s+(.+?)\s+from\s+(\w+)(.*)$/is.exec(query);
    if (!m) {
      return adsFailure(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", { queryError: "PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE" }, `Error in query: unexpected input ${query.slice(0, 40)}.`);
    }
    const fields = m[1].split(",").map((f) => f.trim()).filter(Boolean);
    const resource = m[2];
    const limit = Math.min(Number(/\blimit\s+(\d+)/i.exec(m[3])?.[1] ?? 25), 25);
    const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const results = Array.from({ length: limit }, (_, i) => {
      const row: Record<string, Record<string, unknown>> = {};
      const id = digits(`${customer}/${resource}/${i}`, 11);
      row[camel(resource)] = { resourceName: `customers/${customer}/${camel(resource)}s/${id}` };
      for (const f of fields) {
        const [res, ...rest] = f.split(".");
        const key = camel(rest.join("."));
        const seed = `${t.account}/${customer}/${i}/${f}`;
        row[camel(res)] ??= {};
        row[camel(res)][key] =
          res === "metrics"
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
    return { json: { results, fieldMask: fields.map(camel).join(","), requestId: randomBytes(11).toString("base64url"), queryResourceConsumption: String(limit * 10) } };
  }

  function searchAnalytics(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.searchConsole, "https://www.googleapis.com/auth/webmasters")) {
      return insufficientScopes("searchconsole.googleapis.com", "google.searchconsole.v1.SearchAnalyticsService.Query");
    }
    const b = (req.json ?? {}) as { startDate?: string; endDate?: string; dimensions?: string[]; rowLimit?: number; startRow?: number };
    if (!b.startDate || !b.endDate) return apiError(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "start_date" }] }]);
    const site = req.params.site;
    const values: Record<string, string[]> = {
      query: ["patchbay", "api connections", "oauth tokens", "mcp server", "marketing data api"],
      page: ["/", "/pricing", "/docs", "/blog/launch"].map((p) => `${site.replace(/^sc-domain:/, "https://").replace(/\/$/, "")}${p}`),
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
        return { ...(keys.length && { keys }), clicks, impressions, ctr: clicks / impressions, position: 1 + hashInt(`${seed}/p`, 300) / 10 };
      })
      .sort((a, z) => z.clicks - a.clicks)
      .slice(b.startRow ?? 0, (b.startRow ?? 0) + (b.rowLimit ?? 1000));
    return { json: { ...(rows.length && { rows }), responseAggregationType: (b.dimensions ?? []).includes("page") ? "byPage" : "byProperty" } };
  }

  return startStandInServer({
    "GET /o/oauth2/v2/auth": authorize,
    "POST /token": token,
    "GET /v1/userinfo": userinfo,
    "GET /v1beta/accountSummaries": accountSummaries,
    "GET /webmasters/v3/sites": sites,
    "GET /v18/customers:listAccessibleCustomers": listAccessibleCustomers,
    "POST /v1beta/properties/{property}:runReport": runReport,
    "POST /v18/customers/{customer}/googleAds:search": adsSearch,
    "POST /webmasters/v3/sites/{site}/searchAnalytics/query": searchAnalytics,
  });
}

export const standIn: StandInModule = { types: ["ga4", "gads", "gsc"], oauthProviders: ["GOOGLE"], start };
