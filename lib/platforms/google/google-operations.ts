import "server-only";
import { z } from "zod";
import {
  GOOGLE_ADS_API,
  googleAccessToken,
  googleAdsDeveloperToken,
  googleApiCall,
  isObject,
  listOf,
} from "@/lib/platforms/google/google-provider";
import { ProviderRejection } from "@/lib/platforms/kit/types";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation } from "@/lib/platforms/kit/operation-types";
import { chosenColumnRows, reportedDates } from "@/lib/platforms/kit/output-parts";

// Google Analytics 4 (Data API), Google Ads (GAQL search) and Search Console (search analytics).

const GA4_DATA_API = "https://analyticsdata.googleapis.com/v1beta";
const GA4_ADMIN_API = "https://analyticsadmin.googleapis.com/v1beta";
const SEARCH_CONSOLE_API = "https://www.googleapis.com/webmasters/v3";

type Json = Record<string, unknown>;

/** GA4 accepts YYYY-MM-DD and the relative forms today, yesterday and NdaysAgo. */
const ga4Date = z.union([
  isoDate,
  z.string().regex(/^(today|yesterday|\d{1,4}daysAgo)$/, "must be YYYY-MM-DD, today, yesterday or NdaysAgo"),
]);
const ga4Name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_:]*$/, "is not a GA4 dimension or metric name")
  .max(100);

/** "123-456-7890" or "1234567890" → "1234567890". */
const customerId = (what: string) =>
  z
    .string()
    .transform((v) => v.replace(/-/g, "").trim())
    .pipe(z.string().regex(/^\d{10}$/, `${what} must be the 10-digit Google Ads customer ID (dashes allowed)`));

/** The header row and value rows of a runReport answer as objects: {date: "20240101", sessions: 12}. */
function ga4Rows(body: Json): Record<string, unknown>[] {
  const names = (key: string) =>
    Array.isArray(body[key]) ? (body[key] as unknown[]).map((h) => String(isObject(h) ? h.name : "")) : [];
  const dimensions = names("dimensionHeaders");
  const metrics = names("metricHeaders");
  const values = (v: unknown) => (Array.isArray(v) ? v.map((x) => (isObject(x) ? x.value : undefined)) : []);
  return (Array.isArray(body.rows) ? body.rows : []).filter(isObject).map((row) => {
    const out: Record<string, unknown> = {};
    values(row.dimensionValues).forEach((v, i) => (out[dimensions[i] ?? `dimension_${i}`] = v));
    values(row.metricValues).forEach((v, i) => (out[metrics[i] ?? `metric_${i}`] = numeric(v)));
    return out;
  });
}

