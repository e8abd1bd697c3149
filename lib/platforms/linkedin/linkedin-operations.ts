import "server-only";
import { z } from "zod";
import { linkedinRestGet } from "@/lib/platforms/linkedin/linkedin-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit, isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { reportedDates } from "@/lib/platforms/kit/output-parts";

// LinkedIn Marketing API (versioned REST, Rest.li 2.0 query syntax: List(…) and (key:value)
// stay literal, URNs inside them are percent-encoded).

const API = "https://api.linkedin.com/rest";
const METRICS = [
  "impressions",
  "clicks",
  "costInLocalCurrency",
  "costInUsd",
  "landingPageClicks",
  "externalWebsiteConversions",
  "oneClickLeads",
  "totalEngagements",
  "likes",
  "comments",
  "shares",
  "follows",
  "videoViews",
] as const;
const DEFAULT_METRICS = ["impressions", "clicks", "costInLocalCurrency", "externalWebsiteConversions"] as const;

/** Each metric's label, as a row of the analytics carries it when asked for. */
const METRIC_LABELS: Record<(typeof METRICS)[number], string> = {
  impressions: "Impressions",
  clicks: "Clicks",
  costInLocalCurrency: "Spend (account currency)",
  costInUsd: "Spend (USD)",
  landingPageClicks: "Landing page clicks",
  externalWebsiteConversions: "Website conversions",
  oneClickLeads: "Leads (lead gen forms)",
  totalEngagements: "Engagements",
  likes: "Likes",
  comments: "Comments",
  shares: "Shares",
  follows: "Follows",
  videoViews: "Video views",
};
const metricFields = Object.fromEntries(
  METRICS.map((m) => [m, z.number().optional().describe(`${METRIC_LABELS[m]} (when asked for)`)]),
);

/** 2025-01-31 → (year:2025,month:1,day:31) */
const restliDate = (d: string) => {
  const [year, month, day] = d.split("-").map(Number);
  return `(year:${year},month:${month},day:${day})`;
};

/** {year, month, day} → "2025-01-31" */
function isoOf(v: unknown): string | null {
  if (!isObject(v)) return null;
  const pad = (n: unknown) => String(n).padStart(2, "0");
  return `${String(v.year)}-${pad(v.month)}-${pad(v.day)}`;
}

