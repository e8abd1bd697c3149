import { expect } from "@playwright/test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { metaStandInIds } from "../../support/stand-ins/meta";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";

// Meta's Graph API types against e2e/support/stand-ins/meta.ts (graph.facebook.com/v21.0): Facebook
// Pages, Instagram, WhatsApp Business (Cloud API) and the Meta Ads reads and writes added with them.
// Graph's throttling (HTTP 400/403 with a code, lifting after minutes) is reported, not retried at once.

const V = "/v21.0";
const PROOF = expect.stringMatching(/^[0-9a-f]{64}$/);
const USER_TOKEN = expect.stringMatching(/^Bearer at_[0-9a-f]+$/);
const PAGE_TOKEN = expect.stringMatching(/^Bearer EAAP[0-9a-f]+$/);

async function run(client: Client, connectionId: string, op: string, input: Json): Promise<Json> {
  const r = await client.callTool({
    name: "run_operation",
    arguments: { operation_id: op, connection_id: connectionId, input },
  });
  expect(r.isError, `${op}: ${JSON.stringify(r.content).slice(0, 500)}`).toBeFalsy();
  return r.structuredContent as Json;
}

/** The tokens the stand-in issued for the account (user and Page tokens): how a case tells its calls. */
async function tokensOf(account: string): Promise<string[]> {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").facebook_pages as string;
  const res = await fetch(`${base}/__meta/tokens?${new URLSearchParams({ account })}`);
  return ((await res.json()) as { tokens: string[] }).tokens;
}

const bearer = (r: Recorded) => String(r.headers.authorization ?? "").replace(/^Bearer /, "");
const byToken = (r: Recorded, { p }: RunContext) => (p.tokens as string[]).includes(bearer(r));
const calls = (requests: Recorded[]) => requests.map((r) => `${r.method} ${r.path}`);
const throttledAccount = (account: string) => account.startsWith("throttled");

const metaOAuth = (scopes: string[]) => ({
  provider: "META",
  authorizePath: `${V}/dialog/oauth`,
  pkce: false,
  scopes,
  accountName: (account: string) => account,
  refresh: false,
  expires: true,
});

