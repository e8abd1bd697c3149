import "server-only";
import { z } from "zod";
import { REDDIT_API, redditApi } from "@/lib/platforms/reddit/reddit-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isObject, isoDate } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// Reddit Ads API v3 reads: businesses and their ad accounts, campaigns, a performance report.
// Lists answer {data: […], pagination: {next_url}}; single objects {data: {…}}.

const DAY_MS = 86_400_000;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const adAccountId = z
  .string()
  .trim()
  .regex(ID, "is not a Reddit ad account ID")
  .describe("The Reddit ad account ID, e.g. a2_abc123 (reddit_ads.list_ad_accounts lists them).");
export const campaignId = z
  .string()
  .trim()
  .regex(ID, "is not a Reddit campaign ID")
  .describe("The campaign ID (reddit_ads.list_campaigns lists them).");

/** campaignOut's answer. */
const campaignShape = {
  id: z.string().describe("Campaign ID"),
  name: z.string().nullable().describe("Campaign"),
  ad_account_id: z.string().nullable().describe("Ad account ID"),
  configured_status: z.string().nullable().describe("Status set, e.g. ACTIVE or PAUSED"),
  effective_status: z.string().nullable().describe("Effective status"),
  objective: z.string().nullable().describe("Objective"),
  goal_type: z.string().nullable().describe("Goal type, e.g. DAILY_SPEND"),
  goal_value: z.number().nullable().describe("Goal value (budgets in micro-units of the account currency)"),
  spend_cap: z.number().nullable().describe("Spend cap in micro-units of the account currency"),
  start_time: z.string().nullable().describe("Starts at"),
  end_time: z.string().nullable().describe("Ends at"),
};

/** The fields of a campaign Patchbay returns, from Reddit's campaign object. */
export function campaignOut(c: Record<string, unknown>) {
  return {
    id: String(c.id ?? ""),
    name: c.name ?? null,
    ad_account_id: c.ad_account_id ?? null,
    configured_status: c.configured_status ?? null,
    effective_status: c.effective_status ?? null,
    objective: c.objective ?? null,
    goal_type: c.goal_type ?? null,
    goal_value: c.goal_value ?? null,
    spend_cap: c.spend_cap ?? null,
    start_time: c.start_time ?? null,
    end_time: c.end_time ?? null,
  };
}

const list = (body: Record<string, unknown>) => (Array.isArray(body.data) ? body.data.filter(isObject) : []);
/** page.token of a list answer's pagination.next_url, or null on the last page. */
const nextToken = (body: Record<string, unknown>) => {
  const next = isObject(body.pagination) ? body.pagination.next_url : null;
  if (typeof next !== "string" || !next) return null;
  try {
    return new URL(next).searchParams.get("page.token");
  } catch {
    return null;
  }
};

const MAX_BUSINESSES = 20;

