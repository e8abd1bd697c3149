import "server-only";
import { z } from "zod";
import { googleApiCall, googleType, isObject, listOf } from "@/lib/platforms/google/google-provider";
import { count, marketingCall, text } from "@/lib/platforms/google/marketing-call";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { youtubeDocs } from "@/lib/platforms/google/youtube/youtube-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { OperationInputError, type OperationContext } from "@/lib/platforms/kit/operation-types";
import { chosenColumnRows, reportedDates } from "@/lib/platforms/kit/output-parts";
import { ProviderRejection } from "@/lib/platforms/kit/types";

// YouTube through the YouTube Data API v3 (channels, uploads, video statistics, videos.update) and
// the YouTube Analytics API v2 (reports.query). Scopes: youtube.force-ssl, which Google lists for
// every Data API method used here (channels/playlistItems/videos.list as well as videos.update), so
// youtube.readonly would add nothing; and yt-analytics.readonly, which reports.query needs
// (https://developers.google.com/youtube/analytics/reference/reports/query#auth).

const TYPE = "youtube";
const DATA_API = "https://www.googleapis.com/youtube/v3";
const ANALYTICS_API = "https://youtubeanalytics.googleapis.com/v2";
const FORCE_SSL = "https://www.googleapis.com/auth/youtube.force-ssl";
const ANALYTICS_SCOPE = "https://www.googleapis.com/auth/yt-analytics.readonly";

const videoId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{11}$/, "must be an 11-character YouTube video ID")
  .describe('The video\'s ID (the v= part of its URL), e.g. "dQw4w9WgXcQ".');
/** YouTube refuses < and > in titles and descriptions (invalidTitle / invalidDescription). */
const noAngles = (s: string) => !/[<>]/.test(s);

async function myChannels(ctx: OperationContext) {
  const what = "the channels.list call";
  // https://developers.google.com/youtube/v3/docs/channels/list
  const body = await marketingCall(ctx, `${DATA_API}/channels`, what, {
    query: { part: "snippet,statistics,contentDetails", mine: "true", maxResults: "50" },
  });
  return listOf(body, "items", what);
}

async function videosById(ctx: OperationContext, ids: string[], part: string) {
  const what = "the videos.list call";
  // https://developers.google.com/youtube/v3/docs/videos/list
  const body = await marketingCall(ctx, `${DATA_API}/videos`, what, { query: { part, id: ids.join(",") } });
  return listOf(body, "items", what);
}

const listChannels = defineRead({
  id: "youtube.channels.list",
  title: "List my YouTube channels",
  consent: "See your YouTube channels, videos and their statistics",
  description:
    "The YouTube channel(s) of the connected Google account (Data API channels.list mine=true): channel_id, title, handle, creation date, subscriber count, total views, video count and the uploads playlist.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {},
  example: {},
  output: {
    channels: z
      .array(
        z.object({
          channel_id: z.string().nullable().describe("Channel ID"),
          title: z.string().nullable().describe("Channel name"),
          handle: z.string().nullable().describe("Handle, e.g. @brand"),
          published_at: z.string().nullable().describe("Created at"),
          subscribers: z.number().nullable().describe("Subscribers (null when hidden)"),
          views: z.number().nullable().describe("Total views"),
          videos: z.number().nullable().describe("Videos"),
          uploads_playlist_id: z.string().nullable().describe("Uploads playlist ID"),
        }),
      )
      .describe("Your channels"),
  },
  async run(ctx) {
    const items = await myChannels(ctx);
    return {
      channels: items.map((c) => {
        const snippet = isObject(c.snippet) ? c.snippet : {};
        const stats = isObject(c.statistics) ? c.statistics : {};
        const details = isObject(c.contentDetails) ? c.contentDetails : {};
        const related = isObject(details.relatedPlaylists) ? details.relatedPlaylists : {};
        return {
          channel_id: text(c.id),
          title: text(snippet.title),
          handle: text(snippet.customUrl),
          published_at: text(snippet.publishedAt),
          subscribers: stats.hiddenSubscriberCount === true ? null : count(stats.subscriberCount),
          views: count(stats.viewCount),
          videos: count(stats.videoCount),
          uploads_playlist_id: text(related.uploads),
        };
      }),
    };
  },
});

