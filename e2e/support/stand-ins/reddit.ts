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

// Stand-in for Reddit's OAuth (www.reddit.com/api/v1) and the Reddit Ads API v3
// (ads-api.reddit.com/api/v3) used by reddit_ads, at their real paths, in Reddit's wire format:
// - GET /api/v1/authorize: client_id, response_type=code, state, redirect_uri (…/oauth/callback),
//   duration (temporary | permanent: only a permanent grant gets a refresh token), scope
//   (comma- or space-separated, must hold adsread); honours authorizeControls.
// - POST /api/v1/access_token, the app by HTTP Basic (else 401 {message: "Unauthorized", error:
//   401}): authorization_code (code + redirect_uri) and refresh_token grants → {access_token,
//   token_type: "bearer", expires_in: 86400, refresh_token (permanent grants), scope}; a bad code
//   or refresh token (OAuthBook: "bad…") → 400 {error: "invalid_grant"}.
// Every call must send a descriptive User-Agent (not empty, not a library's default such as
// "node" or "undici"), else 403 text "Blocked: …". The Ads API answers {data: …}, lists with
// pagination {next_url}; errors {error: {message, fields?: [{field, message}]}} with 401 (no or
// unknown token), 403 (another user's ad account or campaign, or a scope missing), 404, 400.
// - GET /api/v3/me → {data: {id: "t2_…", username, …}}.
// Operation routes:
// - GET /api/v3/me/businesses → one business; GET /api/v3/businesses/{id}/ad_accounts → its one ad
//   account {id: "a2_…", name, currency, time_zone_id, business_id}.
// - GET /api/v3/ad_accounts/{id}/campaigns?page.size (1-1000)&page.token → three campaigns: "Launch
//   week" (ACTIVE), "Evergreen" (PAUSED), "Retarget" (ACTIVE); next_url carries page.token.
// - GET /api/v3/campaigns/{id} → {data: campaign}; PATCH /api/v3/campaigns/{id} {data: {configured_status
//   (ACTIVE | PAUSED | ARCHIVED), name?}} → {data: campaign} (adsedit scope), kept for later reads;
//   another value → 400 with fields.
// - POST /api/v3/ad_accounts/{id}/reports {data: {starts_at, ends_at (ISO 8601 on the hour), breakdowns
//   (1-3), fields}} → {data: {metrics: [{<breakdown>, <field> …} in lowercase], metrics_updated_at},
//   pagination: {next_url: null}}: one row per campaign (× day with DATE), numbers derived from
//   account, campaign and day; spend, cpc and ecpm in micro-currency.
// Rate limit: an account RateLimits throttles gets 429 {error: {message: "Too Many Requests"}} with
// Retry-After and X-Ratelimit-Used / -Remaining / -Reset on every operation route.

const CLIENT = testClient("REDDIT");
const DAY_MS = 86_400_000;

const hex = (seed: string, n: number) => createHash("sha256").update(seed).digest("hex").slice(0, n);
const num = (seed: string, max: number) => parseInt(hex(seed, 8), 16) % max;

/** The IDs the stand-in gives an account (the case file asserts them). */
export const redditIds = (account: string) => {
  const adAccount = `a2_${hex(`reddit-adacct:${account}`, 10)}`;
  return {
    user: `t2_${hex(`reddit-user:${account}`, 8)}`,
    business: hex(`reddit-business:${account}`, 8) + "-" + hex(`reddit-business2:${account}`, 4),
    adAccount,
    campaigns: [1, 2, 3].map((i) => String(BigInt(`0x${hex(`reddit-campaign:${adAccount}:${i}`, 15)}`))),
  };
};
/** What every access token this stand-in issues to `account` carries (so a test finds its own calls). */
export const redditTokenMark = (account: string) => `rdt_${Buffer.from(account).toString("base64url")}_`;

