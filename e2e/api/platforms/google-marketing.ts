import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";

// The Google marketing products on Google's app (e2e/support/stand-ins/google-marketing.ts serves
// them beside Google's sign-in): Merchant Center, Business Profile, YouTube and Display & Video 360.
// Each stand-in account has its own Merchant Center account, Business Profile, channel and DV360
// partner, with IDs derived from the account; `prepare` learns them as an agent would (the list
// operations). The stand-in journals each request's account (its bearer token's), so the suite's
// default filter finds a test's own calls.

type Ctx = Omit<RunContext, "p">;

const OAUTH_BASE = {
  provider: "GOOGLE",
  authorizePath: "/o/oauth2/v2/auth",
  pkce: true,
  accountName: (account: string) => `${account}@example.com`,
  refresh: true,
};

/** White-label credentials: the stand-in takes rt_<account> as a refresh token of that account. */
const manual = {
  good: (account: string) => ({
    client_id: `wl-${account}.apps.googleusercontent.com`,
    client_secret: "GOCSPX-white-label",
    refresh_token: `rt_${account}`,
  }),
  refused: (account: string) => ({
    credentials: {
      client_id: `wl-${account}.apps.googleusercontent.com`,
      client_secret: "GOCSPX-white-label",
      refresh_token: `bad_revoked_${account}`,
    },
    says: ["invalid_grant", "Token has been expired or revoked"],
  }),
};
const CREDENTIAL_FIELDS = ["client_id", "client_secret", "refresh_token"];
const RATE_LIMIT_WORDS = ["rate limit", "RESOURCE_EXHAUSTED", "Quota exceeded"];

const errorText = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("\n");

/** One read through run_operation on the test's connection: its structured result. */
async function run(ctx: Ctx, operationId: string, input: Json): Promise<Json> {
  const r = await ctx.client.callTool({
    name: "run_operation",
    arguments: { operation_id: operationId, connection_id: ctx.connectionId, input },
  });
  expect(r.isError, `${operationId}: ${errorText(r).slice(0, 500)}`).toBeFalsy();
  return r.structuredContent as Json;
}

/**
 * What `prepare` learns, step by step; a step the provider refuses (the rate-limit test's
 * always-throttled account) ends it with what was learned so far.
 */
async function learn(ctx: Ctx, steps: (read: (op: string, input: Json) => Promise<Json>) => Promise<Json>) {
  const learned: Json = {};
  const read = async (op: string, input: Json) => {
    const r = await ctx.client.callTool({
      name: "run_operation",
      arguments: { operation_id: op, connection_id: ctx.connectionId, input },
    });
    if (r.isError) throw new Refused();
    return r.structuredContent as Json;
  };
  try {
    Object.assign(learned, await steps(read));
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
  }
  return learned;
}
class Refused extends Error {}