const recentVideos = defineRead({
  id: "youtube.videos.list",
  title: "List my recent YouTube videos with statistics",
  consent: "See your YouTube channels, videos and their statistics",
  description:
    "The most recent uploads of your YouTube channel with their statistics (Data API playlistItems.list on the uploads playlist, then videos.list): video_id, title, published date, views, likes, comments, privacy status. " +
    "channel_id defaults to the first channel of the connected account.",
  types: [TYPE],
  credits: 2,
  cacheTtlSeconds: 300,
  input: {
    channel_id: z
      .string()
      .regex(/^UC[A-Za-z0-9_-]{22}$/, "must be a channel ID starting with UC")
      .optional()
      .describe("One of your channel IDs (UC…, from youtube.channels.list); default: your first channel."),
    limit: z.number().int().min(1).max(50).default(10).describe("How many recent videos (1-50, default 10)."),
  },
  example: { limit: 10 },
  output: {
    channel_id: z.string().describe("Channel ID"),
    videos: z
      .array(
        z.object({
          video_id: z.string().nullable().describe("Video ID"),
          title: z.string().nullable().describe("Video title"),
          published_at: z.string().nullable().describe("Published at"),
          privacy_status: z.string().nullable().describe("Privacy, e.g. public or unlisted"),
          views: z.number().nullable().describe("Views"),
          likes: z.number().nullable().describe("Likes"),
          comments: z.number().nullable().describe("Comments"),
        }),
      )
      .describe("Recent uploads, newest first"),
  },
  async run(ctx, args) {
    const channels = await myChannels(ctx);
    const channel = args.channel_id ? channels.find((c) => c.id === args.channel_id) : channels[0];
    if (!channel)
      throw new ProviderRejection(
        "Google",
        args.channel_id
          ? `channel ${args.channel_id} is not one of this account's channels.`
          : "this Google account has no YouTube channel.",
      );
    const details = isObject(channel.contentDetails) ? channel.contentDetails : {};
    const uploads = isObject(details.relatedPlaylists) ? text(details.relatedPlaylists.uploads) : null;
    if (!uploads) return { channel_id: channel.id, videos: [] };
    const what = "the playlistItems.list call";
    // https://developers.google.com/youtube/v3/docs/playlistItems/list
    const page = await marketingCall(ctx, `${DATA_API}/playlistItems`, what, {
      query: { part: "contentDetails", playlistId: uploads, maxResults: String(args.limit) },
    });
    const ids = listOf(page, "items", what)
      .map((i) => (isObject(i.contentDetails) ? text(i.contentDetails.videoId) : null))
      .filter((v): v is string => v !== null);
    const videos = ids.length ? await videosById(ctx, ids, "snippet,statistics,status") : [];
    const byId = new Map(videos.map((v) => [v.id, v]));
    return {
      channel_id: channel.id,
      videos: ids
        .map((id) => byId.get(id))
        .filter(isObject)
        .map((v) => {
          const snippet = isObject(v.snippet) ? v.snippet : {};
          const stats = isObject(v.statistics) ? v.statistics : {};
          const status = isObject(v.status) ? v.status : {};
          return {
            video_id: text(v.id),
            title: text(snippet.title),
            published_at: text(snippet.publishedAt),
            privacy_status: text(status.privacyStatus),
            views: count(stats.viewCount),
            likes: count(stats.likeCount),
            comments: count(stats.commentCount),
          };
        }),
    };
  },
});

const METRICS = [
  "views",
  "estimatedMinutesWatched",
  "averageViewDuration",
  "averageViewPercentage",
  "likes",
  "dislikes",
  "comments",
  "shares",
  "subscribersGained",
  "subscribersLost",
] as const;
const DIMENSIONS = [
  "day",
  "month",
  "video",
  "country",
  "deviceType",
  "insightTrafficSourceType",
  "subscribedStatus",
] as const;

