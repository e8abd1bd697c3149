import { createHash, createHmac, randomBytes } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for Meta (meta_ads): the www.facebook.com login dialog and the Graph API
// (graph.facebook.com/v21.0: oauth/access_token, debug_token, me) at their real paths, in
// Graph's wire format: GET everywhere, errors as {error: {message, type, code, error_subcode,
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
// - GET /v21.0/me/adaccounts: two ad accounts derived from the user.

const CLIENT = testClient("META");
const KNOWN_PERMISSIONS = new Set(["ads_read", "ads_management", "business_management", "public_profile", "email", "read_insights", "pages_show_list"]);
const SYSTEM_USER_SCOPES = ["ads_read", "ads_management", "business_management", "public_profile"];
const OTHER_APP_ID = "1000000000000001";

const digits = (seed: string, n: number) => BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`).toString().padStart(n, "1").slice(0, n);
const fbtrace = () => randomBytes(8).toString("base64url");

const graphError = (status: number, message: string, code: number, extra: Record<string, unknown> = {}): Reply => ({
  status,
  json: { error: { message, type: "OAuthException", code, ...extra, fbtrace_id: fbtrace() } },
  headers: { "www-authenticate": `OAuth "Facebook Platform" "invalid_token" "${message}"` },
});

const expiredMessage = () =>
  `Error validating access token: Session has expired on Tuesday, 01-Oct-24 09:00:00 PDT. The current time is ${new Date().toUTCString()}.`;

/** The login dialog shows errors on a Facebook page instead of redirecting when the app or redirect is wrong. */
const errorPage = (title: string, text: string): Reply => ({ status: 400, text: `${title}\n\n${text}\n` });

function start() {
  const book = new OAuthBook();
  /** White-label tokens seen by debug_token → the app secret they were checked with (for appsecret_proof). */
  const manualSecrets = new Map<string, string>();

  function dialog(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("Invalid App ID", "The provided app ID does not look like a valid app ID.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("URL blocked", "This redirect failed because the redirect URI is not whitelisted in the app's client OAuth settings.");
    }
    if ((q.get("response_type") ?? "code") !== "code") return errorPage("Invalid response_type", `response_type ${q.get("response_type")} is not supported.`);
    if (!q.get("state")) return errorPage("Invalid request", "The state parameter is required.");
    const scopes = (q.get("scope") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
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
    if (q.get("client_id") !== CLIENT.clientId) return graphError(400, "Error validating application. Invalid application ID.", 101);
    if (q.get("client_secret") !== CLIENT.clientSecret) return graphError(400, "Error validating client secret.", 1);
    if (!q.get("redirect_uri")) return graphError(400, "Missing redirect_uri parameter.", 191);
    const code = q.get("code") ?? "";
    if (book.codes.get(code)?.tokenFailure === "server_error") {
      return { status: 500, json: { error: { message: "An unexpected error has occurred. Please retry your request later.", type: "OAuthException", is_transient: true, code: 2, fbtrace_id: fbtrace() } } };
    }
    const redeemed = book.redeem(code, CLIENT.clientId, q.get("redirect_uri"), null);
    if (typeof redeemed === "string") {
      if (redeemed.includes("already used")) return graphError(400, "This authorization code has been used.", 100, { error_subcode: 36009 });
      if (redeemed.startsWith("redirect_uri")) {
        return graphError(400, "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request", 100, { error_subcode: 36008 });
      }
      return graphError(400, "Invalid verification code format.", 100, { error_subcode: 36007 });
    }
    return { json: { access_token: book.issueAccessToken(redeemed.account, redeemed.scope), token_type: "bearer", expires_in: 5183944 } };
  }

  function debugToken(req: StandInRequest): Reply {
    const q = req.query;
    const [appId, appSecret] = (q.get("access_token") ?? "").split("|");
    if (!appId || appSecret === undefined) return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
    if (appId.startsWith("bad")) return graphError(400, "Error validating application. Invalid application ID.", 101);
    const secretOk = appId === CLIENT.clientId ? appSecret === CLIENT.clientSecret : !!appSecret && !appSecret.startsWith("bad");
    if (!secretOk) return graphError(400, "Invalid OAuth access token signature.", 190);
    const input = q.get("input_token") ?? "";
    if (!input) return graphError(400, "(#100) The parameter input_token is required", 100);
    const now = Math.floor(Date.now() / 1000);

    const issued = book.accessTokens.get(input);
    if (issued) {
      if (appId !== CLIENT.clientId) {
        return { json: { data: { app_id: CLIENT.clientId, is_valid: false, error: { code: 100, message: "The App_id in the input_token did not match the Viewing App" }, scopes: [] } } };
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
      return { json: { data: { app_id: OTHER_APP_ID, is_valid: false, error: { code: 100, message: "The App_id in the input_token did not match the Viewing App" }, scopes: [] } } };
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
    if (!token) return graphError(400, "An active access token must be used to query information about the current user.", 2500);
    const issued = book.accessTokens.get(token);
    const secret = issued ? CLIENT.clientSecret : manualSecrets.get(token);
    const proof = req.query.get("appsecret_proof");
    if (proof && secret && proof !== createHmac("sha256", secret).update(token).digest("hex")) {
      return { status: 400, json: { error: { message: "Invalid appsecret_proof provided in the API argument", type: "GraphMethodException", code: 100, fbtrace_id: fbtrace() } } };
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
    if (q.get("time_increment") === "1") for (let t = Date.parse(since); t <= Date.parse(until) && periods.length < 400; t += 86_400_000) periods.push([new Date(t).toISOString().slice(0, 10), new Date(t).toISOString().slice(0, 10)]);
    else periods.push([since, until]);
    const objects = level === "account" ? [{ id: account, name: `Ad account ${account}` }] : [1, 2, 3].map((i) => ({ id: digits(`${level}:${account}:${i}`, 17), name: `${level[0].toUpperCase()}${level.slice(1)} ${i}` }));
    const num = (seed: string, max: number) => parseInt(createHash("sha256").update(`${user.id}/${seed}`).digest("hex").slice(0, 8), 16) % max;
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
        const ids: Record<string, string> = level === "account" ? { account_id: o.id, account_name: o.name } : { [`${level}_id`]: o.id, [`${level}_name`]: o.name };
        const row: Record<string, unknown> = {};
        for (const f of fields) if (f in ids) row[f] = ids[f];
        else if (f in metrics) row[f] = metrics[f];
        return { ...row, date_start: start, date_stop: stop };
      }),
    );
    const limit = Number(q.get("limit") ?? 25);
    return { json: { data: rows.slice(0, limit), paging: { cursors: { before: "MAZDZD", after: "MjQZD" }, ...(rows.length > limit && { next: "https://graph.facebook.com/v21.0/next-page" }) } } };
  }

  function adAccounts(req: StandInRequest): Reply {
    const user = caller(req);
    if (!("id" in user)) return user;
    const data = [1, 2].map((i) => {
      const id = digits(`adacct:${user.id}:${i}`, 15);
      return { id: `act_${id}`, account_id: id, name: `${user.name} ads ${i}`, account_status: i === 1 ? 1 : 2, currency: "USD", timezone_name: "America/Los_Angeles" };
    });
    return { json: { data, paging: { cursors: { before: "QVFI", after: "QVFJ" } } } };
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
  });
}

export const standIn: StandInModule = { types: ["meta_ads"], oauthProviders: ["META"], start };