/** The last request of `method` at `path` (the test's own run comes after prepare's calls). */
function last(requests: Recorded[], method: string, path: string | RegExp): Recorded {
  const found = requests.filter(
    (r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
  );
  expect(
    found.length,
    `${method} ${String(path)} among ${requests.map((r) => `${r.method} ${r.path}`).join(", ")}`,
  ).toBeGreaterThan(0);
  return found[found.length - 1];
}
const bearer = (r: Recorded) => expect(r.headers.authorization).toMatch(/^Bearer at_/);

// ---- Google Merchant Center ----

const merchant: PlatformCase = {
  type: "google_merchant",
  name: "Google Merchant Center",
  credentialFields: CREDENTIAL_FIELDS,
  oauth: { ...OAUTH_BASE, scopes: ["openid", "email", "https://www.googleapis.com/auth/content"] },
  manual,
  prepare: (ctx) =>
    learn(ctx, async (read) => {
      const accounts = await read("google_merchant.accounts.list", {});
      const accountId = String(accounts.accounts[0].account_id);
      const products = await read("google_merchant.products.list", { account_id: accountId });
      return { accountId, productId: products.products[1].product_id };
    }),
  reads: [
    {
      op: "google_merchant.accounts.list",
      input: () => ({ limit: 10 }),
      check(result, { account, p }) {
        expect(result.accounts).toEqual([
          {
            account_id: p.accountId,
            name: `${account} Store`,
            time_zone: "America/New_York",
            language_code: "en",
            test_account: false,
          },
        ]);
        expect(result.next_page_token).toBeNull();
      },
      requests(requests) {
        const r = last(requests, "GET", "/accounts/v1/accounts");
        expect(r.query).toEqual({ pageSize: "10" });
        bearer(r);
      },
    },
    {
      op: "google_merchant.products.list",
      input: ({ p }) => ({ account_id: p.accountId, limit: 2 }),
      check(result, { p }) {
        expect(result.account_id).toBe(p.accountId);
        expect(result.products).toHaveLength(2);
        expect(result.products[0]).toMatchObject({
          product_id: "en~US~sku-1",
          offer_id: "sku-1",
          title: "Blue mug",
          price: { amount: 12, currency: "USD" },
          availability: "IN_STOCK",
          content_language: "en",
          feed_label: "US",
          disapproved: false,
        });
        expect(result.products[1]).toMatchObject({ product_id: "en~US~sku-2", disapproved: true, issue_count: 1 });
        expect(result.products[0].data_source).toMatch(new RegExp(`^accounts/${p.accountId}/dataSources/\\d+$`));
        expect(typeof result.next_page_token).toBe("string");
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/products/v1/accounts/${p.accountId}/products`);
        expect(r.query).toEqual({ pageSize: "2" });
        bearer(r);
      },
    },
    {
      op: "google_merchant.product_statuses.list",
      input: ({ p }) => ({ account_id: p.accountId }),
      check(result) {
        expect(result.products_read).toBe(3);
        expect(result.disapproved).toBe(1);
        expect(result.statuses.map((s: Json) => s.product_id)).toEqual(["en~US~sku-2", "en~US~sku-3"]);
        expect(result.statuses[0].issues[0]).toMatchObject({
          code: "missing_required_gtin",
          severity: "DISAPPROVED",
          attribute: "gtin",
          description: "Missing value [gtin]",
        });
        expect(result.statuses[0].destinations[0]).toMatchObject({
          reporting_context: "SHOPPING_ADS",
          disapproved_countries: ["US"],
        });
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/products/v1/accounts/${p.accountId}/products`);
        expect(r.query).toEqual({ pageSize: "100" });
      },
    },
  ],
  writes: [
    {
      op: "google_merchant.product.update",
      input: ({ p }) => ({ account_id: p.accountId, product_id: p.productId, price: 34.5, availability: "IN_STOCK" }),
      summary: ({ p }) =>
        `Change the price from 39.90 USD to 34.50 USD and the availability from OUT_OF_STOCK to IN_STOCK of Merchant Center product en~US~sku-2 'Red kettle' in account ${p.accountId}.`,
      async check(result, ctx) {
        expect(result).toMatchObject({
          account_id: ctx.p.accountId,
          product_id: "en~US~sku-2",
          title: "Red kettle",
          previous_price: { amount: 39.9, currency: "USD" },
          previous_availability: "OUT_OF_STOCK",
          price: { amount: 34.5, currency: "USD" },
          availability: "IN_STOCK",
        });
        // Google now holds the change: a later list shows it.
        const after = await run(ctx, "google_merchant.products.list", { account_id: ctx.p.accountId, limit: 3 });
        expect(after.products[1]).toMatchObject({ price: { amount: 34.5, currency: "USD" }, availability: "IN_STOCK" });
      },
      requests(requests, { p }) {
        const r = last(requests, "PATCH", `/products/v1/accounts/${p.accountId}/productInputs/en~US~sku-2`);
        expect(r.query.updateMask).toBe("productAttributes.price,productAttributes.availability");
        expect(r.query.dataSource).toMatch(new RegExp(`^accounts/${p.accountId}/dataSources/\\d+$`));
        expect(Object.keys(r.query).sort()).toEqual(["dataSource", "updateMask"]);
        expect(r.json).toEqual({
          productAttributes: { price: { amountMicros: "34500000", currencyCode: "USD" }, availability: "IN_STOCK" },
        });
        expect(r.headers["content-type"]).toBe("application/json");
        bearer(r);
        last(requests, "GET", `/products/v1/accounts/${p.accountId}/products/en~US~sku-2`);
      },
      refusal: ({ p }) => ({
        input: { account_id: p.accountId, product_id: "en~US~no-such-sku", availability: "IN_STOCK" },
        says: ["NOT_FOUND", "Requested entity was not found"],
      }),
    },
  ],
  rateLimit: { op: "google_merchant.accounts.list", input: () => ({}), says: RATE_LIMIT_WORDS },
  searches: [
    { ask: "list the products in my merchant center account", first: "google_merchant.products.list" },
    { ask: "why are my shopping products disapproved", first: "google_merchant.product_statuses.list" },
    { ask: "mark a merchant center product out of stock", first: "google_merchant.product.update" },
    { ask: "change the price of a product in google merchant center", first: "google_merchant.product.update" },
  ],
};

