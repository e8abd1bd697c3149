import { createHash, randomBytes } from "node:crypto";
import {
  OAuthBook,
  authorizeControls,
  startStandInServer,
  testClient,
  type Reply,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";

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
// - GET /open_api/v1.3/campaign/get/?advertiser_id&filtering={"campaign_ids":[…]}&fields=[…]&page&page_size:
//   the advertiser's campaigns {campaign_id, campaign_name, operation_status, secondary_status,
//   objective_type, budget, budget_mode, …} (only the `fields` asked, when given) and page_info. Each
//   advertiser has three campaigns, IDs as the campaign_id rows of the report, named "campaign 1".."campaign 3",
//   ENABLE, DISABLE, ENABLE at first. Another advertiser → code 40001, as the report.
//
// Write calls (the operations catalogue), same token and advertiser checks:
// - POST /open_api/v1.3/campaign/status/update/ {advertiser_id, campaign_ids: [1-20 IDs], operation_status:
//   ENABLE | DISABLE | DELETE}: applies it (campaign/get then shows it; DELETE drops the campaign) and answers
//   code 0 with data {campaign_ids}. A campaign ID the advertiser does not have → code 40002 naming it;
//   a bad operation_status or campaign_ids → code 40002; a deleted campaign → code 40002.

const CLIENT = testClient("TIKTOK");

const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const requestId = () =>
  `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}${randomBytes(10).toString("hex").toUpperCase()}`;
const answer = (code: number, message: string, data: Record<string, unknown> = {}, status = 200): Reply => ({
  status,
  json: { code, message, request_id: requestId(), data },
});
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
    if (b.app_id !== CLIENT.clientId || b.secret !== CLIENT.clientSecret)
      return answer(40001, "The app_id or secret is invalid.");
    const code = String(b.auth_code);
    if (book.codes.get(code)?.tokenFailure === "server_error")
      return answer(50000, "System error, please try again later.", {}, 500);
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
    if (advertiser !== digits(`adv:${t.account}`, 19))
      return answer(40001, `No permission to operate advertiser ${advertiser}.`);
    let dimensions: string[], metrics: string[];
    try {
      dimensions = JSON.parse(q.get("dimensions") ?? "[]");
      metrics = JSON.parse(q.get("metrics") ?? '["spend"]');
    } catch {
      return answer(40002, "dimensions: Not a valid list.");
    }
    const [start, end] = [q.get("start_date") ?? "", q.get("end_date") ?? ""];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end))
      return answer(40002, "start_date: Not a valid date.");
    const days: string[] = [];
    for (let d = Date.parse(start); d <= Date.parse(end) && days.length < 400; d += 86_400_000)
      days.push(new Date(d).toISOString().slice(0, 10));
    if (dimensions.includes("stat_time_day") && days.length > 30)
      return answer(
        40002,
        "The time span between start_date and end_date can not exceed 30 days when stat_time_day is used.",
      );
    const idDimension = dimensions.find((d) => d !== "stat_time_day") ?? "advertiser_id";
    const ids =
      idDimension === "advertiser_id"
        ? [advertiser]
        : [1, 2, 3].map((i) => digits(`${idDimension}:${advertiser}:${i}`, 19));
    const periods = dimensions.includes("stat_time_day") ? days.map((d) => `${d} 00:00:00`) : [null];
    const num = (seed: string, max: number) =>
      parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
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
          metrics: Object.fromEntries(
            metrics.map((m) => [
              m,
              m === name ? `${name.split("_")[0]} ${i + 1}` : (all[m] ?? String(num(`${seed}/${m}`, 100))),
            ]),
          ),
        };
      }),
    );
    const page = Math.max(1, Number(q.get("page") ?? 1));
    const pageSize = Math.min(1000, Math.max(1, Number(q.get("page_size") ?? 10)));
    return answer(0, "OK", {
      list: list.slice((page - 1) * pageSize, page * pageSize),
      page_info: {
        page,
        page_size: pageSize,
        total_number: list.length,
        total_page: Math.ceil(list.length / pageSize),
      },
    });
  }

  type Campaign = {
    campaign_id: string;
    campaign_name: string;
    operation_status: string;
    deleted: boolean;
    modify_time: string;
  };
  const campaigns = new Map<string, Campaign[]>(); // advertiser → its campaigns

  function campaignsOf(advertiser: string): Campaign[] {
    if (!campaigns.has(advertiser)) {
      campaigns.set(
        advertiser,
        [1, 2, 3].map((i) => ({
          campaign_id: digits(`campaign_id:${advertiser}:${i}`, 19),
          campaign_name: `campaign ${i}`,
          operation_status: i === 2 ? "DISABLE" : "ENABLE",
          deleted: false,
          modify_time: "2025-01-01 00:00:00",
        })),
      );
    }
    return campaigns.get(advertiser)!;
  }

  /** The token's grant and the advertiser it may operate, or TikTok's error. */
  function advertiserCaller(req: StandInRequest, advertiser: string): string | Reply {
    const token = String(req.headers["access-token"] ?? "");
    if (!token) return answer(40104, "Access token is null, please check it.");
    const t = book.accessTokens.get(token);
    if (!t) return answer(40105, "Access token is incorrect or has been revoked.");
    if (!advertiser) return answer(40002, "advertiser_id: Missing data for required field.");
    if (advertiser !== digits(`adv:${t.account}`, 19))
      return answer(40001, `No permission to operate advertiser ${advertiser}.`);
    return advertiser;
  }

  function campaignGet(req: StandInRequest): Reply {
    const q = req.query;
    const advertiser = advertiserCaller(req, q.get("advertiser_id") ?? "");
    if (typeof advertiser !== "string") return advertiser;
    let filtering: { campaign_ids?: unknown } = {};
    let fields: string[] | null = null;
    try {
      filtering = JSON.parse(q.get("filtering") ?? "{}");
      fields = q.get("fields") ? JSON.parse(q.get("fields")!) : null;
    } catch {
      return answer(40002, "filtering: Not a valid JSON.");
    }
    const wanted = Array.isArray(filtering.campaign_ids) ? filtering.campaign_ids.map(String) : null;
    const all = campaignsOf(advertiser)
      .filter((c) => !c.deleted && (!wanted || wanted.includes(c.campaign_id)))
      .map((c) => {
        const full: Record<string, unknown> = {
          advertiser_id: advertiser,
          campaign_id: c.campaign_id,
          campaign_name: c.campaign_name,
          operation_status: c.operation_status,
          secondary_status: c.operation_status === "ENABLE" ? "CAMPAIGN_STATUS_ENABLE" : "CAMPAIGN_STATUS_DISABLE",
          objective_type: "TRAFFIC",
          budget: 100,
          budget_mode: "BUDGET_MODE_DAY",
          create_time: "2025-01-01 00:00:00",
          modify_time: c.modify_time,
        };
        return fields ? Object.fromEntries(fields.filter((f) => f in full).map((f) => [f, full[f]])) : full;
      });
    const page = Math.max(1, Number(q.get("page") ?? 1));
    const pageSize = Math.min(1000, Math.max(1, Number(q.get("page_size") ?? 10)));
    return answer(0, "OK", {
      list: all.slice((page - 1) * pageSize, page * pageSize),
      page_info: { page, page_size: pageSize, total_number: all.length, total_page: Math.ceil(all.length / pageSize) },
    });
  }

  function campaignStatusUpdate(req: StandInRequest): Reply {
    const b = (req.json ?? {}) as { advertiser_id?: unknown; campaign_ids?: unknown; operation_status?: unknown };
    const advertiser = advertiserCaller(req, typeof b.advertiser_id === "string" ? b.advertiser_id : "");
    if (typeof advertiser !== "string") return advertiser;
    if (
      !Array.isArray(b.campaign_ids) ||
      b.campaign_ids.length < 1 ||
      b.campaign_ids.length > 20 ||
      !b.campaign_ids.every((id) => typeof id === "string")
    ) {
      return answer(40002, "campaign_ids: Length must be between 1 and 20.");
    }
    if (b.operation_status !== "ENABLE" && b.operation_status !== "DISABLE" && b.operation_status !== "DELETE")
      return answer(40002, "operation_status: Must be one of: DELETE, DISABLE, ENABLE.");
    const own = campaignsOf(advertiser);
    const targets: Campaign[] = [];
    for (const id of b.campaign_ids) {
      const c = own.find((x) => x.campaign_id === id);
      if (!c) return answer(40002, `Campaign ${id} does not exist or does not belong to advertiser ${advertiser}.`);
      if (c.deleted) return answer(40002, `Campaign ${id} has been deleted; its status cannot be modified.`);
      targets.push(c);
    }
    const now = new Date().toISOString().replace("T", " ").slice(0, 19);
    for (const c of targets) {
      if (b.operation_status === "DELETE") c.deleted = true;
      else c.operation_status = b.operation_status;
      c.modify_time = now;
    }
    return answer(0, "OK", { campaign_ids: targets.map((c) => c.campaign_id) });
  }

  return startStandInServer({
    "GET /open_api/v1.3/campaign/get/": campaignGet,
    "POST /open_api/v1.3/campaign/status/update/": campaignStatusUpdate,
    "GET /open_api/v1.3/report/integrated/get/": report,
    "GET /portal/auth": auth,
    "POST /open_api/v1.3/oauth2/access_token/": accessToken,
    "GET /open_api/v1.3/user/info/": userInfo,
  });
}

export const standIn: StandInModule = { types: ["tiktok_ads"], oauthProviders: ["TIKTOK"], start };
