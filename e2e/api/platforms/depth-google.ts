import { createHash } from "node:crypto";
import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";
import { adsCustomerOf } from "../../support/stand-ins/google";

// The week-to-week operations of Google Ads, GA4 and Search Console against
// e2e/support/stand-ins/google.ts and google-depth.ts (Google's REST wire format).

/** The stand-in's ids: the first digits of sha256(seed), as google.ts derives them. */
const digits = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(n, "1")
    .slice(0, n);
const dashed = (id: string) => `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}`;

const BEARER = { authorization: expect.stringMatching(/^Bearer at_[0-9a-f]+$/) };
const ADS_HEADERS = { ...BEARER, "developer-token": "test-developer-token", "content-type": "application/json" };

async function run(ctx: Omit<RunContext, "p">, operation_id: string, input: Json): Promise<Json | undefined> {
  const r = await ctx.client.callTool({
    name: "run_operation",
    arguments: { operation_id, connection_id: ctx.connectionId, input },
  });
  return r.structuredContent as Json | undefined;
}

const googleOAuth = (scope: string) => ({
  provider: "GOOGLE",
  authorizePath: "/o/oauth2/v2/auth",
  pkce: true,
  scopes: ["openid", "email", scope],
  accountName: (account: string) => `${account}@example.com`,
  refresh: true,
});

/** White-label credentials: any client, the refresh token `rt_<account>` names the account. */
const whiteLabel = (extra: Record<string, string> = {}) => ({
  good: (account: string) => ({
    client_id: `client-${account}.apps.googleusercontent.com`,
    client_secret: "GOCSPX-secret",
    refresh_token: `rt_${account}`,
    ...extra,
  }),
  refused: (account: string) => ({
    credentials: {
      client_id: `client-${account}.apps.googleusercontent.com`,
      client_secret: "GOCSPX-secret",
      refresh_token: "bad_revoked",
      ...extra,
    },
    says: ["Google", "invalid_grant", "Token has been expired or revoked"],
  }),
});

const searchBody = (requests: Recorded[]) =>
  requests.filter((r) => r.path.endsWith("/googleAds:search")).map((r) => String(r.json?.query ?? ""));