const ga4RunReport = defineRead({
  toolName: "ga4_run_report",
  title: "Run a Google Analytics 4 report",
  consent: "Read your Google Analytics reports",
  description:
    "Runs a GA4 report (Analytics Data API runReport) on one property: the given metrics, split by the given dimensions, over a date range. " +
    "Returns one object per row keyed by dimension and metric name, plus the total row count. Use ga4_list_properties first when you do not know the property ID. " +
    "Common metrics: sessions, totalUsers, newUsers, screenPageViews, conversions, totalRevenue, engagementRate; common dimensions: date, sessionDefaultChannelGroup, country, deviceCategory, pagePath, sessionSource.",
  types: ["ga4"],
  id: "ga4.run_report",
  credits: 3,
  cacheTtlSeconds: 300,
  example: {
    property_id: "123456789",
    metrics: ["sessions", "totalUsers"],
    dimensions: ["date"],
    start_date: "7daysAgo",
    end_date: "yesterday",
  },
  input: {
    property_id: z
      .string()
      .regex(/^(properties\/)?\d+$/, "must be a numeric GA4 property ID")
      .describe("The GA4 property ID, e.g. 123456789 (properties/123456789 is accepted)."),
    metrics: z.array(ga4Name).min(1).max(10).describe('Metric API names, 1-10, e.g. ["sessions", "totalUsers"].'),
    dimensions: z.array(ga4Name).max(9).default([]).describe('Dimension API names, 0-9, e.g. ["date", "country"].'),
    start_date: ga4Date
      .default("28daysAgo")
      .describe("First day, YYYY-MM-DD or today / yesterday / NdaysAgo (default 28daysAgo)."),
    end_date: ga4Date.default("yesterday").describe("Last day, inclusive, same formats (default yesterday)."),
    order_by: ga4Name
      .optional()
      .describe("A metric or dimension of the report to sort by, descending for metrics and ascending for dimensions."),
    limit: rowLimit(100),
  },
  output: {
    property_id: z.string().describe("GA4 property ID"),
    date_range: reportedDates("Date range (as asked: a date, today, yesterday or NdaysAgo)"),
    row_count: z.number().describe("Total rows of the report (may be more than the rows returned)"),
    currency_code: z.string().nullable().describe("Currency of revenue metrics, e.g. USD"),
    time_zone: z.string().nullable().describe("The property's time zone"),
    rows: chosenColumnRows("Report rows"),
  },
  async run({ connection, credentials }, args) {
    const propertyId = args.property_id.replace(/^properties\//, "");
    if (args.order_by && ![...args.metrics, ...args.dimensions].includes(args.order_by))
      throw new OperationInputError(`order_by ${args.order_by} is not one of the report's metrics or dimensions.`);
    const orderBys = !args.order_by
      ? undefined
      : args.metrics.includes(args.order_by)
        ? [{ metric: { metricName: args.order_by }, desc: true }]
        : [{ dimension: { dimensionName: args.order_by } }];
    const accessToken = await googleAccessToken(connection.type, credentials);
    const body = await googleApiCall(
      connection.type,
      `${GA4_DATA_API}/properties/${propertyId}:runReport`,
      accessToken,
      "the runReport call",
      {
        body: {
          dateRanges: [{ startDate: args.start_date, endDate: args.end_date }],
          dimensions: args.dimensions.map((name) => ({ name })),
          metrics: args.metrics.map((name) => ({ name })),
          limit: args.limit,
          ...(orderBys && { orderBys }),
        },
      },
    );
    const metadata = isObject(body.metadata) ? body.metadata : {};
    return {
      property_id: propertyId,
      date_range: { start_date: args.start_date, end_date: args.end_date },
      row_count: typeof body.rowCount === "number" ? body.rowCount : 0,
      currency_code: metadata.currencyCode ?? null,
      time_zone: metadata.timeZone ?? null,
      rows: ga4Rows(body),
    };
  },
});

const ga4ListProperties = defineRead({
  toolName: "ga4_list_properties",
  title: "List Google Analytics 4 properties",
  consent: "See your Google Analytics accounts and properties",
  description:
    "Lists the GA4 accounts and properties this connection can read (Analytics Admin API accountSummaries), with their IDs for ga4_run_report.",
  types: ["ga4"],
  id: "ga4.list_properties",
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { limit: rowLimit(50, 200) },
  output: {
    accounts: z
      .array(
        z.object({
          account_id: z.string().describe("Analytics account ID"),
          name: z.string().nullable().describe("Account name"),
          properties: z
            .array(
              z.object({
                property_id: z.string().describe("GA4 property ID"),
                name: z.string().nullable().describe("Property name"),
              }),
            )
            .describe("The account's GA4 properties"),
        }),
      )
      .describe("Analytics accounts"),
  },
  async run({ connection, credentials }, args) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    const what = "the accountSummaries call";
    const body = await googleApiCall(
      connection.type,
      `${GA4_ADMIN_API}/accountSummaries?pageSize=${args.limit}`,
      accessToken,
      what,
    );
    return {
      accounts: listOf(body, "accountSummaries", what).map((a) => ({
        account_id: String(a.account ?? "").replace(/^accounts\//, ""),
        name: a.displayName ?? null,
        properties: listOf(a, "propertySummaries", what).map((p) => ({
          property_id: String(p.property ?? "").replace(/^properties\//, ""),
          name: p.displayName ?? null,
        })),
      })),
    };
  },
});

/** A GAQL result row as flat "resource.field" keys; metrics become numbers (the API sends int64 as strings). */
function flattenAdsRow(row: Json, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, value] of Object.entries(row)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (key === "resourceName" && prefix) continue;
    if (isObject(value)) flattenAdsRow(value, path, out);
    else out[path] = path.startsWith("metrics.") ? numeric(value) : value;
  }
  return out;
}

