import { createHash } from "node:crypto";
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

// Stand-in for LinkedIn (linkedin_ads): www.linkedin.com/oauth/v2 (authorization, accessToken)
// and api.linkedin.com/v2/userinfo at their real paths, in LinkedIn's wire format: form token
// requests, {error, error_description} from the token endpoint, {status, serviceErrorCode,
// code, message} from the API. OAuth only: the app is testClient("LINKEDIN").
// Refresh tokens: `bad_scope…` refreshes to a token without scope (userinfo answers 403
// ACCESS_DENIED), any other `bad…` is rejected as invalid_grant.
//
// Read calls (the MCP tools), versioned REST under /rest with the LinkedIn-Version header
// (missing → 400 VERSION_MISSING) and a token the stand-in issued (else 401 INVALID_ACCESS_TOKEN):
// Every /rest call of an account RateLimits throttles → 429 TOO_MANY_REQUESTS (Retry-After).
// - GET /rest/adAccounts?q=search: two accounts derived from the member (needs r_ads).
// - GET /rest/adAnalytics?q=analytics&pivot=…&timeGranularity=…&dateRange=(start:(…),end:(…))&accounts=List(urn…):
//   three pivot values (one for ACCOUNT) × the periods, the `fields` asked for, metrics derived
//   from account, pivot and period (needs r_ads_reporting; else 403 ACCESS_DENIED). An account
//   ID beginning with 999 → 403 ACCESS_DENIED (the member has no role on it).
// - GET /rest/adAccounts/{account}/adCampaigns/{campaign}: one campaign {id, name, status, account,
//   campaignGroup, type, costType, dailyBudget, runSchedule, servingStatuses, …}. Every ad account has
//   three campaigns, per member: IDs <first four digits of the account>1..3 (the CAMPAIGN pivot values
//   of adAnalytics), named "Brand awareness", "Lead generation", "Retargeting", ACTIVE, PAUSED, ACTIVE
//   at first. Another ID → 404 NOT_FOUND; an account beginning with 999 → 403 ACCESS_DENIED.
//
// Write calls (the operations catalogue), same headers and errors as the reads, plus:
// - POST /rest/adAccounts/{account}/adCampaigns/{campaign} with X-RestLi-Method: PARTIAL_UPDATE and
//   {"patch": {"$set": {"status": …, "name": …}}}: applies the change and answers 204 No Content;
//   the campaign GET then shows it. No or another X-RestLi-Method → 400; a body that is not a patch,
//   a field other than status/name, or a status outside ACTIVE, PAUSED, ARCHIVED, DRAFT, CANCELED →
//   400 ILLEGAL_ARGUMENT; a CANCELED campaign → 400 (it cannot be changed). LinkedIn requires
//   rw_ads for writes; the app requests only r_ads today, so this stand-in asks for r_ads.

const CLIENT = testClient("LINKEDIN");
const KNOWN_SCOPES = new Set([
  "openid",
  "profile",
  "email",
  "r_ads",
  "r_ads_reporting",
  "rw_ads",
  "r_organization_social",
  "r_basicprofile",
]);

const id = (account: string) => createHash("sha256").update(`li:${account}`).digest("base64url").slice(0, 10);
const tokenError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error, error_description: description },
});
const apiError = (status: number, serviceErrorCode: number, code: string, message: string): Reply => ({
  status,
  json: { status, serviceErrorCode, code, message },
});
const errorPage = (text: string): Reply => ({ status: 400, text: `LinkedIn: ${text}\n` });