export const googleAdsDepth: PlatformCase = {
  type: "gads",
  name: "Google Ads",
  credentialFields: ["client_id", "client_secret", "refresh_token", "developer_token"],
  oauth: googleOAuth("https://www.googleapis.com/auth/adwords"),
  manual: whiteLabel({ developer_token: "dev-token-123" }),
  // The customer comes from the accessible customers, as an agent finds it; campaigns and ad groups
  // are the stand-in's (Brand — US first, its ad groups Core terms and Long tail).
  async prepare(ctx) {
    const listed = await run(ctx, "google_ads.list_customers", {});
    const customer = String(listed?.customer_ids?.[0] ?? adsCustomerOf(ctx.account));
    return {
      customer,
      campaign: digits(`${customer}/campaign/0`, 11),
      adGroup: digits(`${customer}/adGroup/0/0`, 11),
      otherAdGroup: digits(`${customer}/adGroup/2/1`, 11),
      // A customer reached only through a manager (the stand-in refuses 999…), unique to the test.
      denied: `999${(parseInt(ctx.nonce, 16) % 10_000_000).toString().padStart(7, "0")}`,
    };
  },
  mine: (r, { p }) =>
    r.path.startsWith("/v18/customers/") && (r.path.includes(`/${p.customer}/`) || r.path.includes(`/${p.denied}/`)),
  readsByPost: (r) => r.path.endsWith("/googleAds:search"),
  reads: [
    {
      op: "google_ads.search_terms.report",
      input: ({ p }) => ({
        customer_id: dashed(p.customer),
        start_date: "2025-01-01",
        end_date: "2025-01-31",
        limit: 5,
      }),
      check(result, { p }) {
        expect(result).toMatchObject({
          customer_id: p.customer,
          date_range: { start_date: "2025-01-01", end_date: "2025-01-31" },
        });
        expect(result.search_terms).toHaveLength(5);
        expect(result.search_terms[0]).toEqual({
          search_term: expect.stringMatching(/running shoes/),
          status: "NONE",
          campaign_id: expect.stringMatching(/^\d{11}$/),
          campaign_name: expect.any(String),
          ad_group_id: expect.stringMatching(/^\d{11}$/),
          ad_group_name: expect.stringMatching(/^(Core terms|Long tail)$/),
          impressions: expect.any(Number),
          clicks: expect.any(Number),
          ctr: expect.any(Number),
          cost: expect.any(Number),
          conversions: expect.any(Number),
        });
        const impressions = result.search_terms.map((t: Json) => t.impressions);
        expect(impressions).toEqual([...impressions].sort((a, z) => z - a));
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v18/customers/${p.customer}/googleAds:search`,
        ]);
        expect(requests[0].json).toEqual({
          query:
            "SELECT search_term_view.search_term, search_term_view.status, campaign.id, campaign.name, ad_group.id, ad_group.name, " +
            "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM search_term_view " +
            "WHERE segments.date BETWEEN '2025-01-01' AND '2025-01-31' ORDER BY metrics.impressions DESC LIMIT 5",
        });
        expect(requests[0].headers).toMatchObject(ADS_HEADERS);
      },
    },
    {
      op: "google_ads.keywords.report",
      input: ({ p }) => ({
        customer_id: p.customer,
        campaign_id: p.campaign,
        start_date: "2025-02-01",
        end_date: "2025-02-28",
      }),
      check(result, { p }) {
        expect(result.keywords).toHaveLength(4);
        for (const k of result.keywords)
          expect(k).toEqual({
            criterion_id: expect.stringMatching(/^\d{12}$/),
            keyword: expect.stringMatching(/running shoes/),
            match_type: expect.stringMatching(/^(BROAD|PHRASE)$/),
            status: "ENABLED",
            quality_score: expect.any(Number),
            campaign_id: p.campaign,
            campaign_name: "Brand — US",
            ad_group_id: expect.stringMatching(/^\d{11}$/),
            ad_group_name: expect.stringMatching(/^(Core terms|Long tail)$/),
            impressions: expect.any(Number),
            clicks: expect.any(Number),
            ctr: expect.any(Number),
            cost: expect.any(Number),
            conversions: expect.any(Number),
          });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v18/customers/${p.customer}/googleAds:search`,
        ]);
        expect(requests[0].json?.query).toBe(
          "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, " +
            "ad_group_criterion.status, ad_group_criterion.quality_info.quality_score, campaign.id, campaign.name, ad_group.id, ad_group.name, " +
            "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM keyword_view " +
            `WHERE segments.date BETWEEN '2025-02-01' AND '2025-02-28' AND campaign.id = ${p.campaign} ORDER BY metrics.clicks DESC LIMIT 100`,
        );
        expect(requests[0].headers).toMatchObject(ADS_HEADERS);
      },
    },
  ],
  writes: [
    {
      op: "google_ads.campaign.negative_keywords.add",
      input: ({ p }) => ({ customer_id: p.customer, campaign_id: p.campaign, keywords: ["free", "jobs"] }),
      summary: ({ p }) =>
        `Add 2 phrase-match negative keywords ("free", "jobs") to Google Ads campaign ${p.campaign} 'Brand — US' in account ${dashed(p.customer)}`,
      async check(result, ctx) {
        const { p } = ctx;
        expect(result).toEqual({
          customer_id: p.customer,
          campaign_id: p.campaign,
          added: ["free", "jobs"].map((keyword) => ({
            resource_name: expect.stringMatching(
              new RegExp(`^customers/${p.customer}/campaignCriteria/${p.campaign}~\\d+$`),
            ),
            criterion_id: expect.stringMatching(/^\d+$/),
            keyword,
            match_type: "PHRASE",
          })),
        });
        // The search terms report now reads the matching terms of that campaign as excluded.
        const report = await run(ctx, "google_ads.search_terms.report", {
          customer_id: p.customer,
          campaign_id: p.campaign,
          start_date: "2025-03-01",
          end_date: "2025-03-31",
        });
        const excluded = (report?.search_terms as Json[])
          .filter((t) => t.status === "EXCLUDED")
          .map((t) => t.search_term);
        expect(new Set(excluded)).toEqual(new Set(["free running shoes", "running shoes jobs"]));
      },
      requests(requests, { p }) {
        // Reads (the campaign for the approval, the report after) aside, the criteria are created once.
        expect(searchBody(requests).length).toBeGreaterThan(0);
        const writes = requests.filter((r) => !r.path.endsWith("/googleAds:search"));
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v18/customers/${p.customer}/campaignCriteria:mutate`,
        ]);
        expect(writes[0].json).toEqual({
          operations: ["free", "jobs"].map((text) => ({
            create: {
              campaign: `customers/${p.customer}/campaigns/${p.campaign}`,
              negative: true,
              keyword: { text, matchType: "PHRASE" },
            },
          })),
          responseContentType: "MUTABLE_RESOURCE",
        });
        expect(writes[0].headers).toMatchObject(ADS_HEADERS);
      },
      refusal: ({ p }) => ({
        input: { customer_id: p.denied, campaign_id: p.campaign, keywords: ["free"] },
        says: ["Google", "USER_PERMISSION_DENIED", "login-customer-id"],
      }),
    },
    {
      op: "google_ads.ad_group.pause",
      input: ({ p }) => ({ customer_id: p.customer, ad_group_id: p.adGroup }),
      summary: ({ p }) =>
        `Pause Google Ads ad group ${p.adGroup} 'Core terms' of campaign 'Brand — US' in account ${dashed(p.customer)} (now ENABLED)`,
      async check(result, ctx) {
        const { p } = ctx;
        expect(result).toEqual({
          customer_id: p.customer,
          ad_group_id: p.adGroup,
          resource_name: `customers/${p.customer}/adGroups/${p.adGroup}`,
          name: "Core terms",
          status: "PAUSED",
        });
        const seen = await run(ctx, "google_ads.search", {
          customer_id: p.customer,
          query: `SELECT ad_group.id, ad_group.status FROM ad_group WHERE ad_group.id = ${p.adGroup}`,
        });
        expect(seen?.rows).toEqual([{ "adGroup.id": p.adGroup, "adGroup.status": "PAUSED" }]);
      },
      requests(requests, { p }) {
        expect(searchBody(requests)).toContain(
          `SELECT ad_group.id, ad_group.status FROM ad_group WHERE ad_group.id = ${p.adGroup} LIMIT 100`,
        );
        const writes = requests.filter((r) => !r.path.endsWith("/googleAds:search"));
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v18/customers/${p.customer}/adGroups:mutate`,
        ]);
        expect(writes[0].json).toEqual({
          operations: [
            {
              updateMask: "status",
              update: { resourceName: `customers/${p.customer}/adGroups/${p.adGroup}`, status: "PAUSED" },
            },
          ],
          responseContentType: "MUTABLE_RESOURCE",
        });
        expect(writes[0].headers).toMatchObject(ADS_HEADERS);
      },
      refusal: ({ p }) => ({
        input: { customer_id: p.customer, ad_group_id: "77" },
        says: ["Google", "RESOURCE_NOT_FOUND", "Resource was not found."],
      }),
    },
    {
      op: "google_ads.ad_group.enable",
      input: ({ p }) => ({ customer_id: p.customer, ad_group_id: p.otherAdGroup }),
      summary: ({ p }) =>
        `Enable Google Ads ad group ${p.otherAdGroup} 'Long tail' of campaign 'Display — Remarketing' in account ${dashed(p.customer)} (now ENABLED)`,
      check(result, { p }) {
        expect(result).toEqual({
          customer_id: p.customer,
          ad_group_id: p.otherAdGroup,
          resource_name: `customers/${p.customer}/adGroups/${p.otherAdGroup}`,
          name: "Long tail",
          status: "ENABLED",
        });
      },
      requests(requests, { p }) {
        const writes = requests.filter((r) => !r.path.endsWith("/googleAds:search"));
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v18/customers/${p.customer}/adGroups:mutate`,
        ]);
        expect(writes[0].json?.operations?.[0]).toEqual({
          updateMask: "status",
          update: { resourceName: `customers/${p.customer}/adGroups/${p.otherAdGroup}`, status: "ENABLED" },
        });
      },
      refusal: ({ p }) => ({
        input: { customer_id: p.denied, ad_group_id: p.otherAdGroup },
        says: ["Google", "USER_PERMISSION_DENIED"],
      }),
    },
  ],
  rateLimit: {
    op: "google_ads.keywords.report",
    input: ({ p }) => ({ customer_id: p.customer }),
    says: ["Google's rate limit was reached", "RESOURCE_EXHAUSTED", "wait 60 s"],
  },
  searches: [
    { ask: "show me the search terms report for google ads", first: "google_ads.search_terms.report" },
    { ask: "which search queries triggered my google ads", first: "google_ads.search_terms.report" },
    { ask: "add negative keywords to my google ads campaign", first: "google_ads.campaign.negative_keywords.add" },
    { ask: "google ads keyword performance and quality score", first: "google_ads.keywords.report" },
    { ask: "pause an ad group in google ads", first: "google_ads.ad_group.pause" },
    { ask: "enable the paused google ads ad group", first: "google_ads.ad_group.enable" },
  ],
};

export const ga4Depth: PlatformCase = {
  type: "ga4",
  name: "Google Analytics 4",
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  oauth: googleOAuth("https://www.googleapis.com/auth/analytics.readonly"),
  manual: whiteLabel(),
  async prepare(ctx) {
    const listed = await run(ctx, "ga4.list_properties", {});
    return {
      property: String(listed?.accounts?.[0]?.properties?.[0]?.property_id ?? digits(`gap:${ctx.account}`, 9)),
    };
  },
  mine: (r, { p }) => r.path.startsWith(`/v1beta/properties/${p.property}`),
  reads: [
    {
      op: "ga4.realtime_report",
      input: ({ p }) => ({ property_id: p.property, dimensions: ["country"] }),
      check(result, { p }) {
        expect(result).toMatchObject({ property_id: p.property, minutes: 30, row_count: 3 });
        expect(result.rows.map((r: Json) => r.country)).toEqual(["United States", "Germany", "India"]);
        expect(result.rows[0]).toEqual({ country: "United States", activeUsers: expect.any(Number) });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
          `POST /v1beta/properties/${p.property}:runRealtimeReport`,
        ]);
        expect(requests[0].json).toEqual({
          dimensions: [{ name: "country" }],
          metrics: [{ name: "activeUsers" }],
          minuteRanges: [{ startMinutesAgo: 29, endMinutesAgo: 0 }],
          limit: 50,
        });
        expect(requests[0].headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
      },
    },
    {
      op: "ga4.metadata",
      input: ({ p }) => ({ property_id: `properties/${p.property}`, search: "revenue" }),
      check(result, { p }) {
        expect(result).toEqual({
          property_id: p.property,
          dimensions: [],
          metrics: [
            {
              api_name: "totalRevenue",
              name: "Total revenue",
              category: "Revenue",
              description: expect.stringContaining("revenue"),
              custom: false,
              type: "TYPE_CURRENCY",
            },
          ],
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1beta/properties/${p.property}/metadata`]);
        expect(requests[0].query).toEqual({});
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
  ],
  writes: [],
  rateLimit: {
    op: "ga4.realtime_report",
    input: ({ p }) => ({ property_id: p.property }),
    says: ["Google's rate limit was reached", "RESOURCE_EXHAUSTED"],
  },
  searches: [
    { ask: "how many people are on the website right now", first: "ga4.realtime_report" },
    { ask: "google analytics realtime active users", first: "ga4.realtime_report" },
    { ask: "which dimensions and metrics can I use in google analytics", first: "ga4.metadata" },
  ],
};

