import { createHash, randomBytes, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import {
  OAuthBook,
  RateLimits,
  authorizeControls,
  startStandInServer,
  testClient,
  type Reply,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";

// Stand-in for Amazon Ads (amazon_ads): Login with Amazon (www.amazon.com/ap/oa,
// api.amazon.com/auth/o2/token, api.amazon.com/user/profile) and the Amazon Ads API (one stand-in
// for the three regional hosts: every region answers the same profiles) at their real paths, in
// Amazon's wire format. OAuth only: the app is testClient("AMAZON").
//
// - GET /ap/oa (client_id, scope with advertising::campaign_management, response_type=code,
//   redirect_uri …/oauth/callback, state; code_challenge S256 kept): authorizeControls; deny →
//   error=access_denied.
// - POST /auth/o2/token (form, client credentials in the body): authorization_code (redirect_uri and
//   code_verifier checked) → {access_token, refresh_token, token_type: bearer, expires_in: 3600};
//   refresh_token (OAuthBook: `bad…` → 400 invalid_grant "The request has an invalid grant parameter :
//   refresh_token"). LwA errors are {error, error_description}.
// - GET /user/profile (Bearer): {user_id: amzn1.account.…, name, email}; a token without the
//   `profile` scope → 403 insufficient_scope. Identity: no rate limit.
// - Ads API calls need Amazon-Advertising-API-ClientId = the app's client ID and a Bearer token the
//   stand-in issued (else 401 {code: UNAUTHORIZED, details}); all but /v2/profiles need
//   Amazon-Advertising-API-Scope naming one of the user's profiles (missing → 401 "Scope header is
//   missing"; another → 401 "Not authorized to access scope <id>"). Each answers 429
//   {code: "429", details: "Too Many Requests"} with Retry-After ("1" for `throttled-once…`
//   accounts, "60" for `throttled…`) when RateLimits says so.
//   - GET /v2/profiles: two profiles (US in USD, CA in CAD), profileId digits("profile:<account>:<cc>", 15).
//   - POST /sp/campaigns/list (Content-Type and Accept application/vnd.spCampaign.v3+json, else 415):
//     {stateFilter.include, campaignIdFilter.include, maxResults (1-1000), nextToken} →
//     {campaigns, totalResults, nextToken}. Three campaigns per profile, IDs
//     digits("<profile>/sp/<i>", 15): "SP - Brand" ENABLED MANUAL 30/day, "SP - Auto" ENABLED AUTO
//     20/day, "SP - Clearance" PAUSED MANUAL 10/day.
//   - PUT /sp/campaigns (same media type) {campaigns: [{campaignId, state?, budget?}] (1-1000)} →
//     207 {campaigns: {success: [{campaignId, index, campaign (with Prefer: return=representation)}],
//     error: [{index, errors: [{errorType, errorValue: {<kind>: {reason, message}}}]}]}}:
//     unknown campaignId → entityNotFoundError NOT_FOUND; state other than ENABLED/PAUSED/ARCHIVED →
//     malformedValueError; budget not DAILY or below 1 → budgetError BUDGET_TOO_LOW.
//   - POST /reporting/reports (Content-Type application/vnd.createasyncreportrequest.v3+json):
//     spCampaigns / SPONSORED_PRODUCTS / groupBy [campaign] / GZIP_JSON, known columns, DAILY with
//     `date` or SUMMARY without it, at most 31 days → {reportId, status: PENDING, …}; bad requests →
//     400 {code: "400", detail}. GET /reporting/reports/<id> → COMPLETED at once, with url
//     https://offline-report-storage-us-east-1-prod.s3.amazonaws.com/<id>/report-<id>.json.gz?X-Amz-…
//   - GET /<id>/report-<id>.json.gz: the gzipped JSON rows (one per campaign, × day when DAILY);
//     a request carrying Authorization → 400 (a pre-signed URL takes no other auth).

const CLIENT = testClient("AMAZON");
const CAMPAIGN_SCOPE = "advertising::campaign_management";
const SP_CAMPAIGN = "application/vnd.spCampaign.v3+json";
const REPORT_REQUEST = "application/vnd.createasyncreportrequest.v3+json";
const REPORT_HOST = "https://offline-report-storage-us-east-1-prod.s3.amazonaws.com";

const amzDigits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;

/** The LwA user ID and the two profiles (US, CA) of a stand-in account. */
export const amazonFacts = (account: string) => ({
  userId: `amzn1.account.${createHash("sha256").update(account).digest("hex").slice(0, 28).toUpperCase()}`,
  profiles: { US: amzDigits(`profile:${account}:US`, 15), CA: amzDigits(`profile:${account}:CA`, 15) },
});
/** The first group of the report IDs made for an account. */
export const amazonReportTag = (account: string) =>
  createHash("sha256").update(`report:${account}`).digest("hex").slice(0, 8);
/** The SP campaign IDs of a profile: SP - Brand, SP - Auto, SP - Clearance (paused). */
export const amazonCampaignIds = (profile: string) => [0, 1, 2].map((i) => amzDigits(`${profile}/sp/${i}`, 15));

const lwaError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error_description: description, error },
});
const apiError = (status: number, code: string, details: string): Reply => ({ status, json: { code, details } });
const errorPage = (text: string): Reply => ({ status: 400, text: `Amazon Sign-In\n\nAn error occurred: ${text}\n` });

