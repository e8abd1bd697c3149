import "server-only";
import { z } from "zod";
import { googleAccessToken, googleApiCall, isObject, listOf } from "@/lib/platforms/google/google-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { chosenColumnRows } from "@/lib/platforms/kit/output-parts";

// Google Analytics 4 realtime and metadata (Data API) and Search Console's URL inspection and
// sitemaps: the reads beside the reports of google-operations.ts.

const GA4_DATA_API = "https://analyticsdata.googleapis.com/v1beta";
const SEARCH_CONSOLE_API = "https://www.googleapis.com/webmasters/v3";
const URL_INSPECTION_API = "https://searchconsole.googleapis.com/v1";

type Json = Record<string, unknown>;

const propertyId = z
  .string()
  .regex(/^(properties\/)?\d+$/, "must be a numeric GA4 property ID")
  .transform((v) => v.replace(/^properties\//, ""))
  .describe("The GA4 property ID, e.g. 123456789 (properties/123456789 is accepted).");
const ga4Name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_:]*$/, "is not a GA4 dimension or metric name")
  .max(100);
const siteUrl = z
  .string()
  .min(1)
  .max(2048)
  .regex(
    /^(https?:\/\/[^\s/?#]+\/\S*|sc-domain:[a-z0-9.-]+)$/i,
    "must be a URL-prefix property (https://www.example.com/) or a domain property (sc-domain:example.com)",
  )
  .describe(
    "The Search Console property exactly as Search Console names it: https://www.example.com/ (URL-prefix) or sc-domain:example.com (domain).",
  );

/** A dimension or metric of getMetadata's answer, as ga4.metadata returns it. */
const ga4Field = z.object({
  api_name: z.string().nullable().describe("API name, e.g. totalRevenue"),
  name: z.string().nullable().describe("Display name"),
  category: z.string().nullable().describe("Category"),
  description: z.string().nullable().describe("What it measures"),
  custom: z.boolean().describe("A custom definition of the property"),
});

const names = (body: Json, key: string) =>
  Array.isArray(body[key]) ? (body[key] as unknown[]).map((h) => String(isObject(h) ? h.name : "")) : [];

const ga4Realtime = defineRead({
  id: "ga4.realtime_report",
  title: "Google Analytics 4 realtime report",
  consent: "Read your Google Analytics reports",
  description:
    "What is happening on a GA4 property right now (Data API runRealtimeReport): active users, views and events of the last 30 minutes (60 on Analytics 360), split by realtime dimensions such as country, city, deviceCategory, unifiedScreenName, eventName or minutesAgo. " +
    "Returns one object per row keyed by dimension and metric name. Realtime metrics: activeUsers, screenPageViews, eventCount, conversions, keyEvents.",
  types: ["ga4"],
  credits: 2,
  cacheTtlSeconds: 30,
  example: { property_id: "123456789", metrics: ["activeUsers"], dimensions: ["country"] },
  input: {
    property_id: propertyId,
    metrics: z
      .array(ga4Name)
      .min(1)
      .max(10)
      .default(["activeUsers"])
      .describe('Realtime metric names, 1-10 (default ["activeUsers"]).'),
    dimensions: z
      .array(ga4Name)
      .max(9)
      .default([])
      .describe('Realtime dimension names, 0-9, e.g. ["country"] or ["unifiedScreenName"].'),
    minutes: z
      .number()
      .int()
      .min(1)
      .max(60)
      .default(30)
      .describe("How many of the last minutes to count, 1-30 (up to 60 on Analytics 360; default 30)."),
    limit: rowLimit(50),
  },
  output: {
    property_id: z.string().describe("GA4 property ID"),
    minutes: z.number().describe("Minutes counted (the last N)"),
    row_count: z.number().describe("Total rows of the report (may be more than the rows returned)"),
    rows: chosenColumnRows("Realtime rows"),
  },
  async run({ connection, credentials }, args) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    // https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runRealtimeReport
    const body = await googleApiCall(
      connection.type,
      `${GA4_DATA_API}/properties/${args.property_id}:runRealtimeReport`,
      accessToken,
      "the runRealtimeReport call",
      {
        body: {
          dimensions: args.dimensions.map((name) => ({ name })),
          metrics: args.metrics.map((name) => ({ name })),
          minuteRanges: [{ startMinutesAgo: args.minutes - 1, endMinutesAgo: 0 }],
          limit: args.limit,
        },
      },
    );
    const dimensions = names(body, "dimensionHeaders");
    const metrics = names(body, "metricHeaders");
    const values = (v: unknown) => (Array.isArray(v) ? v.map((x) => (isObject(x) ? x.value : undefined)) : []);
    return {
      property_id: args.property_id,
      minutes: args.minutes,
      row_count: typeof body.rowCount === "number" ? body.rowCount : 0,
      rows: listOf(body, "rows", "the runRealtimeReport call").map((row) => {
        const out: Json = {};
        values(row.dimensionValues).forEach((v, i) => (out[dimensions[i] ?? `dimension_${i}`] = v));
        values(row.metricValues).forEach((v, i) => (out[metrics[i] ?? `metric_${i}`] = numeric(v)));
        return out;
      }),
    };
  },
});

const ga4Metadata = defineRead({
  id: "ga4.metadata",
  title: "List a GA4 property's dimensions and metrics",
  consent: "Read your Google Analytics reports",
  description:
    "The dimensions and metrics a GA4 property can report (Data API getMetadata): API name, display name, category and description of each, custom dimensions and metrics of the property included. " +
    "Use it to find the right names for ga4_run_report, or what custom definitions exist; `search` narrows the list to names or descriptions containing a word.",
  types: ["ga4"],
  credits: 1,
  cacheTtlSeconds: 3600,
  example: { property_id: "123456789", search: "revenue" },
  input: {
    property_id: propertyId,
    search: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe("Only fields whose API name, display name or description contains this text (case-insensitive)."),
    custom_only: z.boolean().default(false).describe("Only the property's custom dimensions and metrics."),
  },
  output: {
    property_id: z.string().describe("GA4 property ID"),
    dimensions: z.array(ga4Field).describe("Dimensions the property can report"),
    metrics: z
      .array(ga4Field.extend({ type: z.string().nullable().describe("Metric type, e.g. TYPE_CURRENCY") }))
      .describe("Metrics the property can report"),
  },
  async run({ connection, credentials }, args) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    const what = "the getMetadata call";
    // https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata
    const body = await googleApiCall(
      connection.type,
      `${GA4_DATA_API}/properties/${args.property_id}/metadata`,
      accessToken,
      what,
    );
    const needle = args.search?.toLowerCase();
    const keep = (f: Json) =>
      (!args.custom_only || f.customDefinition === true) &&
      (!needle ||
        [f.apiName, f.uiName, f.description].some((v) =>
          String(v ?? "")
            .toLowerCase()
            .includes(needle),
        ));
    const field = (f: Json) => ({
      api_name: f.apiName ?? null,
      name: f.uiName ?? null,
      category: f.category ?? null,
      description: f.description ?? null,
      custom: f.customDefinition === true,
    });
    return {
      property_id: args.property_id,
      dimensions: listOf(body, "dimensions", what).filter(keep).map(field),
      metrics: listOf(body, "metrics", what)
        .filter(keep)
        .map((m) => ({ ...field(m), type: m.type ?? null })),
    };
  },
});

