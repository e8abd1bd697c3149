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

// Stand-in for Pinterest API v5 (pinterest_ads) at its real paths, in Pinterest's wire format:
// - GET /oauth/ (www.pinterest.com's authorize page): client_id, redirect_uri (…/oauth/callback),
//   response_type=code, scope (comma-separated, must hold ads:read), state; honours
//   authorizeControls (deny → error=access_denied, error → error=server_error).
// - POST /v5/oauth/token, the app by HTTP Basic (else 401 {code, message}): authorization_code
//   (code + redirect_uri) and refresh_token grants, answering {access_token, refresh_token,
//   response_type, token_type, expires_in, refresh_token_expires_in, refresh_token_expires_at,
//   scope}; a bad code or refresh token (OAuthBook: "bad…") → 400 {code: 1, message}.
// - GET /v5/user_account → {account_type, id, username, business_name}; no user_accounts:read
//   scope → 403 {code: 403, message: "Not authorized to access the user account."}.
// Operation routes (Bearer token of this stand-in, else 401 {code: 2, message: "Authentication
// failed."}; ads:read for reads, ads:write for the PATCH, else 401 {code: 3, …}; an ad account
// other than the user's one → 404 {code: 2, message: "AdAccount not found."}):
// - GET /v5/ad_accounts?include_shared_accounts&page_size&bookmark → {items: [the user's one ad
//   account], bookmark: null}.
// - GET /v5/ad_accounts/{id}/campaigns?campaign_ids (repeated or comma-separated)&entity_statuses
//   &page_size (1-250)&bookmark → {items, bookmark}. Three campaigns per account: "Spring sale"
//   (ACTIVE, daily cap 25 000 000 micro), "Brand awareness" (PAUSED, 10 000 000), "Retargeting"
//   (ACTIVE, lifetime cap 500 000 000).
// - PATCH /v5/ad_accounts/{id}/campaigns [1-30 × {id, ad_account_id, status?, daily_spend_cap?, name?}]
//   → {items: [{data, exceptions: []}]}, kept for later reads; a campaign the account does not have →
//   its item {data: null, exceptions: [{code: 2, message: "Campaign <id> not found."}]}; a bad
//   status, cap or body → 400 {code: 1, message}; a daily cap on a lifetime-capped campaign → the
//   item's exception code 1.
// - GET /v5/ad_accounts/{id}/campaigns/analytics?start_date&end_date&campaign_ids (1-250)&columns
//   (comma-separated)&granularity (TOTAL|DAY|HOUR|WEEK|MONTH): an array of {CAMPAIGN_ID, DATE
//   (granularity DAY), <column>: number …}, values derived from account, campaign and day. start_date
//   more than 90 days ago, or end_date more than 90 days after it → 400 {code: 1, message}.
// Rate limit: an account RateLimits throttles gets 429 {code: 29, message: "You have exceeded your
// rate limit. Try again later."} with Retry-After on every operation route.

const CLIENT = testClient("PINTEREST");
const DAY_MS = 86_400_000;

const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const num = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;

/** The ad account, user and campaign IDs the stand-in gives an account (the case file asserts them). */
export const pinterestIds = (account: string) => {
  const adAccount = digits(`pin-adacct:${account}`, 15);
  return {
    user: digits(`pin-user:${account}`, 18),
    adAccount,
    campaigns: [1, 2, 3].map((i) => digits(`pin-campaign:${adAccount}:${i}`, 15)),
  };
};
/** What every access token this stand-in issues to `account` carries (so a test finds its own calls). */
export const pinterestTokenMark = (account: string) => `pina_${Buffer.from(account).toString("base64url")}_`;

const error = (status: number, code: number, message: string, headers?: Record<string, string>): Reply => ({
  status,
  json: { code, message },
  ...(headers && { headers }),
});
const errorPage = (text: string): Reply => ({ status: 400, text: `Pinterest: ${text}\n` });

type Campaign = {
  id: string;
  ad_account_id: string;
  name: string;
  status: string;
  objective_type: string;
  daily_spend_cap: number | null;
  lifetime_spend_cap: number | null;
  start_time: number;
  end_time: number | null;
  created_time: number;
  updated_time: number;
};