function start() {
  const book = new OAuthBook();

  function authorization(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("invalid_client: The client_id is not valid.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri does not match the registered value");
    }
    if (q.get("response_type") !== "code")
      return errorPage(`unsupported_response_type: ${q.get("response_type") ?? "(none)"}`);
    if (!q.get("state")) return errorPage("invalid_request: state is required");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const back = new URL(redirect);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (!scopes.length || unknown.length) {
      back.searchParams.set("error", "unauthorized_scope_error");
      back.searchParams.set("error_description", `Scope "${unknown[0] ?? ""}" is not authorized for your application`);
      back.searchParams.set("state", q.get("state")!);
      return { status: 302, redirect: back.toString() };
    }

    const controls = authorizeControls(q);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user cancelled the authorization");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "An unexpected error occurred");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(","),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function accessToken(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId || f.get("client_secret") !== CLIENT.clientSecret)
      return tokenError(401, "invalid_client", "Client authentication failed");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error")
        return tokenError(500, "server_error", "An unexpected error occurred");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") {
        return tokenError(
          400,
          "invalid_request",
          "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists",
        );
      }
      return { json: tokens(redeemed.account, redeemed.scope) };
    }
    if (grant === "refresh_token") {
      const refreshToken = f.get("refresh_token") ?? "";
      const g = book.grantOfRefreshToken(refreshToken);
      if (!g)
        return tokenError(
          400,
          "invalid_grant",
          "The provided authorization grant or refresh token is invalid, expired or revoked",
        );
      return { json: tokens(g.account, g.scoped ? "email,openid,profile,r_ads,r_ads_reporting" : "") };
    }
    return tokenError(400, "unsupported_grant_type", `grant_type ${grant ?? "(none)"} is not supported`);
  }

  function tokens(account: string, scope: string) {
    return {
      access_token: book.issueAccessToken(account, scope),
      expires_in: 5183999,
      refresh_token: book.refreshTokenFor(account),
      refresh_token_expires_in: 31535999,
      scope,
      token_type: "Bearer",
    };
  }

  function userinfo(req: StandInRequest): Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    if (!t) return apiError(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    if (!t.scope.split(",").includes("openid"))
      return apiError(403, 100, "ACCESS_DENIED", "Not enough permissions to access: userinfo.GET.NO_VERSION");
    const given = t.account.split(/[_-]/)[0] || t.account;
    return {
      json: {
        sub: id(t.account),
        email_verified: true,
        name: `${given} Member`,
        locale: { country: "US", language: "en" },
        given_name: given,
        family_name: "Member",
        email: `${t.account}@example.com`,
        picture: "https://media.licdn.com/dms/image/placeholder",
      },
    };
  }

  /** The grant behind a versioned REST call, or LinkedIn's error for it. */
  const rateLimits = new RateLimits();
  function restCaller(
    req: StandInRequest,
    scope: string,
    resource: string,
  ): { account: string; scope: string } | Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    if (!t) return apiError(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    // https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits: HTTP 429 once a limit is reached.
    if (rateLimits.limited(t.account))
      return {
        ...apiError(
          429,
          0,
          "TOO_MANY_REQUESTS",
          "Resource level throttle APPLICATION DAY limit for calls to this resource is reached.",
        ),
        headers: { "retry-after": t.account.startsWith("throttled-once") ? "1" : "3600" },
      };
    if (!/^\d{6}$/.test(String(req.headers["linkedin-version"] ?? "")))
      return apiError(
        400,
        0,
        "VERSION_MISSING",
        "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
      );
    if (!t.scope.split(",").includes(scope))
      return apiError(
        403,
        100,
        "ACCESS_DENIED",
        `Not enough permissions to access: ${resource}.${String(req.headers["linkedin-version"])}`,
      );
    return t;
  }

  const accountIds = (account: string) =>
    [1, 2].map(
      (i) =>
        Number(
          BigInt(`0x${createHash("sha256").update(`liacct:${account}:${i}`).digest("hex").slice(0, 8)}`) % 900000000n,
        ) + 100000000,
    );

  function adAccounts(req: StandInRequest): Reply {
    const t = restCaller(req, "r_ads", "adAccounts.FINDER-search");
    if (!("account" in t)) return t;
    const elements = accountIds(t.account).map((id, i) => ({
      id,
      name: `${t.account} ads ${i + 1}`,
      currency: "USD",
      status: i === 0 ? "ACTIVE" : "CANCELED",
      type: "BUSINESS",
      reference: `urn:li:organization:${id + 7}`,
      test: false,
      servingStatuses: ["RUNNABLE"],
    }));
    return { json: { elements, metadata: {}, paging: { start: 0, count: elements.length, links: [] } } };
  }

  function adAnalytics(req: StandInRequest): Reply {
    const t = restCaller(req, "r_ads_reporting", "adAnalytics.FINDER-analytics");
    if (!("account" in t)) return t;
    // Rest.li 2.0 parameters arrive literally: parse them from the raw query.
    const q = req.query;
    if (q.get("q") !== "analytics") return apiError(400, 100, "ILLEGAL_ARGUMENT", `Invalid finder: ${q.get("q")}`);
    const range = /^\(start:\(year:(\d+),month:(\d+),day:(\d+)\),end:\(year:(\d+),month:(\d+),day:(\d+)\)\)$/.exec(
      q.get("dateRange") ?? "",
    );
    if (!range) return apiError(400, 100, "ILLEGAL_ARGUMENT", "Invalid value for param dateRange");
    const account = /^List\(urn:li:sponsoredAccount:(\d+)\)$/.exec(q.get("accounts") ?? "")?.[1];
    if (!account) return apiError(400, 100, "ILLEGAL_ARGUMENT", "Invalid value for param accounts");
    if (account.startsWith("999"))
      return apiError(
        403,
        100,
        "ACCESS_DENIED",
        `Not enough permissions to access: adAnalytics.FINDER-analytics.${String(req.headers["linkedin-version"])}`,
      );
    const day = (y: string, m: string, d: string) => Date.UTC(Number(y), Number(m) - 1, Number(d));
    const [from, to] = [day(range[1], range[2], range[3]), day(range[4], range[5], range[6])];
    const dateOf = (ms: number) => ({
      year: new Date(ms).getUTCFullYear(),
      month: new Date(ms).getUTCMonth() + 1,
      day: new Date(ms).getUTCDate(),
    });
    const periods: [number, number][] = [];
    const granularity = q.get("timeGranularity");
    if (granularity === "DAILY")
      for (let d = from; d <= to && periods.length < 400; d += 86_400_000) periods.push([d, d]);
    else if (granularity === "MONTHLY") {
      for (let d = from; d <= to;) {
        const next = Date.UTC(new Date(d).getUTCFullYear(), new Date(d).getUTCMonth() + 1, 1);
        periods.push([d, Math.min(next - 86_400_000, to)]);
        d = next;
      }
    } else periods.push([from, to]);
    const pivot = q.get("pivot") ?? "ACCOUNT";
    const urnType =
      {
        ACCOUNT: "sponsoredAccount",
        CAMPAIGN_GROUP: "sponsoredCampaignGroup",
        CAMPAIGN: "sponsoredCampaign",
        CREATIVE: "sponsoredCreative",
      }[pivot] ?? "sponsoredCampaign";
    const pivots =
      pivot === "ACCOUNT"
        ? [`urn:li:sponsoredAccount:${account}`]
        : [1, 2, 3].map((i) => `urn:li:${urnType}:${account.slice(0, 4)}${i}`);
    const fields = (q.get("fields") ?? "impressions,clicks").split(",");
    const num = (seed: string, max: number) =>
      parseInt(createHash("sha256").update(`${t.account}/${seed}`).digest("hex").slice(0, 8), 16) % max;
    const elements = pivots.flatMap((p) =>
      periods.map(([start, end]) => {
        const seed = `${p}/${start}/${end}`;
        const impressions = 500 + num(`${seed}/i`, 20000);
        const all: Record<string, unknown> = {
          dateRange: { start: dateOf(start), end: dateOf(end) },
          pivotValues: [p],
          impressions,
          clicks: num(`${seed}/c`, Math.floor(impressions / 30)),
          costInLocalCurrency: (num(`${seed}/s`, 200000) / 100).toString(),
          costInUsd: (num(`${seed}/s`, 200000) / 100).toString(),
        };
        const element: Record<string, unknown> = {};
        for (const f of fields) element[f] = all[f] ?? num(`${seed}/${f}`, 50);
        return element;
      }),
    );
    return { json: { paging: { start: 0, count: 10, links: [] }, elements } };
  }

  type Campaign = { id: number; name: string; status: string; account: string; lastModified: number };
  const campaigns = new Map<string, Campaign>(); // `${member}/${account}/${campaign}`
  const CAMPAIGN_STATUSES = new Set(["ACTIVE", "PAUSED", "ARCHIVED", "DRAFT", "CANCELED"]);

  /** The member's campaign of an ad account (created on first use), or null when the account has no such campaign. */
  function campaignOf(member: string, account: string, campaign: string): Campaign | null {
    const ids = [1, 2, 3].map((i) => `${account.slice(0, 4)}${i}`);
    const i = ids.indexOf(campaign);
    if (i < 0) return null;
    const key = `${member}/${account}/${campaign}`;
    if (!campaigns.has(key)) {
      campaigns.set(key, {
        id: Number(campaign),
        name: ["Brand awareness", "Lead generation", "Retargeting"][i],
        status: ["ACTIVE", "PAUSED", "ACTIVE"][i],
        account,
        lastModified: 1_735_689_600_000,
      });
    }
    return campaigns.get(key)!;
  }

  const campaignJson = (c: Campaign) => ({
    account: `urn:li:sponsoredAccount:${c.account}`,
    campaignGroup: `urn:li:sponsoredCampaignGroup:${c.account.slice(0, 6)}0`,
    id: c.id,
    name: c.name,
    status: c.status,
    type: "SPONSORED_UPDATES",
    costType: "CPM",
    dailyBudget: { amount: "50.00", currencyCode: "USD" },
    locale: { country: "US", language: "en" },
    runSchedule: { start: 1_735_689_600_000 },
    servingStatuses: c.status === "ACTIVE" ? ["RUNNABLE"] : ["CAMPAIGN_STATUS_NOT_RUNNABLE"],
    changeAuditStamps: { created: { time: 1_735_689_600_000 }, lastModified: { time: c.lastModified } },
    test: false,
  });

  /** The campaign a /rest/adAccounts/{account}/adCampaigns/{campaign} call is about, or LinkedIn's error. */
  function campaignCall(req: StandInRequest, resource: string): Campaign | Reply {
    const t = restCaller(req, "r_ads", resource);
    if (!("account" in t)) return t;
    const { account, campaign } = req.params;
    if (!/^\d+$/.test(account) || !/^\d+$/.test(campaign))
      return apiError(400, 100, "ILLEGAL_ARGUMENT", `Invalid resource key: ${account}/${campaign}`);
    if (account.startsWith("999"))
      return apiError(
        403,
        100,
        "ACCESS_DENIED",
        `Not enough permissions to access: ${resource}.${String(req.headers["linkedin-version"])}`,
      );
    return (
      campaignOf(t.account, account, campaign) ??
      apiError(
        404,
        100,
        "NOT_FOUND",
        `Not found: urn:li:sponsoredCampaign:${campaign} in urn:li:sponsoredAccount:${account}`,
      )
    );
  }

  function getCampaign(req: StandInRequest): Reply {
    const c = campaignCall(req, "adCampaigns.GET");
    return "id" in c ? { json: campaignJson(c) } : c;
  }

  function updateCampaign(req: StandInRequest): Reply {
    if (String(req.headers["x-restli-method"] ?? "").toUpperCase() !== "PARTIAL_UPDATE") {
      return apiError(
        400,
        100,
        "ILLEGAL_ARGUMENT",
        `POST on an entity needs X-RestLi-Method: PARTIAL_UPDATE (got ${String(req.headers["x-restli-method"] ?? "none")})`,
      );
    }
    const c = campaignCall(req, "adCampaigns.PARTIAL_UPDATE");
    if (!("id" in c)) return c;
    const set = req.json?.patch?.$set;
    if (!set || typeof set !== "object" || Array.isArray(set) || Object.keys(req.json).length !== 1)
      return apiError(400, 100, "ILLEGAL_ARGUMENT", 'The request body must be a patch: {"patch": {"$set": {…}}}');
    const unknown = Object.keys(set).filter((k) => k !== "status" && k !== "name");
    if (unknown.length) return apiError(400, 100, "ILLEGAL_ARGUMENT", `Field ${unknown[0]} cannot be updated`);
    if ("status" in set && !CAMPAIGN_STATUSES.has(set.status))
      return apiError(400, 100, "ILLEGAL_ARGUMENT", `Invalid value for field status: ${String(set.status)}`);
    if (c.status === "CANCELED")
      return apiError(400, 100, "ILLEGAL_ARGUMENT", `Campaign ${c.id} is CANCELED and cannot be changed`);
    if (typeof set.status === "string") c.status = set.status;
    if (typeof set.name === "string") c.name = set.name;
    c.lastModified = Date.now();
    return { status: 204, text: "" };
  }

  const accountOf = (req: StandInRequest) => {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return (bearer && book.accessTokens.get(bearer)?.account) || null;
  };
  return startStandInServer(
    {
      "GET /rest/adAccounts/{account}/adCampaigns/{campaign}": getCampaign,
      "POST /rest/adAccounts/{account}/adCampaigns/{campaign}": updateCampaign,
      "GET /rest/adAccounts": adAccounts,
      "GET /rest/adAnalytics": adAnalytics,
      "GET /oauth/v2/authorization": authorization,
      "POST /oauth/v2/accessToken": accessToken,
      "GET /v2/userinfo": userinfo,
    },
    { accountOf },
  );
}

export const standIn: StandInModule = { types: ["linkedin_ads"], oauthProviders: ["LINKEDIN"], start };
