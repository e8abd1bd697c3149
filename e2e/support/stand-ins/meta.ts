import { createHash, createHmac, randomBytes } from "node:crypto";
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

// Stand-in for Meta (meta_ads): the www.facebook.com login dialog and the Graph API
// (graph.facebook.com/v21.0: oauth/access_token, debug_token, me, ad objects) at their real
// paths, in Graph's wire format: errors as {error: {message, type, code, error_subcode,
// fbtrace_id}}, and debug_token answering HTTP 200 with data.is_valid=false for a dead token.
//
// Values a test posts as white-label credentials:
// - app_id `bad…`              → 400 OAuthException code 101 "Error validating application. Invalid application ID."
// - app_secret `bad…`          → 400 OAuthException code 190 "Invalid OAuth access token signature."
// - access_token `bad_scope…`  → valid, but granted only business_management and public_profile (no ads_read)
// - access_token `bad_app…`    → a token of another app: debug_token says "The App_id in the input_token did not match the Viewing App"
// - access_token `bad…`        → expired: code 190, subcode 463 "Error validating access token: Session has expired on …"
// Any other value works; the OAuth app is testClient("META").
//
// Read calls (the MCP tools), for a token the stand-in issued or one debug_token has seen:
// - GET /v21.0/act_{id}/insights: rows per level (3 campaigns/ad sets/ads, or the account) and
//   per day with time_increment=1, metrics derived from the account, object and date; an ad
//   account ID beginning with 999 → 400 GraphMethodException (#100) "Unsupported get request. …"
// - GET /v21.0/me/adaccounts: two ad accounts derived from the user (the first in USD, the second in JPY).
//
// Ad objects, kept in memory and changed by the writes. Every ad account (the user's two, or any
// other ID not beginning with 999 that a user names first, which is then theirs, in USD) holds
// three campaigns, ids digits("campaign:<account>:<i>", 17), i = 1..3 (the ids insights reports):
// "Brand — US" (ACTIVE, campaign budget 5000), "Prospecting — EU" (ACTIVE, no campaign budget: its
// ad sets have them) and "Retargeting — Global" (PAUSED, campaign budget 2000); and four ad sets, ids
// digits("adset:<account>:<i>", 17), i = 1..4: "Brand — US — Broad" (no budget), "Prospecting —
// EU — Lookalike" (2500) and "Prospecting — EU — Interests" (PAUSED, 1500), "Retargeting — Global
// — Site visitors" (no budget). Budgets are in the currency's minor units (cents; yen for JPY).
// - GET /v21.0/{id}?fields=…: a campaign or ad set (fields name, status, effective_status —
//   CAMPAIGN_PAUSED for an ad set of a paused campaign —, daily_budget and lifetime_budget when
//   set, account_id, objective on campaigns, campaign_id, optimization_goal and billing_event on
//   ad sets); a field the node's type lacks → 400 "(#100) Tried accessing nonexisting field
//   (objective) on node type (AdSet)". GET /v21.0/act_{id}?fields=…: the ad account (currency …).
// - GET /v21.0/act_{id}/campaigns and /adsets?fields=…: its campaigns or ad sets.
// - POST /v21.0/{id} with status (ACTIVE, PAUSED, ARCHIVED, DELETED), daily_budget (minor units)
//   and/or name, as form fields, query parameters or JSON → {"success": true}; reads then show
//   the change. A bad status → (#100) "Param status must be one of {ACTIVE, PAUSED, DELETED,
//   ARCHIVED}"; a daily_budget that is not a positive integer → (#100) "Param daily_budget must
//   be a positive integer"; a campaign budget on a campaign whose ad sets carry the budgets, or an
//   ad set budget under a campaign budget → (#100) "Invalid parameter" (these three texts are the
//   stand-in's own wording).
// - An ID that is no campaign or ad set of the caller's ad accounts → 400 GraphMethodException
//   (#100, subcode 33) "Unsupported get|post request. Object with ID '…' does not exist, …".

const CLIENT = testClient("META");
const KNOWN_PERMISSIONS = new Set([
  "ads_read",
  "ads_management",
  "business_management",
  "public_profile",
  "email",
  "read_insights",
  "pages_show_list",
  "pages_read_engagement",
  "pages_manage_posts",
  "instagram_basic",
  "instagram_manage_insights",
  "instagram_content_publish",
]);
const SYSTEM_USER_SCOPES = ["ads_read", "ads_management", "business_management", "public_profile"];
const OTHER_APP_ID = "1000000000000001";

const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const fbtrace = () => randomBytes(8).toString("base64url");

const graphError = (status: number, message: string, code: number, extra: Record<string, unknown> = {}): Reply => ({
  status,
  json: { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: fbtrace() } },
  headers: { "www-authenticate": `OAuth "Facebook Platform" "invalid_token" "${message}"` },
});

const expiredMessage = () =>
  `Error validating access token: Session has expired on Tuesday, 01-Oct-24 09:00:00 PDT. The current time is ${new Date().toUTCString()}.`;

type MetaNode = {
  kind: "campaign" | "adset" | "ad";
  id: string;
  account: string;
  /** The user whose ad account holds it: other users get "does not exist". */
  owner: string;
  name: string;
  status: string;
  daily_budget?: string;
  lifetime_budget?: string;
  objective?: string;
  campaign_id?: string;
  adset_id?: string;
  creative_id?: string;
};

const META_CAMPAIGNS = [
  { name: "Brand — US", status: "ACTIVE", objective: "OUTCOME_AWARENESS", daily_budget: "5000" },
  { name: "Prospecting — EU", status: "ACTIVE", objective: "OUTCOME_SALES" },
  { name: "Retargeting — Global", status: "PAUSED", objective: "OUTCOME_SALES", daily_budget: "2000" },
];
/** Ad sets: their campaign (1-based index into META_CAMPAIGNS) and own budget, if any. */
const META_ADSETS = [
  { campaign: 1, name: "Brand — US — Broad", status: "ACTIVE" },
  { campaign: 2, name: "Prospecting — EU — Lookalike", status: "ACTIVE", daily_budget: "2500" },
  { campaign: 2, name: "Prospecting — EU — Interests", status: "PAUSED", daily_budget: "1500" },
  { campaign: 3, name: "Retargeting — Global — Site visitors", status: "ACTIVE" },
];
const NODE_FIELDS = {
  campaign: new Set([
    "id",
    "name",
    "status",
    "effective_status",
    "daily_budget",
    "lifetime_budget",
    "account_id",
    "objective",
  ]),
  adset: new Set([
    "id",
    "name",
    "status",
    "effective_status",
    "daily_budget",
    "lifetime_budget",
    "account_id",
    "campaign_id",
    "optimization_goal",
    "billing_event",
  ]),
  ad: new Set(["id", "name", "status", "effective_status", "account_id", "adset_id", "campaign_id", "creative"]),
};
const NODE_TYPE = { campaign: "Campaign", adset: "AdSet", ad: "Adgroup" };
/** One ad per ad set (the ad set's name + " — Ad"), each with its own creative. */
const CREATIVE_CTA = ["SHOP_NOW", "LEARN_MORE", "SIGN_UP", "SHOP_NOW"];
const STATUSES = ["ACTIVE", "PAUSED", "DELETED", "ARCHIVED"];

const phoneIdOf = (account: string) => digits(`wa-phone:${account}`, 15);
const wabaIdOf = (account: string) => digits(`waba:${account}`, 15);
const displayPhoneOf = (account: string) => {
  const n = digits(`wa-number:${account}`, 7);
  return `+1 555-${n.slice(0, 3)}-${n.slice(3)}`;
};