const redditListAdAccounts = defineRead({
  id: "reddit_ads.list_ad_accounts",
  title: "List Reddit businesses and ad accounts",
  consent: "See your businesses, ad accounts and campaigns",
  description:
    "The Reddit Ads businesses the connected user belongs to, each with its ad accounts (Ads API v3 /me/businesses and /businesses/{id}/ad_accounts): business ID and name; ad account ID, name, currency, time zone and status. " +
    `Use it first to find the ad_account_id other Reddit Ads operations need (at most ${MAX_BUSINESSES} businesses).`,
  types: ["reddit_ads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: {},
  input: {},
  output: {
    businesses: z
      .array(
        z.object({
          id: z.string().describe("Business ID"),
          name: z.string().nullable().describe("Business"),
          ad_accounts: z
            .array(
              z.object({
                id: z.string().describe("Ad account ID"),
                name: z.string().nullable().describe("Ad account name"),
                currency: z.string().nullable().describe("Currency, e.g. USD"),
                time_zone_id: z.string().nullable().describe("Time zone"),
                status: z.string().nullable().describe("Approval status, e.g. APPROVED"),
              }),
            )
            .describe("Its ad accounts"),
        }),
      )
      .describe("Businesses"),
  },
  async run({ connection, credentials }) {
    // https://ads-api.reddit.com/docs/v3/ (List my businesses)
    const businesses = list(
      await redditApi(connection.type, `${REDDIT_API}/me/businesses`, credentials, "the businesses list"),
    ).slice(0, MAX_BUSINESSES);
    const out = [];
    for (const b of businesses) {
      const id = String(b.id ?? "");
      // https://ads-api.reddit.com/docs/v3/ (List ad accounts by business)
      const accounts = list(
        await redditApi(
          connection.type,
          `${REDDIT_API}/businesses/${encodeURIComponent(id)}/ad_accounts`,
          credentials,
          "the ad accounts list",
        ),
      );
      out.push({
        id,
        name: b.name ?? null,
        ad_accounts: accounts.map((a) => ({
          id: String(a.id ?? ""),
          name: a.name ?? null,
          currency: a.currency ?? null,
          time_zone_id: a.time_zone_id ?? null,
          status: a.admin_approval ?? a.status ?? null,
        })),
      });
    }
    return { businesses: out };
  },
});

const redditListCampaigns = defineRead({
  id: "reddit_ads.list_campaigns",
  title: "List the campaigns of a Reddit ad account",
  consent: "See your businesses, ad accounts and campaigns",
  description:
    "The campaigns of one Reddit ad account (Ads API v3 List campaigns): ID, name, configured status (ACTIVE, PAUSED, ARCHIVED), effective status, objective, budget goal (goal_type, goal_value and spend_cap in micro-currency) and schedule. " +
    "Page with `page_token` (the previous answer's next_page_token).",
  types: ["reddit_ads"],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { ad_account_id: "a2_abc123" },
  input: {
    ad_account_id: adAccountId,
    page_size: z.number().int().min(1).max(1000).default(100).describe("Campaigns per page (1-1000, default 100)."),
    page_token: z.string().max(1000).optional().describe("next_page_token of the previous page, to continue."),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaigns: z.array(z.object(campaignShape)).describe("Campaigns"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    // https://ads-api.reddit.com/docs/v3/ (List campaigns: GET /ad_accounts/{ad_account_id}/campaigns)
    const body = await redditApi(
      connection.type,
      urlWith(`${REDDIT_API}/ad_accounts/${encodeURIComponent(args.ad_account_id)}/campaigns`, {
        "page.size": String(args.page_size),
        "page.token": args.page_token,
      }),
      credentials,
      "the campaigns list",
    );
    return {
      ad_account_id: args.ad_account_id,
      campaigns: list(body).map(campaignOut),
      next_page_token: nextToken(body),
    };
  },
});

const FIELDS = ["IMPRESSIONS", "CLICKS", "CTR", "SPEND", "CPC", "ECPM", "REACH"] as const;
const DEFAULT_FIELDS: (typeof FIELDS)[number][] = ["IMPRESSIONS", "CLICKS", "CTR", "SPEND", "CPC"];
const BREAKDOWNS = ["CAMPAIGN_ID", "AD_GROUP_ID", "AD_ID", "DATE", "COUNTRY", "COMMUNITY", "PLACEMENT"] as const;

const redditReport = defineRead({
  id: "reddit_ads.report",
  title: "Reddit Ads report",
  consent: "See the reports of your ad accounts",
  description:
    "Performance of a Reddit ad account over a date range (Ads API v3 reports): impressions, clicks, CTR, spend, CPC, eCPM, reach, broken down by campaign (default), ad group, ad, date, country, community or placement. " +
    "Spend, CPC and eCPM are in micro-currency (1,000,000 = one unit of the account's currency). Days run midnight to midnight UTC.",
  types: ["reddit_ads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: {
    ad_account_id: "a2_abc123",
    start_date: "2026-01-01",
    end_date: "2026-01-28",
    breakdowns: ["CAMPAIGN_ID"],
  },
  input: {
    ad_account_id: adAccountId,
    start_date: isoDate.optional().describe("First day (YYYY-MM-DD, UTC); default 28 days before end_date."),
    end_date: isoDate.optional().describe("Last day (YYYY-MM-DD, UTC, included); default yesterday."),
    breakdowns: z
      .array(z.enum(BREAKDOWNS))
      .min(1)
      .max(3)
      .default(["CAMPAIGN_ID"])
      .describe("How rows are split, 1-3 of them (default CAMPAIGN_ID; add DATE for one row per day)."),
    fields: z
      .array(z.enum(FIELDS))
      .min(1)
      .max(FIELDS.length)
      .default(DEFAULT_FIELDS)
      .describe(`Metrics to return (default ${DEFAULT_FIELDS.join(", ")}).`),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    start: z.string().describe("First day"),
    end: z.string().describe("Last day"),
    breakdowns: z.array(z.enum(BREAKDOWNS)).describe("How the rows are split"),
    rows: z
      .array(
        z.object({
          campaign_id: z.string().nullable().optional().describe("Campaign ID (split by CAMPAIGN_ID)"),
          ad_group_id: z.string().nullable().optional().describe("Ad group ID (split by AD_GROUP_ID)"),
          ad_id: z.string().nullable().optional().describe("Ad ID (split by AD_ID)"),
          date: z.string().nullable().optional().describe("Day (split by DATE)"),
          country: z.string().nullable().optional().describe("Country (split by COUNTRY)"),
          community: z.string().nullable().optional().describe("Community (split by COMMUNITY)"),
          placement: z.string().nullable().optional().describe("Placement (split by PLACEMENT)"),
          impressions: z.number().nullable().optional().describe("Impressions (when asked for)"),
          clicks: z.number().nullable().optional().describe("Clicks (when asked for)"),
          ctr: z.number().nullable().optional().describe("Click-through rate (when asked for)"),
          spend: z
            .number()
            .nullable()
            .optional()
            .describe("Spend in micro-units of the account currency (when asked for)"),
          cpc: z.number().nullable().optional().describe("Cost per click in micro-units (when asked for)"),
          ecpm: z.number().nullable().optional().describe("Cost per 1,000 impressions in micro-units (when asked for)"),
          reach: z.number().nullable().optional().describe("Reach (when asked for)"),
        }),
      )
      .describe("Report rows: the breakdowns, then the metrics asked for, in lower case"),
    more_rows: z.boolean().describe("More rows than were returned"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date);
    const endsAt = new Date(Date.parse(`${range.end}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    // https://ads-api.reddit.com/docs/v3/ (Get a report: POST /ad_accounts/{ad_account_id}/reports)
    const body = await redditApi(
      connection.type,
      `${REDDIT_API}/ad_accounts/${encodeURIComponent(args.ad_account_id)}/reports`,
      credentials,
      "the report call",
      {
        method: "POST",
        body: {
          data: {
            starts_at: `${range.start}T00:00:00Z`,
            ends_at: `${endsAt}T00:00:00Z`,
            breakdowns: args.breakdowns,
            fields: args.fields,
          },
        },
      },
    );
    const metrics = isObject(body.data) && Array.isArray(body.data.metrics) ? body.data.metrics.filter(isObject) : [];
    const keys = [...args.breakdowns, ...args.fields].map((k) => k.toLowerCase());
    return {
      ad_account_id: args.ad_account_id,
      ...range,
      breakdowns: args.breakdowns,
      rows: metrics.map((m) => Object.fromEntries(keys.map((k) => [k, m[k] ?? null]))),
      more_rows:
        isObject(body.pagination) && typeof body.pagination.next_url === "string" && body.pagination.next_url !== "",
    };
  },
});

export const operations: Operation[] = [redditListAdAccounts, redditListCampaigns, redditReport];
