import "server-only";
import { z } from "zod";
import {
  GRAPH,
  META_HOSTS,
  graphAuth,
  graphGet,
  graphPost,
  graphProofFor,
  isObject,
  metaOAuth,
  metaType,
} from "@/lib/platforms/meta/meta-provider";
import { pagesDocs } from "@/lib/platforms/meta/pages/pages-docs";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderUnavailable, type OAuthScope } from "@/lib/platforms/kit/types";

// Facebook Pages through the Graph API (Pages API) on Patchbay's Meta app: the Pages the user
// manages (/me/accounts), a Page's insights and recent posts, and publishing a post. Page calls
// use the Page access token, read with the user token for each call (GET /{page-id}?fields=
// access_token) and never returned or logged.

const PROVIDER = "Meta";
const TYPE = "facebook_pages";

// https://developers.facebook.com/docs/pages-api/getting-started (pages_show_list,
// pages_read_engagement, pages_manage_posts) and
// https://developers.facebook.com/documentation/pages-api/platforminsights/page.md (read_insights).
const SCOPES: OAuthScope[] = [
  { name: "pages_show_list", allows: "See the list of Facebook Pages you manage" },
  { name: "pages_read_engagement", allows: "Read your Pages' posts, followers and engagement" },
  { name: "read_insights", allows: "Read the insights (reach, views, engagement) of your Pages" },
  { name: "pages_manage_posts", allows: "Create and publish posts on your Pages", changes: true },
];

const facebookPagesType = metaType({
  type: TYPE,
  name: "Facebook Pages",
  logo: monogramLogo("#1877F2", "f"),
  authMethods: ["oauth"],
  credentialFields: null,
  docs: pagesDocs,
  family: "oauth_only",
  hosts: META_HOSTS,
  oauth: metaOAuth(SCOPES),
});

const pageId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "must be a numeric Facebook Page ID")
  .describe('The Page\'s ID, a string of digits, e.g. "104000000000001" (facebook_pages.pages.list lists them).');

const text = (v: unknown) => (typeof v === "string" && v ? v : null);

/** The Page's name and its access token (for the Page calls only; never part of a result). */
async function pageAccess({ connection, credentials }: OperationContext, id: string) {
  const { accessToken, proof } = graphAuth(credentials);
  // https://developers.facebook.com/docs/pages/access-tokens (GET /{page-id}?fields=access_token)
  const body = await graphGet(
    connection.type,
    urlWith(`${GRAPH}/${id}`, { fields: "id,name,access_token", ...proof }),
    "the Page read",
    accessToken,
  );
  if (typeof body.access_token !== "string" || !body.access_token)
    throw new ProviderUnavailable(
      PROVIDER,
      `${PROVIDER} answered the Page read of ${id} without a Page access token: the connected user may not manage this Page.`,
    );
  const token = body.access_token;
  return { name: text(body.name), token, proof: graphProofFor(credentials, token) };
}

