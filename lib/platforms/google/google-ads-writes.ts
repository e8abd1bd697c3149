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
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { OperationInputError, type Operation, type OperationContext } from "@/lib/platforms/kit/operation-types";

// Google Ads writes: pause or enable a campaign (CampaignService.MutateCampaigns) and change a
// campaign's daily budget (CampaignBudgetService.MutateCampaignBudgets), over the REST
// interface of the same API version as the reads. Each mutate asks for the MUTABLE_RESOURCE
// answer, so the result is what Google now holds, without a second read.

const PROVIDER = "Google";

/** "123-456-7890" or "1234567890" → "1234567890". */
export const customerId = (what: string) =>
  z
    .string()
    .transform((v) => v.replace(/-/g, "").trim())
    .pipe(z.string().regex(/^\d{10}$/, `${what} must be the 10-digit Google Ads customer ID (dashes allowed)`));

const campaignId = z
  .string()
  .trim()
  .regex(/^\d{1,19}$/, "must be a numeric Google Ads campaign ID")
  .describe(
    'The campaign\'s ID (campaign.id in GAQL, the number after campaignId= in the Google Ads URL), e.g. "12345678901".',
  );

const target = {
  customer_id: customerId("customer_id").describe(
    "The Google Ads customer (account) ID that owns the campaign, 10 digits (123-456-7890 is accepted).",
  ),
  campaign_id: campaignId,
  login_customer_id: customerId("login_customer_id")
    .optional()
    .describe("The manager (MCC) account ID through which the customer is accessed, when it is not accessed directly."),
};

export type Target = { customer_id: string; campaign_id: string; login_customer_id?: string };

/** 1234567890 → "123-456-7890", as the Google Ads UI shows it. */
export const dashed = (id: string) => `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}`;

/** An amount in the account currency: "50.00 USD". */
const money = (amount: number, currency: string | null) => `${amount.toFixed(2)} ${currency ?? "(account currency)"}`;

/** An authenticated Ads API POST with the developer token (and login-customer-id when given). */
export async function adsPost(
  { connection, credentials }: OperationContext,
  args: Target,
  path: string,
  what: string,
  body: unknown,
) {
  const developerToken = googleAdsDeveloperToken(credentials);
  if (!developerToken)
    throw new ProviderRejection(
      PROVIDER,
      "no Google Ads developer token: this server has no GOOGLE_ADS_DEVELOPER_TOKEN for OAuth connections.",
    );
  const accessToken = await googleAccessToken(connection.type, credentials);
  return googleApiCall(connection.type, `${GOOGLE_ADS_API}${path}`, accessToken, what, {
    headers: {
      "developer-token": developerToken,
      ...(args.login_customer_id && { "login-customer-id": args.login_customer_id }),
    },
    body,
  });
}

/** What a person approving a change is shown, and what the budget update needs to know. */
type CampaignState = {
  campaign_id: string;
  name: string | null;
  status: string | null;
  daily_budget: number | null;
  currency: string | null;
  /** An explicitly shared budget: changing it changes every campaign that uses it. */
  shared_budget: boolean;
  budget_resource_name: string | null;
  budget_period: string | null;
};

/**
 * The campaign's name, status and budget through one GAQL search; a campaign the account does not
 * have is a rejection.
 */
export async function campaignState(ctx: OperationContext, args: Target): Promise<CampaignState> {
  const what = "the googleAds:search call";
  const query =
    "SELECT campaign.id, campaign.name, campaign.status, campaign.campaign_budget, campaign_budget.amount_micros, campaign_budget.period, " +
    `campaign_budget.explicitly_shared, customer.currency_code FROM campaign WHERE campaign.id = ${args.campaign_id}`;
  // https://developers.google.com/google-ads/api/rest/common/search (GoogleAdsService.Search over REST)
  const body = await adsPost(ctx, args, `/customers/${args.customer_id}/googleAds:search`, what, { query });
  const [row] = listOf(body, "results", what);
  if (!row)
    throw new ProviderRejection(
      PROVIDER,
      `account ${dashed(args.customer_id)} has no campaign ${args.campaign_id} (or this connection cannot see it).`,
    );
  const campaign = isObject(row.campaign) ? row.campaign : {};
  const budget = isObject(row.campaignBudget) ? row.campaignBudget : {};
  const customer = isObject(row.customer) ? row.customer : {};
  const micros = Number(budget.amountMicros);
  return {
    campaign_id: args.campaign_id,
    name: typeof campaign.name === "string" ? campaign.name : null,
    status: typeof campaign.status === "string" ? campaign.status : null,
    daily_budget: budget.amountMicros !== undefined && Number.isFinite(micros) ? micros / 1e6 : null,
    currency: typeof customer.currencyCode === "string" ? customer.currencyCode : null,
    shared_budget: budget.explicitlyShared === true,
    budget_resource_name:
      typeof campaign.campaignBudget === "string"
        ? campaign.campaignBudget
        : typeof budget.resourceName === "string"
          ? budget.resourceName
          : null,
    budget_period: typeof budget.period === "string" ? budget.period : null,
  };
}

