import "server-only";
import { z } from "zod";
import { isObject, listOf } from "@/lib/platforms/google/google-provider";
import { adsPost, campaignState, customerId, dashed } from "@/lib/platforms/google/google-ads-writes";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { reportedDates } from "@/lib/platforms/kit/output-parts";

// Google Ads reports marketers read every week (search terms, keywords) and the changes they make
// from them: negative keywords on a campaign (CampaignCriterionService) and pausing or enabling an
// ad group (AdGroupService), over the REST interface of the API version the other Ads calls use.

const PROVIDER = "Google";
type Json = Record<string, unknown>;

const account = {
  customer_id: customerId("customer_id").describe(
    "The Google Ads customer (account) ID, 10 digits (123-456-7890 is accepted).",
  ),
  login_customer_id: customerId("login_customer_id")
    .optional()
    .describe("The manager (MCC) account ID through which the customer is accessed, when it is not accessed directly."),
};

const numericId = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, `must be a numeric Google Ads ${what} ID`);

const period = {
  start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 30 days before end_date)."),
  end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
};

/** One GAQL search of the account; the rows as Google sends them (camelCase objects). */
async function search(ctx: OperationContext, args: { customer_id: string; login_customer_id?: string }, query: string) {
  const what = "the googleAds:search call";
  // https://developers.google.com/google-ads/api/rest/common/search (GoogleAdsService.Search over REST)
  const body = await adsPost(
    ctx,
    { ...args, campaign_id: "" },
    `/customers/${args.customer_id}/googleAds:search`,
    what,
    { query },
  );
  return listOf(body, "results", what);
}

const part = (row: Json, key: string): Json => (isObject(row[key]) ? row[key] : {});
const text = (v: unknown) => (typeof v === "string" ? v : null);
const micros = (v: unknown) => {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) ? Math.round(n / 10_000) / 100 : null;
};
const metricsOf = (row: Json) => {
  const m = part(row, "metrics");
  const impressions = Number(numeric(m.impressions) ?? 0);
  const clicks = Number(numeric(m.clicks) ?? 0);
  return {
    impressions,
    clicks,
    ctr: impressions ? Math.round((clicks / impressions) * 10_000) / 10_000 : null,
    cost: micros(m.costMicros),
    conversions: typeof numeric(m.conversions) === "number" ? (numeric(m.conversions) as number) : 0,
  };
};

/** metricsOf's fields, as the reports return them. */
const metricsShape = {
  impressions: z.number().describe("Impressions"),
  clicks: z.number().describe("Clicks"),
  ctr: z.number().nullable().describe("Click-through rate (0-1)"),
  cost: z.number().nullable().describe("Cost (account currency)"),
  conversions: z.number().describe("Conversions"),
};
const campaignAndAdGroup = {
  campaign_id: z.string().nullable().describe("Campaign ID"),
  campaign_name: z.string().nullable().describe("Campaign"),
  ad_group_id: z.string().nullable().describe("Ad group ID"),
  ad_group_name: z.string().nullable().describe("Ad group"),
};