const googleAdsSearch = defineRead({
  toolName: "google_ads_search",
  title: "Query Google Ads with GAQL",
  consent: "Read your Google Ads campaigns, budgets and performance",
  description:
    'Runs a Google Ads Query Language (GAQL) SELECT on one customer account (GoogleAdsService.Search) and returns one flat object per row, keyed like "campaign.name" and "metrics.clicks" (cost is in micros: metrics.costMicros / 1e6). ' +
    "Example: SELECT campaign.name, metrics.clicks, metrics.impressions, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_30_DAYS ORDER BY metrics.clicks DESC. " +
    "Use google_ads_list_customers when you do not know the customer ID; give login_customer_id when the account is reached through a manager account.",
  types: ["gads"],
  id: "google_ads.search",
  credits: 3,
  cacheTtlSeconds: 300,
  example: {
    customer_id: "123-456-7890",
    query:
      "SELECT campaign.id, campaign.name, metrics.clicks, metrics.cost_micros FROM campaign WHERE segments.date DURING LAST_7_DAYS",
  },
  input: {
    customer_id: customerId("customer_id").describe(
      "The Google Ads customer ID to query, 10 digits (123-456-7890 is accepted).",
    ),
    query: z
      .string()
      .trim()
      .min(1)
      .max(10_000)
      .refine((q) => /^select\s/i.test(q), "must be a GAQL SELECT statement")
      .describe(
        "The GAQL statement: SELECT fields FROM resource [WHERE …] [ORDER BY …] [LIMIT n]. A LIMIT is added when missing.",
      ),
    login_customer_id: customerId("login_customer_id")
      .optional()
      .describe(
        "The manager (MCC) account ID through which the customer is accessed, when it is not accessed directly.",
      ),
    limit: rowLimit(100),
  },
  output: {
    customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
    row_count: z.number().describe("Rows returned"),
    truncated: z.boolean().describe("More rows matched than were returned"),
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .describe(
        'Result rows: one flat object per row, keyed by the fields the query selects, e.g. "campaign.name", "metrics.clicks" (the columns depend on the query).',
      ),
  },
  async run({ connection, credentials }, args) {
    const developerToken = googleAdsDeveloperToken(credentials);
    if (!developerToken)
      throw new ProviderRejection(
        "Google",
        "no Google Ads developer token: this server has no GOOGLE_ADS_DEVELOPER_TOKEN for OAuth connections.",
      );
    const query = /\blimit\s+\d+\s*$/i.test(args.query) ? args.query : `${args.query} LIMIT ${args.limit}`;
    const accessToken = await googleAccessToken(connection.type, credentials);
    const body = await googleApiCall(
      connection.type,
      `${GOOGLE_ADS_API}/customers/${args.customer_id}/googleAds:search`,
      accessToken,
      "the googleAds:search call",
      {
        headers: {
          "developer-token": developerToken,
          ...(args.login_customer_id && { "login-customer-id": args.login_customer_id }),
        },
        body: { query },
      },
    );
    const results = listOf(body, "results", "the googleAds:search call");
    return {
      customer_id: args.customer_id,
      row_count: Math.min(results.length, args.limit),
      truncated: results.length > args.limit || (typeof body.nextPageToken === "string" && body.nextPageToken !== ""),
      rows: results.slice(0, args.limit).map((r) => flattenAdsRow(r)),
    };
  },
});

