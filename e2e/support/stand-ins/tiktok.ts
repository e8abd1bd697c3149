import { createHash, randomBytes } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for TikTok API for Business (tiktok_ads): the portal/auth page and the open_api
// v1.3 token and user/info calls at their real paths, in TikTok's wire format: JSON bodies,
// HTTP 200 with {code, message, request_id, data} for success (code 0) and for errors
// (code ≠ 0), auth_code in the callback, Access-Token header. OAuth only: the app is
// testClient("TIKTOK"). No refresh (TikTok's Marketing API tokens do not expire).

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

  return startStandInServer({
    "GET /portal/auth": auth,
    "POST /open_api/v1.3/oauth2/access_token/": accessToken,
    "GET /open_api/v1.3/user/info/": userInfo,
  });
}

export const standIn: StandInModule = { types: ["tiktok_ads"], oauthProviders: ["TIKTOK"], start };
