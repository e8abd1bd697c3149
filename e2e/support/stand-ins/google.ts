import { createHash, randomBytes } from "node:crypto";
import { OAuthBook, authorizeControls, startStandInServer, testClient, type Reply, type StandInModule, type StandInRequest } from "./stand-in-server";

// Stand-in for Google (ga4, gads, gsc): accounts.google.com, oauth2.googleapis.com,
// openidconnect.googleapis.com and the three product APIs, at their real paths and in Google's
// wire format (form token requests, {error, error_description} from the token endpoint,
// {error: {code, message, status, details}} from the APIs).
//
// Values a test posts as white-label credentials:
// - client_id `bad…`       → 401 invalid_client "The OAuth client was not found."
// - client_secret `bad…`   → 401 invalid_client "Unauthorized"
// - refresh_token `bad_scope…` → the refresh works but grants no scope, so the API call answers
//                            403 PERMISSION_DENIED "Request had insufficient authentication scopes."
// - refresh_token `bad…`   → 400 invalid_grant "Token has been expired or revoked."
// - developer_token `bad_unapproved…` → 403 DEVELOPER_TOKEN_NOT_APPROVED (test-account-only token)
// - developer_token `bad…` → 401 DEVELOPER_TOKEN_INVALID "The developer token is not valid."
// Any other value works; the OAuth app is testClient("GOOGLE").

const CLIENT = testClient("GOOGLE");
const SCOPE = {
  analytics: "https://www.googleapis.com/auth/analytics.readonly",
  ads: "https://www.googleapis.com/auth/adwords",
  searchConsole: "https://www.googleapis.com/auth/webmasters.readonly",
};
const EMAIL_SCOPE = "https://www.googleapis.com/auth/userinfo.email";
const KNOWN_SCOPES = new Set(["openid", "email", "profile", EMAIL_SCOPE, "https://www.googleapis.com/auth/userinfo.profile", ...Object.values(SCOPE)]);
/** What a white-label refresh token (one this stand-in did not issue) is taken to grant. */
const ALL_SCOPES = ["openid", EMAIL_SCOPE, ...Object.values(SCOPE)].join(" ");

