import { createHash, randomBytes } from "node:crypto";
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

// Stand-in for the Snapchat Marketing API (snapchat_ads) at its real paths, in Snap's wire format:
// - GET /login/oauth2/authorize (accounts.snapchat.com): client_id, redirect_uri (…/oauth/callback),
//   response_type=code, scope (must hold snapchat-marketing-api), state; honours authorizeControls.
// - POST /login/oauth2/access_token, form-encoded with client_id and client_secret in the body (else
//   401 {error: "invalid_client"}): authorization_code (code + redirect_uri) and refresh_token grants
//   → {access_token, token_type: "Bearer", expires_in: 1800, refresh_token, scope}; a bad code or
//   refresh token (OAuthBook: "bad…") → 400 {error: "invalid_grant", error_description}.
// - GET /v1/me → {request_status: "SUCCESS", request_id, me: {id, email, display_name,
//   organization_id, member_status}}.
// Every answer carries request_status and request_id; errors are {request_status: "ERROR",
// request_id, debug_message, display_message} with 401 (no or unknown token), 403 (another user's
// ad account or campaign), 404 (no such entity) or 400 (bad parameters).
// Operation routes:
// - GET /v1/me/organizations?with_ad_accounts=true → organizations [{sub_request_status,
//   organization: {id, name, type, …, ad_accounts: [{id, name, type, status, currency, timezone}]}}]
//   (ad_accounts only with with_ad_accounts=true). One organization and one ad account per account.
// - GET /v1/adaccounts/{id}/campaigns?limit (50-1000)&cursor → {paging: {next_link?}, campaigns:
//   [{sub_request_status, campaign}]}. Three campaigns: "Summer launch" (ACTIVE, daily budget
//   50 000 000 micro), "Always on" (PAUSED, 20 000 000), "Holiday" (ACTIVE, no daily budget).
// - GET /v1/campaigns/{id} → {campaigns: [{sub_request_status, campaign}]}.
// - PUT /v1/adaccounts/{id}/campaigns {campaigns: [1-? × whole campaign]}: each must carry id, name,
//   ad_account_id (the path's), status (ACTIVE | PAUSED) and start_time, as Snapchat replaces the
//   campaign with what it gets (else 400 naming the missing attribute); daily_budget_micro a
//   non-negative integer. Applies it (later reads show it) → {campaigns: [{sub_request_status:
//   "SUCCESS", campaign}]}.
// - GET /v1/campaigns/{id}/stats?granularity (TOTAL | DAY | HOUR)&fields&start_time&end_time (ISO 8601)
//   → total_stats [{total_stat: {id, type: "CAMPAIGN", granularity, start_time, end_time, stats}}] or
//   timeseries_stats [{timeseries_stat: {…, timeseries: [{start_time, end_time, stats}]}}]; DAY
//   boundaries must fall on midnight UTC (the ad account's time zone is UTC) and span at most 32 days.
// Rate limit: an account RateLimits throttles gets 429 {request_status: "ERROR", …, debug_message:
// "Too Many Requests"} with Retry-After on every operation route.

const CLIENT = testClient("SNAPCHAT");
const DAY_MS = 86_400_000;

const uuid = (seed: string) => {
  const h = createHash("sha256").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const num = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
const requestId = () => randomBytes(24).toString("hex");

/** The IDs the stand-in gives an account (the case file asserts them). */
export const snapchatIds = (account: string) => {
  const adAccount = uuid(`snap-adacct:${account}`);
  return {
    user: uuid(`snap-user:${account}`),
    organization: uuid(`snap-org:${account}`),
    adAccount,
    campaigns: [1, 2, 3].map((i) => uuid(`snap-campaign:${adAccount}:${i}`)),
  };
};
/** What every access token this stand-in issues to `account` carries (so a test finds its own calls). */
export const snapchatTokenMark = (account: string) => `snap_${Buffer.from(account).toString("base64url")}_`;

const ok = (body: Record<string, unknown>): Reply => ({
  json: { request_status: "SUCCESS", request_id: requestId(), ...body },
});
const fail = (status: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  json: { request_status: "ERROR", request_id: requestId(), debug_message: message, display_message: message },
  ...(headers && { headers }),
});
const oauthError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error, error_description: description },
});
const errorPage = (text: string): Reply => ({ status: 400, text: `Snapchat: ${text}\n` });