const googleAdsListCustomers = defineRead({
  toolName: "google_ads_list_customers",
  title: "List accessible Google Ads customers",
  consent: "See which Google Ads accounts you can access",
  description:
    "Lists the Google Ads customer IDs this connection can access directly (CustomerService.ListAccessibleCustomers), for google_ads_search.",
  types: ["gads"],
  id: "google_ads.list_customers",
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {},
  output: {
    customer_ids: z.array(z.string()).describe("Google Ads customer IDs this connection can access"),
  },
  async run({ connection, credentials }) {
    const developerToken = googleAdsDeveloperToken(credentials);
    if (!developerToken)
      throw new ProviderRejection(
        "Google",
        "no Google Ads developer token: this server has no GOOGLE_ADS_DEVELOPER_TOKEN for OAuth connections.",
      );
    const accessToken = await googleAccessToken(connection.type, credentials);
    const body = await googleApiCall(
      connection.type,
      `${GOOGLE_ADS_API}/customers:listAccessibleCustomers`,
      accessToken,
      "the listAccessibleCustomers call",
      {
        headers: { "developer-token": developerToken },
      },
    );
    const names = Array.isArray(body.resourceNames) ? body.resourceNames : [];
    return { customer_ids: names.map((n) => String(n).replace(/^customers\//, "")) };
  },
});

const SEARCH_DIMENSIONS = ["query", "page", "country", "device", "date", "searchAppearance"] as const;

const searchConsoleQuery = defineRead({
  toolName: "search_console_query",
  title: "Query Search Console performance",
  consent: "Read your sites' search performance",
  description:
    "Google Search performance of one Search Console property (searchanalytics.query): clicks, impressions, CTR and average position, split by the given dimensions (query, page, country, device, date, searchAppearance) and sorted by clicks. " +
    "Data lags about 2-3 days. Use search_console_list_sites when you do not know the property's site URL.",
  types: ["gsc"],
  id: "search_console.query",
  credits: 2,
  cacheTtlSeconds: 300,
  example: { site_url: "sc-domain:example.com", dimensions: ["query"], limit: 25 },
  input: {
    site_url: z
      .string()
      .min(1)
      .max(2048)
      .regex(
        /^(https?:\/\/[^\s/?#]+\/\S*|sc-domain:[a-z0-9.-]+)$/i,
        "must be a URL-prefix property (https://www.example.com/) or a domain property (sc-domain:example.com)",
      )
      .describe(
        "The property exactly as Search Console names it: https://www.example.com/ (URL-prefix) or sc-domain:example.com (domain).",
      ),
    start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 28 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    dimensions: z
      .array(z.enum(SEARCH_DIMENSIONS))
      .max(4)
      .default(["query"])
      .describe('How to split the rows (default ["query"]); [] gives one total row.'),
    search_type: z
      .enum(["web", "image", "video", "news", "discover", "googleNews"])
      .default("web")
      .describe("Which Google search results to report (default web)."),
    query_contains: z.string().max(500).optional().describe("Only rows whose search query contains this text."),
    page_contains: z.string().max(500).optional().describe("Only rows whose page URL contains this text."),
    limit: rowLimit(100),
    start_row: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(0)
      .describe("Zero-based index of the first row, for paging (default 0)."),
  },
  output: {
    site_url: z.string().describe("Search Console property"),
    date_range: reportedDates(),
    search_type: z.string().describe("Search type reported, e.g. web"),
    rows: z
      .array(
        z.object({
          query: z.string().nullable().optional().describe("Search query (when split by query)"),
          page: z.string().nullable().optional().describe("Page URL (when split by page)"),
          country: z.string().nullable().optional().describe("Country code (when split by country)"),
          device: z.string().nullable().optional().describe("Device (when split by device)"),
          date: z.string().nullable().optional().describe("Day (when split by date)"),
          searchAppearance: z
            .string()
            .nullable()
            .optional()
            .describe("Search appearance (when split by searchAppearance)"),
          clicks: z.number().describe("Clicks"),
          impressions: z.number().describe("Impressions"),
          ctr: z.number().nullable().describe("Click-through rate (0-1)"),
          position: z.number().nullable().describe("Average position"),
        }),
      )
      .describe("Performance rows, sorted by clicks: one per combination of the chosen dimensions"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 28, maxDays: 16 * 31 });
    const filters = [
      args.query_contains && { dimension: "query", operator: "contains", expression: args.query_contains },
      args.page_contains && { dimension: "page", operator: "contains", expression: args.page_contains },
    ].filter(Boolean);
    const accessToken = await googleAccessToken(connection.type, credentials);
    const body = await googleApiCall(
      connection.type,
      `${SEARCH_CONSOLE_API}/sites/${encodeURIComponent(args.site_url)}/searchAnalytics/query`,
      accessToken,
      "the searchAnalytics.query call",
      {
        body: {
          startDate: range.start,
          endDate: range.end,
          dimensions: args.dimensions,
          type: args.search_type,
          rowLimit: args.limit,
          startRow: args.start_row,
          ...(filters.length && { dimensionFilterGroups: [{ groupType: "and", filters }] }),
        },
      },
    );
    const rows = listOf(body, "rows", "the searchAnalytics.query call").map((r) => {
      const keys = Array.isArray(r.keys) ? r.keys : [];
      return {
        ...Object.fromEntries(args.dimensions.map((d, i) => [d, keys[i] ?? null])),
        clicks: r.clicks ?? 0,
        impressions: r.impressions ?? 0,
        ctr: typeof r.ctr === "number" ? Math.round(r.ctr * 10_000) / 10_000 : null,
        position: typeof r.position === "number" ? Math.round(r.position * 10) / 10 : null,
      };
    });
    return {
      site_url: args.site_url,
      date_range: { start_date: range.start, end_date: range.end },
      search_type: args.search_type,
      rows,
    };
  },
});

const searchConsoleListSites = defineRead({
  toolName: "search_console_list_sites",
  title: "List Search Console properties",
  consent: "See your Search Console sites",
  description:
    "Lists the Search Console properties (site URLs) this connection can read, with its permission level on each, for search_console_query.",
  types: ["gsc"],
  id: "search_console.list_sites",
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {},
  output: {
    sites: z
      .array(
        z.object({
          site_url: z.string().nullable().describe("Property (site URL)"),
          permission_level: z.string().nullable().describe("Permission level, e.g. siteOwner"),
        }),
      )
      .describe("Search Console properties"),
  },
  async run({ connection, credentials }) {
    const accessToken = await googleAccessToken(connection.type, credentials);
    const what = "the sites.list call";
    const body = await googleApiCall(connection.type, `${SEARCH_CONSOLE_API}/sites`, accessToken, what);
    return {
      sites: listOf(body, "siteEntry", what).map((s) => ({
        site_url: s.siteUrl ?? null,
        permission_level: s.permissionLevel ?? null,
      })),
    };
  },
});

export const operations: Operation[] = [
  ga4RunReport,
  ga4ListProperties,
  googleAdsSearch,
  googleAdsListCustomers,
  searchConsoleQuery,
  searchConsoleListSites,
];