const analyticsReport = defineRead({
  id: "youtube.analytics.report",
  title: "YouTube Analytics report",
  consent: "See the YouTube Analytics reports of your channel",
  description:
    "YouTube Analytics for your channel or one video (Analytics API reports.query, ids=channel==MINE): views, watch time (estimatedMinutesWatched), average view duration, likes, comments, shares, subscribers gained and lost … in total or per day, month, video (top videos), country, device type or traffic source. " +
    "Dates default to the last 28 days ending yesterday.",
  types: [TYPE],
  credits: 2,
  cacheTtlSeconds: 600,
  input: {
    metrics: z
      .array(z.enum(METRICS))
      .min(1)
      .max(10)
      .default(["views", "estimatedMinutesWatched", "likes", "subscribersGained"])
      .describe("Metrics (default views, estimatedMinutesWatched, likes, subscribersGained)."),
    dimension: z
      .enum(DIMENSIONS)
      .optional()
      .describe(
        "One row per day, month, video (top videos), country, deviceType, insightTrafficSourceType or subscribedStatus; none = totals.",
      ),
    video_id: videoId.optional().describe("Only this video (filters=video==ID); default: the whole channel."),
    start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 28 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    limit: z.number().int().min(1).max(200).default(50).describe("How many rows at most (1-200, default 50)."),
  },
  example: { metrics: ["views", "estimatedMinutesWatched"], dimension: "day" },
  output: {
    date_range: reportedDates(),
    video_id: z.string().nullable().describe("Video reported (null: the whole channel)"),
    columns: z.array(z.string()).describe("Columns: the dimension, then the metrics"),
    rows: chosenColumnRows("Report rows"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 28, maxDays: 3660 });
    if (args.dimension === "video" && args.video_id)
      throw new OperationInputError(
        "dimension video lists top videos: leave video_id out, or choose another dimension.",
      );
    // Top-video and country reports must be sorted (by a metric, descending) to be limited.
    const sort =
      args.dimension === "day" || args.dimension === "month"
        ? args.dimension
        : args.dimension
          ? `-${args.metrics[0]}`
          : undefined;
    // https://developers.google.com/youtube/analytics/reference/reports/query
    const body = await marketingCall(ctx, `${ANALYTICS_API}/reports`, "the reports.query call", {
      query: {
        ids: "channel==MINE",
        startDate: range.start,
        endDate: range.end,
        metrics: args.metrics.join(","),
        dimensions: args.dimension,
        filters: args.video_id ? `video==${args.video_id}` : undefined,
        sort,
        maxResults: args.dimension ? String(args.limit) : undefined,
      },
    });
    const headers = (Array.isArray(body.columnHeaders) ? body.columnHeaders : [])
      .filter(isObject)
      .map((h) => String(h.name));
    const rows = (Array.isArray(body.rows) ? body.rows : [])
      .filter(Array.isArray)
      .map((r) => Object.fromEntries(headers.map((h, i) => [h, (r as unknown[])[i] ?? null])));
    return {
      date_range: { start_date: range.start, end_date: range.end },
      video_id: args.video_id ?? null,
      columns: headers,
      rows,
    };
  },
});

/** The video's snippet as videos.list returns it, or a rejection when the account cannot see it. */
async function snippetOf(ctx: OperationContext, id: string) {
  const [video] = await videosById(ctx, [id], "snippet");
  if (!video || !isObject(video.snippet))
    throw new ProviderRejection("Google", `video ${id} was not found (or is not one this account can see).`);
  return video.snippet;
}

const short = (s: unknown, n = 60) => (typeof s === "string" ? (s.length > n ? `${s.slice(0, n - 1)}…` : s) : "");

