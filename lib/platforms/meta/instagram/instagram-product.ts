import "server-only";
import { z } from "zod";
import {
  GRAPH,
  META_HOSTS,
  graphAuth,
  graphGet,
  graphPost,
  isObject,
  metaOAuth,
  metaType,
} from "@/lib/platforms/meta/meta-provider";
import { instagramDocs } from "@/lib/platforms/meta/instagram/instagram-docs";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderRejection, ProviderUnavailable, type OAuthScope } from "@/lib/platforms/kit/types";

// Instagram professional (business or creator) accounts through the Instagram Graph API with
// Facebook Login, on Patchbay's Meta app: the accounts linked to the user's Pages, account and
// media insights, recent media, and publishing a photo (media container, then media_publish).
// Every call uses the user access token on graph.facebook.com.

const PROVIDER = "Meta";
const TYPE = "instagram";

// https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights
// (instagram_basic, instagram_manage_insights, pages_read_engagement) and
// https://developers.facebook.com/documentation/instagram-platform/instagram-graph-api/reference/ig-container.md
// (instagram_content_publish); pages_show_list finds the accounts through the user's Pages.
const SCOPES: OAuthScope[] = [
  { name: "instagram_basic", allows: "See your Instagram professional account's profile and media" },
  // Meta's name says "manage", but it only reads insights; marked as changing to match its name.
  {
    name: "instagram_manage_insights",
    allows: "Read the insights (reach, views, interactions) of your Instagram account and media",
    changes: true,
  },
  { name: "instagram_content_publish", allows: "Publish photos on your Instagram account", changes: true },
  { name: "pages_show_list", allows: "See the list of Facebook Pages you manage (to find their Instagram accounts)" },
  { name: "pages_read_engagement", allows: "Read the Facebook Pages your Instagram accounts are linked to" },
];

const instagramType = metaType({
  type: TYPE,
  name: "Instagram",
  logo: monogramLogo("#E1306C", "IG"),
  authMethods: ["oauth"],
  credentialFields: null,
  docs: instagramDocs,
  family: "oauth_only",
  hosts: META_HOSTS,
  oauth: metaOAuth(SCOPES),
});

const numericId = (what: string, example: string, from: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,25}$/, `must be a numeric Instagram ${what} ID`)
    .describe(`The Instagram ${what} ID, a string of digits, e.g. "${example}" (${from}).`);
const igUserId = numericId("account", "17841400000000001", "instagram.accounts.list lists them");
const text = (v: unknown) => (typeof v === "string" && v ? v : null);
const rows = (body: Record<string, unknown>) => (Array.isArray(body.data) ? body.data.filter(isObject) : []);

async function get(
  { connection, credentials }: OperationContext,
  path: string,
  params: Record<string, string>,
  what: string,
) {
  const { accessToken, proof } = graphAuth(credentials);
  return graphGet(connection.type, urlWith(`${GRAPH}/${path}`, { ...params, ...proof }), what, accessToken);
}

const listAccounts = defineRead({
  id: "instagram.accounts.list",
  title: "List Instagram business accounts",
  consent: "See your Instagram accounts and media",
  description:
    "Lists the Instagram professional (business or creator) accounts linked to the Facebook Pages the user manages (Graph API /me/accounts with instagram_business_account): " +
    "Instagram account ID, username, name, followers and media count, and the Page it is linked to. Use it to find the ig_user_id other Instagram operations take.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { limit: rowLimit(25, 100) },
  output: {
    accounts: z
      .array(
        z.object({
          ig_user_id: z.string().describe("Instagram account ID"),
          username: z.string().nullable().describe("Username"),
          name: z.string().nullable().describe("Account name"),
          followers_count: z.number().nullable().describe("Followers"),
          media_count: z.number().nullable().describe("Posts"),
          page_id: z.string().describe("Linked Facebook Page ID"),
          page_name: z.string().nullable().describe("Linked Facebook Page"),
        }),
      )
      .describe("Instagram business accounts"),
  },
  async run(ctx, args) {
    // https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/get-started
    // (GET /me/accounts?fields=instagram_business_account)
    const body = await get(
      ctx,
      "me/accounts",
      {
        fields: "id,name,instagram_business_account{id,username,name,followers_count,media_count}",
        limit: String(args.limit),
      },
      "the accounts call",
    );
    return {
      accounts: rows(body)
        .filter((p) => isObject(p.instagram_business_account))
        .map((p) => {
          const ig = p.instagram_business_account as Record<string, unknown>;
          return {
            ig_user_id: String(ig.id ?? ""),
            username: text(ig.username),
            name: text(ig.name),
            followers_count: typeof ig.followers_count === "number" ? ig.followers_count : null,
            media_count: typeof ig.media_count === "number" ? ig.media_count : null,
            page_id: String(p.id ?? ""),
            page_name: text(p.name),
          };
        }),
    };
  },
});