type Campaign = Record<string, unknown> & { id: string; ad_account_id: string; status: string; name: string };

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  const campaigns = new Map<string, Campaign[]>(); // ad account → its campaigns

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("Invalid client_id.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri does not match the OAuth app.");
    }
    if (q.get("response_type") !== "code") return errorPage('response_type must be "code".');
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes("snapchat-marketing-api")) return errorPage("Invalid scope.");
    if (!q.get("state")) return errorPage("state is required.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") back.searchParams.set("error", "access_denied");
    else if (controls.decision === "error") back.searchParams.set("error", "server_error");
    else {
      back.searchParams.set(
        "code",
        book.issueCode({
          clientId: CLIENT.clientId,
          redirectUri: q.get("redirect_uri")!,
          account: controls.account,
          scope: scopes.join(" "),
          codeChallenge: null,
          tokenFailure: controls.tokenFailure,
        }),
      );
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function issue(account: string, scope: string) {
    const token = `${snapchatTokenMark(account)}${randomBytes(12).toString("hex")}`;
    book.accessTokens.set(token, { account, scope });
    return {
      access_token: token,
      token_type: "Bearer",
      expires_in: 1800,
      refresh_token: book.refreshTokenFor(account),
      scope,
    };
  }

  function accessToken(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId || f.get("client_secret") !== CLIENT.clientSecret)
      return oauthError(401, "invalid_client", "Client authentication failed.");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error")
        return oauthError(500, "server_error", "Internal server error.");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string")
        return oauthError(400, "invalid_grant", `Invalid authorization code: ${redeemed}.`);
      return { json: issue(redeemed.account, redeemed.scope) };
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g) return oauthError(400, "invalid_grant", "Invalid refresh token.");
      return { json: issue(g.account, g.scoped ? "snapchat-marketing-api" : "") };
    }
    return oauthError(400, "unsupported_grant_type", `Unsupported grant_type ${grant ?? ""}.`);
  }

  const grantOf = (req: StandInRequest) => {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return bearer ? book.accessTokens.get(bearer) : undefined;
  };

  function me(req: StandInRequest): Reply {
    const t = grantOf(req);
    if (!t) return fail(401, "Unauthorized: the access token is invalid or has expired.");
    if (!t.scope.split(" ").includes("snapchat-marketing-api"))
      return fail(403, "Forbidden: the access token lacks the snapchat-marketing-api scope.");
    const ids = snapchatIds(t.account);
    return ok({
      me: {
        id: ids.user,
        updated_at: "2025-01-01T00:00:00.000Z",
        created_at: "2025-01-01T00:00:00.000Z",
        email: `${t.account}@example.com`,
        organization_id: ids.organization,
        display_name: t.account,
        member_status: "MEMBER",
      },
    });
  }

  /** The account of an operation call, or Snapchat's refusal (no token, rate limit, scope). */
  function caller(req: StandInRequest): { account: string } | Reply {
    const t = grantOf(req);
    if (!t) return fail(401, "Unauthorized: the access token is invalid or has expired.");
    if (rateLimits.limited(t.account))
      return fail(429, "Too Many Requests", { "retry-after": t.account.startsWith("throttled-once") ? "1" : "60" });
    if (!t.scope.split(" ").includes("snapchat-marketing-api"))
      return fail(403, "Forbidden: the access token lacks the snapchat-marketing-api scope.");
    return t;
  }

  function campaignsOf(adAccount: string): Campaign[] {
    if (!campaigns.has(adAccount)) {
      const seed: [string, string, number | null][] = [
        ["Summer launch", "ACTIVE", 50_000_000],
        ["Always on", "PAUSED", 20_000_000],
        ["Holiday", "ACTIVE", null],
      ];
      campaigns.set(
        adAccount,
        seed.map(([name, status, daily], i) => ({
          id: uuid(`snap-campaign:${adAccount}:${i + 1}`),
          updated_at: "2025-01-01T00:00:00.000Z",
          created_at: "2025-01-01T00:00:00.000Z",
          name,
          ad_account_id: adAccount,
          status,
          objective: "BRAND_AWARENESS",
          start_time: "2025-01-01T00:00:00.000Z",
          ...(daily !== null && { daily_budget_micro: daily }),
          buy_model: "AUCTION",
          delivery_status: status === "ACTIVE" ? ["VALID"] : ["INVALID_NOT_ACTIVE"],
        })),
      );
    }
    return campaigns.get(adAccount)!;
  }

  /** The campaign with this ID among the caller's, or Snapchat's 404 / 403. */
  function ownCampaign(account: string, id: string): Campaign | Reply {
    const own = campaignsOf(snapchatIds(account).adAccount).find((c) => c.id === id);
    if (own) return own;
    return fail(404, `Campaign ${id} not found.`);
  }

  function organizations(req: StandInRequest): Reply {
    const t = caller(req);
    if (!("account" in t)) return t;
    const ids = snapchatIds(t.account);
    const withAccounts = req.query.get("with_ad_accounts") === "true";
    return ok({
      organizations: [
        {
          sub_request_status: "SUCCESS",
          organization: {
            id: ids.organization,
            updated_at: "2025-01-01T00:00:00.000Z",
            created_at: "2025-01-01T00:00:00.000Z",
            name: `${t.account} organization`,
            country: "US",
            type: "ENTERPRISE",
            ...(withAccounts && {
              ad_accounts: [
                {
                  id: ids.adAccount,
                  name: `${t.account} ad account`,
                  type: "DIRECT",
                  status: "ACTIVE",
                  organization_id: ids.organization,
                  currency: "USD",
                  timezone: "UTC",
                },
              ],
            }),
          },
        },
      ],
    });
  }

  function listCampaigns(req: StandInRequest): Reply {
    const t = caller(req);
    if (!("account" in t)) return t;
    if (req.params.id !== snapchatIds(t.account).adAccount)
      return fail(403, `Forbidden: no access to ad account ${req.params.id}.`);
    const limit = Number(req.query.get("limit") ?? 50);
    if (!Number.isInteger(limit) || limit < 50 || limit > 1000) return fail(400, "limit must be between 50 and 1000.");
    const from = Number(req.query.get("cursor") ?? 0) || 0;
    const all = campaignsOf(req.params.id);
    const page = all.slice(from, from + limit);
    const next = from + limit < all.length ? from + limit : null;
    return ok({
      ...(next !== null && {
        paging: {
          next_link: `https://adsapi.snapchat.com/v1/adaccounts/${req.params.id}/campaigns?cursor=${next}&limit=${limit}`,
        },
      }),
      campaigns: page.map((c) => ({ sub_request_status: "SUCCESS", campaign: c })),
    });
  }

  function getCampaign(req: StandInRequest): Reply {
    const t = caller(req);
    if (!("account" in t)) return t;
    const c = ownCampaign(t.account, req.params.id);
    if (!("id" in c)) return c;
    return ok({ campaigns: [{ sub_request_status: "SUCCESS", campaign: c }] });
  }

  const REQUIRED = ["id", "name", "ad_account_id", "status", "start_time"];

  function updateCampaigns(req: StandInRequest): Reply {
    const t = caller(req);
    if (!("account" in t)) return t;
    if (req.params.id !== snapchatIds(t.account).adAccount)
      return fail(403, `Forbidden: no access to ad account ${req.params.id}.`);
    const list = (req.json as { campaigns?: unknown } | null)?.campaigns;
    if (!Array.isArray(list) || list.length < 1) return fail(400, "campaigns is required.");
    const planned: [Campaign, Record<string, unknown>][] = [];
    for (const item of list as Record<string, unknown>[]) {
      for (const field of REQUIRED)
        if (item?.[field] === undefined || item[field] === null || item[field] === "")
          return fail(400, `Campaign attribute ${field} is required.`);
      if (item.ad_account_id !== req.params.id)
        return fail(400, `ad_account_id ${String(item.ad_account_id)} does not match the ad account of the request.`);
      if (item.status !== "ACTIVE" && item.status !== "PAUSED")
        return fail(400, `status ${String(item.status)} is not one of ACTIVE, PAUSED.`);
      if (
        item.daily_budget_micro !== undefined &&
        (!Number.isInteger(item.daily_budget_micro) || (item.daily_budget_micro as number) < 0)
      )
        return fail(400, "daily_budget_micro must be a non-negative integer.");
      const c = ownCampaign(t.account, String(item.id));
      if (!("ad_account_id" in c)) return c;
      planned.push([c, item]);
    }
    const now = new Date().toISOString();
    for (const [c, item] of planned) {
      // Snapchat replaces the campaign with what it was sent; it keeps its own read-only fields.
      for (const key of Object.keys(c))
        if (!["id", "created_at", "updated_at", "delivery_status"].includes(key) && !(key in item)) delete c[key];
      for (const [key, value] of Object.entries(item))
        if (!["created_at", "updated_at", "delivery_status"].includes(key)) c[key] = value;
      c.updated_at = now;
      c.delivery_status = c.status === "ACTIVE" ? ["VALID"] : ["INVALID_NOT_ACTIVE"];
    }
    return ok({ campaigns: planned.map(([c]) => ({ sub_request_status: "SUCCESS", campaign: c })) });
  }

  function stats(req: StandInRequest): Reply {
    const t = caller(req);
    if (!("account" in t)) return t;
    const c = ownCampaign(t.account, req.params.id);
    if (!("id" in c)) return c;
    const q = req.query;
    const granularity = q.get("granularity") ?? "TOTAL";
    if (!["TOTAL", "DAY", "HOUR", "LIFETIME"].includes(granularity))
      return fail(400, `granularity ${granularity} is not one of TOTAL, DAY, HOUR, LIFETIME.`);
    const startTime = Date.parse(q.get("start_time") ?? "");
    const endTime = Date.parse(q.get("end_time") ?? "");
    if (Number.isNaN(startTime) || Number.isNaN(endTime)) return fail(400, "start_time and end_time are required.");
    if (endTime <= startTime) return fail(400, "end_time must be after start_time.");
    if (startTime % 3_600_000 || endTime % 3_600_000)
      return fail(400, "start_time and end_time must fall on the hour.");
    if (granularity === "DAY") {
      if (startTime % DAY_MS || endTime % DAY_MS)
        return fail(400, "DAY granularity needs start_time and end_time at midnight in the ad account's time zone.");
      if ((endTime - startTime) / DAY_MS > 32) return fail(400, "DAY granularity allows at most 32 days.");
    }
    const fields = (q.get("fields") ?? "impressions,swipes,spend").split(",").filter(Boolean);
    const statsFor = (seed: string) => {
      const impressions = 500 + num(`${seed}/i`, 30_000);
      const all: Record<string, number> = {
        impressions,
        swipes: num(`${seed}/w`, Math.floor(impressions / 20)),
        spend: num(`${seed}/s`, 300) * 1_000_000 + num(`${seed}/m`, 100) * 10_000,
      };
      return Object.fromEntries(fields.map((f) => [f, all[f] ?? num(`${seed}/${f}`, 1000)]));
    };
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = { id: c.id, type: "CAMPAIGN", granularity, start_time: iso(startTime), end_time: iso(endTime) };
    if (granularity !== "DAY")
      return ok({
        total_stats: [
          {
            sub_request_status: "SUCCESS",
            total_stat: { ...base, stats: statsFor(`${t.account}/${c.id}/${startTime}..${endTime}`) },
          },
        ],
      });
    const timeseries = [];
    for (let d = startTime; d < endTime; d += DAY_MS)
      timeseries.push({ start_time: iso(d), end_time: iso(d + DAY_MS), stats: statsFor(`${t.account}/${c.id}/${d}`) });
    return ok({ timeseries_stats: [{ sub_request_status: "SUCCESS", timeseries_stat: { ...base, timeseries } }] });
  }

  return startStandInServer({
    "GET /login/oauth2/authorize": authorize,
    "POST /login/oauth2/access_token": accessToken,
    "GET /v1/me": me,
    "GET /v1/me/organizations": organizations,
    "GET /v1/adaccounts/{id}/campaigns": listCampaigns,
    "PUT /v1/adaccounts/{id}/campaigns": updateCampaigns,
    "GET /v1/campaigns/{id}": getCampaign,
    "GET /v1/campaigns/{id}/stats": stats,
  });
}

export const standIn: StandInModule = { types: ["snapchat_ads"], oauthProviders: ["SNAPCHAT"], start };