const linkedinAdsAnalytics = defineRead({
  toolName: "linkedin_ads_analytics",
  title: "LinkedIn Ads analytics",
  consent: "Read your ad reporting",
  description:
    "Ad performance of one LinkedIn ad account (Marketing API adAnalytics, analytics finder): impressions, clicks, spend, conversions …, split by campaign, campaign group, creative or the whole account, in total, per day or per month. " +
    "Use linkedin_ads_list_accounts when you do not know the ad account ID. Rows name the pivot by URN, e.g. urn:li:sponsoredCampaign:123.",
  types: ["linkedin_ads"],
  id: "linkedin_ads.analytics",
  credits: 3,
  cacheTtlSeconds: 300,
  example: { ad_account_id: "507404993", pivot: "CAMPAIGN" },
  input: {
    ad_account_id: z
      .string()
      .transform((v) => v.trim().replace(/^urn:li:sponsoredAccount:/, ""))
      .pipe(z.string().regex(/^\d{1,20}$/, "must be a numeric ad account ID"))
      .describe("The ad account ID, e.g. 507404993 (urn:li:sponsoredAccount:507404993 is accepted)."),
    pivot: z
      .enum(["ACCOUNT", "CAMPAIGN_GROUP", "CAMPAIGN", "CREATIVE"])
      .default("CAMPAIGN")
      .describe("What each row is about (default CAMPAIGN)."),
    time_granularity: z
      .enum(["ALL", "DAILY", "MONTHLY"])
      .default("ALL")
      .describe("ALL = one row per pivot value over the range (default), DAILY or MONTHLY = one per period."),
    start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 30 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    metrics: z
      .array(z.enum(METRICS))
      .min(1)
      .max(18)
      .default([...DEFAULT_METRICS])
      .describe(`Metrics to return (default ${DEFAULT_METRICS.join(", ")}).`),
    limit: rowLimit(100),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    pivot: z.enum(["ACCOUNT", "CAMPAIGN_GROUP", "CAMPAIGN", "CREATIVE"]).describe("What each row is about"),
    date_range: reportedDates(),
    truncated: z.boolean().describe("More rows than were returned"),
    rows: z
      .array(
        z.object({
          pivot: z.string().nullable().describe("Account, campaign group, campaign or creative (URN)"),
          start_date: z.string().nullable().describe("First day"),
          end_date: z.string().nullable().describe("Last day"),
          ...metricFields,
        }),
      )
      .describe("Analytics rows: one per pivot value (and period), with the metrics asked for"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 30, maxDays: 3 * 366 });
    const account = encodeURIComponent(`urn:li:sponsoredAccount:${args.ad_account_id}`);
    const query = [
      "q=analytics",
      `pivot=${args.pivot}`,
      `timeGranularity=${args.time_granularity}`,
      `dateRange=(start:${restliDate(range.start)},end:${restliDate(range.end)})`,
      `accounts=List(${account})`,
      `fields=${["dateRange", "pivotValues", ...args.metrics].join(",")}`,
    ].join("&");
    const body = await linkedinRestGet(
      connection.type,
      `${API}/adAnalytics?${query}`,
      credentials,
      "the adAnalytics call",
    );
    const elements = (Array.isArray(body.elements) ? body.elements : []).filter(isObject);
    const rows = elements.slice(0, args.limit).map((e) => {
      const dateRange = isObject(e.dateRange) ? e.dateRange : {};
      const pivotValues = Array.isArray(e.pivotValues) ? e.pivotValues.map(String) : [];
      return {
        pivot: pivotValues.join(",") || null,
        start_date: isoOf(dateRange.start),
        end_date: isoOf(dateRange.end),
        ...Object.fromEntries(args.metrics.map((m) => [m, numeric(e[m] ?? 0)])),
      };
    });
    return {
      ad_account_id: args.ad_account_id,
      pivot: args.pivot,
      date_range: { start_date: range.start, end_date: range.end },
      truncated: elements.length > args.limit,
      rows,
    };
  },
});

const linkedinAdsListAccounts = defineRead({
  toolName: "linkedin_ads_list_accounts",
  title: "List LinkedIn ad accounts",
  consent: "See your ad accounts",
  description:
    "Lists the LinkedIn ad accounts this connection can read (Marketing API adAccounts search): ID, name, status, currency, for linkedin_ads_analytics.",
  types: ["linkedin_ads"],
  id: "linkedin_ads.list_accounts",
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { limit: rowLimit(50, 1000) },
  output: {
    ad_accounts: z
      .array(
        z.object({
          ad_account_id: z.string().describe("Ad account ID"),
          name: z.string().nullable().describe("Ad account name"),
          status: z.string().nullable().describe("Status, e.g. ACTIVE"),
          type: z.string().nullable().describe("Type, e.g. BUSINESS"),
          currency: z.string().nullable().describe("Currency, e.g. USD"),
        }),
      )
      .describe("Ad accounts"),
  },
  async run({ connection, credentials }, args) {
    const body = await linkedinRestGet(
      connection.type,
      `${API}/adAccounts?q=search&pageSize=${args.limit}`,
      credentials,
      "the adAccounts call",
    );
    return {
      ad_accounts: (Array.isArray(body.elements) ? body.elements : []).filter(isObject).map((a) => ({
        ad_account_id: String(a.id ?? ""),
        name: a.name ?? null,
        status: a.status ?? null,
        type: a.type ?? null,
        currency: a.currency ?? null,
      })),
    };
  },
});

export const operations: Operation[] = [linkedinAdsAnalytics, linkedinAdsListAccounts];
