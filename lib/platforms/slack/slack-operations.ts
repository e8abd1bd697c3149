import "server-only";
import { z } from "zod";
import { callWithToken, slackBotToken } from "@/lib/platforms/slack/slack-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

const text = (v: unknown) => (isObject(v) && typeof v.value === "string" && v.value ? v.value : null);

const slackListChannels = defineRead({
  toolName: "slack_list_channels",
  title: "List Slack channels",
  consent: "See your workspace's channels",
  description:
    "The workspace's channels (Web API conversations.list): ID, name, member count, topic, purpose, whether the bot is a member. Public channels by default; private ones only where the bot was invited (and the app has groups:read). " +
    "Page with `cursor` (the previous answer's next_cursor).",
  types: ["slack"],
  id: "slack.list_channels",
  credits: 1,
  cacheTtlSeconds: 60,
  example: {},
  input: {
    types: z
      .array(z.enum(["public_channel", "private_channel"]))
      .min(1)
      .default(["public_channel"])
      .describe("Which channels: public_channel (default) and/or private_channel."),
    exclude_archived: z.boolean().default(true).describe("Leave archived channels out (default true)."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(200)
      .describe("How many channels to return at most (1-1000, default 200)."),
    cursor: z.string().max(500).optional().describe("next_cursor of the previous page, to continue."),
  },
  output: {
    channels: z
      .array(
        z.object({
          id: z.string().nullable().describe("Channel ID"),
          name: z.string().nullable().describe("Channel name"),
          is_private: z.boolean().describe("Private channel"),
          is_archived: z.boolean().describe("Archived"),
          is_member: z.boolean().describe("The app's bot is a member"),
          num_members: z.number().nullable().describe("Members"),
          topic: z.string().nullable().describe("Topic"),
          purpose: z.string().nullable().describe("Purpose"),
          created: z.string().nullable().describe("Created at"),
        }),
      )
      .describe("Channels"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const body = await callWithToken(connection.type, "conversations.list", slackBotToken(credentials), {
      types: args.types.join(","),
      exclude_archived: String(args.exclude_archived),
      limit: String(args.limit),
      ...(args.cursor && { cursor: args.cursor }),
    });
    const channels = (Array.isArray(body.channels) ? body.channels : []).filter(isObject).map((c) => ({
      id: c.id ?? null,
      name: c.name ?? null,
      is_private: c.is_private === true,
      is_archived: c.is_archived === true,
      is_member: c.is_member === true,
      num_members: typeof c.num_members === "number" ? c.num_members : null,
      topic: text(c.topic),
      purpose: text(c.purpose),
      created: typeof c.created === "number" ? new Date(c.created * 1000).toISOString() : null,
    }));
    const next =
      isObject(body.response_metadata) && typeof body.response_metadata.next_cursor === "string"
        ? body.response_metadata.next_cursor
        : "";
    return { channels, next_cursor: next || null };
  },
});

export const operations: Operation[] = [slackListChannels];