const apiError = (
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Reply => ({
  status,
  json: { error: { message, ...extra } },
  ...(headers && { headers }),
});
const errorPage = (text: string): Reply => ({ status: 400, text: `reddit.com: ${text}\n` });

/** Reddit refuses clients that do not say who they are. */
function blockedAgent(req: StandInRequest): Reply | null {
  const ua = String(req.headers["user-agent"] ?? "").trim();
  if (!ua || /^(node|undici|node-fetch|python-requests|curl)\b/i.test(ua))
    return { status: 403, text: "Blocked: send a unique and descriptive User-Agent.\n" };
  return null;
}

type Campaign = {
  id: string;
  ad_account_id: string;
  name: string;
  configured_status: string;
  effective_status: string;
  objective: string;
  goal_type: string;
  goal_value: number;
  spend_cap: number | null;
  start_time: string;
  end_time: string | null;
  created_at: string;
  modified_at: string;
};

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  const permanentCodes = new Set<string>();
  const campaigns = new Map<string, Campaign[]>(); // ad account → its campaigns

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("invalid client id.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("invalid redirect_uri parameter.");
    }
    if (q.get("response_type") !== "code") return errorPage("invalid response_type parameter.");
    const duration = q.get("duration");
    if (duration !== "permanent" && duration !== "temporary") return errorPage("invalid duration parameter.");
    const scopes = (q.get("scope") ?? "").split(/[ ,]+/).filter(Boolean);
    if (!scopes.includes("adsread")) return errorPage("invalid scope requested.");
    if (!q.get("state")) return errorPage("state is required.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") back.searchParams.set("error", "access_denied");
    else if (controls.decision === "error") back.searchParams.set("error", "server_error");
    else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(" "),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      if (duration === "permanent") permanentCodes.add(code);
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function issue(account: string, scope: string, permanent: boolean) {
    const token = `${redditTokenMark(account)}${randomBytes(12).toString("hex")}`;
    book.accessTokens.set(token, { account, scope });
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: 86_400,
      ...(permanent && { refresh_token: book.refreshTokenFor(account) }),
      scope,
    };
  }

  function accessToken(req: StandInRequest): Reply {
    const blocked = blockedAgent(req);
    if (blocked) return blocked;
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
    const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
    if (id !== CLIENT.clientId || secret !== CLIENT.clientSecret)
      return { status: 401, json: { message: "Unauthorized", error: 401 } };
    const f = req.form;
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error")
        return { status: 500, json: { message: "Internal Server Error", error: 500 } };
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") return { status: 400, json: { error: "invalid_grant" } };
      return { json: issue(redeemed.account, redeemed.scope, permanentCodes.has(code)) };
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g) return { status: 400, json: { error: "invalid_grant" } };
      return { json: issue(g.account, g.scoped ? "adsread adsedit" : "", true) };
    }
    return { status: 400, json: { error: "unsupported_grant_type" } };
  }

  const grantOf = (req: StandInRequest) => {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return bearer ? book.accessTokens.get(bearer) : undefined;
  };

  function me(req: StandInRequest): Reply {
    const blocked = blockedAgent(req);
    if (blocked) return blocked;
    const t = grantOf(req);
    if (!t) return apiError(401, "Unauthorized: the access token is invalid or expired.");
    if (!t.scope.split(" ").includes("adsread")) return apiError(403, "Forbidden: the adsread scope is required.");
    return {
      json: {
        data: { id: redditIds(t.account).user, username: t.account, reddit_user_id: redditIds(t.account).user },
      },
    };
  }

  /** The account of an operation call, or Reddit's refusal (agent, token, rate limit, scope). */
  function caller(req: StandInRequest, scope: "adsread" | "adsedit"): { account: string } | Reply {
    const blocked = blockedAgent(req);
    if (blocked) return blocked;
    const t = grantOf(req);
    if (!t) return apiError(401, "Unauthorized: the access token is invalid or expired.");
    if (rateLimits.limited(t.account)) {
      const wait = t.account.startsWith("throttled-once") ? "1" : "60";
      return apiError(
        429,
        "Too Many Requests",
        {},
        {
          "retry-after": wait,
          "x-ratelimit-used": "600",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": wait,
        },
      );
    }
    if (!t.scope.split(" ").includes(scope)) return apiError(403, `Forbidden: the ${scope} scope is required.`);
    return t;
  }

  function campaignsOf(adAccount: string): Campaign[] {
    if (!campaigns.has(adAccount)) {
      const ids = [1, 2, 3].map((i) => String(BigInt(`0x${hex(`reddit-campaign:${adAccount}:${i}`, 15)}`)));
      const seed: [string, string, string][] = [
        ["Launch week", "ACTIVE", "CLICKS"],
        ["Evergreen", "PAUSED", "IMPRESSIONS"],
        ["Retarget", "ACTIVE", "CONVERSIONS"],
      ];
      campaigns.set(
        adAccount,
        seed.map(([name, status, objective], i) => ({
          id: ids[i],
          ad_account_id: adAccount,
          name,
          configured_status: status,
          effective_status: status,
          objective,
          goal_type: "DAILY_SPEND",
          goal_value: 30_000_000,
          spend_cap: null,
          start_time: "2025-01-01T00:00:00Z",
          end_time: null,
          created_at: "2025-01-01T00:00:00Z",
          modified_at: "2025-01-01T00:00:00Z",
        })),
      );
    }
    return campaigns.get(adAccount)!;
  }

  function businesses(req: StandInRequest): Reply {
    const t = caller(req, "adsread");
    if (!("account" in t)) return t;
    const ids = redditIds(t.account);
    return {
      json: {
        data: [
          {
            id: ids.business,
            name: `${t.account} business`,
            industry: "TECHNOLOGY",
            created_at: "2025-01-01T00:00:00Z",
          },
        ],
        pagination: { next_url: null },
      },
    };
  }

  function adAccounts(req: StandInRequest): Reply {
    const t = caller(req, "adsread");
    if (!("account" in t)) return t;
    const ids = redditIds(t.account);
    if (req.params.id !== ids.business) return apiError(403, `Forbidden: no access to business ${req.params.id}.`);
    return {
      json: {
        data: [
          {
            id: ids.adAccount,
            name: `${t.account} ads`,
            business_id: ids.business,
            currency: "USD",
            time_zone_id: "Etc/UTC",
            admin_approval: "APPROVED",
            created_at: "2025-01-01T00:00:00Z",
          },
        ],
        pagination: { next_url: null },
      },
    };
  }

  function listCampaigns(req: StandInRequest): Reply {
    const t = caller(req, "adsread");
    if (!("account" in t)) return t;
    if (req.params.id !== redditIds(t.account).adAccount)
      return apiError(403, `Forbidden: no access to ad account ${req.params.id}.`);
    const size = Number(req.query.get("page.size") ?? 100);
    if (!Number.isInteger(size) || size < 1 || size > 1000)
      return apiError(400, "Invalid request", {
        fields: [{ field: "page.size", message: "must be between 1 and 1000" }],
      });
    const from = Number(req.query.get("page.token") ?? 0) || 0;
    const all = campaignsOf(req.params.id);
    const next = from + size < all.length ? from + size : null;
    return {
      json: {
        data: all.slice(from, from + size),
        pagination: {
          next_url:
            next === null
              ? null
              : `https://ads-api.reddit.com/api/v3/ad_accounts/${req.params.id}/campaigns?page.size=${size}&page.token=${next}`,
        },
      },
    };
  }

  function ownCampaign(account: string, id: string): Campaign | Reply {
    const c = campaignsOf(redditIds(account).adAccount).find((x) => x.id === id);
    return c ?? apiError(404, `Campaign ${id} not found.`);
  }

  function getCampaign(req: StandInRequest): Reply {
    const t = caller(req, "adsread");
    if (!("account" in t)) return t;
    const c = ownCampaign(t.account, req.params.id);
    return "id" in c ? { json: { data: c } } : c;
  }

  const CONFIGURED = ["ACTIVE", "PAUSED", "ARCHIVED"];

  function patchCampaign(req: StandInRequest): Reply {
    const t = caller(req, "adsedit");
    if (!("account" in t)) return t;
    const c = ownCampaign(t.account, req.params.id);
    if (!("id" in c)) return c;
    const data = (req.json as { data?: unknown } | null)?.data;
    if (!data || typeof data !== "object")
      return apiError(400, "Invalid request", { fields: [{ field: "data", message: "is required" }] });
    const d = data as Record<string, unknown>;
    if (d.configured_status !== undefined && !CONFIGURED.includes(String(d.configured_status)))
      return apiError(400, "Invalid request", {
        fields: [
          {
            field: "data.configured_status",
            message: `'${String(d.configured_status)}' is not one of ${JSON.stringify(CONFIGURED)}`,
          },
        ],
      });
    if (typeof d.configured_status === "string") {
      c.configured_status = d.configured_status;
      c.effective_status = d.configured_status;
    }
    if (typeof d.name === "string") c.name = d.name;
    c.modified_at = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
    return { json: { data: c } };
  }

  const FIELDS = ["IMPRESSIONS", "CLICKS", "CTR", "SPEND", "CPC", "ECPM", "REACH"];
  const BREAKDOWNS = ["CAMPAIGN_ID", "AD_GROUP_ID", "AD_ID", "DATE", "COUNTRY", "COMMUNITY", "PLACEMENT", "HOUR"];

  function report(req: StandInRequest): Reply {
    const t = caller(req, "adsread");
    if (!("account" in t)) return t;
    if (req.params.id !== redditIds(t.account).adAccount)
      return apiError(403, `Forbidden: no access to ad account ${req.params.id}.`);
    const d = ((req.json as { data?: unknown } | null)?.data ?? null) as Record<string, unknown> | null;
    const bad = (field: string, message: string) => apiError(400, "Invalid request", { fields: [{ field, message }] });
    if (!d) return bad("data", "is required");
    const startsAt = Date.parse(String(d.starts_at ?? ""));
    const endsAt = Date.parse(String(d.ends_at ?? ""));
    if (Number.isNaN(startsAt)) return bad("data.starts_at", "is required (ISO 8601)");
    if (Number.isNaN(endsAt)) return bad("data.ends_at", "is required (ISO 8601)");
    if (startsAt % 3_600_000 || endsAt % 3_600_000) return bad("data.starts_at", "must be on the hour");
    if (endsAt <= startsAt) return bad("data.ends_at", "must be after starts_at");
    const fields = Array.isArray(d.fields) ? d.fields.map(String) : [];
    if (!fields.length) return bad("data.fields", "is required");
    const unknownField = fields.find((f) => !FIELDS.includes(f));
    if (unknownField) return bad("data.fields", `'${unknownField}' is not one of ${JSON.stringify(FIELDS)}`);
    const breakdowns = Array.isArray(d.breakdowns) ? d.breakdowns.map(String) : [];
    if (breakdowns.length > 3) return bad("data.breakdowns", "at most 3 breakdowns");
    const unknownBreakdown = breakdowns.find((b) => !BREAKDOWNS.includes(b));
    if (unknownBreakdown)
      return bad("data.breakdowns", `'${unknownBreakdown}' is not one of ${JSON.stringify(BREAKDOWNS)}`);
    const ids = campaignsOf(req.params.id).map((c) => c.id);
    const byCampaign = breakdowns.includes("CAMPAIGN_ID") ? ids : [null];
    const days: (string | null)[] = [];
    if (breakdowns.includes("DATE"))
      for (let ms = startsAt; ms < endsAt; ms += DAY_MS) days.push(new Date(ms).toISOString().slice(0, 10));
    else days.push(null);
    const metrics = byCampaign.flatMap((campaign) =>
      days.map((date) => {
        const seed = `${t.account}/${campaign ?? "all"}/${date ?? `${startsAt}..${endsAt}`}`;
        const impressions = 800 + num(`${seed}/i`, 40_000);
        const clicks = num(`${seed}/c`, Math.floor(impressions / 30));
        const spend = num(`${seed}/s`, 400) * 1_000_000 + num(`${seed}/m`, 100) * 10_000;
        const all: Record<string, number> = {
          impressions,
          clicks,
          ctr: clicks / impressions,
          spend,
          cpc: clicks ? Math.round(spend / clicks) : 0,
          ecpm: Math.round((spend / impressions) * 1000),
          reach: Math.floor(impressions * 0.7),
        };
        return {
          ...(campaign !== null && { campaign_id: campaign }),
          ...(date !== null && { date }),
          ...Object.fromEntries(fields.map((f) => [f.toLowerCase(), all[f.toLowerCase()]])),
        };
      }),
    );
    return {
      json: {
        data: { metrics, metrics_updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") },
        pagination: { next_url: null },
      },
    };
  }

  return startStandInServer({
    "GET /api/v1/authorize": authorize,
    "POST /api/v1/access_token": accessToken,
    "GET /api/v3/me": me,
    "GET /api/v3/me/businesses": businesses,
    "GET /api/v3/businesses/{id}/ad_accounts": adAccounts,
    "GET /api/v3/ad_accounts/{id}/campaigns": listCampaigns,
    "POST /api/v3/ad_accounts/{id}/reports": report,
    "GET /api/v3/campaigns/{id}": getCampaign,
    "PATCH /api/v3/campaigns/{id}": patchCampaign,
  });
}

export const standIn: StandInModule = { types: ["reddit_ads"], oauthProviders: ["REDDIT"], start };
