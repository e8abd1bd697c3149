import "server-only";
import { z } from "zod";
import { GRAPH, graphAuth, graphGet, isObject } from "@/lib/platforms/meta/meta-provider";
import { adAccountId } from "@/lib/platforms/meta/meta-operations";
import { offsetOf } from "@/lib/platforms/meta/meta-ads-writes";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { rowLimit } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation, type OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";

// Meta Ads objects through the Graph API (Marketing API): an ad account's campaigns with their
// status and budgets, its ads, and the ad creatives of an account or of one ad. Insights (any
// level, ads included) stay with meta_ads.insights.

const PROVIDER = "Meta";
const text = (v: unknown) => (typeof v === "string" && v ? v : null);
const rows = (body: Record<string, unknown>) => (Array.isArray(body.data) ? body.data.filter(isObject) : []);
const hasMore = (body: Record<string, unknown>) => isObject(body.paging) && typeof body.paging.next === "string";

/** The ad account's currency (budgets are in its minor units). */
async function accountCurrency({ connection, credentials }: OperationContext, account: string): Promise<string> {
  const { accessToken, proof } = graphAuth(credentials);
  // https://developers.facebook.com/docs/marketing-api/reference/ad-account/#Reading
  const body = await graphGet(
    connection.type,
    urlWith(`${GRAPH}/act_${account}`, { fields: "currency", ...proof }),
    "the ad account read",
    accessToken,
  );
  if (typeof body.currency !== "string" || !/^[A-Z]{3}$/.test(body.currency))
    throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the ad account read without a currency.`);
  return body.currency;
}

/** A Graph budget in minor units ("5000") in currency units (50), or null when not set at this level. */
function budget(v: unknown, currency: string): number | null {
  const minor = Number(v);
  if (v === undefined || v === null || v === "" || !Number.isFinite(minor) || minor <= 0) return null;
  return minor / offsetOf(currency);
}

const numericId = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be a numeric Meta ${what} ID`);

const metaAdsCampaigns = defineRead({
  id: "meta_ads.campaigns.list",
  title: "List Meta campaigns with status and budgets",
  consent: "See your campaigns, ad sets, ads and ad creatives",
  description:
    "Lists the campaigns of one Meta (Facebook/Instagram) ad account (Graph API /act_{id}/campaigns): campaign ID, name, status (ACTIVE, PAUSED …), effective (delivery) status, objective, " +
    "and the daily and lifetime budget in the account's currency units (null when the ad sets carry the budgets). Use it to find a campaign ID before pausing one or changing its budget.",
  types: ["meta_ads"],
  credits: 1,
  cacheTtlSeconds: 120,
  example: { ad_account_id: "act_1234567890" },
  input: {
    ad_account_id: adAccountId.describe("The ad account ID, e.g. 1234567890 or act_1234567890."),
    limit: rowLimit(50, 500),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    currency: z.string().describe("Account currency, e.g. USD"),
    campaigns: z
      .array(
        z.object({
          campaign_id: z.string().describe("Campaign ID"),
          name: z.string().nullable().describe("Campaign"),
          status: z.string().nullable().describe("Status, e.g. ACTIVE or PAUSED"),
          effective_status: z.string().nullable().describe("Effective status"),
          objective: z.string().nullable().describe("Objective"),
          daily_budget: z.number().nullable().describe("Daily budget (account currency; null when set on its ad sets)"),
          lifetime_budget: z.number().nullable().describe("Lifetime budget (account currency)"),
        }),
      )
      .describe("Campaigns"),
    has_more: z.boolean().describe("More campaigns than were returned"),
  },
  async run(ctx, args) {
    const currency = await accountCurrency(ctx, args.ad_account_id);
    const { accessToken, proof } = graphAuth(ctx.credentials);
    // https://developers.facebook.com/docs/marketing-api/reference/ad-account/campaigns/#Reading
    const body = await graphGet(
      ctx.connection.type,
      urlWith(`${GRAPH}/act_${args.ad_account_id}/campaigns`, {
        fields: "id,name,status,effective_status,objective,daily_budget,lifetime_budget",
        limit: String(args.limit),
        ...proof,
      }),
      "the campaigns call",
      accessToken,
    );
    return {
      ad_account_id: args.ad_account_id,
      currency,
      campaigns: rows(body).map((c) => ({
        campaign_id: String(c.id ?? ""),
        name: text(c.name),
        status: text(c.status),
        effective_status: text(c.effective_status),
        objective: text(c.objective),
        daily_budget: budget(c.daily_budget, currency),
        lifetime_budget: budget(c.lifetime_budget, currency),
      })),
      has_more: hasMore(body),
    };
  },
});