const listPages = defineRead({
  id: "facebook_pages.pages.list",
  title: "List Facebook Pages",
  consent: "See the Facebook Pages you manage",
  description:
    "Lists the Facebook Pages the connected user manages (Graph API /me/accounts): Page ID, name, category, follower count and the tasks the user may perform (CREATE_CONTENT, ANALYZE …). " +
    "Use it to find a page_id for Page insights, recent posts or publishing a post.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { limit: rowLimit(25, 100) },
  output: {
    pages: z
      .array(
        z.object({
          page_id: z.string().describe("Page ID"),
          name: z.string().nullable().describe("Page name"),
          category: z.string().nullable().describe("Category"),
          followers_count: z.number().nullable().describe("Followers"),
          tasks: z.array(z.string()).describe("What you may do on it, e.g. CREATE_CONTENT"),
        }),
      )
      .describe("Pages you manage"),
    has_more: z.boolean().describe("More Pages than were returned"),
  },
  async run({ connection, credentials }, args) {
    const { accessToken, proof } = graphAuth(credentials);
    // https://developers.facebook.com/docs/pages-api/getting-started (GET /{user-id}/accounts); the
    // fields leave out access_token, so no Page token is read here.
    const body = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/me/accounts`, {
        fields: "id,name,category,tasks,followers_count",
        limit: String(args.limit),
        ...proof,
      }),
      "the accounts call",
      accessToken,
    );
    const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
    return {
      pages: data.map((p) => ({
        page_id: String(p.id ?? ""),
        name: text(p.name),
        category: text(p.category),
        followers_count: typeof p.followers_count === "number" ? p.followers_count : null,
        tasks: Array.isArray(p.tasks) ? p.tasks.map(String) : [],
      })),
      has_more: isObject(body.paging) && typeof body.paging.next === "string",
    };
  },
});

const DEFAULT_METRICS = ["page_total_media_view_unique", "page_post_engagements", "page_follows"];

const pageInsights = defineRead({
  id: "facebook_pages.insights",
  title: "Facebook Page insights",
  consent: "Read your Pages' posts and insights",
  description:
    "Insights of one Facebook Page (Graph API /{page-id}/insights): metrics such as page_total_media_view_unique (reach: people who saw the Page's content), page_post_engagements (reactions, comments, shares, clicks), " +
    "page_follows (followers), page_views_total, page_daily_follows_unique, per day, week or 28 days over a since/until range (default the last 28 days, at most 90). Returns one series of {end_time, value} per metric.",
  types: [TYPE],
  credits: 2,
  cacheTtlSeconds: 600,
  example: { page_id: "104000000000001", period: "day" },
  input: {
    page_id: pageId,
    metrics: z
      .array(z.string().regex(/^page_[a-z0-9_]{1,80}$/, "must be a Page Insights metric name (page_…)"))
      .min(1)
      .max(10)
      .default(DEFAULT_METRICS)
      .describe(`Page Insights metric names (default ${DEFAULT_METRICS.join(", ")}).`),
    period: z.enum(["day", "week", "days_28"]).default("day").describe("Aggregation period of each value."),
    since: isoDate.optional().describe("First day, YYYY-MM-DD (default 28 days before until)."),
    until: isoDate.optional().describe("Last day, YYYY-MM-DD (default yesterday)."),
  },
  output: {
    page_id: z.string().describe("Page ID"),
    page_name: z.string().nullable().describe("Page name"),
    since: z.string().describe("First day"),
    until: z.string().describe("Last day"),
    metrics: z
      .array(
        z.object({
          name: z.string().nullable().describe("Metric, e.g. page_post_engagements"),
          period: z.string().nullable().describe("Period, e.g. day"),
          title: z.string().nullable().describe("Metric title"),
          values: z
            .array(
              z.object({
                end_time: z.string().nullable().describe("Period end"),
                value: z
                  .union([z.number(), z.record(z.string(), z.unknown())])
                  .optional()
                  .describe("Value (a breakdown object for metrics split by country, city …)"),
              }),
            )
            .describe("One value per period"),
        }),
      )
      .describe("Metrics asked for, one entry each"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.since, args.until, { maxDays: 90 });
    const page = await pageAccess(ctx, args.page_id);
    // https://developers.facebook.com/docs/graph-api/reference/insights#Reading (metric, period,
    // since, until; a Page access token with read_insights)
    const body = await graphGet(
      ctx.connection.type,
      urlWith(`${GRAPH}/${args.page_id}/insights`, {
        metric: args.metrics.join(","),
        period: args.period,
        since: range.start,
        until: range.end,
        ...page.proof,
      }),
      "the Page insights call",
      page.token,
    );
    const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
    return {
      page_id: args.page_id,
      page_name: page.name,
      since: range.start,
      until: range.end,
      metrics: data.map((m) => ({
        name: text(m.name),
        period: text(m.period),
        title: text(m.title),
        values: (Array.isArray(m.values) ? m.values.filter(isObject) : []).map((v) => ({
          end_time: text(v.end_time),
          value: isObject(v.value) ? v.value : numeric(v.value),
        })),
      })),
    };
  },
});

const recentPosts = defineRead({
  id: "facebook_pages.posts.list",
  title: "Recent Facebook Page posts",
  consent: "Read your Pages' posts and insights",
  description:
    "Lists the recent posts published by one Facebook Page, newest first (Graph API /{page-id}/posts): post ID, message text, created time, permalink and share count.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { page_id: "104000000000001", limit: 10 },
  input: { page_id: pageId, limit: rowLimit(10, 100) },
  output: {
    page_id: z.string().describe("Page ID"),
    page_name: z.string().nullable().describe("Page name"),
    posts: z
      .array(
        z.object({
          post_id: z.string().describe("Post ID"),
          message: z.string().nullable().describe("Post text"),
          created_time: z.string().nullable().describe("Posted at"),
          permalink_url: z.string().nullable().describe("Post link"),
          shares: z.number().describe("Shares"),
        }),
      )
      .describe("Recent posts, newest first"),
    has_more: z.boolean().describe("More posts than were returned"),
  },
  async run(ctx, args) {
    const page = await pageAccess(ctx, args.page_id);
    // https://developers.facebook.com/docs/graph-api/reference/page/feed#Reading (/{page-id}/posts:
    // the posts the Page published)
    const body = await graphGet(
      ctx.connection.type,
      urlWith(`${GRAPH}/${args.page_id}/posts`, {
        fields: "id,message,created_time,permalink_url,shares",
        limit: String(args.limit),
        ...page.proof,
      }),
      "the Page posts call",
      page.token,
    );
    const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
    return {
      page_id: args.page_id,
      page_name: page.name,
      posts: data.map((p) => ({
        post_id: String(p.id ?? ""),
        message: text(p.message),
        created_time: text(p.created_time),
        permalink_url: text(p.permalink_url),
        shares: isObject(p.shares) && typeof p.shares.count === "number" ? p.shares.count : 0,
      })),
      has_more: isObject(body.paging) && typeof body.paging.next === "string",
    };
  },
});

const publishPost = defineWrite({
  id: "facebook_pages.post.create",
  additive: true,
  title: "Publish a Facebook Page post",
  consent: "Publish posts on your Pages",
  description:
    "Publishes a new post on one Facebook Page as the Page (Graph API POST /{page-id}/feed): post, share or announce a message, optionally with a link. It goes live at once and is visible to the Page's audience. Returns the new post's ID.",
  types: [TYPE],
  credits: 1,
  idempotent: false,
  example: { page_id: "104000000000001", message: "Our summer sale starts today!" },
  input: {
    page_id: pageId,
    message: z.string().trim().min(1).max(63206).describe("The text of the post."),
    link: z
      .string()
      .url()
      .regex(/^https?:\/\//i, "must be an http(s) URL")
      .max(2000)
      .optional()
      .describe("A URL to attach to the post (shown as a link preview)."),
  },
  summarize(args, _connection, before) {
    const name = isObject(before) && typeof before.page_name === "string" ? ` '${before.page_name}'` : "";
    const excerpt = args.message.length > 80 ? `${args.message.slice(0, 77)}…` : args.message;
    return `Publish a post on Facebook Page ${args.page_id}${name}: "${excerpt}"${args.link ? ` with the link ${args.link}` : ""}`;
  },
  async before(ctx, args) {
    const page = await pageAccess(ctx, args.page_id);
    return { page_id: args.page_id, page_name: page.name };
  },
  output: {
    page_id: z.string().describe("Page ID"),
    page_name: z.string().nullable().describe("Page name"),
    post_id: z.string().describe("New post ID"),
  },
  async run(ctx, args) {
    const page = await pageAccess(ctx, args.page_id);
    // https://developers.facebook.com/docs/pages-api/getting-started (POST /{page-id}/feed with
    // message and link, the Page access token)
    const body = await graphPost(
      ctx.connection.type,
      urlWith(`${GRAPH}/${args.page_id}/feed`, page.proof),
      { message: args.message, ...(args.link && { link: args.link }) },
      "the Page post",
      page.token,
    );
    if (typeof body.id !== "string" || !body.id)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the Page post without the post's id.`);
    return { page_id: args.page_id, page_name: page.name, post_id: body.id };
  },
});

export const pagesProduct = {
  types: [facebookPagesType],
  operations: [listPages, pageInsights, recentPosts, publishPost] as Operation[],
};