// ---- Google Business Profile ----

const businessProfile: PlatformCase = {
  type: "google_business_profile",
  name: "Google Business Profile",
  credentialFields: CREDENTIAL_FIELDS,
  oauth: { ...OAUTH_BASE, scopes: ["openid", "email", "https://www.googleapis.com/auth/business.manage"] },
  manual,
  prepare: (ctx) =>
    learn(ctx, async (read) => {
      const accounts = await read("google_business_profile.accounts.list", {});
      const accountId = String(accounts.accounts[0].account_id);
      const locations = await read("google_business_profile.locations.list", { account_id: accountId });
      const locationId = String(locations.locations[0].location_id);
      const reviews = await read("google_business_profile.reviews.list", {
        account_id: accountId,
        location_id: locationId,
      });
      const low = (reviews.reviews as Json[]).find((r) => r.star_rating === 2)!;
      return {
        accountId,
        locationId,
        reviewId: low.review_id,
      };
    }),
  reads: [
    {
      op: "google_business_profile.accounts.list",
      input: () => ({ limit: 5 }),
      check(result, { account, p }) {
        expect(result.accounts).toEqual([
          {
            account_id: p.accountId,
            name: `${account} Bakery`,
            type: "LOCATION_GROUP",
            role: "PRIMARY_OWNER",
            verification_state: "VERIFIED",
          },
        ]);
      },
      requests(requests) {
        const r = last(requests, "GET", "/v1/accounts");
        expect(r.query).toEqual({ pageSize: "5" });
        bearer(r);
      },
    },
    {
      op: "google_business_profile.locations.list",
      input: ({ p }) => ({ account_id: p.accountId, limit: 50 }),
      check(result, { p }) {
        expect(result.total).toBe(2);
        expect(result.locations).toHaveLength(2);
        expect(result.locations[0]).toMatchObject({
          location_id: p.locationId,
          title: "Patchbay Bakery — Main Street",
          address: "12 Main Street, 12345 Springfield, US",
          website: "https://bakery.example.com/",
          phone: "+1 217-555-0100",
          primary_category: "Bakery",
        });
        expect(result.locations[0].place_id).toMatch(/^ChIJ/);
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/v1/accounts/${p.accountId}/locations`);
        expect(r.query).toEqual({
          readMask: "name,title,storefrontAddress,websiteUri,phoneNumbers,categories,metadata",
          pageSize: "50",
        });
        bearer(r);
      },
    },
    {
      op: "google_business_profile.reviews.list",
      input: ({ p }) => ({ account_id: p.accountId, location_id: p.locationId, order_by: "rating", limit: 2 }),
      check(result, { p }) {
        expect(result).toMatchObject({ average_rating: 3.7, total_review_count: 3 });
        expect(result.reviews.map((r: Json) => r.star_rating)).toEqual([2, 4]);
        expect(result.reviews[0]).toMatchObject({
          review_id: p.reviewId,
          reviewer: "Bob K.",
          comment: "Waited twenty minutes for a coffee.",
        });
        expect(result.reviews[1].reply).toMatchObject({ comment: "Thank you, Cleo!" });
        expect(typeof result.next_page_token).toBe("string");
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/v4/accounts/${p.accountId}/locations/${p.locationId}/reviews`);
        expect(r.query).toEqual({ pageSize: "2", orderBy: "rating" });
        bearer(r);
      },
    },
  ],
  writes: [
    {
      op: "google_business_profile.review.reply",
      input: ({ p, nonce }) => ({
        account_id: p.accountId,
        location_id: p.locationId,
        review_id: p.reviewId,
        comment: `Sorry about the wait, Bob (${nonce}).`,
      }),
      summary: ({ p, nonce }) =>
        `Reply to the 2-star review ${p.reviewId} by Bob K. of location ${p.locationId} in Business Profile account ${p.accountId}: "Sorry about the wait, Bob (${nonce})."`,
      async check(result, ctx) {
        expect(result).toMatchObject({
          review_id: ctx.p.reviewId,
          reviewer: "Bob K.",
          star_rating: 2,
          reply: { comment: `Sorry about the wait, Bob (${ctx.nonce}).` },
        });
        const after = await run(ctx, "google_business_profile.reviews.list", {
          account_id: ctx.p.accountId,
          location_id: ctx.p.locationId,
          order_by: "rating",
        });
        expect(after.reviews[0].reply).toMatchObject({ comment: `Sorry about the wait, Bob (${ctx.nonce}).` });
      },
      requests(requests, { p, nonce }) {
        const path = `/v4/accounts/${p.accountId}/locations/${p.locationId}/reviews/${p.reviewId}`;
        const r = last(requests, "PUT", `${path}/reply`);
        expect(r.query).toEqual({});
        expect(r.json).toEqual({ comment: `Sorry about the wait, Bob (${nonce}).` });
        expect(r.headers["content-type"]).toBe("application/json");
        bearer(r);
        last(requests, "GET", path);
      },
      refusal: ({ p }) => ({
        input: { account_id: p.accountId, location_id: p.locationId, review_id: "NoSuchReview1", comment: "Thanks!" },
        says: ["NOT_FOUND", "Requested entity was not found"],
      }),
    },
  ],
  rateLimit: { op: "google_business_profile.accounts.list", input: () => ({}), says: RATE_LIMIT_WORDS },
  searches: [
    { ask: "reply to a google review of my business", first: "google_business_profile.review.reply" },
    { ask: "show the reviews of my business location", first: "google_business_profile.reviews.list" },
    { ask: "list my business profile locations", first: "google_business_profile.locations.list" },
  ],
};