const ACCOUNT_METRICS = [
  "reach",
  "views",
  "accounts_engaged",
  "total_interactions",
  "likes",
  "comments",
  "shares",
  "saves",
  "replies",
  "profile_links_taps",
  "follower_count",
] as const;
const DAY_S = 86_400;
const unix = (day: string) => String(Date.parse(`${day}T00:00:00Z`) / 1000);

const accountInsights = defineRead({
  id: "instagram.insights",
  title: "Instagram account insights: reach, views, followers",
  consent: "Read your Instagram account and media insights",
  description:
    "Insights of one Instagram professional account (Graph API /{ig-user-id}/insights): reach, views, accounts engaged, total interactions, likes, comments, shares, saves, replies, profile link taps and follower count. " +
    "metric_type total_value gives one total per metric over the range; time_series gives one value per day (reach and follower_count only). Range at most 30 days (default the last 7).",
  types: [TYPE],
  credits: 2,
  cacheTtlSeconds: 600,
  example: { ig_user_id: "17841400000000001", metrics: ["reach", "views", "accounts_engaged"] },
  input: {
    ig_user_id: igUserId,
    metrics: z
      .array(z.enum(ACCOUNT_METRICS))
      .min(1)
      .max(11)
      .default(["reach", "views", "accounts_engaged", "total_interactions"])
      .describe("Metrics to return (default reach, views, accounts_engaged, total_interactions)."),
    metric_type: z
      .enum(["total_value", "time_series"])
      .default("total_value")
      .describe("total_value: one total per metric; time_series: one value per day (reach, follower_count)."),
    since: isoDate.optional().describe("First day, YYYY-MM-DD (default 7 days before until)."),
    until: isoDate.optional().describe("Last day, YYYY-MM-DD (default yesterday)."),
  },
  output: {
    ig_user_id: z.string().describe("Instagram account ID"),
    since: z.string().describe("First day"),
    until: z.string().describe("Last day"),
    metrics: z
      .array(
        z.object({
          name: z.string().nullable().describe("Metric, e.g. reach"),
          title: z.string().nullable().describe("Metric title"),
          period: z.string().nullable().describe("Period, e.g. day"),
          total_value: z.number().optional().describe("Total over the days (metric_type total_value)"),
          values: z
            .array(
              z.object({
                end_time: z.string().nullable().describe("Day end"),
                value: z.number().optional().describe("Value"),
              }),
            )
            .optional()
            .describe("One value per day (metric_type time_series)"),
        }),
      )
      .describe("Metrics asked for, one entry each"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.since, args.until, { defaultDays: 7, maxDays: 30 });
    // https://developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights
    // (metric, period=day, metric_type, since/until as UNIX timestamps)
    const body = await get(
      ctx,
      `${args.ig_user_id}/insights`,
      {
        metric: args.metrics.join(","),
        period: "day",
        metric_type: args.metric_type,
        since: unix(range.start),
        until: String(Number(unix(range.end)) + DAY_S),
      },
      "the Instagram insights call",
    );
    return {
      ig_user_id: args.ig_user_id,
      since: range.start,
      until: range.end,
      metrics: rows(body).map((m) => ({
        name: text(m.name),
        title: text(m.title),
        period: text(m.period),
        ...(isObject(m.total_value)
          ? { total_value: numeric(m.total_value.value) }
          : {
              values: (Array.isArray(m.values) ? m.values.filter(isObject) : []).map((v) => ({
                end_time: text(v.end_time),
                value: numeric(v.value),
              })),
            }),
      })),
    };
  },
});

