import "server-only";
import { z } from "zod";
import { SNAPCHAT_API, snapchatApi, snapchatEntities } from "@/lib/platforms/snapchat/snapchat-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isObject, isoDate } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// Snapchat Marketing API reads: organizations with their ad accounts, campaigns, campaign stats.

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const adAccountId = z
  .string()
  .trim()
  .regex(UUID, "must be a Snapchat ad account ID (a UUID)")
  .describe("The Snapchat ad account ID, a UUID (snapchat_ads.list_ad_accounts lists them).");
export const campaignId = z
  .string()
  .trim()
  .regex(UUID, "must be a Snapchat campaign ID (a UUID)")
  .describe("The campaign ID, a UUID (snapchat_ads.list_campaigns lists them).");

/** campaignOut's answer. */
const campaignShape = {
  id: z.string().describe("Campaign ID"),
  name: z.string().nullable().describe("Campaign"),
  ad_account_id: z.string().nullable().describe("Ad account ID"),
  status: z.string().nullable().describe("Status, e.g. ACTIVE or PAUSED"),
  objective: z.string().nullable().describe("Objective"),
  daily_budget_micro: z.number().nullable().describe("Daily budget in micro-units of the account currency"),
  lifetime_spend_cap_micro: z.number().nullable().describe("Lifetime budget in micro-units of the account currency"),
  start_time: z.string().nullable().describe("Starts at"),
  end_time: z.string().nullable().describe("Ends at"),
  delivery_status: z.array(z.string()).nullable().describe("Delivery status, e.g. VALID"),
};

/** The fields of a campaign Patchbay returns, from Snapchat's campaign entity. */
export function campaignOut(c: Record<string, unknown>) {
  return {
    id: String(c.id ?? ""),
    name: c.name ?? null,
    ad_account_id: c.ad_account_id ?? null,
    status: c.status ?? null,
    objective: c.objective ?? null,
    daily_budget_micro: c.daily_budget_micro ?? null,
    lifetime_spend_cap_micro: c.lifetime_spend_cap_micro ?? null,
    start_time: c.start_time ?? null,
    end_time: c.end_time ?? null,
    delivery_status: c.delivery_status ?? null,
  };
}

