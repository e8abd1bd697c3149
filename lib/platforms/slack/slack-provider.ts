import "server-only";
import { providerFetch, providerReason, type ProviderResponse } from "@/lib/platforms/kit/provider-fetch";
import { tokenSetFrom, urlWith } from "@/lib/platforms/kit/oauth2";
import {
  CredentialRejected,
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type TokenSet,
  type VerifiedAccount,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { slackDocs } from "@/lib/platforms/slack/slack-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(slackTypes, type);

// Slack's Web API answers HTTP 200 with {ok:false, error} for refusals, so the status alone
// says nothing: the `error` decides between "the credential is refused" and "Slack is in trouble".

const PROVIDER = "Slack";
// users:read is what bots.info needs (the call that names the app behind a bot token).
const SCOPES: OAuthScope[] = [
  { name: "channels:read", allows: "See basic information about the public channels in your workspace" },
  // slack.post_message posts as the app's bot.
  { name: "chat:write", allows: "Send messages as the app's bot", changes: true },
  { name: "team:read", allows: "See the name, email domain and icon of your workspace" },
  { name: "users:read", allows: "See people and bots in your workspace" },
];

const logo = monogramLogo("#4A154B", "S");

/** Slack errors that are Slack's trouble, not the credential's (a 502, not a 400). */
const SLACK_SIDE_ERRORS = new Set([
  "ratelimited",
  "fatal_error",
  "internal_error",
  "service_unavailable",
  "request_timeout",
]);

/** Slack's answers (HTTP 200, ok:false) that refuse the token itself: uninstalled, revoked, deactivated. */
const SLACK_TOKEN_ERRORS = new Set([
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "token_expired",
  "account_inactive",
]);

type SlackBody = { ok?: unknown; error?: unknown; needed?: unknown; provided?: unknown } & Record<string, unknown>;

function slackReason(body: SlackBody): string {
  if (body.error === "missing_scope")
    return `missing_scope: needed ${String(body.needed ?? "an unnamed scope")} (token has ${body.provided ? String(body.provided) : "no scopes"})`;
  return String(body.error);
}

/** The body of an ok:true answer; throws ProviderRejection for Slack's refusals, ProviderUnavailable otherwise. */
function okBodyOrThrow(res: ProviderResponse, method: string): SlackBody {
  const body = (res.body && typeof res.body === "object" ? res.body : null) as SlackBody | null;
  if (res.status === 200 && body?.ok === true) return body;
  if (
    res.status === 200 &&
    body?.ok === false &&
    typeof body.error === "string" &&
    !SLACK_SIDE_ERRORS.has(body.error)
  ) {
    throw SLACK_TOKEN_ERRORS.has(body.error)
      ? new CredentialRejected(PROVIDER, slackReason(body))
      : new ProviderRejection(PROVIDER, slackReason(body));
  }
  const why = typeof body?.error === "string" ? `HTTP ${res.status}: ${body.error}` : providerReason(res);
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} ${method} answered ${why}.`);
}

/** A Web API method with a bot token: the body of its ok:true answer, or the refusal/trouble it answered. */
export async function callWithToken(
  type: string,
  method: string,
  token: string,
  query: Record<string, string> = {},
  httpMethod: "GET" | "POST" = "GET",
) {
  const res = await providerFetch(PROVIDER, hosted(type), urlWith(`https://slack.com/api/${method}`, query), {
    method: httpMethod,
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
  });
  return okBodyOrThrow(res, method);
}

/**
 * A Web API write method with a bot token and a JSON body (e.g. chat.postMessage): the body of its
 * ok:true answer, or the refusal/trouble it answered.
 */
export async function postJsonWithToken(type: string, method: string, token: string, body: Record<string, unknown>) {
  // https://docs.slack.dev/apis/web-api/#posting_json
  const res = await providerFetch(PROVIDER, hosted(type), `https://slack.com/api/${method}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json; charset=utf-8",
      accept: "application/json",
    },
    body: JSON.stringify(body),
  });
  return okBodyOrThrow(res, method);
}

/** The bot token of a connection: the OAuth grant's (refreshed when rotation is on) or the posted bot_token. */
export function slackBotToken(credentials: FreshCredentials): string {
  return credentials.kind === "oauth" ? credentials.tokens.accessToken : credentials.credentials.bot_token;
}

/** auth.test names the workspace and the bot; bots.info names the app the bot belongs to. */
async function slackIdentity(type: string, token: string): Promise<VerifiedAccount> {
  const auth = await callWithToken(type, "auth.test", token, {}, "POST");
  const teamId = auth.team_id;
  if (typeof teamId !== "string" || !teamId)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} auth.test answered without a team_id.`);
  if (typeof auth.bot_id !== "string" || !auth.bot_id) {
    throw new ProviderRejection(
      PROVIDER,
      `not_bot_token: the token belongs to the user ${String(auth.user ?? auth.user_id)}, not to an app's bot; give the Bot User OAuth Token (xoxb-…).`,
    );
  }
  const info = await callWithToken(type, "bots.info", token, { bot: auth.bot_id });
  const appId = (info.bot as { app_id?: unknown } | undefined)?.app_id;
  if (typeof appId !== "string" || !appId)
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} bots.info answered without the bot's app_id.`);
  return {
    rotationKey: `team:${teamId}:app:${appId}`,
    accountId: teamId,
    accountName: typeof auth.team === "string" && auth.team ? auth.team : teamId,
  };
}

/** oauth.v2.access: the code exchange and, with token rotation on, the refresh grant. */
async function oauthAccess(type: string, params: Record<string, string>): Promise<TokenSet> {
  const res = await providerFetch(PROVIDER, hosted(type), "https://slack.com/api/oauth.v2.access", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(params),
  });
  const body = okBodyOrThrow(res, "oauth.v2.access");
  if (typeof body.access_token !== "string" || !body.access_token) {
    throw new ProviderUnavailable(
      PROVIDER,
      `${PROVIDER} oauth.v2.access answered ok without a bot access_token (were only user scopes granted?).`,
    );
  }
  const team = (body.team ?? {}) as { id?: unknown; name?: unknown };
  return tokenSetFrom(body, {
    team_id: team.id ?? null,
    team_name: team.name ?? null,
    app_id: body.app_id ?? null,
    bot_user_id: body.bot_user_id ?? null,
  });
}

const slackOAuth: OAuthDefinition = {
  provider: "SLACK",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See your workspace's name and the app's bot",
  pkce: false,
  authorizeUrl: ({ client, redirectUri, state }) =>
    urlWith("https://slack.com/oauth/v2/authorize", {
      client_id: client.clientId,
      scope: SCOPES.map((s) => s.name).join(","),
      redirect_uri: redirectUri,
      state,
    }),
  exchangeCode: ({ type, client, redirectUri, callback }) =>
    oauthAccess(type, {
      code: callback.get("code") ?? "",
      redirect_uri: redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  refresh: ({ type, client }, refreshToken) =>
    oauthAccess(type, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  identify: ({ type }, tokens) => slackIdentity(type, tokens.accessToken),
};

export const slackTypes: ConnectionTypeDefinition[] = [
  {
    type: "slack",
    name: "Slack",
    logo,
    authMethods: ["oauth", "manual"],
    credentialFields: ["bot_token"],
    docs: slackDocs,
    family: "team_messaging",
    hosts: ["slack.com"],
    oauth: slackOAuth,
    verify: (credentials, ctx) => slackIdentity(ctx.type, slackBotToken({ kind: "manual", credentials })),
  },
];