/**
 * The IDs the stand-in gives the stand-in account `account` connected through OAuth (its Facebook
 * user, two Pages — the first linked to an Instagram account —, two ad accounts) and as a
 * WhatsApp token `EAAW<account>` (its phone number, display number and business account).
 */
export function metaStandInIds(account: string) {
  const user = digits(`fb:${account}`, 16);
  const pages = [1, 2].map((i) => digits(`page:${user}:${i}`, 15));
  return {
    user,
    pages,
    ig: `1784${digits(`ig:${pages[0]}`, 13)}`,
    igUsername: `${account.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_bakery`,
    adAccounts: [1, 2].map((i) => digits(`adacct:${user}:${i}`, 15)),
    phoneNumberId: phoneIdOf(account),
    displayPhone: displayPhoneOf(account),
    wabaId: wabaIdOf(account),
  };
}

/** The user a token acts for: their Facebook id and name, the stand-in account, the granted scopes. */
type Caller = { id: string; name: string; account: string; scope: string };

/** The stand-in account of a white-label token: `EAAx<account>` (what the case files post), else the token. */
const accountOfToken = (token: string) => (/^EAA[A-Za-z]/.test(token) ? token.slice(4) : token);

/**
 * Graph's throttling answer for an API family: the Business Use Case codes (80001 Pages, 80002
 * Instagram, 80004 ads management, 80008 WhatsApp Business Management) with their
 * X-Business-Use-Case-Usage header, or 17 for a user token's platform limit.
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting/
 */
const THROTTLE = {
  ads: { code: 80004, type: "ads_management", what: "ad-account" },
  pages: { code: 80001, type: "pages", what: "Page" },
  instagram: { code: 80002, type: "instagram", what: "Instagram account" },
  whatsapp: { code: 80008, type: "whatsapp_business_management", what: "WhatsApp Business account" },
  user: { code: 17, type: "", what: "" },
} as const;
function throttleReply(kind: keyof typeof THROTTLE, account: string, id: string): Reply {
  const t = THROTTLE[kind];
  const retryAfter = account.startsWith("throttled-once") ? "1" : "60";
  const message =
    kind === "user"
      ? "(#17) User request limit reached"
      : `(#${t.code}) There have been too many calls to this ${t.what}. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.`;
  return {
    status: kind === "user" ? 403 : 400,
    json: { error: { message, type: "OAuthException", is_transient: true, code: t.code, fbtrace_id: fbtrace() } },
    headers: {
      "retry-after": retryAfter,
      ...(kind !== "user" && {
        "x-business-use-case-usage": JSON.stringify({
          [id]: [
            {
              type: t.type,
              call_count: 100,
              total_cputime: 12,
              total_time: 20,
              estimated_time_to_regain_access: Math.ceil(Number(retryAfter) / 60),
            },
          ],
        }),
      }),
    },
  };
}

const unsupported = (method: "get" | "post", id: string): Reply => ({
  status: 400,
  json: {
    error: {
      message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: "GraphMethodException",
      code: 100,
      error_subcode: 33,
      fbtrace_id: fbtrace(),
    },
  },
});

const invalidParameter = (message: string, extra: Record<string, unknown> = {}): Reply => ({
  status: 400,
  json: { error: { message, type: "OAuthException", code: 100, ...extra, fbtrace_id: fbtrace() } },
});

/** The login dialog shows errors on a Facebook page instead of redirecting when the app or redirect is wrong. */
const errorPage = (title: string, text: string): Reply => ({ status: 400, text: `${title}\n\n${text}\n` });