const digits = (seed: string, n: number) => BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`).toString().padStart(n, "1").slice(0, n);
const subOf = (account: string) => `1${digits(`sub:${account}`, 20)}`;

const tokenError = (status: number, error: string, description: string): Reply => ({ status, json: { error, error_description: description }, headers: { "cache-control": "no-store" } });

/** Google's API error body (google.rpc.Status over HTTP/JSON). */
const apiError = (code: number, status: string, message: string, details: unknown[] = []): Reply => ({
  status: code,
  json: { error: { code, message, status, ...(details.length && { details }) } },
});

const insufficientScopes = (service: string, method: string) =>
  apiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", [
    { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT", domain: "googleapis.com", metadata: { service, method } },
  ]);

const unauthenticated = () =>
  apiError(
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "ACCESS_TOKEN_TYPE_UNSUPPORTED", domain: "googleapis.com" }],
  );

const adsFailure = (code: number, status: string, message: string, errorCode: Record<string, string>, errorMessage: string) =>
  apiError(code, status, message, [
    {
      "@type": "type.googleapis.com/google.ads.googleads.v18.errors.GoogleAdsFailure",
      errors: [{ errorCode, message: errorMessage }],
      requestId: randomBytes(11).toString("base64url"),
    },
  ]);

/** Google's authorize page shows errors to the user instead of redirecting when the client or redirect is wrong. */
const errorPage = (status: number, error: string, text: string): Reply => ({ status, text: `Error ${status}: ${error}\n\n${text}\n` });

function start() {
  const book = new OAuthBook();
  /** Scopes granted to each refresh token issued at consent (include_granted_scopes merges them). */
  const refreshScopes = new Map<string, Set<string>>();

  function bearer(req: StandInRequest) {
    const token = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    return token ? (book.accessTokens.get(token) ?? null) : null;
  }
  const hasScope = (granted: string, ...wanted: string[]) => granted.split(" ").some((s) => wanted.includes(s));

  function authorize(req: StandInRequest): Reply {
    const q = req.query;
    if (q.get("client_id") !== CLIENT.clientId) return errorPage(401, "invalid_client", "The OAuth client was not found.");
    let redirect: URL;
    try {
      redirect = new URL(q.get("redirect_uri") ?? "");
      if (!/^https?:$/.test(redirect.protocol) || redirect.pathname !== "/oauth/callback") throw new Error();
    } catch {
      return errorPage(400, "redirect_uri_mismatch", `The redirect URI in the request, ${q.get("redirect_uri") ?? "(none)"}, does not match the ones authorised for the OAuth client.`);
    }
    if (q.get("response_type") !== "code") return errorPage(400, "unsupported_response_type", `Invalid response_type: ${q.get("response_type") ?? "(none)"}`);
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (!scopes.length || unknown.length) return errorPage(400, "invalid_scope", `Some requested scopes were invalid. {invalid=[${unknown.join(", ")}]}`);
    if (!q.get("state")) return errorPage(400, "invalid_request", "Missing required parameter: state");
    if (!q.get("code_challenge") || q.get("code_challenge_method") !== "S256") return errorPage(400, "invalid_request", "Missing or unsupported code_challenge / code_challenge_method (S256 required).");

    const controls = authorizeControls(q);
    const back = new URL(redirect);
    back.searchParams.set("state", q.get("state")!);
    if (controls.decision === "deny") {
      back.searchParams.set("error", "access_denied");
    } else if (controls.decision === "error") {
      back.searchParams.set("error", "server_error");
    } else {
      // Google reports the granted scopes in their long form.
      const granted = scopes.map((s) => (s === "email" ? EMAIL_SCOPE : s)).join(" ");
      const code = book.issueCode({
        clientId: CLIENT.clientId,
        redirectUri: q.get("redirect_uri")!,
        account: controls.account,
        scope: granted,
        codeChallenge: q.get("code_challenge"),
        tokenFailure: controls.tokenFailure,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", granted);
      back.searchParams.set("authuser", "0");
      back.searchParams.set("prompt", "consent");
    }
    return { status: 302, redirect: back.toString() };
  }

  function token(req: StandInRequest): Reply {
    const f = req.form;
    let clientId = f.get("client_id") ?? "";
    let clientSecret = f.get("client_secret") ?? "";
    const basic = /^Basic (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, "base64").toString("utf8").split(":");
      clientId = decodeURIComponent(id ?? "");
      clientSecret = decodeURIComponent(secret ?? "");
    }
    if (!clientId || clientId.startsWith("bad")) return tokenError(401, "invalid_client", "The OAuth client was not found.");
    const secretOk = clientId === CLIENT.clientId ? clientSecret === CLIENT.clientSecret : !!clientSecret && !clientSecret.startsWith("bad");
    if (!secretOk) return tokenError(401, "invalid_client", "Unauthorized");

    const grant = f.get("grant_type");
    if (grant === "authorization_code") {
      const code = f.get("code") ?? "";
      const issued = book.codes.get(code);
      if (issued?.tokenFailure === "server_error") return tokenError(500, "internal_failure", "Backend Error");
      const redeemed = book.redeem(code, clientId, f.get("redirect_uri"), f.get("code_verifier"));
      if (typeof redeemed === "string") {
        if (redeemed.startsWith("redirect_uri")) return tokenError(400, "redirect_uri_mismatch", "Bad Request");
        if (redeemed === "code_verifier is required") return tokenError(400, "invalid_grant", "Missing code verifier.");
        if (redeemed.startsWith("code_verifier")) return tokenError(400, "invalid_grant", "Invalid code verifier.");
        return tokenError(400, "invalid_grant", "Bad Request");
      }
      const refreshToken = book.refreshTokenFor(redeemed.account);
      const scopes = refreshScopes.get(refreshToken) ?? new Set<string>();
      for (const s of redeemed.scope.split(" ")) scopes.add(s);
      refreshScopes.set(refreshToken, scopes);
      return {
        json: {
          access_token: book.issueAccessToken(redeemed.account, redeemed.scope),
          expires_in: 3599,
          refresh_token: refreshToken,
          scope: redeemed.scope,
          token_type: "Bearer",
        },
        headers: { "cache-control": "no-store" },
      };
    }
    if (grant === "refresh_token") {
      const refreshToken = f.get("refresh_token") ?? "";
      if (!refreshToken) return tokenError(400, "invalid_request", "Missing required parameter: refresh_token");
      const g = book.grantOfRefreshToken(refreshToken);
      if (!g) return tokenError(400, "invalid_grant", "Token has been expired or revoked.");
      const scope = !g.scoped ? "" : refreshScopes.has(refreshToken) ? [...refreshScopes.get(refreshToken)!].join(" ") : ALL_SCOPES;
      return {
        json: { access_token: book.issueAccessToken(g.account, scope), expires_in: 3599, scope, token_type: "Bearer" },
        headers: { "cache-control": "no-store" },
      };
    }
    return tokenError(400, "unsupported_grant_type", `Invalid grant_type: ${grant ?? ""}`);
  }

  function userinfo(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return { status: 401, json: { error: "invalid_request", error_description: "Invalid Credentials" }, headers: { "www-authenticate": 'Bearer error="invalid_token"' } };
    if (!hasScope(t.scope, "openid", "email", EMAIL_SCOPE)) return insufficientScopes("openidconnect.googleapis.com", "google.identity.openidconnect.v1.UserInfoService.GetUserInfo");
    return { json: { sub: subOf(t.account), email: `${t.account}@example.com`, email_verified: true } };
  }

  function accountSummaries(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.analytics, "https://www.googleapis.com/auth/analytics.edit")) {
      return insufficientScopes("analyticsadmin.googleapis.com", "google.analytics.admin.v1beta.AnalyticsAdminService.ListAccountSummaries");
    }
    const id = digits(`ga:${t.account}`, 9);
    return {
      json: {
        accountSummaries: [
          {
            name: `accountSummaries/${id}`,
            account: `accounts/${id}`,
            displayName: `${t.account} Analytics`,
            propertySummaries: [{ property: `properties/${digits(`gap:${t.account}`, 9)}`, displayName: "Main website", propertyType: "PROPERTY_TYPE_ORDINARY", parent: `accounts/${id}` }],
          },
        ],
        nextPageToken: "",
      },
    };
  }

  function sites(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.searchConsole, "https://www.googleapis.com/auth/webmasters")) {
      return insufficientScopes("searchconsole.googleapis.com", "google.searchconsole.v1.SitesService.List");
    }
    return { json: { siteEntry: [{ siteUrl: `sc-domain:${t.account.replace(/_/g, "-")}.example.com`, permissionLevel: "siteOwner" }] } };
  }

  function listAccessibleCustomers(req: StandInRequest): Reply {
    const t = bearer(req);
    if (!t) return unauthenticated();
    if (!hasScope(t.scope, SCOPE.ads)) return insufficientScopes("googleads.googleapis.com", "google.ads.googleads.v18.services.CustomerService.ListAccessibleCustomers");
    const developerToken = String(req.headers["developer-token"] ?? "");
    if (!developerToken) {
      return adsFailure(400, "INVALID_ARGUMENT", "Request contains an invalid argument.", { requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING" }, "developer-token parameter is missing.");
    }
    if (developerToken.startsWith("bad_unapproved")) {
      return adsFailure(
        403,
        "PERMISSION_DENIED",
        "The caller does not have permission",
        { authorizationError: "DEVELOPER_TOKEN_NOT_APPROVED" },
        "The developer token is only approved for use with test accounts. To access non-test accounts, apply for Basic or Standard access.",
      );
    }
    if (developerToken.startsWith("bad")) {
      return adsFailure(401, "UNAUTHENTICATED", "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.", { authenticationError: "DEVELOPER_TOKEN_INVALID" }, "The developer token is not valid.");
    }
    return { json: { resourceNames: [`customers/${digits(`ads:${t.account}`, 10)}`] } };
  }

  return startStandInServer({
    "GET /o/oauth2/v2/auth": authorize,
    "POST /token": token,
    "GET /v1/userinfo": userinfo,
    "GET /v1beta/accountSummaries": accountSummaries,
    "GET /webmasters/v3/sites": sites,
    "GET /v18/customers:listAccessibleCustomers": listAccessibleCustomers,
  });
}

export const standIn: StandInModule = { types: ["ga4", "gads", "gsc"], oauthProviders: ["GOOGLE"], start };