function start() {
  const book = new OAuthBook();
  const rateLimits = new RateLimits();
  const campaigns = new Map<string, Campaign[]>(); // ad account → its campaigns

  function issue(account: string, scope: string) {
    const token = `${pinterestTokenMark(account)}${randomBytes(12).toString("hex")}`;
    book.accessTokens.set(token, { account, scope });
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: token,
      refresh_token: book.refreshTokenFor(account),
      token_type: "bearer",
      expires_in: 2_592_000,
      refresh_token_expires_in: 31_536_000,
      refresh_token_expires_at: now + 31_536_000,
      scope,
    };
  }

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("Invalid client_id.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri is not registered for this app.");
    }
    if (q.get("response_type") !== "code") return errorPage("response_type must be code.");
    const scopes = (q.get("scope") ?? "").split(",").filter(Boolean);
    if (!scopes.includes("ads:read")) return errorPage("scope must include ads:read.");
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
          scope: scopes.join(","),
          codeChallenge: null,
          tokenFailure: controls.tokenFailure,
        }),
      );
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function token(req: StandInRequest): Reply {
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
    const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent);
    if (id !== CLIENT.clientId || secret !== CLIENT.clientSecret) return error(401, 2, "Authentication failed.");
    const f = req.form;
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error") return error(500, 0, "Internal server error.");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") return error(400, 1, `Invalid authorization code: ${redeemed}.`);
      return { json: { ...issue(redeemed.account, redeemed.scope), response_type: "authorization_code" } };
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g) return error(400, 1, "Invalid refresh token.");
      const scope = g.scoped ? "ads:read,ads:write,user_accounts:read" : "";
      return { json: { ...issue(g.account, scope), response_type: "refresh_token" } };
    }
    return error(400, 1, `Invalid grant_type: ${grant ?? ""}.`);
  }

  const grantOf = (req: StandInRequest) => {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return bearer ? book.accessTokens.get(bearer) : undefined;
  };

  function userAccount(req: StandInRequest): Reply {
    const t = grantOf(req);
    if (!t) return error(401, 2, "Authentication failed.");
    if (!t.scope.split(",").includes("user_accounts:read"))
      return error(403, 403, "Not authorized to access the user account.");
    return {
      json: {
        account_type: "BUSINESS",
        id: pinterestIds(t.account).user,
        username: t.account,
        business_name: `${t.account} business`,
        profile_image: "https://i.pinimg.com/placeholder.jpg",
        website_url: "https://example.com",
      },
    };
  }

  /** The grant of an operation call, its ad account (when the path names one), or Pinterest's refusal. */
  function caller(req: StandInRequest, scope: "ads:read" | "ads:write"): { account: string } | Reply {
    const t = grantOf(req);
    if (!t) return error(401, 2, "Authentication failed.");
    if (rateLimits.limited(t.account))
      return error(429, 29, "You have exceeded your rate limit. Try again later.", {
        "retry-after": t.account.startsWith("throttled-once") ? "1" : "60",
      });
    if (!t.scope.split(",").includes(scope))
      return error(401, 3, `Authorization failed: the ${scope} scope is required.`);
    if (req.params.id !== undefined && req.params.id !== pinterestIds(t.account).adAccount)
      return error(404, 2, "AdAccount not found.");
    return t;
  }

  function campaignsOf(adAccount: string): Campaign[] {
    if (!campaigns.has(adAccount)) {
      const ids = [1, 2, 3].map((i) => digits(`pin-campaign:${adAccount}:${i}`, 15));
      const seed: [string, string, string, number | null, number | null][] = [
        ["Spring sale", "ACTIVE", "CONVERSIONS", 25_000_000, null],
        ["Brand awareness", "PAUSED", "AWARENESS", 10_000_000, null],
        ["Retargeting", "ACTIVE", "CONSIDERATION", null, 500_000_000],
      ];
      campaigns.set(
        adAccount,
        seed.map(([name, status, objective, daily, lifetime], i) => ({
          id: ids[i],
          ad_account_id: adAccount,
          name,
          status,
          objective_type: objective,
          daily_spend_cap: daily,
          lifetime_spend_cap: lifetime,
          start_time: 1_735_689_600,
          end_time: null,
          created_time: 1_735_689_600,
          updated_time: 1_735_689_600,
        })),
      );
    }
    return campaigns.get(adAccount)!;
  }

  const summaryOf = (c: Campaign) => (c.status === "ACTIVE" ? "RUNNING" : c.status);
  const out = (c: Campaign) => ({ ...c, summary_status: summaryOf(c), type: "campaign" });
  /** A list query parameter, repeated or comma-separated. */
  const listParam = (q: URLSearchParams, name: string) =>
    q
      .getAll(name)
      .flatMap((v) => v.split(","))
      .filter(Boolean);

  function adAccounts(req: StandInRequest): Reply {
    const t = caller(req, "ads:read");
    if (!("account" in t)) return t;
    const size = Number(req.query.get("page_size") ?? 25);
    if (!Number.isInteger(size) || size < 1 || size > 250) return error(400, 1, "Invalid page_size: must be 1-250.");
    return {
      json: {
        items: [
          {
            id: pinterestIds(t.account).adAccount,
            name: `${t.account} ads`,
            country: "US",
            currency: "USD",
            owner: { id: pinterestIds(t.account).user, username: t.account },
            permissions: ["OWNER"],
            created_time: 1_735_689_600,
            updated_time: 1_735_689_600,
          },
        ],
        bookmark: null,
      },
    };
  }

  function listCampaigns(req: StandInRequest): Reply {
    const t = caller(req, "ads:read");
    if (!("account" in t)) return t;
    const q = req.query;
    const size = Number(q.get("page_size") ?? 25);
    if (!Number.isInteger(size) || size < 1 || size > 250) return error(400, 1, "Invalid page_size: must be 1-250.");
    const ids = listParam(q, "campaign_ids");
    const statuses = listParam(q, "entity_statuses");
    const wanted = statuses.length ? statuses : ["ACTIVE", "PAUSED"];
    const all = campaignsOf(req.params.id).filter(
      (c) => (!ids.length || ids.includes(c.id)) && wanted.includes(c.status),
    );
    const from = Number(q.get("bookmark") ?? 0) || 0;
    const next = from + size < all.length ? String(from + size) : null;
    return { json: { items: all.slice(from, from + size).map(out), bookmark: next } };
  }

  const STATUSES = ["ACTIVE", "PAUSED", "ARCHIVED", "DRAFT", "DELETED_DRAFT"];

  function updateCampaigns(req: StandInRequest): Reply {
    const t = caller(req, "ads:write");
    if (!("account" in t)) return t;
    const body = req.json;
    if (!Array.isArray(body) || body.length < 1 || body.length > 30)
      return error(400, 1, "Invalid request body: an array of 1 to 30 campaigns is required.");
    for (const item of body) {
      if (typeof item?.id !== "string" || typeof item?.ad_account_id !== "string")
        return error(400, 1, "Invalid request body: id and ad_account_id are required.");
      if (item.ad_account_id !== req.params.id)
        return error(400, 1, `Invalid request body: ad_account_id ${item.ad_account_id} does not match the path.`);
      if (item.status !== undefined && !STATUSES.includes(item.status))
        return error(
          400,
          1,
          `Invalid request body: status ${String(item.status)} is not one of ${STATUSES.join(", ")}.`,
        );
      if (item.daily_spend_cap !== undefined && (!Number.isInteger(item.daily_spend_cap) || item.daily_spend_cap < 0))
        return error(400, 1, "Invalid request body: daily_spend_cap must be a non-negative integer.");
    }
    const own = campaignsOf(req.params.id);
    const items = body.map((item: Record<string, unknown>) => {
      const c = own.find((x) => x.id === item.id);
      if (!c) return { data: null, exceptions: [{ code: 2, message: `Campaign ${String(item.id)} not found.` }] };
      if (item.daily_spend_cap !== undefined && c.lifetime_spend_cap !== null)
        return {
          data: null,
          exceptions: [{ code: 1, message: "daily_spend_cap and lifetime_spend_cap cannot be set at the same time." }],
        };
      if (typeof item.status === "string") c.status = item.status;
      if (typeof item.daily_spend_cap === "number") c.daily_spend_cap = item.daily_spend_cap;
      if (typeof item.name === "string") c.name = item.name;
      c.updated_time = Math.floor(Date.now() / 1000);
      return { data: out(c), exceptions: [] };
    });
    return { json: { items } };
  }

  const COLUMN_RANGES: Record<string, number> = {
    TOTAL_IMPRESSION: 50_000,
    IMPRESSION_1: 50_000,
    TOTAL_CLICKTHROUGH: 2_000,
    CLICKTHROUGH_1: 2_000,
    OUTBOUND_CLICK_1: 1_500,
    TOTAL_CONVERSIONS: 60,
  };

  function analytics(req: StandInRequest): Reply {
    const t = caller(req, "ads:read");
    if (!("account" in t)) return t;
    const q = req.query;
    const [startDate, endDate] = [q.get("start_date") ?? "", q.get("end_date") ?? ""];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate))
      return error(400, 1, "Invalid ad account campaign analytics parameters: start_date and end_date are required.");
    const oldest = new Date(Date.now() - 90 * DAY_MS).toISOString().slice(0, 10);
    if (startDate < oldest) return error(400, 1, `start_date cannot be more than 90 days back from today (${oldest}).`);
    const days = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS;
    if (days < 0) return error(400, 1, "end_date cannot be before start_date.");
    if (days > 90) return error(400, 1, "end_date cannot be more than 90 days past start_date.");
    const ids = listParam(q, "campaign_ids");
    if (ids.length < 1 || ids.length > 250) return error(400, 1, "campaign_ids must hold 1 to 250 IDs.");
    const columns = (q.get("columns") ?? "").split(",").filter(Boolean);
    if (!columns.length) return error(400, 1, "columns is required.");
    const granularity = q.get("granularity") ?? "";
    if (!["TOTAL", "DAY", "HOUR", "WEEK", "MONTH"].includes(granularity))
      return error(400, 1, `Invalid granularity: ${granularity}.`);
    const own = new Set(campaignsOf(req.params.id).map((c) => c.id));
    const dates: (string | null)[] = [];
    if (granularity === "DAY")
      for (let d = Date.parse(startDate); d <= Date.parse(endDate); d += DAY_MS)
        dates.push(new Date(d).toISOString().slice(0, 10));
    else dates.push(null);
    const rows = ids
      .filter((id) => own.has(id))
      .flatMap((id) =>
        dates.map((date) => {
          const seed = `${t.account}/${id}/${date ?? `${startDate}..${endDate}`}`;
          const impressions = 1000 + num(`${seed}/i`, 49_000);
          const clicks = num(`${seed}/c`, Math.floor(impressions / 25));
          const spendMicro = num(`${seed}/s`, 500) * 1_000_000 + num(`${seed}/m`, 100) * 10_000;
          const values: Record<string, number> = {
            SPEND_IN_MICRO_DOLLAR: spendMicro,
            SPEND_IN_DOLLAR: spendMicro / 1_000_000,
            CTR: clicks / impressions,
            ECTR: clicks / impressions,
            ECPC_IN_DOLLAR: clicks ? spendMicro / 1_000_000 / clicks : 0,
            CPC_IN_MICRO_DOLLAR: clicks ? Math.round(spendMicro / clicks) : 0,
            TOTAL_IMPRESSION: impressions,
            TOTAL_CLICKTHROUGH: clicks,
          };
          return {
            CAMPAIGN_ID: id,
            ...(date && { DATE: date }),
            ...Object.fromEntries(columns.map((c) => [c, values[c] ?? num(`${seed}/${c}`, COLUMN_RANGES[c] ?? 100)])),
          };
        }),
      );
    return { json: rows };
  }

  return startStandInServer({
    "GET /oauth/": authorize,
    "POST /v5/oauth/token": token,
    "GET /v5/user_account": userAccount,
    "GET /v5/ad_accounts": adAccounts,
    "GET /v5/ad_accounts/{id}/campaigns": listCampaigns,
    "PATCH /v5/ad_accounts/{id}/campaigns": updateCampaigns,
    "GET /v5/ad_accounts/{id}/campaigns/analytics": analytics,
  });
}

export const standIn: StandInModule = { types: ["pinterest_ads"], oauthProviders: ["PINTEREST"], start };