// ---- YouTube ----

const youtube: PlatformCase = {
  type: "youtube",
  name: "YouTube",
  credentialFields: CREDENTIAL_FIELDS,
  oauth: {
    ...OAUTH_BASE,
    scopes: [
      "openid",
      "email",
      "https://www.googleapis.com/auth/youtube.force-ssl",
      "https://www.googleapis.com/auth/yt-analytics.readonly",
    ],
  },
  manual,
  prepare: (ctx) =>
    learn(ctx, async (read) => {
      const videos = await read("youtube.videos.list", {});
      const channelId = String(videos.channel_id);
      const videoIds = (videos.videos as Json[]).map((v) => String(v.video_id));
      return { channelId, uploads: `UU${channelId.slice(2)}`, videoIds };
    }),
  reads: [
    {
      op: "youtube.channels.list",
      input: () => ({}),
      check(result, { account, p }) {
        expect(result.channels).toHaveLength(1);
        expect(result.channels[0]).toMatchObject({
          channel_id: p.channelId,
          title: `${account} Bakery`,
          videos: 3,
          uploads_playlist_id: p.uploads,
        });
        expect(typeof result.channels[0].subscribers).toBe("number");
      },
      requests(requests) {
        const r = last(requests, "GET", "/youtube/v3/channels");
        expect(r.query).toEqual({ part: "snippet,statistics,contentDetails", mine: "true", maxResults: "50" });
        bearer(r);
      },
    },
    {
      op: "youtube.videos.list",
      input: () => ({ limit: 2 }),
      check(result, { p }) {
        expect(result.channel_id).toBe(p.channelId);
        expect(result.videos).toHaveLength(2);
        expect(result.videos[0]).toMatchObject({
          video_id: p.videoIds[0],
          privacy_status: "public",
        });
        expect(typeof result.videos[0].views).toBe("number");
        expect(typeof result.videos[0].likes).toBe("number");
      },
      requests(requests, { p }) {
        const items = last(requests, "GET", "/youtube/v3/playlistItems");
        expect(items.query).toEqual({ part: "contentDetails", playlistId: p.uploads, maxResults: "2" });
        const videos = last(requests, "GET", "/youtube/v3/videos");
        expect(videos.query).toEqual({ part: "snippet,statistics,status", id: p.videoIds.slice(0, 2).join(",") });
        bearer(videos);
      },
    },
    {
      op: "youtube.analytics.report",
      input: ({ p }) => ({
        metrics: ["views", "likes"],
        dimension: "day",
        video_id: p.videoIds[0],
        start_date: "2026-11-01",
        end_date: "2026-11-07",
      }),
      check(result, { p }) {
        expect(result.columns).toEqual(["day", "views", "likes"]);
        expect(result.rows).toHaveLength(7);
        expect(result.rows[0].day).toBe("2026-11-01");
        expect(typeof result.rows[0].views).toBe("number");
        expect(result.video_id).toBe(p.videoIds[0]);
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", "/v2/reports");
        expect(r.query).toEqual({
          ids: "channel==MINE",
          startDate: "2026-11-01",
          endDate: "2026-11-07",
          metrics: "views,likes",
          dimensions: "day",
          filters: `video==${p.videoIds[0]}`,
          sort: "day",
          maxResults: "50",
        });
        bearer(r);
      },
    },
  ],
  writes: [
    {
      op: "youtube.video.update",
      input: ({ p, nonce }) => ({ video_id: p.videoIds[1], title: `Spring menu tour ${nonce}` }),
      summary: ({ p, nonce }) =>
        `Change the title to 'Spring menu tour ${nonce}' of YouTube video ${p.videoIds[1]} 'Spring menu tour'.`,
      async check(result, ctx) {
        expect(result).toMatchObject({
          video_id: ctx.p.videoIds[1],
          previous_title: "Spring menu tour",
          title: `Spring menu tour ${ctx.nonce}`,
          category_id: "22",
        });
        expect(result.description).toBe(result.previous_description);
        const after = await run(ctx, "youtube.videos.list", { limit: 3 });
        expect(after.videos[1].title).toBe(`Spring menu tour ${ctx.nonce}`);
      },
      requests(requests, { p, nonce }) {
        const r = last(requests, "PUT", "/youtube/v3/videos");
        expect(r.query).toEqual({ part: "snippet" });
        // The whole snippet goes back (videos.update replaces it): category and tags kept.
        expect(r.json).toMatchObject({
          id: p.videoIds[1],
          snippet: { title: `Spring menu tour ${nonce}`, categoryId: "22", tags: ["bakery", "food"] },
        });
        expect(typeof r.json?.snippet.description).toBe("string");
        expect(r.headers["content-type"]).toBe("application/json");
        bearer(r);
      },
      refusal: () => ({
        input: { video_id: "AAAAAAAAAAA", title: "Not mine" },
        says: ["AAAAAAAAAAA", "was not found"],
      }),
    },
  ],
  rateLimit: { op: "youtube.channels.list", input: () => ({}), says: RATE_LIMIT_WORDS },
  searches: [
    { ask: "rename a youtube video", first: "youtube.video.update" },
    { ask: "change the description of my youtube video", first: "youtube.video.update" },
    { ask: "youtube watch time per day", first: "youtube.analytics.report" },
    { ask: "how many subscribers does my youtube channel have", first: "youtube.channels.list" },
    { ask: "views of my recent youtube videos", first: "youtube.videos.list" },
  ],
};

