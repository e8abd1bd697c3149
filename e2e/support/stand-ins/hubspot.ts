import { createHash, randomUUID } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type Route, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for HubSpot (hubspot): app.hubspot.com/oauth/authorize, api.hubapi.com/oauth/v1/token
// and /oauth/v1/access-tokens/<token> at their real paths, in HubSpot's wire format: form token
// requests, errors as {status: "BAD_AUTH_CODE" | "BAD_REFRESH_TOKEN" | …, message,
// correlationId}. OAuth only: the app is testClient("HUBSPOT").
// Refresh tokens: `bad_scope…` refreshes to a token granted only `oauth` (the metadata call lists
// scopes ["oauth"], which the app reports as MISSING_SCOPES); any other `bad…` is
// BAD_REFRESH_TOKEN.

const CLIENT = testClient("HUBSPOT");
const APP_ID = 4100001;
const TOKEN_INFO_PREFIX = "/oauth/v1/access-tokens/";

const number = (seed: string, n: number) => Number(BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 12)}`).toString().slice(0, n));
const hubError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): Reply => ({
  status,
  json: { status: code, message, correlationId: randomUUID(), ...extra },
});
const errorPage = (text: string): Reply => ({ status: 400, text: `HubSpot: ${text}\n` });

function start() {
  const book = new OAuthBook();

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("Couldn't complete the connection: the client_id is invalid.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("Couldn't complete the connection: the redirect URL doesn't match the app's redirect URLs.");
    }
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    if (!scopes.includes("oauth")) return errorPage("Couldn't complete the connection: the oauth scope is required.");
    if (!q.get("state")) return errorPage("Couldn't complete the connection: state is required.");
    const controls = authorizeControls(q);
    const back = new URL(redirect);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied access");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "Internal error");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(" "),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function token(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId) return hubError(400, "BAD_CLIENT_ID", "missing or unknown client id");
    if (f.get("client_secret") !== CLIENT.clientSecret) return hubError(400, "BAD_CLIENT_SECRET", "missing or invalid client secret");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error") return hubError(500, "error", "internal error");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri")) return hubError(400, "BAD_REDIRECT_URI", "redirect_uri does not match the redirect_uri used to create the auth code");
        return hubError(400, "BAD_AUTH_CODE", "missing or unknown auth code");
      }
      return { json: tokens(redeemed.account, redeemed.scope) };
    }
    if (grant === "refresh_token") {
      const g = book.grantOfRefreshToken(f.get("refresh_token") ?? "");
      if (!g) return hubError(400, "BAD_REFRESH_TOKEN", "missing or unknown refresh token");
      return { json: tokens(g.account, g.scoped ? "oauth crm.objects.contacts.read" : "oauth") };
    }
    return hubError(400, "BAD_GRANT_TYPE", `unknown grant_type ${grant ?? ""}`);
  }

  function tokens(account: string, scope: string) {
    return { token_type: "bearer", refresh_token: book.refreshTokenFor(account), access_token: book.issueAccessToken(account, scope), expires_in: 1800 };
  }

  function tokenInfo(req: StandInRequest): Reply {
    const accessToken = decodeURIComponent(req.path.slice(TOKEN_INFO_PREFIX.length));
    const t = book.accessTokens.get(accessToken);
    if (!t) return hubError(404, "error", "Token not found", { category: "OBJECT_NOT_FOUND" });
    const scopes = t.scope.split(" ").filter(Boolean);
    const hubId = number(`hub:${t.account}`, 8);
    return {
      json: {
        token: accessToken,
        user: `${t.account}@example.com`,
        hub_domain: `${t.account.replace(/_/g, "-")}.example.com`,
        scopes,
        signed_access_token: { expiresAt: Date.now() + 1_800_000, scopes: scopes.join(" "), hubId, userId: number(`user:${t.account}`, 7), appId: APP_ID },
        token_type: "access",
        user_id: number(`user:${t.account}`, 7),
        expires_in: 1800,
        hub_id: hubId,
        app_id: APP_ID,
      },
    };
  }

  const fixed: Record<string, Route> = {
    "GET /oauth/authorize": authorize,
    "POST /oauth/v1/token": token,
  };
  // The metadata call carries the token in its path; startStandInServer matches exact paths,
  // so every "GET /oauth/v1/access-tokens/<token>" key resolves to the one handler.
  const routes = new Proxy(fixed, {
    get: (target, key) => (typeof key === "string" && key.startsWith(`GET ${TOKEN_INFO_PREFIX}`) ? tokenInfo : target[key as string]),
  });
  return startStandInServer(routes);
}

export const standIn: StandInModule = { types: ["hubspot"], oauthProviders: ["HUBSPOT"], start };