const searchTermsReport = defineRead({
  id: "google_ads.search_terms.report",
  title: "Google Ads search terms report (the search queries behind your ads)",
  consent: "Read your Google Ads campaigns, budgets and performance",
  description:
    "The search terms report of a Google Ads account (search_term_view): the actual searches people typed that triggered your ads, with the campaign and ad group, whether each term is added or excluded as a keyword, and impressions, clicks, CTR, cost (in the account currency) and conversions over a date range, most impressions first. " +
    "Use it to find wasted spend and irrelevant queries to add as negative keywords (google_ads.campaign.negative_keywords.add).",
  types: ["gads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: { customer_id: "123-456-7890", start_date: "2025-01-01", end_date: "2025-01-31", limit: 50 },
  input: {
    ...account,
    campaign_id: numericId("campaign").optional().describe("Only the search terms of this campaign (campaign.id)."),
    ...period,
    limit: rowLimit(100),
  },
  output: {
    customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
    date_range: reportedDates(),
    search_terms: z
      .array(
        z.object({
          search_term: z.string().nullable().describe("Search term"),
          status: z.string().nullable().describe("Keyword status of the term, e.g. ADDED, EXCLUDED or NONE"),
          ...campaignAndAdGroup,
          ...metricsShape,
        }),
      )
      .describe("Search terms, most impressions first"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 30, maxDays: 400 });
    const query =
      "SELECT search_term_view.search_term, search_term_view.status, campaign.id, campaign.name, ad_group.id, ad_group.name, " +
      "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM search_term_view " +
      `WHERE segments.date BETWEEN '${range.start}' AND '${range.end}'` +
      (args.campaign_id ? ` AND campaign.id = ${args.campaign_id}` : "") +
      ` ORDER BY metrics.impressions DESC LIMIT ${args.limit}`;
    const rows = await search(ctx, args, query);
    return {
      customer_id: args.customer_id,
      date_range: { start_date: range.start, end_date: range.end },
      search_terms: rows.map((row) => ({
        search_term: text(part(row, "searchTermView").searchTerm),
        status: text(part(row, "searchTermView").status),
        campaign_id: text(part(row, "campaign").id),
        campaign_name: text(part(row, "campaign").name),
        ad_group_id: text(part(row, "adGroup").id),
        ad_group_name: text(part(row, "adGroup").name),
        ...metricsOf(row),
      })),
    };
  },
});

const keywordsReport = defineRead({
  id: "google_ads.keywords.report",
  title: "Google Ads keyword performance",
  consent: "Read your Google Ads campaigns, budgets and performance",
  description:
    "Keyword performance of a Google Ads account (keyword_view): each keyword you bid on with its match type, status, quality score, campaign and ad group, and impressions, clicks, CTR, cost (account currency) and conversions over a date range, most clicks first. " +
    "Use it to see which keywords spend and convert.",
  types: ["gads"],
  credits: 2,
  cacheTtlSeconds: 300,
  example: { customer_id: "123-456-7890", limit: 50 },
  input: {
    ...account,
    campaign_id: numericId("campaign").optional().describe("Only the keywords of this campaign (campaign.id)."),
    ...period,
    limit: rowLimit(100),
  },
  output: {
    customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
    date_range: reportedDates(),
    keywords: z
      .array(
        z.object({
          criterion_id: z.string().nullable().describe("Keyword ID"),
          keyword: z.string().nullable().describe("Keyword"),
          match_type: z.string().nullable().describe("Match type, e.g. EXACT, PHRASE or BROAD"),
          status: z.string().nullable().describe("Keyword status, e.g. ENABLED or PAUSED"),
          quality_score: z.number().nullable().describe("Quality score (1-10)"),
          ...campaignAndAdGroup,
          ...metricsShape,
        }),
      )
      .describe("Keywords, most clicks first"),
  },
  async run(ctx, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 30, maxDays: 400 });
    const query =
      "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, " +
      "ad_group_criterion.status, ad_group_criterion.quality_info.quality_score, campaign.id, campaign.name, ad_group.id, ad_group.name, " +
      "metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM keyword_view " +
      `WHERE segments.date BETWEEN '${range.start}' AND '${range.end}'` +
      (args.campaign_id ? ` AND campaign.id = ${args.campaign_id}` : "") +
      ` ORDER BY metrics.clicks DESC LIMIT ${args.limit}`;
    const rows = await search(ctx, args, query);
    return {
      customer_id: args.customer_id,
      date_range: { start_date: range.start, end_date: range.end },
      keywords: rows.map((row) => {
        const criterion = part(row, "adGroupCriterion");
        const keyword = part(criterion, "keyword");
        const quality = part(criterion, "qualityInfo");
        return {
          criterion_id: text(criterion.criterionId),
          keyword: text(keyword.text),
          match_type: text(keyword.matchType),
          status: text(criterion.status),
          quality_score: typeof quality.qualityScore === "number" ? quality.qualityScore : null,
          campaign_id: text(part(row, "campaign").id),
          campaign_name: text(part(row, "campaign").name),
          ad_group_id: text(part(row, "adGroup").id),
          ad_group_name: text(part(row, "adGroup").name),
          ...metricsOf(row),
        };
      }),
    };
  },
});

const MATCH_TYPES = ["EXACT", "PHRASE", "BROAD"] as const;

