import "server-only";
import { z } from "zod";
import { PINTEREST_API, pinterestApi } from "@/lib/platforms/pinterest/pinterest-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isObject, isoDate, numeric } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation, type OperationContext } from "@/lib/platforms/kit/operation-types";

// Pinterest API v5 reads: ad accounts, campaigns, campaign analytics.

const DAY_MS = 86_400_000;

export const adAccountId = z
  .string()
  .trim()
  .regex(/^\d{1,18}$/, "must be a numeric Pinterest ad account ID")
  .describe("The Pinterest ad account ID, e.g. 549755885175 (pinterest_ads.list_ad_accounts lists them).");
export const campaignId = z
  .string()
  .trim()
  .regex(/^\d{1,18}$/, "must be a numeric Pinterest campaign ID")
  .describe("The campaign ID, e.g. 626736533506 (pinterest_ads.list_campaigns lists them).");

/** campaignOut's answer. */
const campaignShape = {
  id: z.string().describe("Campaign ID"),
  name: z.string().nullable().describe("Campaign"),
  status: z.string().nullable().describe("Status, e.g. ACTIVE or PAUSED"),
  summary_status: z.string().nullable().describe("Delivery status, e.g. RUNNING"),
  objective_type: z.string().nullable().describe("Objective, e.g. CONVERSIONS"),
  daily_spend_cap: z.number().nullable().describe("Daily budget in micro-units of the account currency"),
  lifetime_spend_cap: z.number().nullable().describe("Lifetime budget in micro-units of the account currency"),
  start_time: z.number().nullable().describe("Starts at (Unix seconds)"),
  end_time: z.number().nullable().describe("Ends at (Unix seconds)"),
};

/** The fields of a campaign Patchbay returns, from Pinterest's CampaignResponse. */
export function campaignOut(c: Record<string, unknown>) {
  return {
    id: String(c.id ?? ""),
    name: c.name ?? null,
    status: c.status ?? null,
    summary_status: c.summary_status ?? null,
    objective_type: c.objective_type ?? null,
    daily_spend_cap: c.daily_spend_cap ?? null,
    lifetime_spend_cap: c.lifetime_spend_cap ?? null,
    start_time: c.start_time ?? null,
    end_time: c.end_time ?? null,
  };
}

/** One page of an ad account's campaigns (List campaigns). */
export async function listCampaigns(
  { connection, credentials }: OperationContext,
  account: string,
  params: Record<string, string | undefined>,
) {
  // https://developers.pinterest.com/docs/api/v5/campaigns-list
  const body = await pinterestApi(
    connection.type,
    urlWith(`${PINTEREST_API}/ad_accounts/${account}/campaigns`, params),
    credentials,
    "the campaigns list",
  );
  const items = isObject(body) && Array.isArray(body.items) ? body.items.filter(isObject) : [];
  const bookmark = isObject(body) && typeof body.bookmark === "string" && body.bookmark ? body.bookmark : null;
  return { items, bookmark };
}