const listMedia = defineRead({
  id: "instagram.media.list",
  title: "Recent Instagram posts with like and comment counts",
  consent: "See your Instagram accounts and media",
  description:
    "Lists the recent or latest posts (photos, videos, reels, carousels) of one Instagram professional account, newest first (Graph API /{ig-user-id}/media): media ID, caption, type, permalink, timestamp, like count and comment count. " +
    "For reach, views, saves and shares of one post use instagram.media.insights.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { ig_user_id: "17841400000000001", limit: 10 },
  input: { ig_user_id: igUserId, limit: rowLimit(10, 100) },
  output: {
    ig_user_id: z.string().describe("Instagram account ID"),
    media: z
      .array(
        z.object({
          media_id: z.string().describe("Post ID"),
          caption: z.string().nullable().describe("Caption"),
          media_type: z.string().nullable().describe("Type, e.g. IMAGE, VIDEO or CAROUSEL_ALBUM"),
          media_product_type: z.string().nullable().describe("Surface, e.g. FEED or REELS"),
          permalink: z.string().nullable().describe("Post link"),
          timestamp: z.string().nullable().describe("Posted at"),
          like_count: z.number().nullable().describe("Likes"),
          comments_count: z.number().nullable().describe("Comments"),
        }),
      )
      .describe("Recent posts, newest first"),
    has_more: z.boolean().describe("More posts than were returned"),
  },
  async run(ctx, args) {
    // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reading
    const body = await get(
      ctx,
      `${args.ig_user_id}/media`,
      {
        fields: "id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count",
        limit: String(args.limit),
      },
      "the Instagram media call",
    );
    return {
      ig_user_id: args.ig_user_id,
      media: rows(body).map((m) => ({
        media_id: String(m.id ?? ""),
        caption: text(m.caption),
        media_type: text(m.media_type),
        media_product_type: text(m.media_product_type),
        permalink: text(m.permalink),
        timestamp: text(m.timestamp),
        like_count: typeof m.like_count === "number" ? m.like_count : null,
        comments_count: typeof m.comments_count === "number" ? m.comments_count : null,
      })),
      has_more: isObject(body.paging) && typeof body.paging.next === "string",
    };
  },
});

const MEDIA_METRICS = ["reach", "views", "likes", "comments", "saved", "shares", "total_interactions"] as const;

const mediaInsights = defineRead({
  id: "instagram.media.insights",
  title: "Instagram post insights: saves, shares and interactions",
  consent: "Read your Instagram account and media insights",
  description:
    "Insights of one Instagram post, reel or story (Graph API /{ig-media-id}/insights): reach, views, likes, comments, saved, shares and total interactions. Media IDs come from instagram.media.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 600,
  example: { media_id: "17900000000000001" },
  input: {
    media_id: numericId("media", "17900000000000001", "instagram.media.list lists them"),
    metrics: z
      .array(z.enum(MEDIA_METRICS))
      .min(1)
      .max(7)
      .default([...MEDIA_METRICS])
      .describe("Metrics to return (default all of reach, views, likes, comments, saved, shares, total_interactions)."),
  },
  output: {
    media_id: z.string().describe("Post ID"),
    metrics: z
      .object({
        reach: z.number().optional().describe("Reach"),
        views: z.number().optional().describe("Views"),
        likes: z.number().optional().describe("Likes"),
        comments: z.number().optional().describe("Comments"),
        saved: z.number().optional().describe("Saves"),
        shares: z.number().optional().describe("Shares"),
        total_interactions: z.number().optional().describe("Total interactions"),
      })
      .describe("The metrics asked for, by name"),
  },
  async run(ctx, args) {
    // https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
    const body = await get(
      ctx,
      `${args.media_id}/insights`,
      { metric: args.metrics.join(",") },
      "the Instagram media insights call",
    );
    const metrics: Record<string, unknown> = {};
    for (const m of rows(body)) {
      const first = Array.isArray(m.values) && isObject(m.values[0]) ? m.values[0].value : undefined;
      if (typeof m.name === "string") metrics[m.name] = numeric(isObject(m.total_value) ? m.total_value.value : first);
    }
    return { media_id: args.media_id, metrics };
  },
});

/** How often (and how long apart) a new container's status_code is read before publishing. */
const CONTAINER_CHECKS = 5;
const CONTAINER_WAIT_MS = 1000;