const COLUMNS = new Set([
  "campaignId",
  "campaignName",
  "campaignStatus",
  "campaignBudgetAmount",
  "date",
  "startDate",
  "endDate",
  "impressions",
  "clicks",
  "cost",
  "clickThroughRate",
  "costPerClick",
  "purchases7d",
  "sales7d",
  "purchases14d",
  "sales14d",
  "unitsSoldClicks7d",
  "acosClicks7d",
  "roasClicks7d",
]);

type Campaign = {
  campaignId: string;
  name: string;
  state: string;
  targetingType: string;
  budget: number;
  startDate: string;
};

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  const campaigns = new Map<string, Campaign[]>(); // profile → its SP campaigns
  const reports = new Map<string, { profile: string; status: string; gz: Buffer; body: Record<string, unknown> }>();

  /** Access tokens name their account (`Atza|<account>|<hex>`), so a test finds its own calls in the journal. */
  function issueAccessToken(account: string, scope: string): string {
    const token = `Atza|${account}|${randomBytes(8).toString("hex")}`;
    book.accessTokens.set(token, { account, scope });
    return token;
  }

  function campaignsOf(profile: string): Campaign[] {
    if (!campaigns.has(profile)) {
      const [a, b, c] = amazonCampaignIds(profile);
      campaigns.set(profile, [
        {
          campaignId: a,
          name: "SP - Brand",
          state: "ENABLED",
          targetingType: "MANUAL",
          budget: 30,
          startDate: "2025-01-15",
        },
        {
          campaignId: b,
          name: "SP - Auto",
          state: "ENABLED",
          targetingType: "AUTO",
          budget: 20,
          startDate: "2025-02-01",
        },
        {
          campaignId: c,
          name: "SP - Clearance",
          state: "PAUSED",
          targetingType: "MANUAL",
          budget: 10,
          startDate: "2025-03-10",
        },
      ]);
    }
    return campaigns.get(profile)!;
  }
  const campaignJson = (c: Campaign) => ({
    budget: { budget: c.budget, budgetType: "DAILY" },
    campaignId: c.campaignId,
    dynamicBidding: { placementBidding: [], strategy: "LEGACY_FOR_SALES" },
    name: c.name,
    startDate: c.startDate,
    state: c.state,
    targetingType: c.targetingType,
  });

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("The client_id is not valid (unknown client).");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri is not one of the Allowed Return URLs of the security profile.");
    }
    if (q.get("response_type") !== "code") return errorPage("response_type must be code.");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes(CAMPAIGN_SCOPE)) return errorPage("An unknown scope was requested.");
    if (!q.get("state")) return errorPage("state is required.");
    const challenge = q.get("code_challenge");
    if (challenge && q.get("code_challenge_method") !== "S256") return errorPage("code_challenge_method must be S256.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied the request.");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "The authorization server encountered an unexpected error.");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(" "),
        codeChallenge: challenge,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", scopes.join(" "));
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  const tokens = (account: string, scope: string): Reply => ({
    json: {
      access_token: issueAccessToken(account, scope),
      refresh_token: book.refreshTokenFor(account),
      token_type: "bearer",
      expires_in: 3600,
    },
  });

  function token(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId || f.get("client_secret") !== CLIENT.clientSecret)
      return lwaError(401, "invalid_client", "Client authentication failed");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error")
        return lwaError(500, "server_error", "The authorization server encountered an unexpected error.");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", f.get("code_verifier"));
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri"))
          return lwaError(400, "invalid_grant", "The request has an invalid parameter : redirect_uri");
        if (redeemed.startsWith("code_verifier"))
          return lwaError(400, "invalid_grant", "The request has an invalid parameter : code_verifier");
        return lwaError(400, "invalid_grant", "The request has an invalid parameter : code");
      }
      return tokens(redeemed.account, redeemed.scope);
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g) return lwaError(400, "invalid_grant", "The request has an invalid grant parameter : refresh_token");
      return tokens(g.account, g.scoped ? `${CAMPAIGN_SCOPE} profile` : "");
    }
    return lwaError(400, "unsupported_grant_type", `The grant type ${grant ?? ""} is not supported.`);
  }

  function grantOf(req: StandInRequest) {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return bearer ? book.accessTokens.get(bearer) : undefined;
  }

  function userProfile(req: StandInRequest): Reply {
    const t = grantOf(req);
    if (!t) return lwaError(401, "invalid_token", "The request has an invalid parameter : access_token");
    if (!t.scope.split(" ").includes("profile"))
      return lwaError(
        403,
        "insufficient_scope",
        "The access token provided does not have access to the requested resource.",
      );
    return {
      json: { user_id: amazonFacts(t.account).userId, name: `${t.account} Tester`, email: `${t.account}@example.com` },
    };
  }

  /** The grant of an Ads API call and, when `scoped`, the profile it names; or Amazon's refusal. */
  function adsCaller(req: StandInRequest, scoped: boolean): { account: string; profile: string } | Reply {
    const t = grantOf(req);
    if (!t || !t.scope.split(" ").includes(CAMPAIGN_SCOPE))
      return apiError(401, "UNAUTHORIZED", "Not authorized: the access token is invalid or expired.");
    if (req.headers["amazon-advertising-api-clientid"] !== CLIENT.clientId)
      return apiError(401, "UNAUTHORIZED", "Not authorized: the client ID does not match the access token.");
    if (rateLimits.limited(t.account))
      return {
        ...apiError(429, "429", "Too Many Requests"),
        headers: { "retry-after": t.account.startsWith("throttled-once") ? "1" : "60" },
      };
    if (!scoped) return { account: t.account, profile: "" };
    const profile = String(req.headers["amazon-advertising-api-scope"] ?? "");
    if (!profile) return apiError(401, "UNAUTHORIZED", "Scope header is missing");
    if (!Object.values(amazonFacts(t.account).profiles).includes(profile))
      return apiError(401, "UNAUTHORIZED", `Not authorized to access scope ${profile}`);
    return { account: t.account, profile };
  }

  function mediaOk(req: StandInRequest, type: string, needAccept: boolean): Reply | null {
    const contentType = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    if (contentType !== type.toLowerCase())
      return apiError(415, "UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${type}.`);
    if (needAccept && String(req.headers.accept ?? "").toLowerCase() !== type.toLowerCase())
      return apiError(406, "NOT_ACCEPTABLE", `Accept must be ${type}.`);
    return null;
  }

  function profiles(req: StandInRequest): Reply {
    const c = adsCaller(req, false);
    if (!("account" in c)) return c;
    const p = amazonFacts(c.account).profiles;
    const account = (name: string, marketplace: string) => ({
      marketplaceStringId: marketplace,
      id: `A${amzDigits(`seller:${c.account}`, 12)}`,
      type: "seller",
      name,
      validPaymentMethod: true,
    });
    return {
      json: [
        {
          profileId: Number(p.US),
          countryCode: "US",
          currencyCode: "USD",
          dailyBudget: 999999999,
          timezone: "America/Los_Angeles",
          accountInfo: account(`${c.account} store`, "ATVPDKIKX0DER"),
        },
        {
          profileId: Number(p.CA),
          countryCode: "CA",
          currencyCode: "CAD",
          dailyBudget: 999999999,
          timezone: "America/Los_Angeles",
          accountInfo: account(`${c.account} store`, "A2EUQ1WTGCTBG2"),
        },
      ],
    };
  }

  function listCampaigns(req: StandInRequest): Reply {
    const c = adsCaller(req, true);
    if (!("account" in c)) return c;
    const media = mediaOk(req, SP_CAMPAIGN, true);
    if (media) return media;
    const b = (req.json ?? {}) as {
      stateFilter?: { include?: unknown };
      campaignIdFilter?: { include?: unknown };
      maxResults?: unknown;
      nextToken?: unknown;
    };
    const states = Array.isArray(b.stateFilter?.include) ? b.stateFilter.include.map(String) : null;
    if (states?.some((s) => !["ENABLED", "PAUSED", "ARCHIVED"].includes(s)))
      return apiError(400, "INVALID_ARGUMENT", `stateFilter.include has an invalid value (${states.join(", ")}).`);
    const ids = Array.isArray(b.campaignIdFilter?.include) ? b.campaignIdFilter.include.map(String) : null;
    const max = b.maxResults === undefined ? 1000 : Number(b.maxResults);
    if (!Number.isInteger(max) || max < 1 || max > 1000)
      return apiError(400, "INVALID_ARGUMENT", "maxResults must be between 1 and 1000.");
    const all = campaignsOf(c.profile).filter(
      (x) => (!states || states.includes(x.state)) && (!ids || ids.includes(x.campaignId)),
    );
    const offset = b.nextToken ? Number(Buffer.from(String(b.nextToken), "base64url").toString()) : 0;
    if (!Number.isInteger(offset) || offset < 0) return apiError(400, "INVALID_ARGUMENT", "nextToken is not valid.");
    const page = all.slice(offset, offset + max);
    const next = offset + max < all.length ? Buffer.from(String(offset + max)).toString("base64url") : undefined;
    return {
      json: { campaigns: page.map(campaignJson), totalResults: all.length, ...(next && { nextToken: next }) },
      headers: { "content-type": SP_CAMPAIGN },
    };
  }

  function updateCampaigns(req: StandInRequest): Reply {
    const c = adsCaller(req, true);
    if (!("account" in c)) return c;
    const media = mediaOk(req, SP_CAMPAIGN, true);
    if (media) return media;
    const list = (req.json as { campaigns?: unknown } | null)?.campaigns;
    if (!Array.isArray(list) || list.length < 1 || list.length > 1000)
      return apiError(400, "INVALID_ARGUMENT", "campaigns must hold between 1 and 1000 items.");
    const representation = String(req.headers.prefer ?? "").includes("return=representation");
    const own = campaignsOf(c.profile);
    const success: Record<string, unknown>[] = [];
    const error: Record<string, unknown>[] = [];
    const fail = (index: number, kind: string, reason: string, message: string) =>
      error.push({
        index,
        errors: [{ errorType: kind, errorValue: { [kind]: { reason, message, cause: { location: `$[${index}]` } } } }],
      });
    list.forEach(
      (item: { campaignId?: unknown; state?: unknown; budget?: { budget?: unknown; budgetType?: unknown } }, index) => {
        const x = own.find((y) => y.campaignId === String(item?.campaignId ?? ""));
        if (!x)
          return fail(
            index,
            "entityNotFoundError",
            "NOT_FOUND",
            `Campaign ${String(item?.campaignId ?? "")} does not exist`,
          );
        if (item.state !== undefined && !["ENABLED", "PAUSED", "ARCHIVED"].includes(String(item.state)))
          return fail(
            index,
            "malformedValueError",
            "INVALID_ENUM_VALUE",
            `state ${String(item.state)} is not one of ENABLED, PAUSED, ARCHIVED`,
          );
        if (item.budget !== undefined) {
          if (item.budget?.budgetType !== "DAILY")
            return fail(index, "budgetError", "BUDGETING_POLICY_INVALID", "budgetType must be DAILY");
          if (typeof item.budget.budget !== "number" || item.budget.budget < 1)
            return fail(index, "budgetError", "BUDGET_TOO_LOW", "Budget must be at least 1.00");
        }
        if (item.state !== undefined) x.state = String(item.state);
        if (item.budget !== undefined) x.budget = Number(item.budget.budget);
        success.push({ campaignId: x.campaignId, index, ...(representation && { campaign: campaignJson(x) }) });
      },
    );
    return { status: 207, json: { campaigns: { success, error } }, headers: { "content-type": SP_CAMPAIGN } };
  }

  function createReport(req: StandInRequest): Reply {
    const c = adsCaller(req, true);
    if (!("account" in c)) return c;
    const media = mediaOk(req, REPORT_REQUEST, false);
    if (media) return media;
    const bad = (detail: string) => ({ status: 400, json: { code: "400", detail } });
    const b = (req.json ?? {}) as {
      startDate?: unknown;
      endDate?: unknown;
      name?: unknown;
      configuration?: Record<string, unknown>;
    };
    const conf = b.configuration ?? {};
    if (conf.adProduct !== "SPONSORED_PRODUCTS" || conf.reportTypeId !== "spCampaigns")
      return bad("configuration reportTypeId/adProduct: only spCampaigns for SPONSORED_PRODUCTS is served here");
    if (JSON.stringify(conf.groupBy) !== JSON.stringify(["campaign"]))
      return bad("configuration groupBy value is invalid for spCampaigns");
    if (conf.format !== "GZIP_JSON") return bad("configuration format must be GZIP_JSON");
    const columns = Array.isArray(conf.columns) ? conf.columns.map(String) : [];
    const unknown = columns.filter((col) => !COLUMNS.has(col));
    if (!columns.length || unknown.length)
      return bad(`configuration columns includes invalid values: (${unknown.join(", ")})`);
    const daily = conf.timeUnit === "DAILY";
    if (!daily && conf.timeUnit !== "SUMMARY") return bad("configuration timeUnit must be DAILY or SUMMARY");
    if (daily && (columns.includes("startDate") || columns.includes("endDate")))
      return bad("configuration columns startDate and endDate are not allowed with timeUnit DAILY; use date");
    if (!daily && columns.includes("date"))
      return bad("configuration column date is not allowed with timeUnit SUMMARY");
    const from = Date.parse(`${String(b.startDate)}T00:00:00Z`);
    const to = Date.parse(`${String(b.endDate)}T00:00:00Z`);
    if (Number.isNaN(from) || Number.isNaN(to) || from > to)
      return bad("startDate and endDate must be dates, startDate first");
    if ((to - from) / 86_400_000 + 1 > 31) return bad("the date range may be at most 31 days");
    const days: string[] = [];
    for (let d = from; d <= to; d += 86_400_000) days.push(new Date(d).toISOString().slice(0, 10));
    const rows = campaignsOf(c.profile).flatMap((x) =>
      (daily ? days : [null]).map((day) => {
        const seed = `${c.profile}/${x.campaignId}/${day ?? `${String(b.startDate)}..${String(b.endDate)}`}`;
        const impressions = 300 + hashInt(`${seed}/i`, 15000);
        const clicks = hashInt(`${seed}/c`, Math.floor(impressions / 30));
        const cost = hashInt(`${seed}/s`, 20000) / 100;
        const purchases = hashInt(`${seed}/p`, 20);
        const sales = purchases * 19.99;
        const all: Record<string, unknown> = {
          campaignId: Number(x.campaignId),
          campaignName: x.name,
          campaignStatus: x.state,
          campaignBudgetAmount: x.budget,
          date: day,
          startDate: b.startDate,
          endDate: b.endDate,
          impressions,
          clicks,
          cost,
          clickThroughRate: impressions ? clicks / impressions : 0,
          costPerClick: clicks ? cost / clicks : 0,
          purchases7d: purchases,
          sales7d: Math.round(sales * 100) / 100,
          purchases14d: purchases,
          sales14d: Math.round(sales * 100) / 100,
          unitsSoldClicks7d: purchases,
          acosClicks7d: sales ? cost / sales : 0,
          roasClicks7d: cost ? sales / cost : 0,
        };
        return Object.fromEntries(columns.map((col) => [col, all[col]]));
      }),
    );
    // The UUID's first group is a tag of the account (amazonReportTag), so a test finds its own download.
    const id = `${amazonReportTag(c.account)}${randomUUID().slice(8)}`;
    const now = new Date().toISOString();
    const body = {
      configuration: { ...conf, filters: null },
      createdAt: now,
      endDate: b.endDate,
      failureReason: null,
      fileSize: null,
      generatedAt: null,
      name: b.name ?? null,
      reportId: id,
      startDate: b.startDate,
      status: "PENDING",
      updatedAt: now,
      url: null,
      urlExpiresAt: null,
    };
    reports.set(id, { profile: c.profile, status: "COMPLETED", gz: gzipSync(Buffer.from(JSON.stringify(rows))), body });
    return { json: body };
  }

  function getReport(req: StandInRequest): Reply {
    const c = adsCaller(req, true);
    if (!("account" in c)) return c;
    const r = reports.get(req.params.id);
    if (!r || r.profile !== c.profile) return apiError(404, "NOT_FOUND", `Report ${req.params.id} was not found.`);
    const now = new Date().toISOString();
    return {
      json: {
        ...r.body,
        status: r.status,
        generatedAt: now,
        updatedAt: now,
        fileSize: r.gz.length,
        url: `${REPORT_HOST}/${req.params.id}/report-${req.params.id}.json.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=stand-in`,
        urlExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    };
  }

  function download(req: StandInRequest): Reply {
    const r = reports.get(req.params.id);
    if (req.headers.authorization)
      return {
        status: 400,
        text: "<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>",
      };
    if (!r || req.params.file !== req.params.id || req.query.get("X-Amz-Signature") !== "stand-in")
      return { status: 403, text: "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>" };
    return { status: 200, bytes: r.gz, headers: { "content-type": "application/x-gzip" } };
  }

  return startStandInServer({
    "GET /ap/oa": authorize,
    "POST /auth/o2/token": token,
    "GET /user/profile": userProfile,
    "GET /v2/profiles": profiles,
    "POST /sp/campaigns/list": listCampaigns,
    "PUT /sp/campaigns": updateCampaigns,
    "POST /reporting/reports": createReport,
    "GET /reporting/reports/{id}": getReport,
    "GET /{id}/report-{file}.json.gz": download,
  });
}

export const standIn: StandInModule = { types: ["amazon_ads"], oauthProviders: ["AMAZON"], start };
