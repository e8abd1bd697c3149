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

// Stand-in for Slack's OAuth v2 and Web API, at Slack's real paths and wire format (every Web
// API answer is HTTP 200 with {ok:true,…} or {ok:false, error}):
//   GET  /oauth/v2/authorize        302 to redirect_uri with code and state (error=access_denied on deny)
//   POST /api/oauth.v2.access       form: code + redirect_uri, or grant_type=refresh_token; client_id/secret
//                                   in the form or HTTP Basic. Token rotation is on: 12-hour bot tokens + refresh tokens.
//   POST /api/auth.test             Bearer → {ok, url, team, user, team_id, user_id, bot_id, is_enterprise_install}
//   GET  /api/bots.info?bot=<id>    Bearer, needs users:read → {ok, bot:{id, app_id, name, user_id, …}}
//   GET  /api/conversations.list    Bearer, needs channels:read → {ok, channels:[…], response_metadata:{next_cursor}}:
//                                   12 public channels (2 archived) and 3 private ones derived from the workspace;
//                                   types, exclude_archived, limit and cursor honoured.
//   POST /api/chat.postMessage      Bearer, needs chat:write; JSON body (or form) {channel, text, thread_ts?} →
//                                   {ok, channel, ts, message:{type, subtype:"bot_message", text, user, bot_id, app_id, ts, team, thread_ts?}};
//                                   the message is kept per workspace and channel. channel: an ID of
//                                   conversations.list or a public channel's name (with or without #).
//                                   Refusals as Slack answers them (HTTP 200, ok:false): an unknown channel, or a
//                                   private one → channel_not_found; an archived one → is_archived; a public channel
//                                   the bot is not a member of (conversations.list is_member: random, sales, design,
//                                   standup …) → not_in_channel; no text → no_text; text over 40,000 characters →
//                                   msg_too_long. thread_ts is echoed on the message (Slack does not check it either).
//
// Bot tokens (manual credential `bot_token`): any value works. `xoxb-<n>-<m>-…` is the bot of app
// A<m> in workspace T<n> (so two tokens with the same n and m are the same workspace and app);
// any other value names a workspace and app derived from the whole token. Refusals:
//   `bad_scope…`   → auth.test ok, bots.info {ok:false, error:"missing_scope", needed:"users:read", provided:"chat:write"}
//   `bad_expired…` → {ok:false, error:"token_expired"}
//   `bad_revoked…` → {ok:false, error:"token_revoked"}
//   other `bad…`   → {ok:false, error:"invalid_auth"};   no token → {ok:false, error:"not_authed"}
// Trouble on the data calls (conversations.list, chat.postMessage), for retries and takeovers;
// auth.test and bots.info answer normally, so such a token still connects:
//   `down…`  → HTTP 503 with Slack's HTML error page, every time
//   `slow…`  → answers after 6 s (a real wall-clock delay)
//   `hold…`  → answers when the test releases the token: the request waits in req.hold(token),
//              heldRequests(base, token) waits until it arrived, releaseHeld(base, token) lets it
//              (and every later one with that token) through (stand-in-server.ts, HELD_PATH);
//              a chat.postMessage whose text starts with `hold-…` waits the same way, keyed by that word
// OAuth: the `account` control names the workspace; `bad_scope…` refresh tokens (OAuthBook) and
// accounts get a token with only chat:write.

const client = testClient("SLACK");
const SCOPES = "channels:read,chat:write,team:read,users:read";
const NARROW_SCOPE = "chat:write";
const hash = (v: string) => createHash("sha256").update(v).digest("hex");
const idFrom = (prefix: string, v: string) => `${prefix}${hash(v).slice(0, 9).toUpperCase()}`;
// The test OAuth app: every token issued through OAuth belongs to this one app.
const OAUTH_APP_ID = idFrom("A", client.clientId);

type Bot = { teamId: string; teamName: string; appId: string; botId: string; botUserId: string; scope: string };

function botOfAccount(account: string, scope: string): Bot {
  return {
    teamId: idFrom("T", account),
    teamName: `Workspace ${account}`,
    appId: OAUTH_APP_ID,
    botId: idFrom("B", `${account}/${OAUTH_APP_ID}`),
    botUserId: idFrom("U", `${account}/${OAUTH_APP_ID}`),
    scope,
  };
}

