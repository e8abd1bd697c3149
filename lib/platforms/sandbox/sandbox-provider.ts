import "server-only";
import { appUrl } from "@/lib/config/env";
import { providerFetch, providerReason, rejection } from "@/lib/platforms/kit/provider-fetch";
import { callbackCode, requestToken, urlWith } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { sandboxDocs } from "@/lib/platforms/sandbox/sandbox-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { SANDBOX_SCOPES } from "@/lib/platforms/sandbox/sandbox-scopes";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(sandboxTypes, type);

const logo = monogramLogo("#7C3AED", "Sb");

// Client side of the sandbox provider: the app talks to it over HTTP exactly as it talks to a
// real provider (token endpoint, then identity call), so every flow runs end to end offline.

const PROVIDER = "Sandbox";

/** The sandbox lives inside this app: its one origin, as configured (http on a laptop). */
const sandboxHosts = () => [new URL(appUrl()).origin];

/**
 * One call of the sandbox's API (`path` with its query; a POST when `body` is given, sent as
 * JSON): 4xx = the sandbox refused; a 404 (the sandbox is switched off here), a 429 or anything
 * else but a JSON 200 = unavailable.
 */
export async function sandboxApiCall(
  type: string,
  path: string,
  headers: Record<string, string>,
  what: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const init: RequestInit =
    body === undefined
      ? { headers: { accept: "application/json", ...headers } }
      : {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        };
  const res = await providerFetch(PROVIDER, hosted(type), `${appUrl()}${path}`, init);
  if (res.status >= 400 && res.status < 500 && res.status !== 404 && res.status !== 429)
    throw rejection(PROVIDER, res, providerReason(res));
  if (res.status !== 200 || !res.body || typeof res.body !== "object")
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} with ${providerReason(res)}.`);
  return res.body as Record<string, unknown>;
}

async function identity(type: string, headers: Record<string, string>) {
  const me = (await sandboxApiCall(type, "/sandbox/api/me", headers, "the identity call")) as {
    id?: string;
    name?: string;
  };
  if (!me.id) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the identity call without an id.`);
  return { accountId: me.id, accountName: me.name };
}

/** A white-label connection's own client + refresh token → an access token, at the sandbox's token endpoint. */
async function whiteLabelAccessToken(type: string, credentials: Record<string, string>): Promise<string> {
  const res = await providerFetch(PROVIDER, hosted(type), `${appUrl()}/sandbox/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: credentials.refresh_token,
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
    }),
  });
  if (res.status >= 400 && res.status < 500) throw new ProviderRejection(PROVIDER, providerReason(res));
  const token = (res.body as { access_token?: string } | null)?.access_token;
  if (res.status !== 200 || !token)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} token endpoint answered ${providerReason(res)}.`);
  return token;
}

/**
 * The headers a sandbox API call carries for a connection: its API key, or a Bearer access token
 * (OAuth, or minted from white-label credentials).
 */
export async function sandboxAuthHeaders(type: string, credentials: FreshCredentials): Promise<Record<string, string>> {
  if (credentials.kind === "oauth") return { authorization: `Bearer ${credentials.tokens.accessToken}` };
  if ("api_key" in credentials.credentials) return { "x-api-key": credentials.credentials.api_key };
  return { authorization: `Bearer ${await whiteLabelAccessToken(type, credentials.credentials)}` };
}

/** What the sandbox's OAuth app asks for: reads, and the write sandbox.set_note needs. */
const SCOPES: OAuthScope[] = [
  { name: "sandbox.read", allows: SANDBOX_SCOPES["sandbox.read"] },
  { name: "sandbox.write", allows: SANDBOX_SCOPES["sandbox.write"], changes: true },
];

/** The sandbox's OAuth app: authorize page, token endpoint (PKCE) and identity call, all over HTTP. */
const sandboxOAuth: OAuthDefinition = {
  provider: "SANDBOX",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See which sandbox account you connected",
  pkce: true,
  authorizeUrl: ({ client, redirectUri, state, codeChallenge }) =>
    urlWith(`${appUrl()}/sandbox/oauth/authorize`, {
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: SCOPES.map((s) => s.name).join(" "),
      state,
      code_challenge: codeChallenge,
      code_challenge_method: codeChallenge ? "S256" : undefined,
    }),
  exchangeCode: ({ type, client, redirectUri, callback, codeVerifier }) =>
    requestToken(PROVIDER, hosted(type), `${appUrl()}/sandbox/oauth/token`, client, {
      grant_type: "authorization_code",
      code: callbackCode(PROVIDER, callback),
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
    }),
  refresh: ({ type, client }, refreshToken) =>
    requestToken(PROVIDER, hosted(type), `${appUrl()}/sandbox/oauth/token`, client, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    }),
  async identify({ type }, tokens) {
    const account = await identity(type, { authorization: `Bearer ${tokens.accessToken}` });
    return { ...account, rotationKey: `account:${account.accountId}` };
  },
};

export const sandboxTypes: ConnectionTypeDefinition[] = [
  {
    type: "sandbox_oauth",
    name: "Sandbox (OAuth)",
    logo,
    authMethods: ["oauth"],
    credentialFields: null,
    docs: sandboxDocs.sandbox_oauth,
    family: "oauth_only",
    get hosts() {
      return sandboxHosts();
    },
    oauth: sandboxOAuth,
  },
  {
    type: "sandbox_whitelabel",
    name: "Sandbox (white-label)",
    logo,
    authMethods: ["oauth", "manual"],
    credentialFields: ["client_id", "client_secret", "refresh_token"],
    docs: sandboxDocs.sandbox_whitelabel,
    family: "white_label",
    get hosts() {
      return sandboxHosts();
    },
    oauth: sandboxOAuth,
    async verify(credentials, ctx) {
      const account = await identity(ctx.type, await sandboxAuthHeaders(ctx.type, { kind: "manual", credentials }));
      return { ...account, rotationKey: `name:${ctx.name}` };
    },
  },
  {
    type: "sandbox_key",
    name: "Sandbox (API key)",
    logo,
    authMethods: ["manual"],
    credentialFields: ["api_key"],
    docs: sandboxDocs.sandbox_key,
    family: "api_key",
    get hosts() {
      return sandboxHosts();
    },
    async verify(credentials, ctx) {
      const account = await identity(ctx.type, await sandboxAuthHeaders(ctx.type, { kind: "manual", credentials }));
      return { ...account, rotationKey: null };
    },
  },
  {
    type: "sandbox_model",
    name: "Sandbox model",
    logo,
    authMethods: ["manual"],
    credentialFields: [],
    docs: sandboxDocs.sandbox_model,
    family: "api_key",
    get hosts() {
      return sandboxHosts();
    },
    // A model inside Patchbay (CONTRACT §11): Chat Completions at /sandbox/model/v1, a fixed
    // script (lib/platforms/sandbox/sandbox-model.ts), no key.
    model: {
      wire: "openai_chat",
      baseUrl: () => `${appUrl()}/sandbox/model/v1`,
      defaultModel: "sandbox-script-1",
      keyField: null,
    },
    async verify() {
      return { accountName: "Sandbox model", rotationKey: null };
    },
  },
];