export const facebookPages: PlatformCase = {
  type: "facebook_pages",
  name: "Facebook Pages",
  credentialFields: null,
  oauth: metaOAuth(["pages_show_list", "pages_read_engagement", "read_insights", "pages_manage_posts"]),
  // The Page comes from the Pages list, as an agent finds it (a throttled account's from the stand-in's IDs).
  async prepare({ client, connectionId, account }) {
    const tokens = await tokensOf(account);
    if (throttledAccount(account)) return { tokens, page: metaStandInIds(account).pages[0] };
    const listed = await run(client, connectionId, "facebook_pages.pages.list", {});
    return { tokens: await tokensOf(account), page: listed.pages[0].page_id };
  },
  mine: byToken,
  reads: [
    {
      op: "facebook_pages.pages.list",
      input: () => ({ limit: 10 }),
      check(result, { account, p }) {
        expect(result.pages).toHaveLength(2);
        expect(result.pages[0]).toEqual({
          page_id: p.page,
          name: `${account} Bakery`,
          category: "Bakery",
          followers_count: expect.any(Number),
          tasks: expect.arrayContaining(["CREATE_CONTENT", "ANALYZE"]),
        });
        expect(JSON.stringify(result), "no Page token in a result").not.toContain("EAAP");
      },
      requests(requests) {
        expect(calls(requests)).toEqual([`GET ${V}/me/accounts`]);
        expect(requests[0].query).toEqual({
          fields: "id,name,category,tasks,followers_count",
          limit: "10",
          appsecret_proof: PROOF,
        });
        expect(requests[0].headers).toMatchObject({ authorization: USER_TOKEN });
      },
    },
    {
      op: "facebook_pages.insights",
      input: ({ p }) => ({ page_id: p.page, period: "day", since: "2025-03-01", until: "2025-03-07" }),
      check(result, { account, p }) {
        expect(result).toMatchObject({
          page_id: p.page,
          page_name: `${account} Bakery`,
          since: "2025-03-01",
          until: "2025-03-07",
        });
        expect(result.metrics.map((m: Json) => m.name)).toEqual([
          "page_total_media_view_unique",
          "page_post_engagements",
          "page_follows",
        ]);
        expect(result.metrics[0].values).toHaveLength(6);
        expect(result.metrics[0].values[0]).toEqual({
          end_time: "2025-03-02T08:00:00+0000",
          value: expect.any(Number),
        });
      },
      requests(requests, { p }) {
        // The Page token is read with the user token, then the insights are read with it.
        expect(calls(requests)).toEqual([`GET ${V}/${p.page}`, `GET ${V}/${p.page}/insights`]);
        expect(requests[0].query).toEqual({ fields: "id,name,access_token", appsecret_proof: PROOF });
        expect(requests[0].headers).toMatchObject({ authorization: USER_TOKEN });
        expect(requests[1].query).toEqual({
          metric: "page_total_media_view_unique,page_post_engagements,page_follows",
          period: "day",
          since: "2025-03-01",
          until: "2025-03-07",
          appsecret_proof: PROOF,
        });
        expect(requests[1].headers).toMatchObject({ authorization: PAGE_TOKEN });
      },
    },
    {
      op: "facebook_pages.posts.list",
      input: ({ p }) => ({ page_id: p.page, limit: 2 }),
      check(result, { account, p }) {
        expect(result).toMatchObject({ page_id: p.page, page_name: `${account} Bakery`, has_more: true });
        expect(result.posts).toHaveLength(2);
        expect(result.posts[0]).toEqual({
          post_id: expect.stringMatching(new RegExp(`^${p.page}_\\d+$`)),
          message: `${account} Bakery update 1`,
          created_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
          permalink_url: expect.stringMatching(/^https:\/\/www\.facebook\.com\//),
          shares: 1,
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.page}`, `GET ${V}/${p.page}/posts`]);
        expect(requests[1].query).toEqual({
          fields: "id,message,created_time,permalink_url,shares",
          limit: "2",
          appsecret_proof: PROOF,
        });
        expect(requests[1].headers).toMatchObject({ authorization: PAGE_TOKEN });
      },
    },
  ],
  writes: [
    {
      op: "facebook_pages.post.create",
      input: ({ p, nonce }) => ({
        page_id: p.page,
        message: `Fresh loaves today ${nonce}`,
        link: "https://shop.example.com/sale",
      }),
      summary: ({ p, account, nonce }) =>
        `Publish a post on Facebook Page ${p.page} '${account} Bakery': "Fresh loaves today ${nonce}" with the link https://shop.example.com/sale`,
      check(result, { p, account }) {
        expect(result).toEqual({
          page_id: p.page,
          page_name: `${account} Bakery`,
          post_id: expect.stringMatching(new RegExp(`^${p.page}_\\d+$`)),
        });
      },
      requests(requests, { p, nonce }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.page}`, `POST ${V}/${p.page}/feed`]);
        const post = requests[1];
        expect(post.query).toEqual({ appsecret_proof: PROOF });
        expect(Object.fromEntries(new URLSearchParams(post.text))).toEqual({
          message: `Fresh loaves today ${nonce}`,
          link: "https://shop.example.com/sale",
        });
        expect(post.headers).toMatchObject({
          authorization: PAGE_TOKEN,
          "content-type": "application/x-www-form-urlencoded",
        });
      },
      refusal: () => ({
        input: { page_id: "999999999999999", message: "Hello" },
        says: ["Meta", "GraphMethodException", "does not exist"],
      }),
    },
  ],
  rateLimit: {
    op: "facebook_pages.posts.list",
    input: ({ p }) => ({ page_id: p.page }),
    says: ["Meta's rate limit was reached", "code 80001", "too many calls to this Page"],
    retried: false,
  },
  searches: [
    { ask: "publish a post on our facebook page", first: "facebook_pages.post.create" },
    { ask: "facebook page reach and engagement insights", first: "facebook_pages.insights" },
    { ask: "which facebook pages do I manage", first: "facebook_pages.pages.list" },
    { ask: "recent posts on my facebook page", first: "facebook_pages.posts.list" },
  ],
};

export const instagram: PlatformCase = {
  type: "instagram",
  name: "Instagram",
  credentialFields: null,
  oauth: metaOAuth([
    "instagram_basic",
    "instagram_manage_insights",
    "instagram_content_publish",
    "pages_show_list",
    "pages_read_engagement",
  ]),
  // The Instagram account and a media ID come from the lists, as an agent finds them.
  async prepare({ client, connectionId, account }) {
    const tokens = await tokensOf(account);
    if (throttledAccount(account)) return { tokens, ig: metaStandInIds(account).ig };
    const accounts = await run(client, connectionId, "instagram.accounts.list", {});
    const ig = accounts.accounts[0].ig_user_id;
    const media = await run(client, connectionId, "instagram.media.list", { ig_user_id: ig, limit: 1 });
    return { tokens, ig, media: media.media[0].media_id };
  },
  mine: byToken,
  reads: [
    {
      op: "instagram.accounts.list",
      // Not prepare's input: its answer is cached for 5 minutes.
      input: () => ({ limit: 10 }),
      check(result, { account, p }) {
        const ids = metaStandInIds(account);
        expect(result.accounts).toEqual([
          {
            ig_user_id: p.ig,
            username: ids.igUsername,
            name: `${account} Bakery`,
            followers_count: expect.any(Number),
            media_count: 3,
            page_id: ids.pages[0],
            page_name: `${account} Bakery`,
          },
        ]);
      },
      requests(requests) {
        expect(calls(requests)).toEqual([`GET ${V}/me/accounts`]);
        expect(requests[0].query).toEqual({
          fields: "id,name,instagram_business_account{id,username,name,followers_count,media_count}",
          limit: "10",
          appsecret_proof: PROOF,
        });
        expect(requests[0].headers).toMatchObject({ authorization: USER_TOKEN });
      },
    },
    {
      op: "instagram.insights",
      input: ({ p }) => ({ ig_user_id: p.ig, metrics: ["reach", "views"], since: "2025-03-01", until: "2025-03-07" }),
      check(result, { p }) {
        expect(result).toMatchObject({ ig_user_id: p.ig, since: "2025-03-01", until: "2025-03-07" });
        expect(result.metrics).toEqual([
          { name: "reach", title: "reach", period: "day", total_value: expect.any(Number) },
          { name: "views", title: "views", period: "day", total_value: expect.any(Number) },
        ]);
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ig}/insights`]);
        expect(requests[0].query).toEqual({
          metric: "reach,views",
          period: "day",
          metric_type: "total_value",
          since: String(Date.parse("2025-03-01T00:00:00Z") / 1000),
          until: String(Date.parse("2025-03-08T00:00:00Z") / 1000),
          appsecret_proof: PROOF,
        });
        expect(requests[0].headers).toMatchObject({ authorization: USER_TOKEN });
      },
    },
    {
      op: "instagram.media.list",
      input: ({ p }) => ({ ig_user_id: p.ig, limit: 5 }),
      check(result, { p }) {
        expect(result).toMatchObject({ ig_user_id: p.ig, has_more: false });
        expect(result.media).toHaveLength(3);
        expect(result.media[0]).toEqual({
          media_id: p.media,
          caption: "Fresh from the oven #1",
          media_type: "IMAGE",
          media_product_type: "FEED",
          permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\//),
          timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          like_count: 10,
          comments_count: 1,
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ig}/media`]);
        expect(requests[0].query).toEqual({
          fields: "id,caption,media_type,media_product_type,permalink,timestamp,like_count,comments_count",
          limit: "5",
          appsecret_proof: PROOF,
        });
      },
    },
    {
      op: "instagram.media.insights",
      input: ({ p }) => ({ media_id: p.media }),
      check(result, { p }) {
        expect(result).toEqual({
          media_id: p.media,
          metrics: {
            reach: expect.any(Number),
            views: expect.any(Number),
            likes: expect.any(Number),
            comments: expect.any(Number),
            saved: expect.any(Number),
            shares: expect.any(Number),
            total_interactions: expect.any(Number),
          },
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.media}/insights`]);
        expect(requests[0].query).toEqual({
          metric: "reach,views,likes,comments,saved,shares,total_interactions",
          appsecret_proof: PROOF,
        });
      },
    },
  ],
  writes: [
    {
      op: "instagram.media.publish",
      input: ({ p, nonce }) => ({
        ig_user_id: p.ig,
        image_url: "https://cdn.example.com/p/summer.jpg",
        caption: `Summer bakes ${nonce}`,
      }),
      summary: ({ p, account, nonce }) =>
        `Publish the photo https://cdn.example.com/p/summer.jpg on Instagram account ${p.ig} @${metaStandInIds(account).igUsername} with the caption "Summer bakes ${nonce}"`,
      check(result, { p }) {
        expect(result).toEqual({
          ig_user_id: p.ig,
          container_id: expect.stringMatching(/^178\d{14}$/),
          media_id: expect.stringMatching(/^179\d{14}$/),
        });
      },
      requests(requests, { p, nonce }) {
        expect(calls(requests)).toEqual([
          `POST ${V}/${p.ig}/media`,
          expect.stringMatching(new RegExp(`^GET ${V}/178\\d{14}$`)),
          `POST ${V}/${p.ig}/media_publish`,
        ]);
        const [create, status, publish] = requests;
        expect(Object.fromEntries(new URLSearchParams(create.text))).toEqual({
          image_url: "https://cdn.example.com/p/summer.jpg",
          caption: `Summer bakes ${nonce}`,
        });
        expect(status.query).toEqual({ fields: "status_code,status", appsecret_proof: PROOF });
        expect(Object.fromEntries(new URLSearchParams(publish.text))).toEqual({
          creation_id: status.path.split("/").at(-1),
        });
        for (const r of requests) expect(r.headers).toMatchObject({ authorization: USER_TOKEN });
      },
      refusal: ({ p }) => ({
        input: { ig_user_id: p.ig, image_url: "https://cdn.example.com/p/animation.gif", caption: "x" },
        says: ["Meta", "code 9004", "Only photo or video can be accepted as media type"],
      }),
    },
  ],
  rateLimit: {
    op: "instagram.media.list",
    input: ({ p }) => ({ ig_user_id: p.ig }),
    says: ["Meta's rate limit was reached", "code 80002", "too many calls to this Instagram account"],
    retried: false,
  },
  searches: [
    { ask: "post this photo to instagram", first: "instagram.media.publish" },
    { ask: "instagram account reach and views this week", first: "instagram.insights" },
    { ask: "latest instagram posts with likes and comments", first: "instagram.media.list" },
    { ask: "how many saves and shares did this instagram post get", first: "instagram.media.insights" },
    { ask: "which instagram business accounts are connected", first: "instagram.accounts.list" },
  ],
};