export const gscDepth: PlatformCase = {
  type: "gsc",
  name: "Google Search Console",
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  oauth: googleOAuth("https://www.googleapis.com/auth/webmasters.readonly"),
  manual: whiteLabel(),
  async prepare(ctx) {
    const listed = await run(ctx, "search_console.list_sites", {});
    const site = String(listed?.sites?.[0]?.site_url ?? `sc-domain:${ctx.account.replace(/_/g, "-")}.example.com`);
    return { site, domain: site.replace(/^sc-domain:/, "") };
  },
  mine: (r, { p }) =>
    r.path === `/webmasters/v3/sites/${p.site}/sitemaps` ||
    (r.path === "/v1/urlInspection/index:inspect" && r.json?.siteUrl === p.site),
  reads: [
    {
      op: "search_console.url_inspection",
      input: ({ p }) => ({ site_url: p.site, url: `https://www.${p.domain}/pricing` }),
      check(result, { p }) {
        expect(result).toEqual({
          site_url: p.site,
          url: `https://www.${p.domain}/pricing`,
          verdict: "PASS",
          coverage_state: "Submitted and indexed",
          indexing_state: "INDEXING_ALLOWED",
          robots_txt_state: "ALLOWED",
          page_fetch_state: "SUCCESSFUL",
          last_crawl_time: expect.any(String),
          crawled_as: "MOBILE",
          google_canonical: `https://www.${p.domain}/pricing`,
          user_canonical: `https://www.${p.domain}/pricing`,
          sitemaps: [`https://www.${p.domain}/sitemap.xml`],
          referring_urls: [`https://www.${p.domain}/`],
          mobile_usability_verdict: "PASS",
          rich_results_verdict: "PASS",
          inspection_link: expect.stringMatching(/^https:\/\/search\.google\.com\/search-console\/inspect\?/),
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/urlInspection/index:inspect"]);
        expect(requests[0].json).toEqual({
          inspectionUrl: `https://www.${p.domain}/pricing`,
          siteUrl: p.site,
          languageCode: "en-US",
        });
        expect(requests[0].headers).toMatchObject({ ...BEARER, "content-type": "application/json" });
      },
    },
    {
      op: "search_console.sitemaps.list",
      input: ({ p }) => ({ site_url: p.site }),
      check(result, { p }) {
        expect(result.site_url).toBe(p.site);
        expect(result.sitemaps).toEqual([
          {
            path: `https://www.${p.domain}/sitemap.xml`,
            type: "sitemap",
            last_submitted: "2025-01-02T10:00:00.000Z",
            last_downloaded: "2025-01-30T03:12:00.000Z",
            is_pending: false,
            is_index: true,
            errors: 0,
            warnings: 0,
            contents: [{ type: "web", submitted: 42 }],
          },
          {
            path: `https://www.${p.domain}/post-sitemap.xml`,
            type: "sitemap",
            last_submitted: "2025-01-05T10:00:00.000Z",
            last_downloaded: null,
            is_pending: true,
            is_index: false,
            errors: 1,
            warnings: 2,
            contents: [{ type: "web", submitted: 17 }],
          },
        ]);
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /webmasters/v3/sites/${p.site}/sitemaps`]);
        expect(requests[0].headers).toMatchObject(BEARER);
      },
    },
  ],
  writes: [],
  rateLimit: {
    op: "search_console.url_inspection",
    input: ({ p }) => ({ site_url: p.site, url: `https://${p.domain}/` }),
    says: ["Google's rate limit was reached", "RESOURCE_EXHAUSTED"],
  },
  searches: [
    { ask: "is this page indexed by google", first: "search_console.url_inspection" },
    { ask: "inspect a url in search console", first: "search_console.url_inspection" },
    { ask: "list the sitemaps submitted for my site", first: "search_console.sitemaps.list" },
  ],
};