const updateVideo = defineWrite({
  id: "youtube.video.update",
  idempotent: true,
  title: "Change a YouTube video's title or description",
  consent: "Change the titles and descriptions of your videos",
  description:
    "Changes the title and/or description of one of your YouTube videos (Data API videos.update, part=snippet): rename or retitle a video, edit or rewrite its description. " +
    "The rest of the snippet (category, tags, languages) is read first and kept. Returns the previous and the new title and description.",
  types: [TYPE],
  credits: 2,
  input: {
    video_id: videoId,
    title: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine(noAngles, "must not contain < or >")
      .optional()
      .describe("The new title (1-100 characters, no < or >)."),
    description: z
      .string()
      .max(5000)
      .refine(noAngles, "must not contain < or >")
      .refine((s) => Buffer.byteLength(s, "utf8") <= 5000, "must be at most 5000 bytes")
      .optional()
      .describe("The new description (at most 5000 bytes, no < or >)."),
  },
  example: { video_id: "dQw4w9WgXcQ", title: "Our spring launch, explained" },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const name = typeof state.title === "string" ? ` '${short(state.title)}'` : "";
    const changes = [
      args.title !== undefined && `the title to '${short(args.title)}'`,
      args.description !== undefined &&
        (args.description ? `the description to "${short(args.description)}"` : "the description to empty"),
    ].filter(Boolean);
    return `Change ${changes.join(" and ")} of YouTube video ${args.video_id}${name}.`;
  },
  async before(ctx, args) {
    const snippet = await snippetOf(ctx, args.video_id);
    return {
      video_id: args.video_id,
      title: text(snippet.title),
      description: short(snippet.description, 200) || null,
      category_id: text(snippet.categoryId),
    };
  },
  output: {
    video_id: z.string().describe("Video ID"),
    previous_title: z.string().nullable().describe("Previous title"),
    title: z.string().nullable().describe("Title now"),
    previous_description: z.string().nullable().describe("Previous description"),
    description: z.string().nullable().describe("Description now"),
    category_id: z.string().nullable().describe("Category ID"),
  },
  async run(ctx, args) {
    if (args.title === undefined && args.description === undefined)
      throw new OperationInputError("Give title, description or both: there is nothing to change.");
    const snippet = await snippetOf(ctx, args.video_id);
    // videos.update replaces the whole snippet: send back what it had (categoryId is required), with the change.
    const kept = Object.fromEntries(
      ["title", "description", "categoryId", "tags", "defaultLanguage", "defaultAudioLanguage"]
        .filter((k) => snippet[k] !== undefined)
        .map((k) => [k, snippet[k]]),
    );
    const next = {
      ...kept,
      ...(args.title !== undefined && { title: args.title }),
      ...(args.description !== undefined && { description: args.description }),
    };
    // https://developers.google.com/youtube/v3/docs/videos/update
    const body = await marketingCall(ctx, `${DATA_API}/videos`, "the videos.update call", {
      method: "PUT",
      query: { part: "snippet" },
      body: { id: args.video_id, snippet: next },
    });
    const now: Record<string, unknown> = isObject(body.snippet) ? body.snippet : next;
    return {
      video_id: args.video_id,
      previous_title: text(snippet.title),
      title: text(now.title),
      previous_description: typeof snippet.description === "string" ? snippet.description : null,
      description: typeof now.description === "string" ? now.description : null,
      category_id: text(now.categoryId),
    };
  },
});

export const product: GoogleProduct = {
  types: [
    googleType({
      type: TYPE,
      name: "YouTube",
      logo: monogramLogo("#FF0000", "YT"),
      scopes: [
        {
          name: FORCE_SSL,
          allows: "See, edit, and permanently delete your YouTube videos, ratings, comments and captions",
          changes: true,
        },
        { name: ANALYTICS_SCOPE, allows: "View YouTube Analytics reports for your YouTube content" },
      ],
      credentialFields: ["client_id", "client_secret", "refresh_token"],
      docs: youtubeDocs,
      hosts: ["youtubeanalytics.googleapis.com"],
      async check(type, accessToken) {
        const what = "the YouTube Data API call (channels.list mine=true)";
        // https://developers.google.com/youtube/v3/docs/channels/list
        const body = await googleApiCall(type, `${DATA_API}/channels?part=snippet&mine=true`, accessToken, what);
        const [first] = listOf(body, "items", what);
        const snippet = isObject(first?.snippet) ? first.snippet : {};
        return { accountId: text(first?.id) ?? undefined, accountName: text(snippet.title) ?? undefined };
      },
    }),
  ],
  operations: [listChannels, recentVideos, analyticsReport, updateVideo],
};