const pinterestListAdAccounts = defineRead({
  id: "pinterest_ads.list_ad_accounts",
  title: "List Pinterest ad accounts",
  consent: "See your ad accounts and campaigns",
  description:
    "The Pinterest ad accounts the connected user can use (API v5 List ad accounts): ID, name, currency, country and owner username. " +
    "Use it first to find the ad_account_id other Pinterest Ads operations need. Page with `bookmark`.",
  types: ["pinterest_ads"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { page_size: 25 },
  input: {
    include_shared_accounts: z
      .boolean()
      .default(true)
      .describe("Also list ad accounts shared with the user through Business Access (default true)."),
    page_size: z.number().int().min(1).max(250).default(25).describe("Ad accounts per page (1-250, default 25)."),
    bookmark: z.string().max(500).optional().describe("The bookmark of the previous page, to continue."),
  },
  output: {
    ad_accounts: z
      .array(
        z.object({
          id: z.string().describe("Ad account ID"),
          name: z.string().nullable().describe("Ad account name"),
          currency: z.string().nullable().describe("Currency, e.g. USD"),
          country: z.string().nullable().describe("Country"),
          owner: z.string().nullable().describe("Owner's username"),
        }),
      )
      .describe("Ad accounts"),
    bookmark: z.string().nullable().describe("Bookmark of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    // https://developers.pinterest.com/docs/api/v5/ad_accounts-list
    const body = await pinterestApi(
      connection.type,
      urlWith(`${PINTEREST_API}/ad_accounts`, {
        include_shared_accounts: String(args.include_shared_accounts),
        page_size: String(args.page_size),
        bookmark: args.bookmark,
      }),
      credentials,
      "the ad accounts list",
    );
    const items = isObject(body) && Array.isArray(body.items) ? body.items.filter(isObject) : [];
    return {
      ad_accounts: items.map((a) => ({
        id: String(a.id ?? ""),
        name: a.name ?? null,
        currency: a.currency ?? null,
        country: a.country ?? null,
        owner: isObject(a.owner) ? (a.owner.username ?? null) : null,
      })),
      bookmark: isObject(body) && typeof body.bookmark === "string" && body.bookmark ? body.bookmark : null,
    };
  },
});

const STATUSES = ["ACTIVE", "PAUSED", "ARCHIVED", "DRAFT"] as const;

const pinterestListCampaigns = defineRead({
  id: "pinterest_ads.list_campaigns",
  title: "List the campaigns of a Pinterest ad account",
  consent: "See your ad accounts and campaigns",
  description:
    "The campaigns of one Pinterest ad account (API v5 List campaigns): ID, name, status (ACTIVE, PAUSED, ARCHIVED), summary status (RUNNING, PAUSED, COMPLETED …), objective, daily and lifetime spend caps (micro-currency) and schedule. " +
    "Active and paused campaigns by default; filter with `statuses`. Page with `bookmark`.",
  types: ["pinterest_ads"],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { ad_account_id: "549755885175" },
  input: {
    ad_account_id: adAccountId,
    statuses: z
      .array(z.enum(STATUSES))
      .min(1)
      .max(4)
      .default(["ACTIVE", "PAUSED"])
      .describe("Which campaign statuses to list (default ACTIVE and PAUSED)."),
    page_size: z.number().int().min(1).max(250).default(25).describe("Campaigns per page (1-250, default 25)."),
    bookmark: z.string().max(500).optional().describe("The bookmark of the previous page, to continue."),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaigns: z.array(z.object(campaignShape)).describe("Campaigns"),
    bookmark: z.string().nullable().describe("Bookmark of the next page (null on the last page)"),
  },
  async run(ctx, args) {
    const page = await listCampaigns(ctx, args.ad_account_id, {
      entity_statuses: args.statuses.join(","),
      page_size: String(args.page_size),
      bookmark: args.bookmark,
    });
    return { ad_account_id: args.ad_account_id, campaigns: page.items.map(campaignOut), bookmark: page.bookmark };
  },
});

// Columns of Pinterest's campaign analytics (a few of the documented ones; MICRO_DOLLAR = the
// account currency in millionths).
const COLUMNS = [
  "SPEND_IN_MICRO_DOLLAR",
  "SPEND_IN_DOLLAR",
  "TOTAL_IMPRESSION",
  "TOTAL_CLICKTHROUGH",
  "CTR",
  "ECPC_IN_DOLLAR",
  "CPC_IN_MICRO_DOLLAR",
  "TOTAL_CONVERSIONS",
  "IMPRESSION_1",
  "CLICKTHROUGH_1",
  "OUTBOUND_CLICK_1",
] as const;
const COLUMN_LABELS: Record<(typeof COLUMNS)[number], string> = {
  SPEND_IN_MICRO_DOLLAR: "Spend (micro-dollars)",
  SPEND_IN_DOLLAR: "Spend (USD)",
  TOTAL_IMPRESSION: "Impressions",
  TOTAL_CLICKTHROUGH: "Clicks",
  CTR: "Click-through rate (0-1)",
  ECPC_IN_DOLLAR: "Cost per click (USD)",
  CPC_IN_MICRO_DOLLAR: "Cost per click (micro-dollars)",
  TOTAL_CONVERSIONS: "Conversions",
  IMPRESSION_1: "Paid impressions",
  CLICKTHROUGH_1: "Paid clicks",
  OUTBOUND_CLICK_1: "Outbound clicks",
};
const DEFAULT_COLUMNS: (typeof COLUMNS)[number][] = [
  "SPEND_IN_DOLLAR",
  "TOTAL_IMPRESSION",
  "TOTAL_CLICKTHROUGH",
  "CTR",
  "TOTAL_CONVERSIONS",
];

const pinterestAnalytics = defineRead({
  id: "pinterest_ads.campaign_analytics",
  title: "Pinterest Ads campaign analytics",
  consent: "See the analytics of your ad campaigns",
  description:
    "Performance of Pinterest ad campaigns over a date range (API v5 campaign analytics): spend, impressions, clicks, CTR, conversions … per campaign, totalled (granularity TOTAL) or per DAY, WEEK or MONTH. " +
    "Without campaign_ids it reports the account's active and paused campaigns (up to 250). Pinterest keeps 90 days: start_date at most 90 days ago, the range at most 90 days. Money columns are in the ad account's currency.",
  types: ["pinterest_ads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: { ad_account_id: "549755885175", start_date: "2026-01-01", end_date: "2026-01-28" },
  input: {
    ad_account_id: adAccountId,
    start_date: isoDate.optional().describe("First day (YYYY-MM-DD, UTC); default 28 days before end_date."),
    end_date: isoDate.optional().describe("Last day (YYYY-MM-DD, UTC); default yesterday."),
    campaign_ids: z
      .array(campaignId)
      .min(1)
      .max(250)
      .optional()
      .describe("Campaigns to report (default: the account's active and paused ones)."),
    columns: z
      .array(z.enum(COLUMNS))
      .min(1)
      .max(COLUMNS.length)
      .default(DEFAULT_COLUMNS)
      .describe(`Metrics to return (default ${DEFAULT_COLUMNS.join(", ")}).`),
    granularity: z
      .enum(["TOTAL", "DAY", "WEEK", "MONTH"])
      .default("TOTAL")
      .describe("TOTAL = one row per campaign over the range; DAY, WEEK, MONTH = one row per campaign and period."),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    start: z.string().describe("First day"),
    end: z.string().describe("Last day"),
    granularity: z
      .enum(["TOTAL", "DAY", "WEEK", "MONTH"])
      .describe("Rows per campaign: TOTAL, or per DAY, WEEK or MONTH"),
    rows: z
      .array(
        z.object({
          campaign_id: z.string().describe("Campaign ID"),
          campaign_name: z.string().nullable().optional().describe("Campaign (when the campaigns were not named)"),
          date: z.string().optional().describe("Period (per day, week or month)"),
          metrics: z
            .object(
              Object.fromEntries(
                COLUMNS.map((c) => [
                  c,
                  z.number().nullable().optional().describe(`${COLUMN_LABELS[c]} (when asked for)`),
                ]),
              ),
            )
            .describe("The metrics asked for"),
        }),
      )
      .describe("Analytics rows: one per campaign (and period)"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { maxDays: 91 });
    const oldest = new Date(Date.now() - 90 * DAY_MS).toISOString().slice(0, 10);
    if (range.start < oldest)
      throw new OperationInputError(
        `start_date ${range.start} is more than 90 days ago; Pinterest reports from ${oldest}.`,
      );
    let ids = args.campaign_ids;
    const names = new Map<string, unknown>();
    if (!ids) {
      const page = await listCampaigns(ctx, args.ad_account_id, { entity_statuses: "ACTIVE,PAUSED", page_size: "250" });
      for (const c of page.items) names.set(String(c.id), c.name ?? null);
      ids = [...names.keys()];
      if (!ids.length) return { ad_account_id: args.ad_account_id, ...range, granularity: args.granularity, rows: [] };
    }
    const url = new URL(`${PINTEREST_API}/ad_accounts/${args.ad_account_id}/campaigns/analytics`);
    url.searchParams.set("start_date", range.start);
    url.searchParams.set("end_date", range.end);
    // campaign_ids is a repeated (exploded) query parameter; columns is one comma-separated value.
    for (const id of ids) url.searchParams.append("campaign_ids", id);
    url.searchParams.set("columns", args.columns.join(","));
    url.searchParams.set("granularity", args.granularity);
    // https://developers.pinterest.com/docs/api/v5/campaigns-analytics
    const body = await pinterestApi(
      ctx.connection.type,
      url.toString(),
      ctx.credentials,
      "the campaign analytics call",
    );
    const rows = (Array.isArray(body) ? body : []).filter(isObject).map((r) => {
      const id = String(r.CAMPAIGN_ID ?? "");
      return {
        campaign_id: id,
        ...(names.has(id) && { campaign_name: names.get(id) }),
        ...(typeof r.DATE === "string" && { date: r.DATE }),
        metrics: Object.fromEntries(args.columns.map((c) => [c, r[c] === undefined ? null : numeric(r[c])])),
      };
    });
    return { ad_account_id: args.ad_account_id, ...range, granularity: args.granularity, rows };
  },
});

export const operations: Operation[] = [pinterestListAdAccounts, pinterestListCampaigns, pinterestAnalytics];
