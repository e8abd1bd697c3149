import { createHash, createHmac, randomBytes } from "node:crypto";
import {
  OAuthBook,
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
  kind: "campaign" | "adset";
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
};
const NODE_TYPE = { campaign: "Campaign", adset: "AdSet" };
const STATUSES = ["ACTIVE", "PAUSED", "DELETED", "ARCHIVED"];

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
  function caller(req: StandInRequest): { id: string; name: string } | Reply {
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
    if (issued) return { id: digits(`fb:${issued.account}`, 16), name: issued.account };
    if (manualSecrets.has(token)) return { id: digits(`su:${token}`, 16), name: "Patchbay System User" };
    if (token.startsWith("bad")) return graphError(400, expiredMessage(), 190, { error_subcode: 463 });
    // A white-label token is known once debug_token has seen it; anything else was never issued.
    return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
  }

  function insights(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const account = req.params.account;
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
        : level === "campaign" || level === "adset"
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
    const effective = n.status === "ACTIVE" && campaign?.status === "PAUSED" ? "CAMPAIGN_PAUSED" : n.status;
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
    const user = caller(req);
    if (!("id" in user)) return user;
    const id = req.params.id;
    if (id.startsWith("act_")) {
      const account = id.slice(4);
      if (!/^\d+$/.test(account) || !ownAccount(user, account)) return unsupported("get", id);
      return { json: pick(accountJson(account), req.query.get("fields")) };
    }
    const n = ownNode(user, id);
    if (!n) return unsupported("get", id);
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

  function listNodes(kind: "campaign" | "adset") {
    return (req: StandInRequest): Reply => {
      const user = caller(req);
      if (!("id" in user)) return user;
      const account = req.params.account;
      if (!ownAccount(user, account)) return unsupported("get", `act_${account}`);
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

  function me(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const fields = (req.query.get("fields") ?? "id,name").split(",");
    return { json: Object.fromEntries(Object.entries(user).filter(([k]) => fields.includes(k) || k === "id")) };
  }

  return startStandInServer({
    "GET /v21.0/dialog/oauth": dialog,
    "GET /v21.0/oauth/access_token": accessToken,
    "GET /v21.0/debug_token": debugToken,
    "GET /v21.0/me": me,
    "GET /v21.0/me/adaccounts": adAccounts,
    "GET /v21.0/act_{account}/insights": insights,
    "GET /v21.0/act_{account}/campaigns": listNodes("campaign"),
    "GET /v21.0/act_{account}/adsets": listNodes("adset"),
    "GET /v21.0/{id}": readNode,
    "POST /v21.0/{id}": updateNode,
  });
}

export const standIn: StandInModule = { types: ["meta_ads"], oauthProviders: ["META"], start };
