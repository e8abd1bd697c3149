import "server-only";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import {
  accessTokenOf,
  adsApiCall,
  amazonReason,
  hosted,
  listProfiles,
  PROVIDER,
  regionOf,
  REGIONS,
  type Profile,
  type Region,
} from "@/lib/platforms/amazon/amazon-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isObject, isoDate, rowLimit } from "@/lib/platforms/kit/input-parts";
import { providerFetch } from "@/lib/platforms/kit/provider-fetch";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { reportedDates } from "@/lib/platforms/kit/output-parts";

// Amazon Ads reads: the advertising profiles of each region, the Sponsored Products campaigns of
// a profile (v3 list), and a Sponsored Products campaign report (reporting v3: create, poll,
// download the gzipped JSON).

export const SP_CAMPAIGN_TYPE = "application/vnd.spCampaign.v3+json";
const REPORT_TYPE = "application/vnd.createasyncreportrequest.v3+json";

export const profileInput = {
  profile_id: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, "must be a numeric profile ID")
    .describe("The advertising profile ID (one advertiser account in one marketplace), from amazon_ads.profiles.list."),
  region: z
    .enum(["na", "eu", "fe"])
    .optional()
    .describe(
      "The profile's region: na (US, CA, MX, BR), eu (UK, DE, FR, …, IN) or fe (JP, AU, SG); found from the profiles when left out.",
    ),
};

/** campaignView's answer. */
const campaignShape = {
  campaign_id: z.string().describe("Campaign ID"),
  name: z.string().nullable().describe("Campaign"),
  state: z.string().nullable().describe("State, e.g. ENABLED or PAUSED"),
  targeting_type: z.string().nullable().describe("Targeting, MANUAL or AUTO"),
  daily_budget: z.number().nullable().describe("Daily budget (marketplace currency)"),
  budget_type: z.string().nullable().describe("Budget type, e.g. DAILY"),
  start_date: z.string().nullable().describe("Start date"),
  end_date: z.string().nullable().describe("End date"),
  portfolio_id: z.string().nullable().describe("Portfolio ID"),
};

/** An SP campaign as the operations return it. */
export function campaignView(c: Record<string, unknown>) {
  const budget = isObject(c.budget) ? c.budget : {};
  return {
    campaign_id: String(c.campaignId ?? ""),
    name: c.name ?? null,
    state: c.state ?? null,
    targeting_type: c.targetingType ?? null,
    daily_budget: typeof budget.budget === "number" ? budget.budget : null,
    budget_type: budget.budgetType ?? null,
    start_date: c.startDate ?? null,
    end_date: c.endDate ?? null,
    portfolio_id: c.portfolioId ?? null,
  };
}