const publishPhoto = defineWrite({
  id: "instagram.media.publish",
  additive: true,
  title: "Publish a photo post on Instagram",
  consent: "Publish photos on your Instagram account",
  description:
    "Publishes one photo with a caption on an Instagram professional account (post, share or upload an image): creates a media container from a public image URL (POST /{ig-user-id}/media), waits until Instagram has fetched it, then publishes it (POST /{ig-user-id}/media_publish). " +
    "The image must be a JPEG on a publicly reachable https URL. Instagram allows 50 published posts per account in 24 hours. Returns the new media ID.",
  types: [TYPE],
  credits: 2,
  idempotent: false,
  example: {
    ig_user_id: "17841400000000001",
    image_url: "https://example.com/images/summer-sale.jpg",
    caption: "Summer sale starts today ☀️",
  },
  input: {
    ig_user_id: igUserId,
    image_url: z
      .string()
      .url()
      .regex(/^https:\/\//i, "must be a public https URL")
      .max(2000)
      .describe("A public https URL of the JPEG image; Instagram downloads it when the container is created."),
    caption: z.string().max(2200).default("").describe("The caption (at most 2,200 characters, 30 hashtags)."),
  },
  summarize(args, _connection, before) {
    const name = isObject(before) && typeof before.username === "string" ? ` @${before.username}` : "";
    const caption = args.caption.length > 80 ? `${args.caption.slice(0, 77)}…` : args.caption;
    return `Publish the photo ${args.image_url} on Instagram account ${args.ig_user_id}${name}${caption ? ` with the caption "${caption}"` : ""}`;
  },
  async before(ctx, args) {
    // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user#reading
    const account = await get(ctx, args.ig_user_id, { fields: "id,username,name" }, "the Instagram account read");
    return { ig_user_id: args.ig_user_id, username: text(account.username), name: text(account.name) };
  },
  output: {
    ig_user_id: z.string().describe("Instagram account ID"),
    container_id: z.string().describe("Media container ID"),
    media_id: z.string().describe("New post ID"),
  },
  async run(ctx, args) {
    const { accessToken, proof } = graphAuth(ctx.credentials);
    const type = ctx.connection.type;
    // https://developers.facebook.com/documentation/instagram-platform/content-publishing.md (step 1:
    // POST /{ig-user-id}/media with image_url and caption → a container id)
    const container = await graphPost(
      type,
      urlWith(`${GRAPH}/${args.ig_user_id}/media`, proof),
      { image_url: args.image_url, ...(args.caption && { caption: args.caption }) },
      "the media container call",
      accessToken,
    );
    if (typeof container.id !== "string" || !container.id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the media container call without an id.`);
    // …/instagram-graph-api/reference/ig-container.md (status_code: EXPIRED, ERROR, FINISHED, IN_PROGRESS, PUBLISHED)
    let status = "IN_PROGRESS";
    for (let check = 0; check < CONTAINER_CHECKS && status === "IN_PROGRESS"; check++) {
      if (check > 0) await new Promise((ok) => setTimeout(ok, CONTAINER_WAIT_MS));
      const state = await get(ctx, container.id, { fields: "status_code,status" }, "the media container read");
      status = typeof state.status_code === "string" ? state.status_code : "IN_PROGRESS";
      if (status === "ERROR" || status === "EXPIRED")
        throw new ProviderRejection(
          PROVIDER,
          `Instagram could not use the image (container ${container.id} is ${status}${typeof state.status === "string" ? `: ${state.status}` : ""}).`,
        );
    }
    if (status !== "FINISHED")
      throw new ProviderUnavailable(
        PROVIDER,
        `Instagram was still processing media container ${container.id} after ${CONTAINER_CHECKS} checks; nothing was published.`,
      );
    // …/reference/ig-user/media_publish.md (POST /{ig-user-id}/media_publish with creation_id)
    const published = await graphPost(
      type,
      urlWith(`${GRAPH}/${args.ig_user_id}/media_publish`, proof),
      { creation_id: container.id },
      "the media_publish call",
      accessToken,
    );
    if (typeof published.id !== "string" || !published.id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the media_publish call without the media id.`);
    return { ig_user_id: args.ig_user_id, container_id: container.id, media_id: published.id };
  },
});

export const instagramProduct = {
  types: [instagramType],
  operations: [listAccounts, accountInsights, listMedia, mediaInsights, publishPhoto] as Operation[],
};
