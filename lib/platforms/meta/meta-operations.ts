import "server-only";
import { z } from "zod";
import { GRAPH, graphAuth, graphGet, isObject } from "@/lib/platforms/meta/meta-provider";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation } from "@/lib/platforms/kit/operation-types";

// Meta Ads through the Graph API's Insights edge.

const INSIGHT_FIELDS = [
  "impressions",
  "reach",
  "frequency",
  "clicks",
  "inline_link_clicks",
  "spend",
  "ctr",
  "cpc",
  "cpm",
  "actions",
  "action_values",
  "purchase_roas",
  "conversions",
] as const;
const DEFAULT_FIELDS = ["impressions", "clicks", "spend", "ctr", "cpc", "actions"] as const;
const NAME_FIELDS = {
  account: ["account_id", "account_name"],
  campaign: ["campaign_id", "campaign_name"],
  adset: ["adset_id", "adset_name"],
  ad: ["ad_id", "ad_name"],
} as const;
const DATE_PRESETS = [
  "today",
  "yesterday",
  "last_7d",
  "last_14d",
  "last_28d",
  "last_30d",
  "last_90d",
  "this_month",
  "last_month",
  "this_quarter",
  "this_year",
  "maximum",
] as const;

/** "act_123" or "123" → "123". */
export const adAccountId = z
  .string()
  .transform((v) => v.trim().replace(/^act_/, ""))
  .pipe(z.string().regex(/^\d{1,20}$/, "must be a numeric ad account ID (act_ prefix allowed)"));

/** [{action_type, value}] → {action_type: value}: the model reads a flat object more easily. */
function actionsObject(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return Object.fromEntries(v.filter(isObject).map((a) => [String(a.action_type), numeric(a.value)]));
}

/** actionsObject's answer: a number per action type. */
const actionCounts = z.record(z.string(), z.number());

const metaAdsInsights = defineRead({
  toolName: "meta_ads_insights",
  title: "Meta Ads insights",
  consent: "Read the performance of your campaigns, ad sets and ads",
  description:
    "Performance of one Meta (Facebook/Instagram) ad account from the Graph API Insights edge: impressions, clicks, spend (account currency), CTR, CPC, actions (conversions by action type) …, " +
    "at account, campaign, ad set or ad level, over a date preset or a since/until range, optionally one row per day. Use meta_ads_list_ad_accounts when you do not know the ad account ID.",
  types: ["meta_ads"],
  id: "meta_ads.insights",
  credits: 3,
  cacheTtlSeconds: 300,
  example: { ad_account_id: "act_1234567890", level: "campaign", date_preset: "last_7d" },
  input: {
    ad_account_id: adAccountId.describe("The ad account ID, e.g. 1234567890 or act_1234567890."),
    level: z
      .enum(["account", "campaign", "adset", "ad"])
      .default("campaign")
      .describe("One row per account, campaign, ad set or ad (default campaign)."),
    fields: z
      .array(z.enum(INSIGHT_FIELDS))
      .min(1)
      .max(13)
      .default([...DEFAULT_FIELDS])
      .describe(
        `Metrics to return (default ${DEFAULT_FIELDS.join(", ")}); IDs and names of the level are always included.`,
      ),
    date_preset: z
      .enum(DATE_PRESETS)
      .optional()
      .describe("A relative period such as last_7d or last_month; give it or since/until (default last_30d)."),
    since: isoDate.optional().describe("First day, YYYY-MM-DD (with until; instead of date_preset)."),
    until: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (with since)."),
    time_increment: z
      .enum(["all_days", "1", "7", "monthly"])
      .default("all_days")
      .describe("Split rows by period: all_days (one row per object, default), 1 (daily), 7 (weekly) or monthly."),
    limit: rowLimit(100, 500),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    level: z.enum(["account", "campaign", "adset", "ad"]).describe("One row per account, campaign, ad set or ad"),
    rows: z
      .array(
        z
          .object({
            account_id: z.string().optional().describe("Ad account ID (level account)"),
            account_name: z.string().optional().describe("Ad account (level account)"),
            campaign_id: z.string().optional().describe("Campaign ID (level campaign)"),
            campaign_name: z.string().optional().describe("Campaign (level campaign)"),
            adset_id: z.string().optional().describe("Ad set ID (level adset)"),
            adset_name: z.string().optional().describe("Ad set (level adset)"),
            ad_id: z.string().optional().describe("Ad ID (level ad)"),
            ad_name: z.string().optional().describe("Ad (level ad)"),
            impressions: z.number().optional().describe("Impressions"),
            reach: z.number().optional().describe("Reach"),
            frequency: z.number().optional().describe("Frequency"),
            clicks: z.number().optional().describe("Clicks"),
            inline_link_clicks: z.number().optional().describe("Link clicks"),
            spend: z.number().optional().describe("Amount spent (account currency)"),
            ctr: z.number().optional().describe("Click-through rate (%)"),
            cpc: z.number().optional().describe("Cost per click"),
            cpm: z.number().optional().describe("Cost per 1,000 impressions"),
            actions: actionCounts.optional().describe("Actions by type, e.g. link_click, purchase"),
            action_values: actionCounts.optional().describe("Action values by type, e.g. purchase"),
            purchase_roas: actionCounts.optional().describe("Purchase return on ad spend, by type"),
            conversions: actionCounts.optional().describe("Conversions by type"),
            date_start: z.string().optional().describe("First day"),
            date_stop: z.string().optional().describe("Last day"),
          })
          .catchall(z.unknown()),
      )
      .describe(
        "Insights rows: the level's ID and name, then the metrics asked for (the columns depend on the input), per period",
      ),
    has_more: z.boolean().describe("More rows than were returned"),
  },
  async run({ connection, credentials }, args) {
    if (args.date_preset && (args.since || args.until))
      throw new OperationInputError("Give either date_preset or since/until, not both.");
    if (!args.since !== !args.until) throw new OperationInputError("since and until go together.");
    const range = args.since ? dateRangeOrThrow(args.since, args.until, { maxDays: 37 * 31 }) : null;
    const { accessToken, proof } = graphAuth(credentials);
    const url = urlWith(`${GRAPH}/act_${args.ad_account_id}/insights`, {
      level: args.level,
      fields: [...NAME_FIELDS[args.level], ...args.fields].join(","),
      ...(range
        ? { time_range: JSON.stringify({ since: range.start, until: range.end }) }
        : { date_preset: args.date_preset ?? "last_30d" }),
      time_increment: args.time_increment,
      limit: String(args.limit),
      ...proof,
    });
    const body = await graphGet(connection.type, url, "the insights call", accessToken);
    const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
    const rows = data.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          k === "actions" || k === "action_values" || k === "conversions" || k === "purchase_roas"
            ? actionsObject(v)
            : /_id$|_name$|^date_/.test(k)
              ? v
              : numeric(v),
        ]),
      ),
    );
    const paging = isObject(body.paging) ? body.paging : {};
    return { ad_account_id: args.ad_account_id, level: args.level, rows, has_more: typeof paging.next === "string" };
  },
});