const urlInspection = defineRead({
  id: "search_console.url_inspection",
  title: "Inspect a URL in Search Console",
  consent: "Read your sites' index status",
  description:
    "Whether Google has indexed one page and why not (Search Console URL Inspection API, index.inspect): verdict, coverage state (e.g. 'Submitted and indexed', 'Crawled - currently not indexed'), indexing and robots.txt state, last crawl time, Google's and the page's canonical, the sitemaps and referring pages it was found through, mobile usability and rich results verdicts, and a link to the report. " +
    "The URL must belong to the property.",
  types: ["gsc"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: { site_url: "sc-domain:example.com", url: "https://www.example.com/pricing" },
  input: {
    site_url: siteUrl,
    url: z
      .url()
      .max(2048)
      .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL")
      .describe("The full URL of the page to inspect, e.g. https://www.example.com/pricing."),
    language_code: z
      .string()
      .regex(/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/, "must be a language code like en-US")
      .default("en-US")
      .describe("The language of translated issue messages (default en-US)."),
  },
  output: {
    site_url: z.string().describe("Search Console property"),
    url: z.string().describe("Page inspected"),
    verdict: z.string().nullable().describe("Verdict, e.g. PASS, FAIL or NEUTRAL"),
    coverage_state: z.string().nullable().describe("Coverage, e.g. Submitted and indexed"),
    indexing_state: z.string().nullable().describe("Indexing allowed, e.g. INDEXING_ALLOWED"),
    robots_txt_state: z.string().nullable().describe("robots.txt, e.g. ALLOWED"),
    page_fetch_state: z.string().nullable().describe("Page fetch, e.g. SUCCESSFUL"),
    last_crawl_time: z.string().nullable().describe("Last crawled at"),
    crawled_as: z.string().nullable().describe("Crawled as (MOBILE or DESKTOP)"),
    google_canonical: z.string().nullable().describe("Google's canonical URL"),
    user_canonical: z.string().nullable().describe("The page's own canonical URL"),
    sitemaps: z.array(z.string()).describe("Sitemaps listing the page"),
    referring_urls: z.array(z.string()).describe("Pages linking to it"),
    mobile_usability_verdict: z.string().nullable().describe("Mobile usability verdict"),
    rich_results_verdict: z.string().nullable().describe("Rich results verdict"),
    inspection_link: z.string().nullable().describe("Link to the report in Search Console"),
  },
  async run({ connection, credentials }, args) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    // https://developers.google.com/webmaster-tools/v1/urlInspection.index/inspect
    const body = await googleApiCall(
      connection.type,
      `${URL_INSPECTION_API}/urlInspection/index:inspect`,
      accessToken,
      "the urlInspection.index.inspect call",
      { body: { inspectionUrl: args.url, siteUrl: args.site_url, languageCode: args.language_code } },
    );
    const result = isObject(body.inspectionResult) ? body.inspectionResult : {};
    const index = isObject(result.indexStatusResult) ? result.indexStatusResult : {};
    const mobile = isObject(result.mobileUsabilityResult) ? result.mobileUsabilityResult : {};
    const rich = isObject(result.richResultsResult) ? result.richResultsResult : {};
    return {
      site_url: args.site_url,
      url: args.url,
      verdict: index.verdict ?? null,
      coverage_state: index.coverageState ?? null,
      indexing_state: index.indexingState ?? null,
      robots_txt_state: index.robotsTxtState ?? null,
      page_fetch_state: index.pageFetchState ?? null,
      last_crawl_time: index.lastCrawlTime ?? null,
      crawled_as: index.crawledAs ?? null,
      google_canonical: index.googleCanonical ?? null,
      user_canonical: index.userCanonical ?? null,
      sitemaps: Array.isArray(index.sitemap) ? index.sitemap : [],
      referring_urls: Array.isArray(index.referringUrls) ? index.referringUrls : [],
      mobile_usability_verdict: mobile.verdict ?? null,
      rich_results_verdict: rich.verdict ?? null,
      inspection_link: result.inspectionResultLink ?? null,
    };
  },
});