const addNegativeKeywords = defineWrite({
  id: "google_ads.campaign.negative_keywords.add",
  additive: true,
  idempotent: false,
  title: "Add negative keywords to a Google Ads campaign",
  consent: "Add negative keywords to campaigns",
  description:
    "Adds negative keywords to one Google Ads campaign (campaign criteria with negative = true): exclude, block or stop ads showing for searches such as 'free' or 'jobs'. " +
    "Each keyword has a match type (EXACT, PHRASE or BROAD; default PHRASE). Returns the new criteria's resource names. Find irrelevant searches with google_ads.search_terms.report.",
  types: ["gads"],
  credits: 1,
  example: {
    customer_id: "123-456-7890",
    campaign_id: "12345678901",
    keywords: ["free", "jobs"],
    match_type: "PHRASE",
  },
  input: {
    ...account,
    campaign_id: numericId("campaign").describe('The campaign\'s ID (campaign.id), e.g. "12345678901".'),
    keywords: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(80, "a keyword is at most 80 characters")
          .refine((k) => k.split(/\s+/).length <= 10, "a keyword is at most 10 words"),
      )
      .min(1)
      .max(100)
      .describe('The negative keywords\' text, 1-100 of them, e.g. ["free", "jobs"].'),
    match_type: z
      .enum(MATCH_TYPES)
      .default("PHRASE")
      .describe("How each negative keyword matches searches: EXACT, PHRASE (default) or BROAD."),
  },
  summarize(args, _connection, before) {
    const name = isObject(before) && typeof before.name === "string" ? ` '${before.name}'` : "";
    const list = args.keywords.slice(0, 10).map((k) => `"${k}"`);
    const more = args.keywords.length > 10 ? ` and ${args.keywords.length - 10} more` : "";
    return `Add ${args.keywords.length} ${args.match_type.toLowerCase()}-match negative keyword${args.keywords.length === 1 ? "" : "s"} (${list.join(", ")}${more}) to Google Ads campaign ${args.campaign_id}${name} in account ${dashed(args.customer_id)}`;
  },
  async before(ctx, args) {
    const state = await campaignState(ctx, args);
    return { campaign_id: state.campaign_id, name: state.name, status: state.status };
  },
  output: {
    customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
    campaign_id: z.string().describe("Campaign ID"),
    added: z
      .array(
        z.object({
          resource_name: z.string().nullable().describe("Resource name of the new criterion"),
          criterion_id: z.string().nullable().describe("Negative keyword ID"),
          keyword: z.string().describe("Negative keyword"),
          match_type: z.string().describe("Match type, e.g. PHRASE"),
        }),
      )
      .describe("Negative keywords added"),
  },
  async run(ctx, args) {
    const what = "the campaignCriteria:mutate call";
    const campaign = `customers/${args.customer_id}/campaigns/${args.campaign_id}`;
    // https://developers.google.com/google-ads/api/reference/rpc/v18/CampaignCriterionService/MutateCampaignCriteria?transport=rest
    // (a CampaignCriterion with negative = true and a KeywordInfo: https://developers.google.com/google-ads/api/docs/keywords/negative-keywords)
    const body = await adsPost(ctx, args, `/customers/${args.customer_id}/campaignCriteria:mutate`, what, {
      operations: args.keywords.map((text) => ({
        create: { campaign, negative: true, keyword: { text, matchType: args.match_type } },
      })),
      responseContentType: "MUTABLE_RESOURCE",
    });
    const results = listOf(body, "results", what);
    if (results.length !== args.keywords.length)
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} answered ${what} with ${results.length} results for ${args.keywords.length} keywords.`,
      );
    return {
      customer_id: args.customer_id,
      campaign_id: args.campaign_id,
      added: results.map((r, i) => {
        const criterion = part(r, "campaignCriterion");
        return {
          resource_name: text(r.resourceName),
          criterion_id: text(criterion.criterionId),
          keyword: text(part(criterion, "keyword").text) ?? args.keywords[i],
          match_type: text(part(criterion, "keyword").matchType) ?? args.match_type,
        };
      }),
    };
  },
});

type AdGroupArgs = { customer_id: string; ad_group_id: string; login_customer_id?: string };

/** The ad group's name, status and campaign; an ad group the account does not have is a rejection. */
async function adGroupState(ctx: OperationContext, args: AdGroupArgs) {
  const [row] = await search(
    ctx,
    args,
    `SELECT ad_group.id, ad_group.name, ad_group.status, campaign.id, campaign.name FROM ad_group WHERE ad_group.id = ${args.ad_group_id}`,
  );
  if (!row)
    throw new ProviderRejection(
      PROVIDER,
      `account ${dashed(args.customer_id)} has no ad group ${args.ad_group_id} (or this connection cannot see it).`,
    );
  return {
    ad_group_id: args.ad_group_id,
    name: text(part(row, "adGroup").name),
    status: text(part(row, "adGroup").status),
    campaign_id: text(part(row, "campaign").id),
    campaign_name: text(part(row, "campaign").name),
  };
}

function adGroupStatusWrite(status: "PAUSED" | "ENABLED") {
  const pausing = status === "PAUSED";
  return defineWrite({
    id: pausing ? "google_ads.ad_group.pause" : "google_ads.ad_group.enable",
    idempotent: true,
    title: pausing ? "Pause a Google Ads ad group" : "Enable a Google Ads ad group",
    consent: "Pause and enable ad groups",
    description: pausing
      ? "Pauses one Google Ads ad group (sets its status to PAUSED): pause, stop or turn off an ad group so its ads and keywords stop serving while the rest of the campaign keeps running. " +
        "Nothing is deleted; google_ads.ad_group.enable resumes it. Returns the ad group's name and new status. Find ad group IDs with google_ads.keywords.report or google_ads_search (SELECT ad_group.id, ad_group.name FROM ad_group)."
      : "Enables one Google Ads ad group (sets its status to ENABLED): enable, resume, unpause or turn on a paused ad group so its ads serve again. " +
        "Returns the ad group's name and new status. Find ad group IDs with google_ads.keywords.report or google_ads_search (SELECT ad_group.id, ad_group.name FROM ad_group).",
    types: ["gads"],
    credits: 1,
    example: { customer_id: "123-456-7890", ad_group_id: "23456789012" },
    input: {
      ...account,
      ad_group_id: numericId("ad group").describe('The ad group\'s ID (ad_group.id), e.g. "23456789012".'),
    },
    summarize(args, _connection, before) {
      const s = isObject(before) ? before : {};
      const name = typeof s.name === "string" ? ` '${s.name}'` : "";
      const campaign = typeof s.campaign_name === "string" ? ` of campaign '${s.campaign_name}'` : "";
      const now = typeof s.status === "string" ? ` (now ${s.status})` : "";
      return `${pausing ? "Pause" : "Enable"} Google Ads ad group ${args.ad_group_id}${name}${campaign} in account ${dashed(args.customer_id)}${now}`;
    },
    output: {
      customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
      ad_group_id: z.string().describe("Ad group ID"),
      resource_name: z.string().describe("Resource name of the ad group"),
      name: z.string().nullable().describe("Ad group"),
      status: z.string().describe("New status (PAUSED or ENABLED)"),
    },
    before: (ctx, args) => adGroupState(ctx, args),
    async run(ctx, args) {
      const what = "the adGroups:mutate call";
      const resourceName = `customers/${args.customer_id}/adGroups/${args.ad_group_id}`;
      // https://developers.google.com/google-ads/api/reference/rpc/v18/AdGroupService/MutateAdGroups?transport=rest
      const body = await adsPost(
        ctx,
        { ...args, campaign_id: "" },
        `/customers/${args.customer_id}/adGroups:mutate`,
        what,
        {
          operations: [{ updateMask: "status", update: { resourceName, status } }],
          responseContentType: "MUTABLE_RESOURCE",
        },
      );
      const [result] = listOf(body, "results", what);
      if (!result) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without a result.`);
      const group = part(result, "adGroup");
      return {
        customer_id: args.customer_id,
        ad_group_id: args.ad_group_id,
        resource_name: text(result.resourceName) ?? resourceName,
        name: text(group.name),
        status: text(group.status) ?? status,
      };
    },
  });
}

export const operations: Operation[] = [
  searchTermsReport,
  keywordsReport,
  addNegativeKeywords,
  adGroupStatusWrite("PAUSED"),
  adGroupStatusWrite("ENABLED"),
];
