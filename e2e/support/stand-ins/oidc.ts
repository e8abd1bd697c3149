import { createSign, generateKeyPairSync, randomBytes } from "node:crypto";
import { OAuthBook, startStandInServer, testClient, type StandIn } from "./stand-in-server";

// An OpenID Connect identity provider for the dashboard's single sign-on (AUTH_OIDC_*), speaking
// OpenID Connect Core 1.0 and Discovery 1.0: the discovery document, the authorization code flow
// with PKCE, a token response carrying an RS256-signed ID token, and the JWKS its signature is
// checked against (next-auth checks it with openid-client, as against a real provider).
//
// Test controls on the authorize URL (a real provider ignores them): `test_sub`, `test_email` and
// `test_email_verified` (`true`, `false`, or `absent`) are the claims of the identity that signs in.

const OIDC_CLIENT = testClient("oidc");

export type OidcStandIn = StandIn & { env: Record<string, string> };

export async function startOidcStandIn(): Promise<OidcStandIn> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = `kid-${randomBytes(4).toString("hex")}`;
  const book = new OAuthBook();
  const identities = new Map<string, Record<string, unknown>>();
  let issuer = "";

  const idToken = (claims: Record<string, unknown>) => {
    const header = Buffer.from(JSON.stringify({ alg: "RS256", typ: "JWT", kid })).toString("base64url");
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
    const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(privateKey).toString("base64url");
    return `${header}.${payload}.${signature}`;
  };

  const server = await startStandInServer({
    "GET /.well-known/openid-configuration": () => ({
      json: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "email", "profile"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
        claims_supported: ["sub", "email", "email_verified", "name"],
      },
    }),
    "GET /jwks": () => ({
      json: { keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] },
    }),
    "GET /authorize": ({ query }) => {
      const redirectUri = query.get("redirect_uri") ?? "";
      const back = new URL(redirectUri);
      back.searchParams.set("state", query.get("state") ?? "");
      if (query.get("client_id") !== OIDC_CLIENT.clientId || query.get("response_type") !== "code") {
        back.searchParams.set("error", "invalid_request");
        return { redirect: back.toString() };
      }
      const sub = query.get("test_sub") ?? "sub-default";
      const verified = query.get("test_email_verified") ?? "true";
      identities.set(sub, {
        sub,
        ...(query.get("test_email") ? { email: query.get("test_email") } : {}),
        ...(verified === "absent" ? {} : { email_verified: verified === "true" }),
        name: `Person ${sub}`,
      });
      back.searchParams.set(
        "code",
        book.issueCode({
          clientId: OIDC_CLIENT.clientId,
          redirectUri,
          account: sub,
          scope: query.get("scope") ?? "",
          codeChallenge: query.get("code_challenge"),
          tokenFailure: null,
        }),
      );
      return { redirect: back.toString() };
    },
    "POST /token": ({ form, headers }) => {
      // client_secret_basic (openid-client's default) or client_secret_post.
      const basic = /^Basic (.+)$/.exec(headers.authorization ?? "")?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent)
        : [form.get("client_id"), form.get("client_secret")];
      if (id !== OIDC_CLIENT.clientId || secret !== OIDC_CLIENT.clientSecret)
        return { status: 401, json: { error: "invalid_client" } };
      if (form.get("grant_type") !== "authorization_code")
        return { status: 400, json: { error: "unsupported_grant_type" } };
      const grant = book.redeem(form.get("code") ?? "", id, form.get("redirect_uri"), form.get("code_verifier"));
      if (typeof grant === "string") return { status: 400, json: { error: "invalid_grant", error_description: grant } };
      const now = Math.floor(Date.now() / 1000);
      const claims = identities.get(grant.account) ?? { sub: grant.account };
      return {
        json: {
          access_token: book.issueAccessToken(grant.account, grant.scope),
          token_type: "Bearer",
          expires_in: 3600,
          id_token: idToken({ iss: issuer, aud: OIDC_CLIENT.clientId, iat: now, exp: now + 300, ...claims }),
        },
      };
    },
    "GET /userinfo": ({ headers }) => {
      const token = /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1] ?? "";
      const grant = book.accessTokens.get(token);
      return grant
        ? { json: identities.get(grant.account) ?? { sub: grant.account } }
        : { status: 401, json: { error: "invalid_token" } };
    },
  });
  issuer = server.url;
  return {
    ...server,
    env: {
      AUTH_OIDC_ISSUER: issuer,
      AUTH_OIDC_CLIENT_ID: OIDC_CLIENT.clientId,
      AUTH_OIDC_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
      AUTH_OIDC_NAME: "Test SSO",
    },
  };
}