/** The state shown before a change: what the approver needs, without resource names. */
const shownState = (s: CampaignState) => ({
  campaign_id: s.campaign_id,
  name: s.name,
  status: s.status,
  daily_budget: s.daily_budget,
  currency: s.currency,
  shared_budget: s.shared_budget,
});

const asState = (before: unknown): Partial<CampaignState> => (isObject(before) ? before : {});
const named = (id: string, before: unknown) => {
  const name = asState(before).name;
  return name ? `${id} '${name}'` : id;
};

function statusWrite(status: "PAUSED" | "ENABLED") {
  const pausing = status === "PAUSED";
  return defineWrite({
    id: pausing ? "google_ads.campaign.pause" : "google_ads.campaign.enable",
    idempotent: true,
    title: pausing ? "Pause a Google Ads campaign" : "Enable a Google Ads campaign",
    consent: "Pause and enable campaigns",
    description: pausing
      ? "Pauses one Google Ads campaign (sets its status to PAUSED): pause, stop, turn off or halt a campaign so it stops serving ads and spending. " +
        "Nothing is deleted; google_ads.campaign.enable resumes it. Returns the campaign's name and new status as Google reports them. " +
        "Find campaign IDs with google_ads_search (SELECT campaign.id, campaign.name, campaign.status FROM campaign)."
      : "Enables one Google Ads campaign (sets its status to ENABLED): enable, resume, unpause, restart or turn on a paused campaign so it serves ads and spends its budget again. " +
        "Returns the campaign's name and new status as Google reports them. Find campaign IDs with google_ads_search (SELECT campaign.id, campaign.name, campaign.status FROM campaign).",
    types: ["gads"],
    credits: 1,
    input: target,
    example: { customer_id: "123-456-7890", campaign_id: "12345678901" },
    summarize: (args, _connection, before) =>
      `${pausing ? "Pause" : "Enable"} Google Ads campaign ${named(args.campaign_id, before)} in account ${dashed(args.customer_id)}` +
      (asState(before).status ? ` (now ${asState(before).status})` : ""),
    output: {
      customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
      campaign_id: z.string().describe("Campaign ID"),
      resource_name: z.string().describe("Resource name of the campaign"),
      name: z.string().nullable().describe("Campaign"),
      status: z.string().describe("New status (PAUSED or ENABLED)"),
    },
    before: async (ctx, args) => shownState(await campaignState(ctx, args)),
    async run(ctx, args) {
      const what = "the campaigns:mutate call";
      const resourceName = `customers/${args.customer_id}/campaigns/${args.campaign_id}`;
      // https://developers.google.com/google-ads/api/reference/rpc/v18/CampaignService/MutateCampaigns?transport=rest (body: https://developers.google.com/google-ads/api/rest/common/mutate)
      const body = await adsPost(ctx, args, `/customers/${args.customer_id}/campaigns:mutate`, what, {
        operations: [{ updateMask: "status", update: { resourceName, status } }],
        responseContentType: "MUTABLE_RESOURCE",
      });
      const [result] = listOf(body, "results", what);
      if (!result) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without a result.`);
      const campaign = isObject(result.campaign) ? result.campaign : {};
      return {
        customer_id: args.customer_id,
        campaign_id: args.campaign_id,
        resource_name: typeof result.resourceName === "string" ? result.resourceName : resourceName,
        name: typeof campaign.name === "string" ? campaign.name : null,
        status: typeof campaign.status === "string" ? campaign.status : status,
      };
    },
  });
}

const updateCampaignBudget = defineWrite({
  id: "google_ads.campaign_budget.update",
  idempotent: true,
  title: "Change a Google Ads campaign's daily budget",
  consent: "Change the daily budgets of campaigns",
  description:
    "Sets the daily budget of one Google Ads campaign (its campaign budget's amount), in the account's currency: raise, lower, increase, decrease or change the budget, daily budget, daily spend or spend limit. " +
    "daily_budget is in currency units (50 means 50.00 USD a day on a USD account), not micros. If the campaign's budget is shared with other campaigns, they change too. " +
    "Returns the previous and new daily budget as Google reports them. Find campaign IDs and current budgets with google_ads_search (SELECT campaign.id, campaign.name, campaign_budget.amount_micros FROM campaign).",
  types: ["gads"],
  credits: 1,
  input: {
    ...target,
    daily_budget: z
      .number()
      .positive()
      .max(100_000_000)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "must have at most 2 decimal places")
      .describe("The new average daily budget in the account's currency units, e.g. 50 or 49.99 (not micros)."),
  },
  example: { customer_id: "123-456-7890", campaign_id: "12345678901", daily_budget: 50 },
  summarize(args, _connection, before) {
    const state = asState(before);
    const currency = state.currency ?? null;
    const from = typeof state.daily_budget === "number" ? ` from ${money(state.daily_budget, currency)}` : "";
    const shared = state.shared_budget ? " (a shared budget: every campaign that uses it changes too)" : "";
    return `Change the daily budget of Google Ads campaign ${named(args.campaign_id, before)} in account ${dashed(args.customer_id)}${from} to ${money(args.daily_budget, currency)}${shared}`;
  },
  before: async (ctx, args) => shownState(await campaignState(ctx, args)),
  output: {
    customer_id: z.string().describe("Google Ads customer ID (10 digits)"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    budget_resource_name: z.string().describe("Resource name of the campaign budget"),
    currency: z.string().nullable().describe("Account currency, e.g. USD"),
    previous_daily_budget: z.number().nullable().describe("Previous daily budget (account currency)"),
    daily_budget: z.number().describe("New daily budget (account currency)"),
    shared_budget: z.boolean().describe("A shared budget (other campaigns changed too)"),
  },
  async run(ctx, args) {
    const state = await campaignState(ctx, args);
    if (!state.budget_resource_name)
      throw new ProviderRejection(PROVIDER, `campaign ${args.campaign_id} has no campaign budget to change.`);
    if (state.budget_period && state.budget_period !== "DAILY") {
      throw new OperationInputError(
        `Campaign ${args.campaign_id}'s budget is a ${state.budget_period} budget (a total for a date range), not a daily budget; change it in Google Ads.`,
      );
    }
    const what = "the campaignBudgets:mutate call";
    // Micros of the account currency (int64, a string in JSON); whole cents, as daily_budget allows.
    const amountMicros = String(Math.round(args.daily_budget * 100) * 10_000);
    // https://developers.google.com/google-ads/api/reference/rpc/v18/CampaignBudgetService/MutateCampaignBudgets?transport=rest
    const body = await adsPost(ctx, args, `/customers/${args.customer_id}/campaignBudgets:mutate`, what, {
      operations: [{ updateMask: "amount_micros", update: { resourceName: state.budget_resource_name, amountMicros } }],
      responseContentType: "MUTABLE_RESOURCE",
    });
    const [result] = listOf(body, "results", what);
    if (!result) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered ${what} without a result.`);
    const budget = isObject(result.campaignBudget) ? result.campaignBudget : {};
    const now = Number(budget.amountMicros ?? amountMicros);
    return {
      customer_id: args.customer_id,
      campaign_id: args.campaign_id,
      name: state.name,
      budget_resource_name: typeof result.resourceName === "string" ? result.resourceName : state.budget_resource_name,
      currency: state.currency,
      previous_daily_budget: state.daily_budget,
      daily_budget: now / 1e6,
      shared_budget: state.shared_budget,
    };
  },
});

export const operations: Operation[] = [statusWrite("PAUSED"), statusWrite("ENABLED"), updateCampaignBudget];