const listSitemaps = defineRead({
  id: "search_console.sitemaps.list",
  title: "List a site's sitemaps in Search Console",
  consent: "Read your sites' index status",
  description:
    "The sitemaps submitted for a Search Console property (sitemaps.list): each sitemap's URL, when it was submitted and last downloaded, whether it is pending or an index, its errors and warnings, and how many URLs of each type it lists.",
  types: ["gsc"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { site_url: "sc-domain:example.com" },
  input: {
    site_url: siteUrl,
    sitemap_index: z.url().max(2048).optional().describe("Only the sitemaps listed in this sitemap index file."),
  },
  output: {
    site_url: z.string().describe("Search Console property"),
    sitemaps: z
      .array(
        z.object({
          path: z.string().nullable().describe("Sitemap URL"),
          type: z.string().nullable().describe("Sitemap type, e.g. sitemap"),
          last_submitted: z.string().nullable().describe("Last submitted at"),
          last_downloaded: z.string().nullable().describe("Last downloaded at"),
          is_pending: z.boolean().describe("Waiting to be processed"),
          is_index: z.boolean().describe("Is a sitemap index"),
          errors: z.number().describe("Errors"),
          warnings: z.number().describe("Warnings"),
          contents: z
            .array(
              z.object({
                type: z.string().nullable().describe("Content type, e.g. web"),
                submitted: z.number().describe("URLs submitted"),
              }),
            )
            .describe("URLs listed, by type"),
        }),
      )
      .describe("Submitted sitemaps"),
  },
  async run({ connection, credentials }, args) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    const what = "the sitemaps.list call";
    const query = args.sitemap_index ? `?sitemapIndex=${encodeURIComponent(args.sitemap_index)}` : "";
    // https://developers.google.com/webmaster-tools/v1/sitemaps/list
    const body = await googleApiCall(
      connection.type,
      `${SEARCH_CONSOLE_API}/sites/${encodeURIComponent(args.site_url)}/sitemaps${query}`,
      accessToken,
      what,
    );
    return {
      site_url: args.site_url,
      sitemaps: listOf(body, "sitemap", what).map((s) => ({
        path: s.path ?? null,
        type: s.type ?? null,
        last_submitted: s.lastSubmitted ?? null,
        last_downloaded: s.lastDownloaded ?? null,
        is_pending: s.isPending === true,
        is_index: s.isSitemapsIndex === true,
        errors: Number(numeric(s.errors) ?? 0),
        warnings: Number(numeric(s.warnings) ?? 0),
        contents: listOf(s, "contents", what).map((c) => ({
          type: c.type ?? null,
          submitted: Number(numeric(c.submitted) ?? 0),
        })),
      })),
    };
  },
});

export const operations: Operation[] = [ga4Realtime, ga4Metadata, urlInspection, listSitemaps];