// ---- Display & Video 360 ----

const dv360: PlatformCase = {
  type: "dv360",
  name: "Display & Video 360",
  credentialFields: CREDENTIAL_FIELDS,
  oauth: { ...OAUTH_BASE, scopes: ["openid", "email", "https://www.googleapis.com/auth/display-video"] },
  manual,
  prepare: (ctx) =>
    learn(ctx, async (read) => {
      const partners = await read("dv360.partners.list", {});
      const partnerId = String(partners.partners[0].partner_id);
      const advertisers = await read("dv360.advertisers.list", { partner_id: partnerId });
      const advertiserId = String(advertisers.advertisers[0].advertiser_id);
      const lineItems = await read("dv360.line_items.list", { advertiser_id: advertiserId });
      return {
        partnerId,
        advertiserId,
        lineItemId: lineItems.line_items[0].line_item_id,
        insertionOrderId: lineItems.line_items[0].insertion_order_id,
      };
    }),
  reads: [
    {
      op: "dv360.partners.list",
      input: () => ({ limit: 10 }),
      check(result, { account, p }) {
        expect(result.partners).toEqual([
          { partner_id: p.partnerId, name: `${account} Agency`, status: "ENTITY_STATUS_ACTIVE" },
        ]);
        expect(result.next_page_token).toBeNull();
      },
      requests(requests) {
        const r = last(requests, "GET", "/v4/partners");
        expect(r.query).toEqual({ pageSize: "10" });
        bearer(r);
      },
    },
    {
      op: "dv360.advertisers.list",
      input: ({ p }) => ({ partner_id: p.partnerId, limit: 1 }),
      check(result, { p }) {
        expect(result.partner_id).toBe(p.partnerId);
        expect(result.advertisers).toEqual([
          {
            advertiser_id: p.advertiserId,
            name: "Patchbay Shoes",
            status: "ENTITY_STATUS_ACTIVE",
            currency: "USD",
            domain: "https://shop.example.com",
          },
        ]);
        expect(typeof result.next_page_token).toBe("string");
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", "/v4/advertisers");
        expect(r.query).toEqual({ partnerId: p.partnerId, pageSize: "1" });
        bearer(r);
      },
    },
    {
      op: "dv360.insertion_orders.list",
      input: ({ p }) => ({ advertiser_id: p.advertiserId, status: "ENTITY_STATUS_ACTIVE" }),
      check(result, { p }) {
        expect(result.insertion_orders).toHaveLength(2);
        expect(result.insertion_orders[0]).toMatchObject({
          insertion_order_id: p.insertionOrderId,
          name: "IO 1",
          status: "ENTITY_STATUS_ACTIVE",
          pacing: "PACING_TYPE_EVEN",
        });
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/v4/advertisers/${p.advertiserId}/insertionOrders`);
        expect(r.query).toEqual({ filter: 'entityStatus="ENTITY_STATUS_ACTIVE"', pageSize: "100" });
      },
    },
    {
      op: "dv360.line_items.list",
      input: ({ p }) => ({ advertiser_id: p.advertiserId, insertion_order_id: p.insertionOrderId }),
      check(result, { p }) {
        expect(result.line_items.map((l: Json) => l.name)).toEqual(["Prospecting — display", "Retargeting — display"]);
        expect(result.line_items[0]).toMatchObject({
          line_item_id: p.lineItemId,
          insertion_order_id: p.insertionOrderId,
          type: "LINE_ITEM_TYPE_DISPLAY_DEFAULT",
          status: "ENTITY_STATUS_ACTIVE",
        });
      },
      requests(requests, { p }) {
        const r = last(requests, "GET", `/v4/advertisers/${p.advertiserId}/lineItems`);
        expect(r.query).toEqual({ filter: `insertionOrderId="${p.insertionOrderId}"`, pageSize: "100" });
      },
    },
  ],
  writes: [
    {
      op: "dv360.line_item.set_status",
      input: ({ p }) => ({ advertiser_id: p.advertiserId, line_item_id: p.lineItemId, status: "ENTITY_STATUS_PAUSED" }),
      summary: ({ p }) =>
        `Pause Display & Video 360 line item ${p.lineItemId} 'Prospecting — display' (now ENTITY_STATUS_ACTIVE) of advertiser ${p.advertiserId}.`,
      async check(result, ctx) {
        expect(result).toEqual({
          advertiser_id: ctx.p.advertiserId,
          line_item_id: ctx.p.lineItemId,
          name: "Prospecting — display",
          previous_status: "ENTITY_STATUS_ACTIVE",
          status: "ENTITY_STATUS_PAUSED",
        });
        const paused = await run(ctx, "dv360.line_items.list", {
          advertiser_id: ctx.p.advertiserId,
          status: "ENTITY_STATUS_PAUSED",
        });
        expect(paused.line_items.map((l: Json) => l.line_item_id)).toContain(ctx.p.lineItemId);
      },
      requests(requests, { p }) {
        const path = `/v4/advertisers/${p.advertiserId}/lineItems/${p.lineItemId}`;
        const r = last(requests, "PATCH", path);
        expect(r.query).toEqual({ updateMask: "entityStatus" });
        expect(r.json).toEqual({ entityStatus: "ENTITY_STATUS_PAUSED" });
        expect(r.headers["content-type"]).toBe("application/json");
        bearer(r);
        last(requests, "GET", path);
      },
      refusal: ({ p }) => ({
        input: { advertiser_id: p.advertiserId, line_item_id: "1", status: "ENTITY_STATUS_PAUSED" },
        says: ["NOT_FOUND", "Requested entity was not found"],
      }),
    },
  ],
  rateLimit: { op: "dv360.partners.list", input: () => ({}), says: RATE_LIMIT_WORDS },
  searches: [
    { ask: "pause a dv360 line item", first: "dv360.line_item.set_status" },
    { ask: "activate a display & video 360 line item", first: "dv360.line_item.set_status" },
    { ask: "list the advertisers of my dv360 partner", first: "dv360.advertisers.list" },
    { ask: "dv360 insertion orders", first: "dv360.insertion_orders.list" },
  ],
};

export const GOOGLE_MARKETING_CASES: PlatformCase[] = [merchant, businessProfile, youtube, dv360];