const metaAdsAds = defineRead({
  id: "meta_ads.ads.list",
  title: "List all ads in a Meta ad account",
  consent: "See your campaigns, ad sets, ads and ad creatives",
  description:
    "Lists the ads of one Meta (Facebook/Instagram) ad account (Graph API /act_{id}/ads): ad ID, name, status, effective (delivery) status, its ad set and campaign IDs and its creative's ID. " +
    "Use it to find an ad ID before pausing or activating one ad (meta_ads.ad.pause, meta_ads.ad.enable) or reading its creatives.",
  types: ["meta_ads"],
  credits: 1,
  cacheTtlSeconds: 120,
  example: { ad_account_id: "act_1234567890" },
  input: {
    ad_account_id: adAccountId.describe("The ad account ID, e.g. 1234567890 or act_1234567890."),
    limit: rowLimit(50, 500),
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    ads: z
      .array(
        z.object({
          ad_id: z.string().describe("Ad ID"),
          name: z.string().nullable().describe("Ad"),
          status: z.string().nullable().describe("Status, e.g. ACTIVE or PAUSED"),
          effective_status: z.string().nullable().describe("Effective status"),
          adset_id: z.string().nullable().describe("Ad set ID"),
          campaign_id: z.string().nullable().describe("Campaign ID"),
          creative_id: z.string().nullable().describe("Creative ID"),
        }),
      )
      .describe("Ads"),
    has_more: z.boolean().describe("More ads than were returned"),
  },
  async run({ connection, credentials }, args) {
    const { accessToken, proof } = graphAuth(credentials);
    // https://developers.facebook.com/docs/marketing-api/reference/adgroup/#Reading (the ad
    // account's /ads edge: …/reference/ad-account/ads/)
    const body = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/act_${args.ad_account_id}/ads`, {
        fields: "id,name,status,effective_status,adset_id,campaign_id,creative",
        limit: String(args.limit),
        ...proof,
      }),
      "the ads call",
      accessToken,
    );
    return {
      ad_account_id: args.ad_account_id,
      ads: rows(body).map((a) => ({
        ad_id: String(a.id ?? ""),
        name: text(a.name),
        status: text(a.status),
        effective_status: text(a.effective_status),
        adset_id: text(a.adset_id),
        campaign_id: text(a.campaign_id),
        creative_id: isObject(a.creative) ? text(a.creative.id) : null,
      })),
      has_more: hasMore(body),
    };
  },
});

const CREATIVE_FIELDS = [
  "id",
  "name",
  "status",
  "object_type",
  "title",
  "body",
  "call_to_action_type",
  "link_url",
  "image_url",
  "thumbnail_url",
] as const;

const metaAdsCreatives = defineRead({
  id: "meta_ads.creatives.list",
  title: "List the ad creatives of a Meta ad account or ad",
  consent: "See your campaigns, ad sets, ads and ad creatives",
  description:
    "Lists ad creatives (the text, image, link and call to action people see) of one Meta ad account, or of one ad (Graph API /act_{id}/adcreatives or /{ad_id}/adcreatives): " +
    "creative ID, name, status, object type, title (headline), body (primary text), call to action, link URL, image and thumbnail URLs. Give ad_account_id or ad_id, not both.",
  types: ["meta_ads"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: { ad_account_id: "act_1234567890" },
  input: {
    ad_account_id: adAccountId
      .optional()
      .describe("The ad account whose creatives to list, e.g. act_1234567890 (or give ad_id)."),
    ad_id: numericId("ad").optional().describe('One ad whose creatives to list, e.g. "120210000000000003".'),
    limit: rowLimit(25, 200),
  },
  output: {
    ad_account_id: z.string().optional().describe("Ad account ID (when listed by account)"),
    ad_id: z.string().optional().describe("Ad ID (when listed for one ad)"),
    creatives: z
      .array(
        z.object({
          creative_id: z.string().describe("Creative ID"),
          name: z.string().nullable().describe("Creative name"),
          status: z.string().nullable().describe("Status"),
          object_type: z.string().nullable().describe("Creative type, e.g. SHARE or VIDEO"),
          title: z.string().nullable().describe("Headline"),
          body: z.string().nullable().describe("Primary text"),
          call_to_action_type: z.string().nullable().describe("Call to action, e.g. SHOP_NOW"),
          link_url: z.string().nullable().describe("Link"),
          image_url: z.string().nullable().describe("Image"),
          thumbnail_url: z.string().nullable().describe("Thumbnail"),
        }),
      )
      .describe("Ad creatives"),
    has_more: z.boolean().describe("More creatives than were returned"),
  },
  async run({ connection, credentials }, args) {
    if (!args.ad_account_id === !args.ad_id) throw new OperationInputError("Give either ad_account_id or ad_id.");
    const { accessToken, proof } = graphAuth(credentials);
    const node = args.ad_id ?? `act_${args.ad_account_id}`;
    // https://developers.facebook.com/docs/marketing-api/reference/ad-account/adcreatives/ and
    // https://developers.facebook.com/docs/marketing-api/reference/adgroup/adcreatives/ (fields:
    // …/reference/ad-creative/#Reading)
    const body = await graphGet(
      connection.type,
      urlWith(`${GRAPH}/${node}/adcreatives`, {
        fields: CREATIVE_FIELDS.join(","),
        limit: String(args.limit),
        ...proof,
      }),
      "the adcreatives call",
      accessToken,
    );
    return {
      ...(args.ad_id ? { ad_id: args.ad_id } : { ad_account_id: args.ad_account_id }),
      creatives: rows(body).map((c) => ({
        creative_id: String(c.id ?? ""),
        name: text(c.name),
        status: text(c.status),
        object_type: text(c.object_type),
        title: text(c.title),
        body: text(c.body),
        call_to_action_type: text(c.call_to_action_type),
        link_url: text(c.link_url),
        image_url: text(c.image_url),
        thumbnail_url: text(c.thumbnail_url),
      })),
      has_more: hasMore(body),
    };
  },
});

export const operations: Operation[] = [metaAdsCampaigns, metaAdsAds, metaAdsCreatives];
