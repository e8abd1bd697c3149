import "server-only";
import { z } from "zod";
import { postJsonWithToken, slackBotToken } from "@/lib/platforms/slack/slack-provider";
import { CredentialRejected, ProviderRejection } from "@/lib/platforms/kit/types";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

/** Slack truncates longer text and refuses it with msg_too_long (chat.postMessage, "text"). */
const TEXT_MAX = 40_000;

/** Slack's channel names: lowercase letters (any script), digits, hyphens, underscores; up to 80. */
const CHANNEL_NAME = /^#?[\p{Ll}\p{Lo}\p{N}_][\p{Ll}\p{Lo}\p{N}._-]{0,79}$/u;

/** A channel ID (C…, G… private, D… direct message) or a channel name with or without its #. */
const channel = z
  .string()
  .trim()
  .refine(
    (v) => /^[CGD][A-Z0-9]{6,}$/.test(v) || CHANNEL_NAME.test(v),
    "must be a channel ID like C0123456789 or a channel name like #general",
  )
  .describe(
    "The channel: its ID (C0123456789) or its name (#general or general). The app's bot must be a member of the channel.",
  );

/** What chat.postMessage's refusals mean (its documented errors), for the reason a person reads. */
const POST_ERRORS: Record<string, string> = {
  channel_not_found: "no such channel, or a private channel the app's bot was not invited to",
  not_in_channel:
    "the app's bot is not a member of the channel; invite it (/invite @the-app) or pick a channel it is in",
  is_archived: "the channel has been archived",
  msg_too_long: "the message text is too long",
  no_text: "no message text was given",
  restricted_action: "a workspace preference prevents the app from posting there",
  restricted_action_read_only_channel: "the channel is read-only",
  restricted_action_thread_only_channel: "the channel takes thread replies only (give thread_ts)",
  restricted_action_non_threadable_channel: "the channel takes no thread replies (leave out thread_ts)",
  ekm_access_denied: "administrators have suspended posting messages",
};

const quote = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}…` : text);
const channelLabel = (c: string) => (/^[CGD][A-Z0-9]{6,}$/.test(c) ? c : `#${c.replace(/^#/, "")}`);

const slackPostMessage = defineWrite({
  id: "slack.post_message",
  additive: true,
  title: "Post a Slack message",
  consent: "Post messages to channels",
  description:
    "Posts a message as the app's bot to a Slack channel (Web API chat.postMessage): send, post, notify, announce, alert or message a channel, or reply in a thread with thread_ts. " +
    "Text uses Slack's mrkdwn (*bold*, _italic_, <https://example.com|links>). Returns the channel ID and the message's ts (its ID, for replies). slack_list_channels lists channel IDs and whether the bot is a member.",
  types: ["slack"],
  credits: 1,
  example: { channel: "#general", text: "Weekly traffic is up 12% on last week." },
  input: {
    channel,
    text: z
      .string()
      .max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`)
      .refine((v) => v.trim().length > 0, "must not be empty")
      .describe(`The message text (1-${TEXT_MAX} characters, Slack mrkdwn).`),
    thread_ts: z
      .string()
      .regex(/^\d{10}\.\d{6}$/, "must be a message ts like 1712345678.123456")
      .optional()
      .describe(
        "Reply in the thread of this message (its ts, e.g. 1712345678.123456); leave out to post a new message.",
      ),
  },
  summarize: (input, connection) =>
    `Post a message to Slack channel ${channelLabel(input.channel)}${input.thread_ts ? ` (in the thread of ${input.thread_ts})` : ""} in workspace ${connection.name ?? connection.externalId ?? connection.id}: “${quote(input.text)}”`,
  output: {
    ok: z.literal(true).describe("Slack accepted the message"),
    channel: z.string().nullable().describe("Channel ID"),
    ts: z.string().nullable().describe("Message timestamp (its ID)"),
    message: z
      .object({
        text: z.string().describe("Message text"),
        ts: z.string().nullable().describe("Message timestamp (its ID)"),
        thread_ts: z.string().nullable().describe("Thread it was posted in"),
        bot_id: z.string().nullable().describe("Bot that posted it"),
        user: z.string().nullable().describe("User ID that posted it"),
      })
      .describe("Message posted"),
  },
  async run({ connection, credentials }, input) {
    // https://docs.slack.dev/reference/methods/chat.postMessage
    const body = await postJsonWithToken(connection.type, "chat.postMessage", slackBotToken(credentials), {
      channel: input.channel,
      text: input.text,
      ...(input.thread_ts && { thread_ts: input.thread_ts }),
    }).catch((e: unknown) => {
      // Slack's refusal is a bare code ("not_in_channel"); say what it means, naming the channel.
      if (e instanceof ProviderRejection && !(e instanceof CredentialRejected) && POST_ERRORS[e.reason]) {
        throw new ProviderRejection(
          e.provider,
          `${e.reason}: ${POST_ERRORS[e.reason]} (channel ${channelLabel(input.channel)}).`,
        );
      }
      throw e;
    });
    const message = isObject(body.message) ? body.message : {};
    return {
      ok: true,
      channel: body.channel ?? null,
      ts: body.ts ?? null,
      message: {
        text: message.text ?? input.text,
        ts: message.ts ?? body.ts ?? null,
        thread_ts: message.thread_ts ?? null,
        bot_id: message.bot_id ?? null,
        user: message.user ?? null,
      },
    };
  },
});

export const operations: Operation[] = [slackPostMessage];