export const whatsapp: PlatformCase = {
  type: "whatsapp",
  name: "WhatsApp Business",
  credentialFields: ["access_token", "phone_number_id"],
  manual: {
    good: (account) => ({ access_token: `EAAW${account}`, phone_number_id: metaStandInIds(account).phoneNumberId }),
    refused: (account) => ({
      credentials: { access_token: "bad-expired", phone_number_id: metaStandInIds(account).phoneNumberId },
      says: ["Meta", "code 190", "Session has expired"],
    }),
  },
  prepare: async ({ account }) => ({ ids: metaStandInIds(account) }),
  mine: (r, { account }) => r.headers.authorization === `Bearer EAAW${account}`,
  reads: [
    {
      op: "whatsapp.phone_number.get",
      input: () => ({}),
      check(result, { account, p }) {
        expect(result).toEqual({
          phone_number_id: p.ids.phoneNumberId,
          display_phone_number: p.ids.displayPhone,
          verified_name: `${account} Support`,
          quality_rating: "GREEN",
          messaging_limit_tier: "TIER_1K",
          name_status: "APPROVED",
          code_verification_status: "VERIFIED",
          platform_type: "CLOUD_API",
          throughput_level: "STANDARD",
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ids.phoneNumberId}`]);
        expect(requests[0].query).toEqual({
          fields:
            "id,display_phone_number,verified_name,quality_rating,code_verification_status,name_status,messaging_limit_tier,platform_type,throughput",
        });
      },
    },
    {
      op: "whatsapp.business_profile.get",
      input: () => ({}),
      check(result, { p }) {
        expect(result).toEqual({
          phone_number_id: p.ids.phoneNumberId,
          about: "Fresh bread every morning",
          address: "1 Hacker Way, Menlo Park, CA 94025",
          description: expect.any(String),
          email: "support@example.com",
          websites: ["https://www.example.com/"],
          vertical: "RETAIL",
          profile_picture_url: expect.stringMatching(/^https:\/\//),
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ids.phoneNumberId}/whatsapp_business_profile`]);
        expect(requests[0].query).toEqual({
          fields: "about,address,description,email,profile_picture_url,websites,vertical",
        });
      },
    },
    {
      op: "whatsapp.templates.list",
      input: ({ p }) => ({ waba_id: p.ids.wabaId, status: "APPROVED" }),
      check(result, { p }) {
        expect(result).toMatchObject({ waba_id: p.ids.wabaId, has_more: false });
        expect(result.templates.map((t: Json) => t.name)).toEqual(["order_update", "hello_world"]);
        expect(result.templates[0]).toEqual({
          template_id: expect.stringMatching(/^\d{15}$/),
          name: "order_update",
          language: "en_US",
          status: "APPROVED",
          category: "UTILITY",
          components: [{ type: "BODY", text: "Hi {{1}}, your order {{2}} has shipped." }],
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ids.wabaId}/message_templates`]);
        expect(requests[0].query).toEqual({
          fields: "id,name,language,status,category,components",
          limit: "50",
          status: "APPROVED",
        });
      },
    },
  ],
  writes: [
    {
      op: "whatsapp.template.send",
      input: ({ nonce }) => ({
        to: "+15551234567",
        template_name: "order_update",
        language_code: "en_US",
        body_parameters: ["Ada", `#${nonce}`],
      }),
      summary: ({ account, nonce }) =>
        `Send the WhatsApp template 'order_update' (en_US) with "Ada", "#${nonce}" to +15551234567 from '${account} Support' ${metaStandInIds(account).displayPhone}`,
      check(result, { p }) {
        expect(result).toEqual({
          phone_number_id: p.ids.phoneNumberId,
          to: "+15551234567",
          wa_id: "15551234567",
          message_id: expect.stringMatching(/^wamid\./),
          message_status: "accepted",
        });
      },
      requests(requests, { p, nonce }) {
        expect(calls(requests)).toEqual([`POST ${V}/${p.ids.phoneNumberId}/messages`]);
        expect(requests[0].query).toEqual({});
        expect(requests[0].headers).toMatchObject({ "content-type": "application/json" });
        expect(requests[0].json).toEqual({
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: "15551234567",
          type: "template",
          template: {
            name: "order_update",
            language: { code: "en_US" },
            components: [
              {
                type: "body",
                parameters: [
                  { type: "text", text: "Ada" },
                  { type: "text", text: `#${nonce}` },
                ],
              },
            ],
          },
        });
      },
      refusal: () => ({
        input: { to: "+15551234567", template_name: "no_such_template", language_code: "en_US" },
        says: ["Meta", "132001", "Template name does not exist in the translation"],
      }),
    },
  ],
  rateLimit: {
    op: "whatsapp.business_profile.get",
    input: () => ({}),
    says: ["Meta's rate limit was reached", "code 80008", "WhatsApp Business account"],
    retried: false,
  },
  searches: [
    { ask: "send a whatsapp template message to a customer", first: "whatsapp.template.send" },
    { ask: "whatsapp phone number quality rating", first: "whatsapp.phone_number.get" },
    { ask: "list our whatsapp message templates", first: "whatsapp.templates.list" },
    { ask: "whatsapp business profile address and website", first: "whatsapp.business_profile.get" },
  ],
};