const amazonProfilesList = defineRead({
  id: "amazon_ads.profiles.list",
  title: "List Amazon Ads profiles (advertiser accounts per marketplace)",
  consent: "See your advertising profiles",
  description:
    "The Amazon Ads advertising profiles the connected Amazon user can manage (GET /v2/profiles on each region's host): profile ID, region, marketplace country, currency, time zone and the advertiser account (seller, vendor or agency) behind it. " +
    "Use it to find the profile_id (and region) the campaign, report and budget tools take.",
  types: ["amazon_ads"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {
    region: z.enum(["na", "eu", "fe"]).optional().describe("Only this region: na, eu or fe (default: all three)."),
  },
  output: {
    profiles: z
      .array(
        z.object({
          profile_id: z.string().describe("Profile ID"),
          region: z.enum(["na", "eu", "fe"]).describe("Region: na, eu or fe"),
          country_code: z.string().nullable().describe("Marketplace country, e.g. US"),
          currency_code: z.string().nullable().describe("Currency, e.g. USD"),
          timezone: z.string().nullable().describe("Time zone"),
          account: z
            .object({
              id: z.string().nullable().describe("Account ID"),
              type: z.string().nullable().describe("Account type: seller, vendor or agency"),
              name: z.string().nullable().describe("Account name"),
              marketplace_id: z.string().nullable().describe("Marketplace ID"),
            })
            .describe("Advertiser account"),
        }),
      )
      .describe("Profiles: one advertiser account per marketplace"),
  },
  async run({ connection, credentials }, args) {
    const token = accessTokenOf(credentials);
    const profiles: Profile[] = [];
    for (const region of args.region ? [args.region] : REGIONS) {
      for (const p of await listProfiles(connection.type, token, region))
        if (!profiles.some((q) => q.profile_id === p.profile_id)) profiles.push(p);
    }
    return { profiles };
  },
});

const amazonSpCampaignsList = defineRead({
  id: "amazon_ads.sp_campaigns.list",
  title: "List Amazon Sponsored Products campaigns",
  consent: "See your Sponsored Products campaigns",
  description:
    "The Sponsored Products campaigns of one Amazon Ads profile (POST /sp/campaigns/list, v3): campaign ID, name, state (ENABLED, PAUSED, ARCHIVED), targeting type, daily budget, start and end dates, portfolio. " +
    "Filter by state; page with next_token.",
  types: ["amazon_ads"],
  credits: 1,
  cacheTtlSeconds: 120,
  example: { profile_id: "3541234567890123", states: ["ENABLED", "PAUSED"] },
  input: {
    ...profileInput,
    states: z
      .array(z.enum(["ENABLED", "PAUSED", "ARCHIVED"]))
      .min(1)
      .max(3)
      .optional()
      .describe("Only campaigns in these states (default: all)."),
    limit: rowLimit(100, 1000).describe(
      "How many campaigns to return at most (1-1000, Amazon's page limit; default 100).",
    ),
    next_token: z.string().max(2000).optional().describe("next_token of the previous page, to continue."),
  },
  output: {
    profile_id: z.string().describe("Profile ID"),
    region: z.enum(["na", "eu", "fe"]).describe("Region: na, eu or fe"),
    total: z.number().optional().describe("Campaigns matching"),
    campaigns: z.array(z.object(campaignShape)).describe("Sponsored Products campaigns"),
    next_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const token = accessTokenOf(credentials);
    const region = await regionOf(connection.type, token, args.profile_id, args.region);
    // https://advertising.amazon.com/API/docs/en-us/sponsored-products/3-0/openapi/prod#tag/Campaigns/operation/ListSponsoredProductsCampaigns
    const body = await adsApiCall(connection.type, token, "/sp/campaigns/list", "the SP campaigns list", {
      region,
      profileId: args.profile_id,
      method: "POST",
      mediaType: SP_CAMPAIGN_TYPE,
      body: {
        maxResults: args.limit,
        ...(args.states && { stateFilter: { include: args.states } }),
        ...(args.next_token && { nextToken: args.next_token }),
      },
    });
    const b = isObject(body) ? body : {};
    const campaigns = (Array.isArray(b.campaigns) ? b.campaigns : []).filter(isObject).map(campaignView);
    return {
      profile_id: args.profile_id,
      region,
      ...(typeof b.totalResults === "number" && { total: b.totalResults }),
      campaigns,
      next_token: typeof b.nextToken === "string" && b.nextToken ? b.nextToken : null,
    };
  },
});

const METRICS = [
  "impressions",
  "clicks",
  "cost",
  "clickThroughRate",
  "costPerClick",
  "purchases7d",
  "sales7d",
  "purchases14d",
  "sales14d",
  "unitsSoldClicks7d",
  "acosClicks7d",
  "roasClicks7d",
] as const;
const DEFAULT_METRICS = ["impressions", "clicks", "cost", "purchases7d", "sales7d"] as const;
const METRIC_LABELS: Record<(typeof METRICS)[number], string> = {
  impressions: "Impressions",
  clicks: "Clicks",
  cost: "Spend",
  clickThroughRate: "Click-through rate",
  costPerClick: "Cost per click",
  purchases7d: "Purchases (7 days)",
  sales7d: "Sales (7 days)",
  purchases14d: "Purchases (14 days)",
  sales14d: "Sales (14 days)",
  unitsSoldClicks7d: "Units sold (7 days)",
  acosClicks7d: "ACOS (7 days)",
  roasClicks7d: "ROAS (7 days)",
};
const metricFields = Object.fromEntries(
  METRICS.map((m) => [m, z.number().nullable().optional().describe(`${METRIC_LABELS[m]} (when asked for)`)]),
);
const POLL_WAITS_MS = [0, 1000, 2000, 3000, 4000, 5000];

const amazonSpCampaignReport = defineRead({
  id: "amazon_ads.sp_campaigns.report",
  title: "Amazon Sponsored Products campaign performance report",
  consent: "See the performance reports of your Sponsored Products campaigns",
  description:
    "Performance of the Sponsored Products campaigns of an Amazon Ads profile (reporting v3 spCampaigns report: created, polled, downloaded): impressions, clicks, cost (spend), CTR, CPC, purchases, sales, ACOS, ROAS … per campaign, in total or per day. " +
    "At most 31 days per report, within the 95 days before today.",
  types: ["amazon_ads"],
  credits: 3,
  cacheTtlSeconds: 600,
  example: { profile_id: "3541234567890123", start_date: "2026-11-01", end_date: "2026-11-07" },
  input: {
    ...profileInput,
    start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 7 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    daily: z.boolean().default(false).describe("true = one row per campaign and day; false = totals over the range."),
    metrics: z
      .array(z.enum(METRICS))
      .min(1)
      .max(METRICS.length)
      .default([...DEFAULT_METRICS])
      .describe(`Metrics to return (default ${DEFAULT_METRICS.join(", ")}).`),
    limit: rowLimit(200, 5000),
  },
  output: {
    profile_id: z.string().describe("Profile ID"),
    region: z.enum(["na", "eu", "fe"]).describe("Region: na, eu or fe"),
    report_id: z.string().describe("Report ID"),
    date_range: reportedDates(),
    total_rows: z.number().describe("Total rows of the report (may be more than the rows returned)"),
    rows: z
      .array(
        z.object({
          campaignId: z.string().nullable().describe("Campaign ID"),
          campaignName: z.string().nullable().optional().describe("Campaign"),
          campaignStatus: z.string().nullable().optional().describe("Campaign status, e.g. ENABLED"),
          date: z.string().nullable().optional().describe("Day (daily rows)"),
          startDate: z.string().nullable().optional().describe("First day (summary rows)"),
          endDate: z.string().nullable().optional().describe("Last day (summary rows)"),
          ...metricFields,
        }),
      )
      .describe("Report rows: one per campaign (and day), with the metrics asked for"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 7, maxDays: 31 });
    const token = accessTokenOf(credentials);
    const region = await regionOf(connection.type, token, args.profile_id, args.region);
    const call = { region, profileId: args.profile_id, mediaType: REPORT_TYPE };
    const columns = [
      "campaignId",
      "campaignName",
      "campaignStatus",
      ...(args.daily ? ["date"] : ["startDate", "endDate"]),
      ...args.metrics,
    ];
    // https://advertising.amazon.com/API/docs/en-us/guides/reporting/v3/get-started
    const created = await adsApiCall(connection.type, token, "/reporting/reports", "the report request", {
      ...call,
      method: "POST",
      body: {
        name: `Patchbay SP campaigns ${range.start}..${range.end}`,
        startDate: range.start,
        endDate: range.end,
        configuration: {
          adProduct: "SPONSORED_PRODUCTS",
          groupBy: ["campaign"],
          columns,
          reportTypeId: "spCampaigns",
          timeUnit: args.daily ? "DAILY" : "SUMMARY",
          format: "GZIP_JSON",
        },
      },
    });
    const reportId = isObject(created) && typeof created.reportId === "string" ? created.reportId : "";
    if (!reportId)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the report request without a reportId.`);
    let report: Record<string, unknown> = {};
    for (const wait of POLL_WAITS_MS) {
      if (wait) await new Promise((ok) => setTimeout(ok, wait));
      // https://advertising.amazon.com/API/docs/en-us/offline-report-prod-3p#tag/Asynchronous-Reports/operation/getAsyncReport
      const polled = await adsApiCall(
        connection.type,
        token,
        `/reporting/reports/${encodeURIComponent(reportId)}`,
        "the report status call",
        call,
      );
      report = isObject(polled) ? polled : {};
      if (report.status !== "PENDING" && report.status !== "PROCESSING") break;
    }
    if (report.status === "FAILED")
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} could not generate report ${reportId}: ${String(report.failureReason ?? "no reason given")}.`,
      );
    if (report.status !== "COMPLETED" || typeof report.url !== "string")
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} has not finished report ${reportId} yet (status ${String(report.status ?? "unknown")}); try again in a few minutes.`,
      );
    // The url is pre-signed: it takes no Amazon Ads headers.
    const file = await providerFetch(PROVIDER, hosted(connection.type), report.url);
    if (file.status !== 200 || !file.bytes)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER}'s report download answered ${amazonReason(file)}.`);
    let rows: unknown;
    try {
      const gzipped = file.bytes[0] === 0x1f && file.bytes[1] === 0x8b;
      rows = JSON.parse(
        (gzipped ? gunzipSync(file.bytes, { maxOutputLength: 50 * 1024 * 1024 }) : file.bytes).toString("utf8"),
      );
    } catch {
      rows = null;
    }
    if (!Array.isArray(rows))
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER}'s report file is not a gzipped JSON list.`);
    const list = rows
      .filter(isObject)
      .map((r) => ({ ...r, campaignId: r.campaignId === undefined ? null : String(r.campaignId) }));
    return {
      profile_id: args.profile_id,
      region: region satisfies Region,
      report_id: reportId,
      date_range: { start_date: range.start, end_date: range.end },
      total_rows: list.length,
      rows: list.slice(0, args.limit),
    };
  },
});

export const operations: Operation[] = [amazonProfilesList, amazonSpCampaignsList, amazonSpCampaignReport];
