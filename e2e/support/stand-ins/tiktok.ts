import { createHash, randomBytes } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for TikTok API for Business (tiktok_ads): the portal/auth page and the open_api
// v1.3 token and user/info calls at their real paths, in TikTok's wire format: JSON bodies,
// HTTP 200 with {code, message, request_id, data} for success (code 0) and for errors
// (code ≠ 0), auth_code in the callback, Access-Token header. OAuth only: the app is
// testClient("TIKTOK"). No refresh (TikTok's Marketing API tokens do not expire).
//
// Read calls (the MCP tools), for a token the stand-in issued (else code 40105):
// - GET /open_api/v1.3/report/integrated/get/ (array parameters as JSON text): rows of
//   {dimensions, metrics} for three objects of the data level (× days with stat_time_day),
//   metrics derived from advertiser, object and day; page/page_size honoured. An advertiser
//   the token was not authorized for → code 40001 "No permission to operate advertiser …";
//   stat_time_day over more than 30 days → code 40002.

const CLIENT = testClient("TIKTOK");

const digits = (seed: string, n: number) => BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`).toString().padStart(n, "1").slice(0, n);
const requestId = () => `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}${randomBytes(10).toString("hex").toUpperCase()}`;
const answer = (code: number, message: string, data: Record<string, unknown> = {}, status = 200): Reply => ({ status, json: { code, message, request_id: requestId(), data } });
const errorPage = (text: string): Reply => ({ status: 400, text: `TikTok for Business: ${text}\n` });

function start() {
  const book = new OAuthBook();

  function auth(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("app_id") !== CLIENT.clientId) return errorPage("The app_id is invalid or the app is not approved.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri does not match the advertiser redirect URL of the app.");
    }
    if (!q.get("state")) return errorPage("state is required.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: "1,2,3,4",
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("auth_code", code);
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function accessToken(req: StandInRequest): Reply {
    const b = (req.json ?? {}) as { app_id?: unknown; secret?: unknown; auth_code?: unknown };
    if (!b.app_id || !b.secret || !b.auth_code) return answer(40002, "app_id, secret and auth_code are required.");
    if (b.app_id !== CLIENT.clientId || b.secret !== CLIENT.clientSecret) return answer(40001, "The app_id or secret is invalid.");
    const code = String(b.auth_code);
    if (book.codes.get(code)?.tokenFailure === "server_error") return answer(50000, "System error, please try again later.", {}, 500);
    const redeemed = book.redeem(code, CLIENT.clientId, null, null);
    if (typeof redeemed === "string") return answer(40102, "Auth code is expired or invalid");
    return answer(0, "OK", {
      access_token: book.issueAccessToken(redeemed.account, redeemed.scope),
      advertiser_ids: [digits(`adv:${redeemed.account}`, 19)],
      scope: redeemed.scope.split(",").map(Number),
    });
  }

  function userInfo(req: StandInRequest): Reply {
    const token = String(req.headers["access-token"] ?? "");
    if (!token) return answer(40104, "Access token is null, please check it.");
    const t = book.accessTokens.get(token);
    if (!t) return answer(40105, "Access token is incorrect or has been revoked.");
    return answer(0, "OK", {
      core_user_id: digits(`tt:${t.account}`, 19),
      display_name: t.account,
      email: `${t.account}@example.com`,
      avatar_url: "https://p16-sign-va.tiktokcdn.com/placeholder.jpeg",
      create_time: 1700000000,
    });
  }

  function report(req: StandInRequest): Reply {
    const token = String(req.headers["access-token"] ?? "");
    if (!token) return answer(40104, "Access token is null, please check it.");
    const t = book.accessTokens.get(token);
    if (!t) return answer(40105, "Access token is incorrect or has been revoked.");
    const q = req.query;
    const advertiser = q.get("advertiser_id") ?? "";
    if (!advertiser) return answer(40002, "advertiser_id: Missing data for required field.");
    if (advertiser !== digits(`adv:${t.account}`, 19)) return answer(40001, `No permission to operate advertiser ${advertiser}.`);
    let dimensions: string[], metrics: string[];
    try {
      dimensions = JSON.parse(q.get("dimensions") ?? "[]");
      metrics = JSON.parse(q.get("metrics") ?? '["spend"]');
    } catch {
      return answer(40002, "dimensions: Not a valid list.");
    }
    const [start, end] = [q.get("start_date") ?? "", q.get("end_date") ?? ""];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end)) return answer(40002, "start_date: Not a valid date.");
    const days: string[] = [];
    for (let d = Date.parse(start); d <= Date.parse(end) && days.length < 400; d += 86_400_000) days.push(new Date(d).toISOString().slice(0, 10));
    if (dimensions.includes("stat_time_day") && days.length > 30) return answer(40002, "The time span between start_date and end_date can not exceed 30 days when stat_time_day is used.");
    const idDimension = dimensions.find((d) => d !== "stat_time_day") ?? "advertiser_id";
    const ids = idDimension === "advertiser_id" ? [advertiser] : [1, 2, 3].map((i) => digits(`${idDimension}:${advertiser}:${i}`, 19));
    const periods = dimensions.includes("stat_time_day") ? days.map((d) => `${d} 00:00:00`) : [null];
    const num = (seed: string, max: number) => parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
    const list = ids.flatMap((id, i) =>
      periods.map((day) => {
        const seed = `${t.account}/${id}/${day ?? `${start}..${end}`}`;
        const impressions = 1000 + num(`${seed}/i`, 40000);
        const clicks = num(`${seed}/c`, Math.floor(impressions / 25));
        const spend = num(`${seed}/s`, 50000) / 100;
        const all: Record<string, string> = {
          spend: spend.toFixed(2),
          impressions: String(impressions),
          clicks: String(clicks),
          ctr: ((clicks / impressions) * 100).toFixed(2),
          cpc: clicks ? (spend / clicks).toFixed(2) : "0.00",
          cpm: ((spend / impressions) * 1000).toFixed(2),
          conversion: String(num(`${seed}/v`, 40)),
        };
        const name = idDimension.replace(/_id$/, "_name");
        return {
          dimensions: { [idDimension]: id, ...(day && { stat_time_day: day }) },
          metrics: Object.fromEntries(metrics.map((m) => [m, m === name ? `${name.split("_")[0]} ${i + 1}` : (all[m] ?? String(num(`${seed}/${m}`, 100)))])),
        };
      }),
    );
    const page = Math.max(1, Number(q.get("page") ?? 1));
    const pageSize = Math.min(1000, Math.max(1, Number(q.get("page_size") ?? 10)));
    return answer(0, "OK", {
      list: list.slice((page - 1) * pageSize, page * pageSize),
      page_info: { page, page_size: pageSize, total_number: list.length, total_page: Math.ceil(list.length / pageSize) },
    });
  }

  return startStandInServer({
    "GET /open_api/v1.3/report/integrated/get/": report,
    "GET /portal/auth": auth,
    "POST /open_api/v1.3/oauth2/access_token/": accessToken,
    "GET /open_api/v1.3/user/info/": userInfo,
  });
}

export const standIn: StandInModule = { types: ["tiktok_ads"], oauthProviders: ["TIKTOK"], start };