function start() {
  const book = new OAuthBook();
  /** White-label tokens seen by debug_token → the app secret they were checked with (for appsecret_proof). */
  const manualSecrets = new Map<string, string>();

  function dialog(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId)
      return errorPage("Invalid App ID", "The provided app ID does not look like a valid app ID.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage(
        "URL blocked",
        "This redirect failed because the redirect URI is not whitelisted in the app's client OAuth settings.",
      );
    }
    if ((q.get("response_type") ?? "code") !== "code")
      return errorPage("Invalid response_type", `response_type ${q.get("response_type")} is not supported.`);
    if (!q.get("state")) return errorPage("Invalid request", "The state parameter is required.");
    const scopes = (q.get("scope") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const invalid = scopes.filter((s) => !KNOWN_PERMISSIONS.has(s));
    if (invalid.length) return errorPage("Invalid Scopes", invalid.join(", "));

    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_code", "200");
      back.searchParams.set("error_description", "Permissions error");
      back.searchParams.set("error_reason", "user_denied");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_code", "1");
      back.searchParams.set("error_description", "An unknown error has occurred.");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: ["public_profile", ...scopes].join(","),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: `${back.toString()}#_=_` };
  }

  function accessToken(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId)
      return graphError(400, "Error validating application. Invalid application ID.", 101);
    if (q.get("client_secret") !== CLIENT.clientSecret) return graphError(400, "Error validating client secret.", 1);
    if (!q.get("redirect_uri")) return graphError(400, "Missing redirect_uri parameter.", 191);
    const code = q.get("code") ?? "";
    if (book.codes.get(code)?.tokenFailure === "server_error") {
      return {
        status: 500,
        json: {
          error: {
            message: "An unexpected error has occurred. Please retry your request later.",
            type: "OAuthException",
            is_transient: true,
            code: 2,
            fbtrace_id: fbtrace(),
          },
        },
      };
    }
    const redeemed = book.redeem(code, CLIENT.clientId, q.get("redirect_uri"), null);
    if (typeof redeemed === "string") {
      if (redeemed.includes("already used"))
        return graphError(400, "This authorization code has been used.", 100, { error_subcode: 36009 });
      if (redeemed.startsWith("redirect_uri")) {
        return graphError(
          400,
          "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
          100,
          { error_subcode: 36008 },
        );
      }
      return graphError(400, "Invalid verification code format.", 100, { error_subcode: 36007 });
    }
    return {
      json: {
        access_token: book.issueAccessToken(redeemed.account, redeemed.scope),
        token_type: "bearer",
        expires_in: 5183944,
      },
    };
  }

  function debugToken(req: StandInRequest): Reply {
    const q = req.query;
    const [appId, appSecret] = (q.get("access_token") ?? "").split("|");
    if (!appId || appSecret === undefined)
      return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
    if (appId.startsWith("bad")) return graphError(400, "Error validating application. Invalid application ID.", 101);
    const secretOk =
      appId === CLIENT.clientId ? appSecret === CLIENT.clientSecret : !!appSecret && !appSecret.startsWith("bad");
    if (!secretOk) return graphError(400, "Invalid OAuth access token signature.", 190);
    const input = q.get("input_token") ?? "";
    if (!input) return graphError(400, "(#100) The parameter input_token is required", 100);
    const now = Math.floor(Date.now() / 1000);

    const issued = book.accessTokens.get(input);
    if (issued) {
      if (appId !== CLIENT.clientId) {
        return {
          json: {
            data: {
              app_id: CLIENT.clientId,
              is_valid: false,
              error: { code: 100, message: "The App_id in the input_token did not match the Viewing App" },
              scopes: [],
            },
          },
        };
      }
      const scopes = issued.scope.split(",").filter(Boolean);
      return {
        json: {
          data: {
            app_id: appId,
            type: "USER",
            application: "Patchbay",
            data_access_expires_at: now + 90 * 86400,
            expires_at: now + 5183944,
            is_valid: true,
            issued_at: now,
            scopes,
            granular_scopes: scopes.map((scope) => ({ scope })),
            user_id: digits(`fb:${issued.account}`, 16),
          },
        },
      };
    }
    if (input.startsWith("bad_app")) {
      return {
        json: {
          data: {
            app_id: OTHER_APP_ID,
            is_valid: false,
            error: { code: 100, message: "The App_id in the input_token did not match the Viewing App" },
            scopes: [],
          },
        },
      };
    }
    if (input.startsWith("bad") && !input.startsWith("bad_scope")) {
      return {
        json: {
          data: {
            app_id: appId,
            type: "SYSTEM_USER",
            application: "Your app",
            data_access_expires_at: 0,
            error: { code: 190, message: expiredMessage(), subcode: 463 },
            expires_at: now - 86400,
            is_valid: false,
            scopes: [],
            user_id: digits(`su:${input}`, 16),
          },
        },
      };
    }
    manualSecrets.set(input, appSecret);
    const scopes = input.startsWith("bad_scope") ? ["business_management", "public_profile"] : SYSTEM_USER_SCOPES;
    return {
      json: {
        data: {
          app_id: appId,
          type: "SYSTEM_USER",
          application: "Your app",
          data_access_expires_at: 0,
          expires_at: 0,
          is_valid: true,
          issued_at: now - 3600,
          scopes,
          granular_scopes: scopes.map((scope) => ({ scope })),
          user_id: digits(`su:${input}`, 16),
        },
      },
    };
  }

  /** The user a Graph call's token acts for (its appsecret_proof checked when given), or Graph's error. */
  function caller(req: StandInRequest): Caller | Reply {
    const header = /^(?:Bearer|OAuth) (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const token = header ?? req.query.get("access_token") ?? "";
    if (!token)
      return graphError(400, "An active access token must be used to query information about the current user.", 2500);
    const issued = book.accessTokens.get(token);
    const secret = issued ? CLIENT.clientSecret : manualSecrets.get(token);
    const proof = req.query.get("appsecret_proof") ?? req.form.get("appsecret_proof");
    if (proof && secret && proof !== createHmac("sha256", secret).update(token).digest("hex")) {
      return {
        status: 400,
        json: {
          error: {
            message: "Invalid appsecret_proof provided in the API argument",
            type: "GraphMethodException",
            code: 100,
            fbtrace_id: fbtrace(),
          },
        },
      };
    }
    if (issued)
      return {
        id: digits(`fb:${issued.account}`, 16),
        name: issued.account,
        account: issued.account,
        scope: issued.scope,
      };
    if (manualSecrets.has(token))
      return {
        id: digits(`su:${token}`, 16),
        name: "Patchbay System User",
        account: accountOfToken(token),
        scope: SYSTEM_USER_SCOPES.join(","),
      };
    if (token.startsWith("bad")) return graphError(400, expiredMessage(), 190, { error_subcode: 463 });
    // A white-label token is known once debug_token has seen it; anything else was never issued.
    return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
  }

  function insights(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const account = req.params.account;
    const limited = throttled("ads", user.account, `act_${account}`);
    if (limited) return limited;
    if (account.startsWith("999")) {
      return {
        status: 400,
        json: {
          error: {
            message: `Unsupported get request. Object with ID 'act_${account}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
            type: "GraphMethodException",
            code: 100,
            error_subcode: 33,
            fbtrace_id: fbtrace(),
          },
        },
      };
    }
    const q = req.query;
    const level = q.get("level") ?? "account";
    const fields = (q.get("fields") ?? "impressions,spend").split(",");
    let since: string, until: string;
    if (q.get("time_range")) ({ since, until } = JSON.parse(q.get("time_range")!) as { since: string; until: string });
    else {
      const days = Number(/^last_(\d+)d$/.exec(q.get("date_preset") ?? "last_30d")?.[1] ?? 30);
      until = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      since = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    }
    const periods: [string, string][] = [];
    if (q.get("time_increment") === "1")
      for (let t = Date.parse(since); t <= Date.parse(until) && periods.length < 400; t += 86_400_000)
        periods.push([new Date(t).toISOString().slice(0, 10), new Date(t).toISOString().slice(0, 10)]);
    else periods.push([since, until]);
    const objects =
      level === "account"
        ? [{ id: account, name: `Ad account ${account}` }]
        : level === "campaign" || level === "adset" || level === "ad"
          ? (userAccounts(user), accountNodes(account, user.id).filter((n) => n.kind === level))
          : [1, 2, 3].map((i) => ({
              id: digits(`${level}:${account}:${i}`, 17),
              name: `${level[0].toUpperCase()}${level.slice(1)} ${i}`,
            }));
    const num = (seed: string, max: number) =>
      parseInt(createHash("sha256").update(`${user.id}/${seed}`).digest("hex").slice(0, 8), 16) % max;
    const rows = objects.flatMap((o) =>
      periods.map(([start, stop]) => {
        const seed = `${o.id}/${start}/${stop}`;
        const impressions = 1000 + num(`${seed}/i`, 50000);
        const clicks = num(`${seed}/c`, Math.floor(impressions / 20));
        const spend = num(`${seed}/s`, 100000) / 100;
        const metrics: Record<string, unknown> = {
          impressions: String(impressions),
          reach: String(Math.round(impressions * 0.7)),
          frequency: "1.428571",
          clicks: String(clicks),
          inline_link_clicks: String(Math.round(clicks * 0.8)),
          spend: spend.toFixed(2),
          ctr: ((clicks / impressions) * 100).toFixed(6),
          cpc: clicks ? (spend / clicks).toFixed(6) : "0",
          cpm: ((spend / impressions) * 1000).toFixed(6),
          actions: [
            { action_type: "link_click", value: String(Math.round(clicks * 0.8)) },
            { action_type: "purchase", value: String(num(`${seed}/p`, 20)) },
          ],
          action_values: [{ action_type: "purchase", value: (num(`${seed}/v`, 200000) / 100).toFixed(2) }],
          purchase_roas: [{ action_type: "omni_purchase", value: "2.35" }],
          conversions: [{ action_type: "offsite_conversion.fb_pixel_purchase", value: String(num(`${seed}/p`, 20)) }],
        };
        const ids: Record<string, string> =
          level === "account"
            ? { account_id: o.id, account_name: o.name }
            : { [`${level}_id`]: o.id, [`${level}_name`]: o.name };
        const row: Record<string, unknown> = {};
        for (const f of fields)
          if (f in ids) row[f] = ids[f];
          else if (f in metrics) row[f] = metrics[f];
        return { ...row, date_start: start, date_stop: stop };
      }),
    );
    const limit = Number(q.get("limit") ?? 25);
    return {
      json: {
        data: rows.slice(0, limit),
        paging: {
          cursors: { before: "MAZDZD", after: "MjQZD" },
          ...(rows.length > limit && { next: "https://graph.facebook.com/v21.0/next-page" }),
        },
      },
    };
  }

  function adAccounts(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const limited = throttled("user", user.account, user.id);
    if (limited) return limited;
    const data = userAccounts(user).map((id) => accountJson(id));
    return { json: { data, paging: { cursors: { before: "QVFI", after: "QVFJ" } } } };
  }

  // ---- Ad objects: campaigns and ad sets per ad account, changed by POST /{id} ----

  const nodes = new Map<string, MetaNode>();
  const accounts = new Map<string, { owner: string; name: string; currency: string; status: number }>();

  /** The account's campaigns and ad sets, made (for `owner`) on first use. */
  function accountNodes(
    account: string,
    owner: string,
    currency = "USD",
    name = `Ad account ${account}`,
    status = 1,
  ): MetaNode[] {
    if (!accounts.has(account)) {
      accounts.set(account, { owner, name, currency, status });
      const campaignIds = META_CAMPAIGNS.map((c, i) => {
        const id = digits(`campaign:${account}:${i + 1}`, 17);
        nodes.set(id, { kind: "campaign", id, account, owner, ...c });
        return id;
      });
      META_ADSETS.forEach(({ campaign, ...a }, i) => {
        const id = digits(`adset:${account}:${i + 1}`, 17);
        nodes.set(id, { kind: "adset", id, account, owner, campaign_id: campaignIds[campaign - 1], ...a });
        const adId = digits(`ad:${account}:${i + 1}`, 17);
        nodes.set(adId, {
          kind: "ad",
          id: adId,
          account,
          owner,
          name: `${a.name} — Ad`,
          status: "ACTIVE",
          campaign_id: campaignIds[campaign - 1],
          adset_id: id,
          creative_id: digits(`creative:${account}:${i + 1}`, 17),
        });
      });
    }
    return [...nodes.values()].filter((n) => n.account === account);
  }

  /** The user's own two ad accounts (USD, then JPY), made on first use. */
  function userAccounts(user: { id: string; name: string }): string[] {
    return [1, 2].map((i) => {
      const id = digits(`adacct:${user.id}:${i}`, 15);
      accountNodes(id, user.id, i === 1 ? "USD" : "JPY", `${user.name} ads ${i}`, i === 1 ? 1 : 2);
      return id;
    });
  }

  function accountJson(id: string): Record<string, unknown> {
    const a = accounts.get(id)!;
    return {
      id: `act_${id}`,
      account_id: id,
      name: a.name,
      account_status: a.status,
      currency: a.currency,
      timezone_name: "America/Los_Angeles",
    };
  }

  /** Only the requested fields (`id` always), as Graph answers; fields without a value are left out. */
  function pick(all: Record<string, unknown>, fieldsParam: string | null): Record<string, unknown> {
    const fields = (fieldsParam ?? "id")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    return Object.fromEntries(
      Object.entries(all).filter(([k, v]) => (k === "id" || fields.includes(k)) && v !== undefined),
    );
  }

  function nodeJson(n: MetaNode): Record<string, unknown> {
    const campaign = n.campaign_id ? nodes.get(n.campaign_id) : undefined;
    const adset = n.adset_id ? nodes.get(n.adset_id) : undefined;
    const effective =
      n.status !== "ACTIVE"
        ? n.status
        : campaign?.status === "PAUSED"
          ? "CAMPAIGN_PAUSED"
          : adset?.status === "PAUSED"
            ? "ADSET_PAUSED"
            : n.status;
    if (n.kind === "ad")
      return {
        id: n.id,
        name: n.name,
        status: n.status,
        effective_status: effective,
        account_id: n.account,
        adset_id: n.adset_id,
        campaign_id: n.campaign_id,
        creative: { id: n.creative_id },
      };
    return {
      id: n.id,
      name: n.name,
      status: n.status,
      effective_status: effective,
      daily_budget: n.daily_budget,
      lifetime_budget: n.lifetime_budget,
      account_id: n.account,
      ...(n.kind === "campaign"
        ? { objective: n.objective }
        : { campaign_id: n.campaign_id, optimization_goal: "LINK_CLICKS", billing_event: "IMPRESSIONS" }),
    };
  }

  /** The caller's node with this id (their own accounts made first), or undefined. */
  function ownNode(user: { id: string; name: string }, id: string): MetaNode | undefined {
    userAccounts(user);
    const n = nodes.get(id);
    return n && n.owner === user.id ? n : undefined;
  }

  /** An ad account the caller may use: their own two, or any other not yet taken (then theirs; 999… never). */
  function ownAccount(user: { id: string; name: string }, account: string): boolean {
    userAccounts(user);
    const a = accounts.get(account);
    if (a) return a.owner === user.id;
    if (account.startsWith("999")) return false;
    accountNodes(account, user.id);
    return true;
  }

  function readNode(req: StandInRequest): Reply {
    // WhatsApp's identity call (not throttled): the phone number its token owns.
    if (isWaToken(req)) return waPhoneNumber(req, req.params.id);
    const user = caller(req);
    if (!("id" in user)) return user;
    const id = req.params.id;
    if (id.startsWith("act_")) {
      const account = id.slice(4);
      if (!/^\d+$/.test(account) || !ownAccount(user, account)) return unsupported("get", id);
      return throttled("ads", user.account, id) ?? { json: pick(accountJson(account), req.query.get("fields")) };
    }
    const other = readOtherNode(req, user, id);
    if (other) return other;
    const n = ownNode(user, id);
    if (!n) return unsupported("get", id);
    const limited = throttled("ads", user.account, id);
    if (limited) return limited;
    const fields = (req.query.get("fields") ?? "id")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    const missing = fields.find((f) => !NODE_FIELDS[n.kind].has(f));
    if (missing)
      return invalidParameter(
        `(#100) Tried accessing nonexisting field (${missing}) on node type (${NODE_TYPE[n.kind]})`,
      );
    return { json: pick(nodeJson(n), req.query.get("fields")) };
  }

  function listNodes(kind: MetaNode["kind"]) {
    return (req: StandInRequest): Reply => {
      const user = caller(req);
      if (!("id" in user)) return user;
      const account = req.params.account;
      if (!ownAccount(user, account)) return unsupported("get", `act_${account}`);
      const limited = throttled("ads", user.account, `act_${account}`);
      if (limited) return limited;
      const data = accountNodes(account, user.id)
        .filter((n) => n.kind === kind)
        .map((n) => pick(nodeJson(n), req.query.get("fields")));
      return { json: { data, paging: { cursors: { before: "QVFI", after: "QVFJ" } } } };
    };
  }

  function updateNode(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const id = req.params.id;
    const n = ownNode(user, id);
    if (!n) return unsupported("post", id);
    const limited = throttled("ads", user.account, id);
    if (limited) return limited;
    // Graph takes parameters from the query, a form body or a JSON body alike.
    const params: Record<string, string> = { ...Object.fromEntries(req.query) };
    if (/x-www-form-urlencoded/.test(String(req.headers["content-type"] ?? "")))
      Object.assign(params, Object.fromEntries(req.form));
    else if (req.json && typeof req.json === "object")
      for (const [k, v] of Object.entries(req.json)) params[k] = String(v);
    const change: Partial<MetaNode> = {};
    if (params.status !== undefined) {
      if (!STATUSES.includes(params.status))
        return invalidParameter("(#100) Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}");
      change.status = params.status;
    }
    if (params.daily_budget !== undefined && n.kind === "ad")
      return invalidParameter("(#100) Tried accessing nonexisting field (daily_budget) on node type (Adgroup)");
    if (params.daily_budget !== undefined) {
      if (!/^\d+$/.test(params.daily_budget) || Number(params.daily_budget) <= 0)
        return invalidParameter("(#100) Param daily_budget must be a positive integer");
      const campaign = n.campaign_id ? nodes.get(n.campaign_id) : undefined;
      const budgetElsewhere =
        n.kind === "campaign"
          ? n.daily_budget === undefined && n.lifetime_budget === undefined
          : campaign?.daily_budget !== undefined || campaign?.lifetime_budget !== undefined;
      if (budgetElsewhere) {
        return invalidParameter("Invalid parameter", {
          error_user_msg:
            n.kind === "campaign"
              ? "This campaign's ad sets have their own budgets, so the campaign cannot take a budget."
              : "This ad set's campaign has a campaign budget, so the ad set cannot take one.",
        });
      }
      change.daily_budget = String(Number(params.daily_budget));
    }
    if (params.name !== undefined) change.name = params.name;
    Object.assign(n, change);
    return { json: { success: true } };
  }

  // ---- Throttling (RateLimits): every operation route, keyed on the token's stand-in account ----

  const rateLimits = new RateLimits();
  const throttled = (kind: keyof typeof THROTTLE, account: string, id: string): Reply | null =>
    rateLimits.limited(account) ? throttleReply(kind, account, id) : null;

  // ---- Ad creatives: one per ad ----

  function creativeJson(n: MetaNode): Record<string, unknown> {
    const i = Number(/(\d)$/.exec(n.name)?.[1] ?? 1);
    return {
      id: n.creative_id,
      name: `${n.name.replace(/ — Ad$/, "")} — Creative`,
      status: "ACTIVE",
      object_type: "SHARE",
      title: `${n.name.split(" — ")[0]} offer`,
      body: `Shop the ${n.name.split(" — ")[0]} collection today.`,
      call_to_action_type: CREATIVE_CTA[(i - 1) % CREATIVE_CTA.length],
      link_url: "https://shop.example.com/collection",
      image_url: `https://scontent.example.com/creatives/${n.creative_id}.jpg`,
      thumbnail_url: `https://scontent.example.com/creatives/${n.creative_id}_thumb.jpg`,
    };
  }

  function adCreatives(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const node = req.params.node;
    const fields = req.query.get("fields");
    let ads: MetaNode[];
    if (node.startsWith("act_")) {
      const account = node.slice(4);
      if (!/^\d+$/.test(account) || !ownAccount(user, account)) return unsupported("get", node);
      ads = accountNodes(account, user.id).filter((n) => n.kind === "ad");
    } else {
      const ad = ownNode(user, node);
      if (!ad || ad.kind !== "ad") return unsupported("get", node);
      ads = [ad];
    }
    const limited = throttled("ads", user.account, node);
    if (limited) return limited;
    const limit = Number(req.query.get("limit") ?? 25);
    const data = ads.map((a) => pick(creativeJson(a), fields));
    return {
      json: {
        data: data.slice(0, limit),
        paging: {
          cursors: { before: "QVFI", after: "QVFJ" },
          ...(data.length > limit && { next: "https://graph.facebook.com/v21.0/next-page" }),
        },
      },
    };
  }

  // ---- Facebook Pages and Instagram: two Pages per user, the first linked to an Instagram account ----

  type Page = {
    id: string;
    name: string;
    category: string;
    followers: number;
    owner: string;
    account: string;
    token: string;
    ig: string | null;
  };
  type Post = { id: string; message: string | null; link?: string; created_time: string; shares: number };
  type Media = {
    id: string;
    caption: string | null;
    media_type: string;
    media_product_type: string;
    timestamp: string;
    like_count: number;
    comments_count: number;
  };
  const pages = new Map<string, Page>();
  const pageTokens = new Map<string, { page: string; scope: string }>();
  const posts = new Map<string, Post[]>();
  const igAccounts = new Map<string, { id: string; page: string; username: string; name: string }>();
  const media = new Map<string, Media[]>();
  const containers = new Map<string, { ig: string; image_url: string; caption: string | null; published: boolean }>();
  const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "+0000");
  const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "_");

  /** The user's two Pages (made on first use), each with three posts; the first with an Instagram account and three media. */
  function pagesOf(user: Caller): Page[] {
    return [1, 2].map((i) => {
      const id = digits(`page:${user.id}:${i}`, 15);
      if (!pages.has(id)) {
        const name = `${user.name} ${i === 1 ? "Bakery" : "Books"}`;
        const ig = i === 1 ? `1784${digits(`ig:${id}`, 13)}` : null;
        const token = `EAAP${createHash("sha256").update(`page-token:${id}`).digest("hex").slice(0, 24)}`;
        pages.set(id, {
          id,
          name,
          category: i === 1 ? "Bakery" : "Book Store",
          followers: 1000 + Number(digits(`followers:${id}`, 4)),
          owner: user.id,
          account: user.account,
          token,
          ig,
        });
        posts.set(
          id,
          [1, 2, 3].map((n) => ({
            id: `${id}_${digits(`post:${id}:${n}`, 16)}`,
            message: `${name} update ${n}`,
            created_time: iso(Date.now() - n * 86_400_000),
            shares: n,
          })),
        );
        if (ig) {
          igAccounts.set(ig, { id: ig, page: id, username: `${slug(user.name)}_bakery`, name });
          media.set(
            ig,
            [1, 2, 3].map((n) => ({
              id: `179${digits(`media:${ig}:${n}`, 14)}`,
              caption: `Fresh from the oven #${n}`,
              media_type: n === 2 ? "VIDEO" : "IMAGE",
              media_product_type: n === 2 ? "REELS" : "FEED",
              timestamp: iso(Date.now() - n * 86_400_000),
              like_count: 10 * n,
              comments_count: n,
            })),
          );
        }
      }
      pageTokens.set(pages.get(id)!.token, { page: id, scope: user.scope });
      return pages.get(id)!;
    });
  }

  /** Top-level fields of a `fields` parameter, with nested field lists: "a,b{c,d}" → {a: [], b: [c, d]}. */
  function fieldTree(param: string | null): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const m of (param ?? "id").matchAll(/([a-z_]+)(?:\{([^}]*)\})?/g))
      out.set(m[1], m[2] ? m[2].split(",").map((f) => f.trim()) : []);
    return out;
  }
  const only = (all: Record<string, unknown>, fields: Iterable<string>) => {
    const wanted = new Set([...fields, "id"]);
    return Object.fromEntries(Object.entries(all).filter(([k, v]) => wanted.has(k) && v !== undefined));
  };

  function igJson(id: string): Record<string, unknown> {
    const ig = igAccounts.get(id)!;
    return {
      id,
      username: ig.username,
      name: ig.name,
      followers_count: 500 + Number(digits(`igf:${id}`, 3)),
      media_count: media.get(id)?.length ?? 0,
    };
  }

  function pageJson(p: Page, fields: Map<string, string[]>): Record<string, unknown> {
    return only(
      {
        id: p.id,
        name: p.name,
        category: p.category,
        followers_count: p.followers,
        tasks: ["ANALYZE", "ADVERTISE", "MODERATE", "CREATE_CONTENT", "MANAGE"],
        access_token: p.token,
        instagram_business_account:
          p.ig && fields.has("instagram_business_account")
            ? only(igJson(p.ig), fields.get("instagram_business_account")!)
            : undefined,
      },
      fields.keys(),
    );
  }

  function accountsList(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const limited = throttled("user", user.account, user.id);
    if (limited) return limited;
    if (!user.scope.split(",").includes("pages_show_list"))
      return graphError(403, "(#200) Requires pages_show_list permission to manage the object", 200);
    const fields = fieldTree(req.query.get("fields"));
    const data = pagesOf(user).map((p) => pageJson(p, fields));
    return { json: { data, paging: { cursors: { before: "QVFI", after: "QVFJ" } } } };
  }

  /** The Page a Page access token stands for (its appsecret_proof checked), or Graph's error. */
  function pageCaller(req: StandInRequest, pageId: string): Page | Reply {
    const token = /^(?:Bearer|OAuth) (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
    const held = pageTokens.get(token);
    if (!held) {
      const user = caller(req);
      if (!("id" in user)) return user;
      return graphError(400, "(#210) A page access token is required to request this resource.", 210);
    }
    const proof = req.query.get("appsecret_proof") ?? req.form.get("appsecret_proof");
    if (proof && proof !== createHmac("sha256", CLIENT.clientSecret).update(token).digest("hex"))
      return invalidParameter("Invalid appsecret_proof provided in the API argument");
    if (held.page !== pageId) return unsupported(req.method === "POST" ? "post" : "get", pageId);
    return pages.get(pageId)!;
  }

  const PAGE_METRICS = new Set([
    "page_total_media_view_unique",
    "page_media_view",
    "page_post_engagements",
    "page_follows",
    "page_views_total",
    "page_daily_follows_unique",
    "page_daily_unfollows_unique",
  ]);
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

  function pageInsights(req: StandInRequest): Reply {
    const page = pageCaller(req, req.params.id);
    if (!("token" in page)) return page;
    const limited = throttled("pages", page.account, page.id);
    if (limited) return limited;
    const metrics = (req.query.get("metric") ?? "").split(",").filter(Boolean);
    if (!metrics.length)
      return {
        status: 400,
        json: {
          error: {
            message: "Invalid query",
            type: "OAuthException",
            code: 3001,
            error_subcode: 1504028,
            error_user_title: "No Metric Specified",
            error_user_msg:
              "No metric was specified to be fetched. Please specify one or more metrics to be fetched and try again.",
            fbtrace_id: fbtrace(),
          },
        },
      };
    const bad = metrics.find((m) => !PAGE_METRICS.has(m));
    if (bad) return invalidParameter(`(#100) The value must be a valid insights metric`, { error_user_msg: bad });
    const period = req.query.get("period") ?? "day";
    if (!["day", "week", "days_28"].includes(period))
      return invalidParameter("(#100) Param period must be one of {day, week, days_28, lifetime, total_over_range}");
    const since = req.query.get("since") ?? "";
    const until = req.query.get("until") ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(until) || day(until) < day(since))
      return invalidParameter("(#100) The since and until parameters must be dates, since before until");
    if ((day(until) - day(since)) / 86_400_000 > 93)
      return invalidParameter("(#100) There cannot be more than 93 days (8035200 s) between since and until");
    const days: string[] = [];
    for (let t = day(since); t < day(until); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
    const data = metrics.map((name) => ({
      name,
      period,
      values: days.map((d) => ({
        value: Number(digits(`${page.id}/${name}/${period}/${d}`, 3)),
        end_time: `${new Date(day(d) + 86_400_000).toISOString().slice(0, 10)}T08:00:00+0000`,
      })),
      title: name.replace(/_/g, " "),
      description: `${name} of the Page`,
      id: `${page.id}/insights/${name}/${period}`,
    }));
    return {
      json: { data, paging: { previous: "https://graph.facebook.com/prev", next: "https://graph.facebook.com/next" } },
    };
  }

  function pagePosts(req: StandInRequest): Reply {
    const page = pageCaller(req, req.params.id);
    if (!("token" in page)) return page;
    const limited = throttled("pages", page.account, page.id);
    if (limited) return limited;
    const fields = fieldTree(req.query.get("fields"));
    const limit = Number(req.query.get("limit") ?? 25);
    const all = (posts.get(page.id) ?? []).map((p) =>
      only(
        {
          id: p.id,
          message: p.message ?? undefined,
          created_time: p.created_time,
          permalink_url: `https://www.facebook.com/${p.id.replace("_", "/posts/")}`,
          shares: p.shares ? { count: p.shares } : undefined,
        },
        fields.keys(),
      ),
    );
    return {
      json: {
        data: all.slice(0, limit),
        paging: {
          cursors: { before: "QVFI", after: "QVFJ" },
          ...(all.length > limit && { next: "https://graph.facebook.com/v21.0/next-page" }),
        },
      },
    };
  }

  /** Form fields or a JSON body: Graph takes both. */
  function bodyParams(req: StandInRequest): Record<string, string> {
    if (/x-www-form-urlencoded/.test(String(req.headers["content-type"] ?? ""))) return Object.fromEntries(req.form);
    if (req.json && typeof req.json === "object")
      return Object.fromEntries(Object.entries(req.json as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    return {};
  }

  function pageFeed(req: StandInRequest): Reply {
    const page = pageCaller(req, req.params.id);
    if (!("token" in page)) return page;
    const limited = throttled("pages", page.account, page.id);
    if (limited) return limited;
    if (!pageTokens.get(page.token)!.scope.split(",").includes("pages_manage_posts"))
      return graphError(
        403,
        "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission",
        200,
      );
    const b = bodyParams(req);
    if (!b.message && !b.link) return invalidParameter("(#100) Missing message or attachment");
    if (b.link && !/^https?:\/\/[^\s]+$/.test(b.link))
      return invalidParameter("(#100) link URL is not properly formatted");
    const id = `${page.id}_${digits(`post:${page.id}:${randomBytes(6).toString("hex")}`, 16)}`;
    posts
      .get(page.id)!
      .unshift({ id, message: b.message ?? null, link: b.link, created_time: iso(Date.now()), shares: 0 });
    return { json: { id } };
  }

  /** The Instagram account and the user it belongs to (through their Page), or Graph's error. */
  function igCaller(req: StandInRequest, igId: string): { user: Caller; ig: string } | Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    pagesOf(user);
    const ig = igAccounts.get(igId);
    if (!ig || pages.get(ig.page)?.owner !== user.id) return unsupported(req.method === "POST" ? "post" : "get", igId);
    if (!user.scope.split(",").includes("instagram_basic"))
      return graphError(403, "(#10) Application does not have permission for this action", 10);
    return { user, ig: igId };
  }

  const IG_TOTAL_VALUE = new Set([
    "reach",
    "views",
    "accounts_engaged",
    "total_interactions",
    "likes",
    "comments",
    "shares",
    "saves",
    "replies",
    "profile_links_taps",
  ]);
  const IG_TIME_SERIES = new Set(["reach", "follower_count"]);

  function igInsights(req: StandInRequest, igId: string): Reply {
    const who = igCaller(req, igId);
    if (!("ig" in who)) return who;
    const limited = throttled("instagram", who.user.account, igId);
    if (limited) return limited;
    if (!who.user.scope.split(",").includes("instagram_manage_insights"))
      return graphError(403, "(#10) Application does not have permission for this action", 10);
    const q = req.query;
    const metrics = (q.get("metric") ?? "").split(",").filter(Boolean);
    const type = q.get("metric_type") ?? "time_series";
    if (q.get("period") !== "day")
      return invalidParameter("(#100) period must be one of the following values: day, lifetime");
    const allowed = type === "total_value" ? IG_TOTAL_VALUE : IG_TIME_SERIES;
    const bad = metrics.filter((m) => !allowed.has(m));
    if (!metrics.length || bad.length)
      return invalidParameter(
        type === "total_value"
          ? `(#100) metric[0] must be one of the following values: ${[...IG_TOTAL_VALUE].join(", ")}`
          : `(#100) The following metrics (${bad.join(", ")}) should be specified with parameter metric_type=total_value`,
      );
    const since = Number(q.get("since"));
    const until = Number(q.get("until"));
    if (!Number.isInteger(since) || !Number.isInteger(until) || until <= since)
      return invalidParameter("(#100) since and until must be UNIX timestamps, since before until");
    if (until - since > 30 * 86_400) return invalidParameter("(#100) The time range cannot exceed 30 days");
    const data = metrics.map((name) => {
      const base = {
        name,
        period: "day",
        title: name.replace(/_/g, " "),
        description: name,
        id: `${igId}/insights/${name}/day`,
      };
      if (type === "total_value")
        return { ...base, total_value: { value: Number(digits(`${igId}/${name}/${since}/${until}`, 4)) } };
      const values: Record<string, unknown>[] = [];
      for (let t = since; t < until; t += 86_400)
        values.push({
          value: Number(digits(`${igId}/${name}/${t}`, 3)),
          end_time: iso((t + 86_400) * 1000 + 7 * 3_600_000),
        });
      return { ...base, values };
    });
    return {
      json: { data, paging: { previous: "https://graph.facebook.com/prev", next: "https://graph.facebook.com/next" } },
    };
  }

  const MEDIA_METRICS = new Set(["reach", "views", "likes", "comments", "saved", "shares", "total_interactions"]);

  function mediaOwner(user: Caller, mediaId: string): string | null {
    pagesOf(user);
    for (const [ig, list] of media)
      if (list.some((m) => m.id === mediaId) && pages.get(igAccounts.get(ig)!.page)?.owner === user.id) return ig;
    return null;
  }

  function mediaInsights(req: StandInRequest, mediaId: string): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const ig = mediaOwner(user, mediaId);
    if (!ig) return unsupported("get", mediaId);
    const limited = throttled("instagram", user.account, mediaId);
    if (limited) return limited;
    const metrics = (req.query.get("metric") ?? "").split(",").filter(Boolean);
    const bad = metrics.filter((m) => !MEDIA_METRICS.has(m));
    if (!metrics.length || bad.length)
      return invalidParameter(`(#100) metric[0] must be one of the following values: ${[...MEDIA_METRICS].join(", ")}`);
    const data = metrics.map((name) => ({
      name,
      period: "lifetime",
      values: [{ value: Number(digits(`${mediaId}/${name}`, 3)) }],
      title: name.replace(/_/g, " "),
      description: name,
      id: `${mediaId}/insights/${name}/lifetime`,
    }));
    return { json: { data } };
  }

  /** GET /{id}/insights: a Page's (Page token), an Instagram account's or an Instagram media's. */
  function nodeInsights(req: StandInRequest): Reply {
    const id = req.params.id;
    if (
      pages.has(id) ||
      pageTokens.has(/^(?:Bearer|OAuth) (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1] ?? "")
    )
      return pageInsights(req);
    const user = caller(req);
    if (!("id" in user)) return user;
    pagesOf(user);
    if (igAccounts.has(id)) return igInsights(req, id);
    return mediaInsights(req, id);
  }

  function igMedia(req: StandInRequest): Reply {
    const who = igCaller(req, req.params.id);
    if (!("ig" in who)) return who;
    const limited = throttled("instagram", who.user.account, who.ig);
    if (limited) return limited;
    const fields = fieldTree(req.query.get("fields"));
    const limit = Number(req.query.get("limit") ?? 25);
    const all = (media.get(who.ig) ?? []).map((m) =>
      only(
        { ...m, caption: m.caption ?? undefined, permalink: `https://www.instagram.com/p/${m.id.slice(-11)}/` },
        fields.keys(),
      ),
    );
    return {
      json: {
        data: all.slice(0, limit),
        paging: {
          cursors: { before: "QVFI", after: "QVFJ" },
          ...(all.length > limit && { next: "https://graph.facebook.com/v21.0/next-page" }),
        },
      },
    };
  }

  function igCreateContainer(req: StandInRequest): Reply {
    const who = igCaller(req, req.params.id);
    if (!("ig" in who)) return who;
    const limited = throttled("instagram", who.user.account, who.ig);
    if (limited) return limited;
    if (!who.user.scope.split(",").includes("instagram_content_publish"))
      return graphError(403, "(#10) Application does not have permission for this action", 10);
    const b = bodyParams(req);
    if (!b.image_url && !b.video_url) return invalidParameter("(#100) The parameter image_url is required");
    if (!/^https:\/\/[^\s]+\.(jpe?g)(\?[^\s]*)?$/i.test(b.image_url ?? ""))
      return {
        status: 400,
        json: {
          error: {
            message: "Only photo or video can be accepted as media type.",
            type: "OAuthException",
            code: 9004,
            error_subcode: 2207052,
            error_user_title: "Media download has failed.",
            error_user_msg: "The media could not be fetched from this URI: " + (b.image_url ?? ""),
            fbtrace_id: fbtrace(),
          },
        },
      };
    if ((b.caption ?? "").length > 2200) return invalidParameter("(#100) The caption is longer than 2200 characters");
    const id = `178${digits(`container:${who.ig}:${randomBytes(6).toString("hex")}`, 14)}`;
    containers.set(id, { ig: who.ig, image_url: b.image_url, caption: b.caption ?? null, published: false });
    return { json: { id } };
  }

  function igPublish(req: StandInRequest): Reply {
    const who = igCaller(req, req.params.id);
    if (!("ig" in who)) return who;
    const limited = throttled("instagram", who.user.account, who.ig);
    if (limited) return limited;
    const b = bodyParams(req);
    const container = containers.get(b.creation_id ?? "");
    if (!container || container.ig !== who.ig)
      return invalidParameter("(#100) Param creation_id must be a valid media container ID of this account");
    if (container.published) return invalidParameter("(#9007) The media has already been published", { code: 9007 });
    container.published = true;
    const id = `179${digits(`media:${b.creation_id}`, 14)}`;
    media.get(who.ig)!.unshift({
      id,
      caption: container.caption,
      media_type: "IMAGE",
      media_product_type: "FEED",
      timestamp: iso(Date.now()),
      like_count: 0,
      comments_count: 0,
    });
    return { json: { id } };
  }

  // ---- WhatsApp Cloud API: a token `EAAW<account>` owns one phone number and one business account ----

  const waSent: Record<string, unknown>[] = [];
  const TEMPLATES = [
    {
      name: "order_update",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      body: "Hi {{1}}, your order {{2}} has shipped.",
    },
    { name: "hello_world", language: "en_US", status: "APPROVED", category: "UTILITY", body: "Hello World" },
    {
      name: "summer_sale",
      language: "en",
      status: "PENDING",
      category: "MARKETING",
      body: "Our summer sale starts {{1}}!",
    },
  ];

  /** The WhatsApp token's account, or Graph's error (401 code 190 for an expired token). */
  function waCaller(req: StandInRequest): string | Reply {
    const token = /^(?:Bearer|OAuth) (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
    if (token.startsWith("bad"))
      return { ...graphError(401, expiredMessage(), 190, { error_subcode: 463 }), status: 401 };
    if (!token.startsWith("EAAW") || token.length < 5)
      return { ...graphError(401, "Invalid OAuth access token - Cannot parse access token", 190), status: 401 };
    return token.slice(4);
  }
  const isWaToken = (req: StandInRequest) => /^(?:[Bb]earer|OAuth) EAAW/.test(String(req.headers.authorization ?? ""));

  function waPhoneNumber(req: StandInRequest, id: string): Reply {
    const account = waCaller(req);
    if (typeof account !== "string") return account;
    if (id !== phoneIdOf(account)) return unsupported("get", id);
    return {
      json: only(
        {
          id,
          display_phone_number: displayPhoneOf(account),
          verified_name: `${account} Support`,
          quality_rating: "GREEN",
          code_verification_status: "VERIFIED",
          name_status: "APPROVED",
          messaging_limit_tier: "TIER_1K",
          platform_type: "CLOUD_API",
          throughput: { level: "STANDARD" },
        },
        fieldTree(req.query.get("fields")).keys(),
      ),
    };
  }

  function waProfile(req: StandInRequest): Reply {
    const account = waCaller(req);
    if (typeof account !== "string") return account;
    if (req.params.id !== phoneIdOf(account)) return unsupported("get", req.params.id);
    const limited = throttled("whatsapp", account, wabaIdOf(account));
    if (limited) return limited;
    const fields = fieldTree(req.query.get("fields"));
    return {
      json: {
        data: [
          {
            ...only(
              {
                about: "Fresh bread every morning",
                address: "1 Hacker Way, Menlo Park, CA 94025",
                description: `${account} answers orders and delivery questions here.`,
                email: "support@example.com",
                profile_picture_url: "https://pps.whatsapp.net/v/t61.24694-24/profile.jpg",
                websites: ["https://www.example.com/"],
                vertical: "RETAIL",
              },
              fields.keys(),
            ),
            messaging_product: "whatsapp",
          },
        ],
      },
    };
  }

  function waTemplates(req: StandInRequest): Reply {
    const account = waCaller(req);
    if (typeof account !== "string") return account;
    if (req.params.id !== wabaIdOf(account)) return unsupported("get", req.params.id);
    const limited = throttled("whatsapp", account, req.params.id);
    if (limited) return limited;
    const status = req.query.get("status");
    const fields = fieldTree(req.query.get("fields"));
    const data = TEMPLATES.filter((t) => !status || t.status === status).map((t) =>
      only(
        {
          id: digits(`tpl:${account}:${t.name}`, 15),
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category,
          components: [{ type: "BODY", text: t.body }],
        },
        fields.keys(),
      ),
    );
    const limit = Number(req.query.get("limit") ?? 25);
    return { json: { data: data.slice(0, limit), paging: { cursors: { before: "MAZDZD", after: "MjQZD" } } } };
  }

  const waError = (status: number, code: number, message: string, details: string): Reply => ({
    status,
    json: {
      error: {
        message: `(#${code}) ${message}`,
        type: "OAuthException",
        code,
        error_data: { messaging_product: "whatsapp", details },
        fbtrace_id: fbtrace(),
      },
    },
  });

  function waMessages(req: StandInRequest): Reply {
    const account = waCaller(req);
    if (typeof account !== "string") return account;
    if (req.params.id !== phoneIdOf(account)) return unsupported("post", req.params.id);
    const limited = throttled("whatsapp", account, wabaIdOf(account));
    if (limited) return limited;
    const b = (req.json ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the body is checked field by field
    if (b.messaging_product !== "whatsapp")
      return waError(400, 100, "Invalid parameter", "The parameter messaging_product is required.");
    if (typeof b.to !== "string" || !/^\+?\d{7,15}$/.test(b.to))
      return waError(400, 100, "Invalid parameter", "Invalid parameter: to must be a phone number.");
    if (b.type !== "template" || typeof b.template !== "object" || b.template === null)
      return waError(400, 100, "Invalid parameter", "This stand-in sends template messages only.");
    const t = TEMPLATES.find((x) => x.name === b.template.name && x.language === b.template.language?.code);
    if (!t || t.status !== "APPROVED")
      return waError(
        404,
        132001,
        "Template name does not exist in the translation",
        `template name (${String(b.template.name)}) does not exist in ${String(b.template.language?.code)}`,
      );
    const expected = (t.body.match(/\{\{\d+\}\}/g) ?? []).length;
    const components = Array.isArray(b.template.components) ? b.template.components : [];
    const body = components.find((c: { type?: string }) => c?.type === "body");
    const given = Array.isArray(body?.parameters) ? body.parameters.length : 0;
    if (given !== expected)
      return waError(
        400,
        132000,
        "Number of parameters does not match the expected number of params",
        `body: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
      );
    const id = `wamid.${Buffer.from(`${account}:${randomBytes(8).toString("hex")}`).toString("base64url")}`;
    waSent.push({ id, to: b.to, template: b.template.name });
    return {
      json: {
        messaging_product: "whatsapp",
        contacts: [{ input: b.to, wa_id: b.to.replace(/^\+/, "") }],
        messages: [{ id, message_status: "accepted" }],
      },
    };
  }

  /** GET /{id} beyond ad objects: a Page (user token), an Instagram account or container, a WhatsApp phone number. */
  function readOtherNode(req: StandInRequest, user: Caller, id: string): Reply | null {
    pagesOf(user);
    const fields = fieldTree(req.query.get("fields"));
    const page = pages.get(id);
    if (page) {
      if (page.owner !== user.id) return unsupported("get", id);
      return throttled("pages", user.account, id) ?? { json: pageJson(page, fields) };
    }
    if (igAccounts.has(id)) {
      const who = igCaller(req, id);
      if (!("ig" in who)) return who;
      return throttled("instagram", user.account, id) ?? { json: only(igJson(id), fields.keys()) };
    }
    const container = containers.get(id);
    if (container) {
      if (pages.get(igAccounts.get(container.ig)!.page)?.owner !== user.id) return unsupported("get", id);
      return (
        throttled("instagram", user.account, id) ?? {
          json: only(
            {
              id,
              status_code: container.published ? "PUBLISHED" : "FINISHED",
              status: "Finished: Media has been uploaded and it is ready to be published.",
            },
            fields.keys(),
          ),
        }
      );
    }
    return null;
  }

  /**
   * Test control `GET /__meta/tokens?account=…`: the access tokens the stand-in issued for the
   * account and the Page tokens of its Pages, so a case file can tell its own calls in the journal.
   */
  function tokensOf(req: StandInRequest): Reply {
    const account = req.query.get("account") ?? "";
    const tokens: string[] = [];
    for (const [token, t] of book.accessTokens) {
      if (t.account !== account) continue;
      tokens.push(token);
      const user = { id: digits(`fb:${account}`, 16), name: account, account, scope: t.scope };
      tokens.push(...pagesOf(user).map((p) => p.token));
    }
    return { json: { tokens: [...new Set(tokens)] } };
  }

  function me(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const fields = (req.query.get("fields") ?? "id,name").split(",");
    return { json: Object.fromEntries(Object.entries(user).filter(([k]) => fields.includes(k) || k === "id")) };
  }

  return startStandInServer({
    "GET /__meta/tokens": tokensOf,
    "GET /v21.0/dialog/oauth": dialog,
    "GET /v21.0/oauth/access_token": accessToken,
    "GET /v21.0/debug_token": debugToken,
    "GET /v21.0/me": me,
    "GET /v21.0/me/adaccounts": adAccounts,
    "GET /v21.0/act_{account}/insights": insights,
    "GET /v21.0/act_{account}/campaigns": listNodes("campaign"),
    "GET /v21.0/act_{account}/adsets": listNodes("adset"),
    "GET /v21.0/act_{account}/ads": listNodes("ad"),
    "GET /v21.0/{node}/adcreatives": adCreatives,
    "GET /v21.0/me/accounts": accountsList,
    "GET /v21.0/{id}/insights": nodeInsights,
    "GET /v21.0/{id}/posts": pagePosts,
    "POST /v21.0/{id}/feed": pageFeed,
    "GET /v21.0/{id}/media": igMedia,
    "POST /v21.0/{id}/media": igCreateContainer,
    "POST /v21.0/{id}/media_publish": igPublish,
    "GET /v21.0/{id}/whatsapp_business_profile": waProfile,
    "GET /v21.0/{id}/message_templates": waTemplates,
    "POST /v21.0/{id}/messages": waMessages,
    "GET /v21.0/{id}": readNode,
    "POST /v21.0/{id}": updateNode,
  });
}

export const standIn: StandInModule = {
  types: ["meta_ads", "facebook_pages", "instagram", "whatsapp"],
  oauthProviders: ["META"],
  start,
};
