import { createHash } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for LinkedIn (linkedin_ads): www.linkedin.com/oauth/v2 (authorization, accessToken)
// and api.linkedin.com/v2/userinfo at their real paths, in LinkedIn's wire format: form token
// requests, {error, error_description} from the token endpoint, {status, serviceErrorCode,
// code, message} from the API. OAuth only: the app is testClient("LINKEDIN").
// Refresh tokens: `bad_scope…` refreshes to a token without scope (userinfo answers 403
// ACCESS_DENIED), any other `bad…` is rejected as invalid_grant.

const CLIENT = testClient("LINKEDIN");
const KNOWN_SCOPES = new Set(["openid", "profile", "email", "r_ads", "r_ads_reporting", "rw_ads", "r_organization_social", "r_basicprofile"]);

const id = (account: string) => createHash("sha256").update(`li:${account}`).digest("base64url").slice(0, 10);
const tokenError = (status: number, error: string, description: string): Reply => ({ status, json: { error, error_description: description } });
const apiError = (status: number, serviceErrorCode: number, code: string, message: string): Reply => ({ status, json: { status, serviceErrorCode, code, message } });
const errorPage = (text: string): Reply => ({ status: 400, text: `LinkedIn: ${text}\n` });

function start() {
  const book = new OAuthBook();

  function authorization(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage("invalid_client: The client_id is not valid.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage("The redirect_uri does not match the registered value");
    }
    if (q.get("response_type") !== "code") return errorPage(`unsupported_response_type: ${q.get("response_type") ?? "(none)"}`);
    if (!q.get("state")) return errorPage("invalid_request: state is required");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const back = new URL(redirect);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (!scopes.length || unknown.length) {
      back.searchParams.set("error", "unauthorized_scope_error");
      back.searchParams.set("error_description", `Scope "${unknown[0] ?? ""}" is not authorized for your application`);
      back.searchParams.set("state", q.get("state")!);
      return { status: 302, redirect: back.toString() };
    }

    const controls = authorizeControls(q);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user cancelled the authorization");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
      back.searchParams.set("error_description", "An unexpected error occurred");
    } else {
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: scopes.join(","),
        codeChallenge: null,
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", q.get("state")!);
    return { status: 302, redirect: back.toString() };
  }

  function accessToken(req: StandInRequest): Reply {
    const f = req.form;
    if (f.get("client_id") !== CLIENT.clientId || f.get("client_secret") !== CLIENT.clientSecret) return tokenError(401, "invalid_client", "Client authentication failed");
    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      if (book.codes.get(code)?.tokenFailure === "server_error") return tokenError(500, "server_error", "An unexpected error occurred");
      const redeemed = book.redeem(code, CLIENT.clientId, f.get("redirect_uri") ?? "", null);
      if (typeof redeemed === "string") {
        return tokenError(
          400,
          "invalid_request",
          "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists",
        );
      }
      return { json: tokens(redeemed.account, redeemed.scope) };
    }
    if (grant === "refresh_token") {
      const refreshToken = f.get("refresh_token") ?? "";
      const g = book.grantOfRefreshToken(refreshToken);
      if (!g) return tokenError(400, "invalid_grant", "The provided authorization grant or refresh token is invalid, expired or revoked");
      return { json: tokens(g.account, g.scoped ? "email,openid,profile,r_ads,r_ads_reporting" : "") };
    }
    return tokenError(400, "unsupported_grant_type", `grant_type ${grant ?? "(none)"} is not supported`);
  }

  function tokens(account: string, scope: string) {
    return {
      access_token: book.issueAccessToken(account, scope),
      expires_in: 5183999,
      refresh_token: book.refreshTokenFor(account),
      refresh_token_expires_in: 31535999,
      scope,
      token_type: "Bearer",
    };
  }

  function userinfo(req: StandInRequest): Reply {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    const t = bearer ? book.accessTokens.get(bearer) : undefined;
    if (!t) return apiError(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    if (!t.scope.split(",").includes("openid")) return apiError(403, 100, "ACCESS_DENIED", "Not enough permissions to access: userinfo.GET.NO_VERSION");
    const given = t.account.split(/[_-]/)[0] || t.account;
    return {
      json: {
        sub: id(t.account),
        email_verified: true,
        name: `${given} Member`,
        locale: { country: "US", language: "en" },
        given_name: given,
        family_name: "Member",
        email: `${t.account}@example.com`,
        picture: "https://media.licdn.com/dms/image/placeholder",
      },
    };
  }

  return startStandInServer({
    "GET /oauth/v2/authorization": authorization,
    "POST /oauth/v2/accessToken": accessToken,
    "GET /v2/userinfo": userinfo,
  });
}

export const standIn: StandInModule = { types: ["linkedin_ads"], oauthProviders: ["LINKEDIN"], start };