const snapchatListAdAccounts = defineRead({
  id: "snapchat_ads.list_ad_accounts",
  title: "List Snapchat organizations and ad accounts",
  consent: "See your organizations, ad accounts and campaigns",
  description:
    "The Snapchat organizations the connected user belongs to, each with its ad accounts (Marketing API Get all organizations, with_ad_accounts): organization ID and name; ad account ID, name, status, currency and time zone. " +
    "Use it first to find the ad_account_id other Snapchat Ads operations need.",
  types: ["snapchat_ads"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {},
  output: {
    organizations: z
      .array(
        z.object({
          id: z.string().describe("Organization ID"),
          name: z.string().nullable().describe("Organization"),
          ad_accounts: z
            .array(
              z.object({
                id: z.string().describe("Ad account ID"),
                name: z.string().nullable().describe("Ad account name"),
                status: z.string().nullable().describe("Status, e.g. ACTIVE"),
                currency: z.string().nullable().describe("Currency, e.g. USD"),
                timezone: z.string().nullable().describe("Time zone"),
              }),
            )
            .describe("Its ad accounts"),
        }),
      )
      .describe("Organizations"),
  },
  async run({ connection, credentials }) {
    // https://developers.snap.com/api/marketing-api/Ads-API/organizations (Get All Organizations)
    const body = await snapchatApi(
      connection.type,
      urlWith(`${SNAPCHAT_API}/me/organizations`, { with_ad_accounts: "true" }),
      credentials,
      "the organizations list",
    );
    return {
      organizations: snapchatEntities(body, "organizations", "organization").map((o) => ({
        id: String(o.id ?? ""),
        name: o.name ?? null,
        ad_accounts: (Array.isArray(o.ad_accounts) ? o.ad_accounts : []).filter(isObject).map((a) => ({
          id: String(a.id ?? ""),
          name: a.name ?? null,
          status: a.status ?? null,
          currency: a.currency ?? null,
          timezone: a.timezone ?? null,
        })),
      })),
    };
  },
});

const snapchatListCampaigns = defineRead({
  id: "snapchat_ads.list_campaigns",
  title: "List the campaigns of a Snapchat ad account",
  consent: "See your organizations, ad accounts and campaigns",
  description:
    "The campaigns of one Snapchat ad account (Marketing API Get all campaigns): ID, name, status (ACTIVE or PAUSED), objective, daily budget and lifetime spend cap (micro-currency), schedule and delivery status. " +
    "Page with `cursor` (the previous answer's next_cursor).",
  types: ["snapchat_ads"],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { ad_account_id: "8adc3db7-8148-4fbf-999c-8d2266369d74" },
  input: {
    ad_account_id: adAccountId,
    limit: z.number().int().min(50).max(1000).default(50).describe("Campaigns per page (50-1000, default 50)."),
    cursor: z.string().max(1000).optional().describe("next_cursor of the previous page, to continue."),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaigns: z.array(z.object(campaignShape)).describe("Campaigns"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    // https://developers.snap.com/api/marketing-api/Ads-API/campaigns (Get all campaigns)
    // https://developers.snap.com/api/marketing-api/Ads-API/api-patterns (Pagination: limit, paging.next_link)
    const body = await snapchatApi(
      connection.type,
      urlWith(`${SNAPCHAT_API}/adaccounts/${args.ad_account_id}/campaigns`, {
        limit: String(args.limit),
        cursor: args.cursor,
      }),
      credentials,
      "the campaigns list",
    );
    const next = isObject(body.paging) && typeof body.paging.next_link === "string" ? body.paging.next_link : null;
    let cursor: string | null = null;
    try {
      cursor = next ? new URL(next).searchParams.get("cursor") : null;
    } catch {
      cursor = null;
    }
    return {
      ad_account_id: args.ad_account_id,
      campaigns: snapchatEntities(body, "campaigns", "campaign").map(campaignOut),
      next_cursor: cursor,
    };
  },
});

const FIELDS = [
  "impressions",
  "swipes",
  "spend",
  "quartile_1",
  "quartile_2",
  "quartile_3",
  "view_completion",
  "screen_time_millis",
  "video_views",
  "conversion_purchases",
] as const;
const DEFAULT_FIELDS: (typeof FIELDS)[number][] = ["impressions", "swipes", "spend"];
const FIELD_LABELS: Record<(typeof FIELDS)[number], string> = {
  impressions: "Impressions",
  swipes: "Swipe-ups",
  spend: "Spend (micro-units of the account currency)",
  quartile_1: "Video views to 25 %",
  quartile_2: "Video views to 50 %",
  quartile_3: "Video views to 75 %",
  view_completion: "Video views to the end",
  screen_time_millis: "Screen time (milliseconds)",
  video_views: "Video views",
  conversion_purchases: "Purchases",
};
/** pick()'s answer: the stats asked for (null when Snapchat has none). */
const statsShape = z.object(
  Object.fromEntries(
    FIELDS.map((f) => [f, z.number().nullable().optional().describe(`${FIELD_LABELS[f]} (when asked for)`)]),
  ),
);

const snapchatCampaignStats = defineRead({
  id: "snapchat_ads.campaign_stats",
  title: "Snapchat Ads campaign stats",
  consent: "See the stats of your campaigns",
  description:
    "Performance stats of one Snapchat campaign over a date range (Marketing API Measurement, campaign stats): impressions, swipes (clicks), spend (micro-currency), video quartiles, view completions … totalled (granularity TOTAL) or per DAY. " +
    "Days run midnight to midnight UTC; Snapchat may require DAY boundaries in the ad account's time zone and then says so. At most 31 days with DAY.",
  types: ["snapchat_ads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: { campaign_id: "ff869d1f-0923-4d28-8577-4c36291f0fca", start_date: "2026-01-01", end_date: "2026-01-07" },
  input: {
    campaign_id: campaignId,
    start_date: isoDate.optional().describe("First day (YYYY-MM-DD); default 7 days before end_date."),
    end_date: isoDate.optional().describe("Last day (YYYY-MM-DD, included); default yesterday."),
    granularity: z
      .enum(["TOTAL", "DAY"])
      .default("TOTAL")
      .describe("TOTAL = one total over the range; DAY = one row per day."),
    fields: z
      .array(z.enum(FIELDS))
      .min(1)
      .max(FIELDS.length)
      .default(DEFAULT_FIELDS)
      .describe(`Stats to return (default ${DEFAULT_FIELDS.join(", ")}).`),
  },
  output: {
    campaign_id: z.string().describe("Campaign ID"),
    start: z.string().describe("First day"),
    end: z.string().describe("Last day"),
    granularity: z.enum(["TOTAL", "DAY"]).describe("TOTAL, or one entry per DAY"),
    total: statsShape.nullable().describe("Totals over the range (granularity TOTAL)"),
    days: z
      .array(
        z.object({
          start_time: z.string().nullable().describe("Day start"),
          end_time: z.string().nullable().describe("Day end"),
          stats: statsShape.describe("Stats of the day"),
        }),
      )
      .describe("One entry per day (granularity DAY)"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, {
      defaultDays: 7,
      maxDays: args.granularity === "DAY" ? 31 : 366,
    });
    const startTime = `${range.start}T00:00:00.000Z`;
    const endTime = `${new Date(Date.parse(`${range.end}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)}T00:00:00.000Z`;
    // https://developers.snap.com/api/marketing-api/Ads-API/measurement (GET /v1/campaigns/{id}/stats)
    const body = await snapchatApi(
      connection.type,
      urlWith(`${SNAPCHAT_API}/campaigns/${args.campaign_id}/stats`, {
        granularity: args.granularity,
        fields: args.fields.join(","),
        start_time: startTime,
        end_time: endTime,
      }),
      credentials,
      "the campaign stats call",
    );
    const pick = (stats: unknown) =>
      Object.fromEntries(args.fields.map((f) => [f, isObject(stats) && f in stats ? stats[f] : null]));
    if (args.granularity === "TOTAL") {
      const [total] = snapchatEntities(body, "total_stats", "total_stat");
      return { campaign_id: args.campaign_id, ...range, granularity: "TOTAL", total: pick(total?.stats), days: [] };
    }
    const [series] = snapchatEntities(body, "timeseries_stats", "timeseries_stat");
    const days = (Array.isArray(series?.timeseries) ? series.timeseries : []).filter(isObject).map((t) => ({
      start_time: t.start_time ?? null,
      end_time: t.end_time ?? null,
      stats: pick(t.stats),
    }));
    return { campaign_id: args.campaign_id, ...range, granularity: "DAY", total: null, days };
  },
});

export const operations: Operation[] = [snapchatListAdAccounts, snapchatListCampaigns, snapchatCampaignStats];