const metaAdsListAdAccounts = defineRead({
  toolName: "meta_ads_list_ad_accounts",
  title: "List Meta ad accounts",
  consent: "See your ad accounts",
  description:
    "Lists the Meta ad accounts this connection can read (Graph API /me/adaccounts): ID, name, status, currency and time zone, for meta_ads_insights.",
  types: ["meta_ads"],
  id: "meta_ads.list_ad_accounts",
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: { limit: rowLimit(50, 500) },
  output: {
    ad_accounts: z
      .array(
        z.object({
          ad_account_id: z.string().describe("Ad account ID"),
          name: z.string().nullable().describe("Ad account name"),
          status: z
            .union([z.string(), z.number()])
            .nullable()
            .describe("Account status, e.g. ACTIVE or DISABLED (a code Meta has not documented as its number)"),
          currency: z.string().nullable().describe("Currency, e.g. USD"),
          time_zone: z.string().nullable().describe("Time zone"),
        }),
      )
      .describe("Ad accounts"),
  },
  async run({ connection, credentials }, args) {
    const { accessToken, proof } = graphAuth(credentials);
    const url = urlWith(`${GRAPH}/me/adaccounts`, {
      fields: "account_id,name,account_status,currency,timezone_name",
      limit: String(args.limit),
      ...proof,
    });
    const body = await graphGet(connection.type, url, "the adaccounts call", accessToken);
    const ACCOUNT_STATUS: Record<number, string> = {
      1: "ACTIVE",
      2: "DISABLED",
      3: "UNSETTLED",
      7: "PENDING_RISK_REVIEW",
      8: "PENDING_SETTLEMENT",
      9: "IN_GRACE_PERIOD",
      100: "PENDING_CLOSURE",
      101: "CLOSED",
    };
    return {
      ad_accounts: (Array.isArray(body.data) ? body.data.filter(isObject) : []).map((a) => ({
        ad_account_id: a.account_id ?? String(a.id ?? "").replace(/^act_/, ""),
        name: a.name ?? null,
        status: ACCOUNT_STATUS[Number(a.account_status)] ?? a.account_status ?? null,
        currency: a.currency ?? null,
        time_zone: a.timezone_name ?? null,
      })),
    };
  },
});

export const operations: Operation[] = [metaAdsInsights, metaAdsListAdAccounts];
