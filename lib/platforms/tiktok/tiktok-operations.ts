import "server-only";
import { z } from "zod";
import { tiktokAdvertiserIds, tiktokApiGet } from "@/lib/platforms/tiktok/tiktok-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit, isObject } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation } from "@/lib/platforms/kit/operation-types";
import { reportedDates } from "@/lib/platforms/kit/output-parts";

// TikTok API for Business: the synchronous integrated report (BASIC report type).

const REPORT_URL = "https://business-api.tiktok.com/open_api/v1.3/report/integrated/get/";
const METRICS = [
  "spend",
  "impressions",
  "clicks",
  "ctr",
  "cpc",
  "cpm",
  "reach",
  "conversion",
  "cost_per_conversion",
  "conversion_rate",
  "video_play_actions",
  "likes",
  "comments",
  "shares",
  "follows",
] as const;
const DEFAULT_METRICS = ["spend", "impressions", "clicks", "ctr", "conversion"] as const;
/** Each metric's label, as a row of the report carries it when asked for. */
const METRIC_LABELS: Record<(typeof METRICS)[number], string> = {
  spend: "Spend",
  impressions: "Impressions",
  clicks: "Clicks",
  ctr: "Click-through rate (%)",
  cpc: "Cost per click",
  cpm: "Cost per 1,000 impressions",
  reach: "Reach",
  conversion: "Conversions",
  cost_per_conversion: "Cost per conversion",
  conversion_rate: "Conversion rate (%)",
  video_play_actions: "Video views",
  likes: "Likes",
  comments: "Comments",
  shares: "Shares",
  follows: "Follows",
};
const metricFields = Object.fromEntries(
  METRICS.map((m) => [m, z.number().optional().describe(`${METRIC_LABELS[m]} (when asked for)`)]),
);
/** The ID dimension and the name metric of each level. */
const LEVELS = {
  AUCTION_ADVERTISER: { id: "advertiser_id", name: "advertiser_name" },
  AUCTION_CAMPAIGN: { id: "campaign_id", name: "campaign_name" },
  AUCTION_ADGROUP: { id: "adgroup_id", name: "adgroup_name" },
  AUCTION_AD: { id: "ad_id", name: "ad_name" },
} as const;

const tiktokAdsReport = defineRead({
  toolName: "tiktok_ads_report",
  title: "TikTok Ads report",
  consent: "Read the reports of the advertiser accounts you authorize",
  description:
    "Performance of a TikTok advertiser account (Marketing API report/integrated/get, BASIC report): spend, impressions, clicks, CTR, conversions … per advertiser, campaign, ad group or ad, in total or per day. " +
    "advertiser_id defaults to the first advertiser the user authorized. Daily rows are limited to 30 days per call.",
  types: ["tiktok_ads"],
  id: "tiktok_ads.report",
  credits: 3,
  cacheTtlSeconds: 300,
  example: { data_level: "AUCTION_CAMPAIGN", daily: false },
  input: {
    advertiser_id: z
      .string()
      .regex(/^\d{1,20}$/, "must be a numeric advertiser ID")
      .optional()
      .describe("The advertiser ID (default: the first one authorized for this connection)."),
    data_level: z
      .enum(["AUCTION_ADVERTISER", "AUCTION_CAMPAIGN", "AUCTION_ADGROUP", "AUCTION_AD"])
      .default("AUCTION_CAMPAIGN")
      .describe("One row per advertiser, campaign (default), ad group or ad."),
    daily: z
      .boolean()
      .default(false)
      .describe("true = one row per object and day (stat_time_day); false = totals over the range."),
    metrics: z
      .array(z.enum(METRICS))
      .min(1)
      .max(15)
      .default([...DEFAULT_METRICS])
      .describe(`Metrics to return (default ${DEFAULT_METRICS.join(", ")}).`),
    start_date: isoDate
      .optional()
      .describe("First day, YYYY-MM-DD, in the advertiser's time zone (default: 7 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    limit: rowLimit(100),
  },
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    data_level: z
      .enum(["AUCTION_ADVERTISER", "AUCTION_CAMPAIGN", "AUCTION_ADGROUP", "AUCTION_AD"])
      .describe("One row per advertiser, campaign, ad group or ad"),
    date_range: reportedDates(),
    total_rows: z.number().describe("Total rows of the report (may be more than the rows returned)"),
    rows: z
      .array(
        z
          .object({
            advertiser_id: z.string().nullable().optional().describe("Advertiser ID (level advertiser)"),
            advertiser_name: z.string().optional().describe("Advertiser (level advertiser)"),
            campaign_id: z.string().nullable().optional().describe("Campaign ID (level campaign)"),
            campaign_name: z.string().optional().describe("Campaign (level campaign)"),
            adgroup_id: z.string().nullable().optional().describe("Ad group ID (level ad group)"),
            adgroup_name: z.string().optional().describe("Ad group (level ad group)"),
            ad_id: z.string().nullable().optional().describe("Ad ID (level ad)"),
            ad_name: z.string().optional().describe("Ad (level ad)"),
            date: z.string().optional().describe("Day (daily rows)"),
            ...metricFields,
          })
          .catchall(z.unknown()),
      )
      .describe("Report rows: the level's ID and name, then the metrics asked for (the columns depend on the input)"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 7, maxDays: args.daily ? 30 : 365 });
    const advertiserId = args.advertiser_id ?? tiktokAdvertiserIds(credentials)[0];
    if (!advertiserId)
      throw new OperationInputError("advertiser_id is required: this connection names no authorized advertiser.");
    const level = LEVELS[args.data_level];
    const data = await tiktokApiGet(
      connection.type,
      REPORT_URL,
      credentials,
      {
        advertiser_id: advertiserId,
        report_type: "BASIC",
        data_level: args.data_level,
        dimensions: args.daily ? [level.id, "stat_time_day"] : [level.id],
        metrics: [level.name, ...args.metrics],
        start_date: range.start,
        end_date: range.end,
        page: 1,
        page_size: args.limit,
      },
      "the report/integrated/get call",
    );
    const list = (Array.isArray(data.list) ? data.list : []).filter(isObject);
    const rows = list.map((row) => {
      const dimensions = isObject(row.dimensions) ? row.dimensions : {};
      const metrics = isObject(row.metrics) ? row.metrics : {};
      const day = typeof dimensions.stat_time_day === "string" ? dimensions.stat_time_day.slice(0, 10) : undefined;
      return {
        [level.id]: dimensions[level.id] ?? null,
        ...(day && { date: day }),
        ...Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, k === level.name ? v : numeric(v)])),
      };
    });
    const pageInfo = isObject(data.page_info) ? data.page_info : {};
    return {
      advertiser_id: advertiserId,
      data_level: args.data_level,
      date_range: { start_date: range.start, end_date: range.end },
      total_rows: pageInfo.total_number ?? rows.length,
      rows,
    };
  },
});

export const operations: Operation[] = [tiktokAdsReport];