export const metaAds: PlatformCase = {
  type: "meta_ads",
  name: "Meta Ads",
  credentialFields: ["app_id", "app_secret", "access_token"],
  oauth: metaOAuth(["ads_read", "ads_management", "business_management"]),
  manual: {
    good: (account) => ({ app_id: "1234567890123456", app_secret: "meta-app-secret", access_token: `EAAS${account}` }),
    refused: () => ({
      credentials: { app_id: "1234567890123456", app_secret: "meta-app-secret", access_token: "bad-expired" },
      says: ["Meta", "code 190", "Session has expired"],
    }),
  },
  // The ad account and an ad come from the lists, as an agent finds them.
  async prepare({ client, connectionId, account }) {
    const tokens = await tokensOf(account);
    if (throttledAccount(account)) return { tokens, account: metaStandInIds(account).adAccounts[0] };
    const accounts = await run(client, connectionId, "meta_ads.list_ad_accounts", {});
    const ad_account = accounts.ad_accounts[0].ad_account_id;
    const ads = await run(client, connectionId, "meta_ads.ads.list", { ad_account_id: ad_account });
    return { tokens, account: ad_account, ad: ads.ads[0].ad_id, campaign: ads.ads[0].campaign_id };
  },
  mine: byToken,
  reads: [
    {
      op: "meta_ads.campaigns.list",
      input: ({ p }) => ({ ad_account_id: `act_${p.account}` }),
      check(result, { p }) {
        expect(result).toMatchObject({ ad_account_id: p.account, currency: "USD", has_more: false });
        expect(result.campaigns).toHaveLength(3);
        expect(result.campaigns[0]).toEqual({
          campaign_id: p.campaign,
          name: "Brand — US",
          status: "ACTIVE",
          effective_status: "ACTIVE",
          objective: "OUTCOME_AWARENESS",
          daily_budget: 50,
          lifetime_budget: null,
        });
        expect(result.campaigns[1]).toMatchObject({ name: "Prospecting — EU", daily_budget: null });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/act_${p.account}`, `GET ${V}/act_${p.account}/campaigns`]);
        expect(requests[0].query).toEqual({ fields: "currency", appsecret_proof: PROOF });
        expect(requests[1].query).toEqual({
          fields: "id,name,status,effective_status,objective,daily_budget,lifetime_budget",
          limit: "50",
          appsecret_proof: PROOF,
        });
        expect(requests[1].headers).toMatchObject({ authorization: USER_TOKEN });
      },
    },
    {
      op: "meta_ads.ads.list",
      input: ({ p }) => ({ ad_account_id: p.account, limit: 10 }),
      check(result, { p }) {
        expect(result.ads).toHaveLength(4);
        expect(result.ads[0]).toEqual({
          ad_id: p.ad,
          name: "Brand — US — Broad — Ad",
          status: "ACTIVE",
          effective_status: "ACTIVE",
          adset_id: expect.stringMatching(/^\d{17}$/),
          campaign_id: p.campaign,
          creative_id: expect.stringMatching(/^\d{17}$/),
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/act_${p.account}/ads`]);
        expect(requests[0].query).toEqual({
          fields: "id,name,status,effective_status,adset_id,campaign_id,creative",
          limit: "10",
          appsecret_proof: PROOF,
        });
      },
    },
    {
      op: "meta_ads.creatives.list",
      input: ({ p }) => ({ ad_id: p.ad }),
      check(result, { p }) {
        expect(result).toMatchObject({ ad_id: p.ad, has_more: false });
        expect(result.creatives).toEqual([
          {
            creative_id: expect.stringMatching(/^\d{17}$/),
            name: "Brand — US — Broad — Creative",
            status: "ACTIVE",
            object_type: "SHARE",
            title: "Brand offer",
            body: "Shop the Brand collection today.",
            call_to_action_type: "SHOP_NOW",
            link_url: "https://shop.example.com/collection",
            image_url: expect.stringMatching(/^https:\/\//),
            thumbnail_url: expect.stringMatching(/^https:\/\//),
          },
        ]);
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ad}/adcreatives`]);
        expect(requests[0].query).toEqual({
          fields: "id,name,status,object_type,title,body,call_to_action_type,link_url,image_url,thumbnail_url",
          limit: "25",
          appsecret_proof: PROOF,
        });
      },
    },
    {
      op: "meta_ads.insights",
      input: ({ p }) => ({ ad_account_id: p.account, level: "ad", date_preset: "last_7d", fields: ["impressions"] }),
      check(result) {
        expect(result.rows).toHaveLength(4);
        expect(result.rows[0]).toMatchObject({ ad_name: "Brand — US — Broad — Ad", impressions: expect.any(Number) });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/act_${p.account}/insights`]);
        expect(requests[0].query).toMatchObject({ level: "ad", fields: "ad_id,ad_name,impressions" });
      },
    },
  ],
  writes: [
    {
      op: "meta_ads.ad.pause",
      input: ({ p }) => ({ ad_id: p.ad }),
      summary: ({ p }) => `Pause Meta ad ${p.ad} 'Brand — US — Broad — Ad' in ad account ${p.account} (now ACTIVE)`,
      check(result, { p }) {
        expect(result).toEqual({
          ad_id: p.ad,
          name: "Brand — US — Broad — Ad",
          previous_status: "ACTIVE",
          status: "PAUSED",
          success: true,
        });
      },
      requests(requests, { p }) {
        expect(calls(requests)).toEqual([`GET ${V}/${p.ad}`, `POST ${V}/${p.ad}`]);
        expect(requests[0].query).toEqual({
          fields: "name,status,effective_status,account_id,creative",
          appsecret_proof: PROOF,
        });
        expect(requests[1].query).toEqual({ appsecret_proof: PROOF });
        expect(requests[1].text).toBe("status=PAUSED");
        expect(requests[1].headers).toMatchObject({
          authorization: USER_TOKEN,
          "content-type": "application/x-www-form-urlencoded",
        });
      },
      refusal: ({ p }) => ({ input: { ad_id: p.campaign }, says: ["is not a Meta ad ID", "Campaign"] }),
    },
  ],
  rateLimit: {
    op: "meta_ads.campaigns.list",
    input: ({ p }) => ({ ad_account_id: p.account }),
    says: ["Meta's rate limit was reached", "code 80004", "too many calls to this ad-account"],
    retried: false,
  },
  searches: [
    { ask: "pause this facebook ad", first: "meta_ads.ad.pause" },
    { ask: "list meta campaigns with their budgets", first: "meta_ads.campaigns.list" },
    { ask: "show the ad creatives of our meta ad account", first: "meta_ads.creatives.list" },
    { ask: "list all ads in the meta ad account", first: "meta_ads.ads.list" },
  ],
};