function botOfPastedToken(token: string): Bot {
  const m = /^xox[a-z]-(\d+)-(\d+)-/.exec(token);
  const [team, app] = m ? [m[1], m[2]] : [token, token];
  const teamId = idFrom("T", team);
  const appId = idFrom("A", app);
  return {
    teamId,
    teamName: `Workspace ${teamId}`,
    appId,
    botId: idFrom("B", `${teamId}/${appId}`),
    botUserId: idFrom("U", `${teamId}/${appId}`),
    scope: token.startsWith("bad_scope") ? NARROW_SCOPE : SCOPES,
  };
}

const slackError = (error: string, extra: object = {}): Reply => ({ json: { ok: false, error, ...extra } });
const page = (status: number, message: string): Reply => ({
  status,
  text: `Slack: something went wrong: ${message}`,
  headers: { "content-type": "text/html; charset=utf-8" },
});

export const standIn: StandInModule = {
  types: ["slack"],
  oauthProviders: ["SLACK"],
  async start() {
    const book = new OAuthBook();
    const bots = new Map<string, Bot>(); // access tokens this stand-in issued

    function issue(account: string, scoped: boolean): Reply {
      const bot = botOfAccount(account, scoped ? SCOPES : NARROW_SCOPE);
      const token = `xoxe.xoxb-1-${randomBytes(18).toString("hex")}`;
      bots.set(token, bot);
      book.accessTokens.set(token, { account, scope: bot.scope });
      return {
        json: {
          ok: true,
          app_id: bot.appId,
          authed_user: { id: idFrom("U", `${account}/installer`) },
          scope: bot.scope,
          token_type: "bot",
          access_token: token,
          bot_user_id: bot.botUserId,
          refresh_token: `xoxe-1-${book.refreshTokenFor(account)}`,
          expires_in: 43200,
          team: { id: bot.teamId, name: bot.teamName },
          enterprise: null,
          is_enterprise_install: false,
        },
      };
    }

    /** The bot behind a request's token, or the Web API error for it. */
    function botOf(req: StandInRequest): Bot | Reply {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? req.form.get("token") ?? "";
      if (!token) return slackError("not_authed");
      const issued = bots.get(token);
      if (issued) return issued;
      if (token.startsWith("bad_scope")) return botOfPastedToken(token);
      if (token.startsWith("bad_expired")) return slackError("token_expired");
      if (token.startsWith("bad_revoked")) return slackError("token_revoked");
      if (token.startsWith("bad")) return slackError("invalid_auth");
      return botOfPastedToken(token);
    }

    const NAMES = [
      "general",
      "random",
      "marketing",
      "sales",
      "support",
      "engineering",
      "design",
      "launches",
      "alerts",
      "standup",
      "old-project",
      "archive-2023",
    ];
    const PRIVATE = ["leadership", "hiring", "finance"];
    const messages = new Map<string, { ts: string; text: string; thread_ts?: string }[]>(); // `${team}/${channel}` → messages
    let clock = 0;

    /** A public channel of the workspace by ID or name: its ID, whether the bot is in it and whether it is archived (as conversations.list says). */
    function channelOf(bot: Bot, given: string): { id: string; member: boolean; archived: boolean } | "private" | null {
      const name = given.replace(/^#/, "");
      const i = NAMES.findIndex((n) => n === name || idFrom("C", `${bot.teamId}/${n}`) === given);
      if (i >= 0) return { id: idFrom("C", `${bot.teamId}/${NAMES[i]}`), member: i % 2 === 0, archived: i >= 10 };
      return PRIVATE.some((n) => n === name || idFrom("C", `${bot.teamId}/${n}`) === given) ? "private" : null;
    }

    /** The `down…` / `slow…` / `hold…` behaviour of a data call, or null to answer normally. */
    async function trouble(req: StandInRequest): Promise<Reply | null> {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "";
      if (token.startsWith("down")) return page(503, "service unavailable");
      if (token.startsWith("slow")) await new Promise((r) => setTimeout(r, 6000));
      if (token.startsWith("hold")) await req.hold(token);
      return null;
    }

    return startStandInServer({
      "POST /api/chat.postMessage": async (req: StandInRequest) => {
        const troubled = await trouble(req);
        if (troubled) return troubled;
        const bot = botOf(req);
        if (!("teamId" in bot)) return bot;
        if (!bot.scope.split(",").includes("chat:write"))
          return slackError("missing_scope", { needed: "chat:write", provided: bot.scope });
        const args = (req.json && typeof req.json === "object" ? req.json : Object.fromEntries(req.form)) as {
          channel?: unknown;
          text?: unknown;
          thread_ts?: unknown;
        };
        if (typeof args.channel !== "string" || !args.channel) return slackError("channel_not_found");
        const channel = channelOf(bot, args.channel);
        if (!channel || channel === "private") return slackError("channel_not_found");
        if (channel.archived) return slackError("is_archived");
        if (!channel.member) return slackError("not_in_channel");
        if (typeof args.text !== "string" || !args.text.trim()) return slackError("no_text");
        if (args.text.length > 40_000) return slackError("msg_too_long");
        // A message whose text starts with a `hold…` word waits like a `hold…` token's call, keyed
        // by that word: one item of a loop of posts can be held while the others go through.
        const heldWord = /^(hold-[A-Za-z0-9-]+)/.exec(args.text)?.[1];
        if (heldWord) await req.hold(heldWord);
        const key = `${bot.teamId}/${channel.id}`;
        const kept = messages.get(key) ?? [];
        const threadTs = typeof args.thread_ts === "string" && args.thread_ts ? args.thread_ts : undefined;
        const ts = `${1_767_225_600 + (Math.floor(Date.now() / 1000) % 1_000_000)}.${String(++clock).padStart(6, "0")}`;
        kept.push({ ts, text: args.text, ...(threadTs && { thread_ts: threadTs }) });
        messages.set(key, kept);
        return {
          json: {
            ok: true,
            channel: channel.id,
            ts,
            message: {
              type: "message",
              subtype: "bot_message",
              text: args.text,
              user: bot.botUserId,
              bot_id: bot.botId,
              app_id: bot.appId,
              ts,
              team: bot.teamId,
              ...(threadTs && { thread_ts: threadTs }),
            },
          },
        };
      },

      "GET /oauth/v2/authorize": (req: StandInRequest) => {
        const q = req.query;
        if (q.get("client_id") !== client.clientId) return page(400, "invalid_client_id");
        const redirectUri = q.get("redirect_uri") ?? "";
        if (!/^https?:\/\/[^/]+(\/.*)?\/oauth\/callback$/.test(redirectUri)) return page(400, "bad_redirect_uri");
        const state = q.get("state");
        if (!state) return page(400, "missing state");
        if (!q.get("scope")) return page(400, "invalid_scope");
        const controls = authorizeControls(q);
        const back = new URL(redirectUri);
        back.searchParams.set("state", state);
        if (controls.decision === "deny") {
          back.searchParams.set("error", "access_denied");
          return { status: 302, redirect: back.toString() };
        }
        if (controls.decision === "error") {
          back.searchParams.set("error", "invalid_team_for_non_distributed_app");
          return { status: 302, redirect: back.toString() };
        }
        const scope = controls.account.startsWith("bad_scope") ? NARROW_SCOPE : SCOPES;
        const code = book.issueCode({
          clientId: client.clientId,
          redirectUri,
          account: controls.account,
          scope,
          codeChallenge: null,
          tokenFailure: controls.tokenFailure,
        });
        back.searchParams.set("code", code);
        return { status: 302, redirect: back.toString() };
      },

      "POST /api/oauth.v2.access": (req: StandInRequest) => {
        const form = req.form;
        const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
        const [basicId, basicSecret] = basic ? Buffer.from(basic, "base64").toString("utf8").split(":") : [];
        const clientId = form.get("client_id") ?? (basicId ? decodeURIComponent(basicId) : "");
        const clientSecret = form.get("client_secret") ?? (basicSecret ? decodeURIComponent(basicSecret) : "");
        if (clientId !== client.clientId) return slackError("invalid_client_id");
        if (clientSecret !== client.clientSecret) return slackError("bad_client_secret");

        const grantType = form.get("grant_type");
        if (grantType === "refresh_token") {
          const grant = book.grantOfRefreshToken((form.get("refresh_token") ?? "").replace(/^xoxe-1-/, ""));
          if (!grant) return slackError("invalid_refresh_token");
          return issue(grant.account, grant.scoped);
        }
        if (grantType && grantType !== "authorization_code") return slackError("invalid_grant_type");

        const code = form.get("code") ?? "";
        if (book.codes.get(code)?.tokenFailure === "server_error")
          return { status: 500, text: "Internal Server Error" };
        const grant = book.redeem(code, client.clientId, form.get("redirect_uri"), null);
        if (typeof grant === "string")
          return slackError(grant.startsWith("redirect_uri") ? "bad_redirect_uri" : "invalid_code");
        return issue(grant.account, grant.scope === SCOPES);
      },

      "POST /api/auth.test": (req: StandInRequest) => {
        const bot = botOf(req);
        if (!("teamId" in bot)) return bot;
        return {
          json: {
            ok: true,
            url: `https://${bot.teamId.toLowerCase()}.slack.com/`,
            team: bot.teamName,
            user: "patchbay",
            team_id: bot.teamId,
            user_id: bot.botUserId,
            bot_id: bot.botId,
            is_enterprise_install: false,
          },
        };
      },

      "GET /api/conversations.list": async (req: StandInRequest) => {
        const troubled = await trouble(req);
        if (troubled) return troubled;
        const bot = botOf(req);
        if (!("teamId" in bot)) return bot;
        if (!bot.scope.split(",").includes("channels:read"))
          return slackError("missing_scope", { needed: "channels:read", provided: bot.scope });
        const q = req.query;
        const types = (q.get("types") ?? "public_channel").split(",");
        const all = [
          ...NAMES.map((name, i) => ({ name, is_private: false, is_archived: i >= 10 })),
          ...PRIVATE.map((name) => ({ name, is_private: true, is_archived: false })),
        ]
          .filter((c) => types.includes(c.is_private ? "private_channel" : "public_channel"))
          .filter((c) => q.get("exclude_archived") !== "true" || !c.is_archived)
          .map((c, i) => ({
            id: idFrom("C", `${bot.teamId}/${c.name}`),
            name: c.name,
            is_channel: !c.is_private,
            is_group: c.is_private,
            is_im: false,
            is_private: c.is_private,
            is_archived: c.is_archived,
            is_general: c.name === "general",
            is_member: i % 2 === 0,
            created: 1_700_000_000 + i * 86_400,
            creator: idFrom("U", `${bot.teamId}/owner`),
            name_normalized: c.name,
            num_members: 3 + (parseInt(hash(`${bot.teamId}/${c.name}`).slice(0, 4), 16) % 200),
            topic: { value: c.name === "general" ? "Company-wide announcements" : "", creator: "", last_set: 0 },
            purpose: { value: `Talk about ${c.name}`, creator: "", last_set: 0 },
          }));
        const limit = Math.min(1000, Math.max(1, Number(q.get("limit") ?? 100)));
        const cursor = q.get("cursor");
        const start = cursor
          ? Number(
              Buffer.from(cursor, "base64")
                .toString("utf8")
                .replace(/^next:/, ""),
            )
          : 0;
        const page = all.slice(start, start + limit);
        const next = start + limit < all.length ? Buffer.from(`next:${start + limit}`).toString("base64") : "";
        return { json: { ok: true, channels: page, response_metadata: { next_cursor: next } } };
      },

      "GET /api/bots.info": (req: StandInRequest) => {
        const bot = botOf(req);
        if (!("teamId" in bot)) return bot;
        if (!bot.scope.split(",").includes("users:read"))
          return slackError("missing_scope", { needed: "users:read", provided: bot.scope });
        const id = req.query.get("bot");
        if (!id) return slackError("missing_argument");
        if (id !== bot.botId) return slackError("bot_not_found");
        return {
          json: {
            ok: true,
            bot: {
              id: bot.botId,
              deleted: false,
              name: "patchbay",
              updated: 1_700_000_000,
              app_id: bot.appId,
              user_id: bot.botUserId,
              icons: { image_36: "", image_48: "", image_72: "" },
            },
          },
        };
      },
    });
  },
};
