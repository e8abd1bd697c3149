import "server-only";
import { z } from "zod";
import { accessTokenOf, adsApiCall, PROVIDER, regionOf, type Region } from "@/lib/platforms/amazon/amazon-provider";
import { campaignView, profileInput, SP_CAMPAIGN_TYPE } from "@/lib/platforms/amazon/amazon-operations";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Amazon Ads writes on Sponsored Products campaigns: PUT /sp/campaigns (v3) with only the field
// that changes; the answer is a 207 multi-status {campaigns: {success: […], error: […]}}.
// The campaign is read first with /sp/campaigns/list and a campaignIdFilter.

const campaignId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "must be a numeric campaign ID")
  .describe("The Sponsored Products campaign ID, from amazon_ads.sp_campaigns.list.");

/**
 * The campaign as /sp/campaigns/list has it, and its region; campaign null when the profile has
 * none (the update then carries Amazon's own refusal, entityNotFoundError).
 */
async function campaignOf(
  ctx: OperationContext,
  input: { profile_id: string; region?: Region; campaign_id: string },
): Promise<{ campaign: ReturnType<typeof campaignView> | null; region: Region }> {
  const token = accessTokenOf(ctx.credentials);
  const region = await regionOf(ctx.connection.type, token, input.profile_id, input.region);
  // https://advertising.amazon.com/API/docs/en-us/sponsored-products/3-0/openapi/prod#tag/Campaigns/operation/ListSponsoredProductsCampaigns
  const body = await adsApiCall(ctx.connection.type, token, "/sp/campaigns/list", "the SP campaigns list", {
    region,
    profileId: input.profile_id,
    method: "POST",
    mediaType: SP_CAMPAIGN_TYPE,
    body: { campaignIdFilter: { include: [input.campaign_id] } },
  });
  const list = isObject(body) && Array.isArray(body.campaigns) ? body.campaigns.filter(isObject) : [];
  const found = list.find((c) => String(c.campaignId) === input.campaign_id);
  return { campaign: found ? campaignView(found) : null, region };
}

/** "entityNotFoundError NOT_FOUND: Campaign does not exist" for each error of a failed item. */
function itemErrors(item: Record<string, unknown>): string {
  const errors = Array.isArray(item.errors) ? item.errors.filter(isObject) : [];
  return errors
    .map((e) => {
      const values = isObject(e.errorValue) ? Object.entries(e.errorValue) : [];
      return (
        values
          .map(([kind, v]) =>
            isObject(v) ? `${kind} ${String(v.reason ?? "")}: ${String(v.message ?? "")}`.trim() : kind,
          )
          .join("; ") || String(e.errorType ?? "error")
      );
    })
    .join("; ");
}

/** PUT /sp/campaigns with one campaign's changed fields; the campaign after the change. */
async function updateCampaign(
  ctx: OperationContext,
  input: { profile_id: string; campaign_id: string },
  region: Region,
  fields: Record<string, unknown>,
) {
  // https://advertising.amazon.com/API/docs/en-us/sponsored-products/3-0/openapi/prod#tag/Campaigns/operation/UpdateSponsoredProductsCampaigns
  const body = await adsApiCall(
    ctx.connection.type,
    accessTokenOf(ctx.credentials),
    "/sp/campaigns",
    "the SP campaigns update",
    {
      region,
      profileId: input.profile_id,
      method: "PUT",
      mediaType: SP_CAMPAIGN_TYPE,
      headers: { Prefer: "return=representation" },
      body: { campaigns: [{ campaignId: input.campaign_id, ...fields }] },
    },
  );
  const result = isObject(body) && isObject(body.campaigns) ? body.campaigns : {};
  const failed = (Array.isArray(result.error) ? result.error : []).filter(isObject);
  if (failed.length) throw new ProviderRejection(PROVIDER, itemErrors(failed[0]) || "the campaign update was refused.");
  const done = (Array.isArray(result.success) ? result.success : []).filter(isObject)[0];
  if (!done) throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered the SP campaigns update without a result.`);
  return isObject(done.campaign) ? campaignView(done.campaign) : null;
}

const named = (before: unknown) => {
  const s = isObject(before) && isObject(before.campaign) ? before.campaign : {};
  return {
    name: typeof s.name === "string" && s.name ? ` '${s.name}'` : "",
    state: typeof s.state === "string" ? s.state : null,
    budget: typeof s.daily_budget === "number" ? s.daily_budget : null,
  };
};

const amazonSpCampaignSetState = defineWrite({
  id: "amazon_ads.sp_campaign.set_state",
  idempotent: true,
  title: "Pause or enable an Amazon Sponsored Products campaign",
  consent: "Pause and enable Sponsored Products campaigns",
  description:
    "Sets the state of one Amazon Sponsored Products campaign (PUT /sp/campaigns, v3): PAUSED pauses it (pause, stop, turn off), ENABLED resumes it (enable, resume, start, turn on, unpause). " +
    "Returns the campaign's state before and after. Campaign IDs come from amazon_ads.sp_campaigns.list.",
  types: ["amazon_ads"],
  credits: 1,
  example: { profile_id: "3541234567890123", campaign_id: "123456789012345", state: "PAUSED" },
  input: {
    ...profileInput,
    campaign_id: campaignId,
    state: z.enum(["PAUSED", "ENABLED"]).describe("PAUSED = pause the campaign, ENABLED = enable (resume) it."),
  },
  summarize(input, _connection, before) {
    const b = named(before);
    const verb = input.state === "PAUSED" ? "Pause" : "Enable";
    return `${verb} Amazon Sponsored Products campaign ${input.campaign_id}${b.name}${b.state ? ` (now ${b.state})` : ""} of profile ${input.profile_id}.`;
  },
  before: (ctx, input) => campaignOf(ctx, input),
  output: {
    profile_id: z.string().describe("Profile ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_state: z.string().nullable().describe("Previous state"),
    state: z.string().describe("State now, e.g. PAUSED or ENABLED"),
  },
  async run(ctx, input) {
    const { campaign, region } = await campaignOf(ctx, input);
    const after = await updateCampaign(ctx, input, region, { state: input.state });
    return {
      profile_id: input.profile_id,
      campaign_id: input.campaign_id,
      name: campaign?.name ?? null,
      previous_state: campaign?.state ?? null,
      state: after?.state ?? input.state,
    };
  },
});

const amazonSpCampaignSetBudget = defineWrite({
  id: "amazon_ads.sp_campaign.set_budget",
  idempotent: true,
  title: "Change an Amazon Sponsored Products campaign's daily budget",
  consent: "Change the daily budgets of Sponsored Products campaigns",
  description:
    "Sets the daily budget of one Amazon Sponsored Products campaign (PUT /sp/campaigns, v3, budget DAILY), in the marketplace's currency: raise, lower, increase, decrease or change the budget or daily spend. " +
    "Returns the budget before and after.",
  types: ["amazon_ads"],
  credits: 1,
  example: { profile_id: "3541234567890123", campaign_id: "123456789012345", daily_budget: 40 },
  input: {
    ...profileInput,
    campaign_id: campaignId,
    daily_budget: z
      .number()
      .min(1)
      .max(1_000_000)
      .describe(
        "The new daily budget in the marketplace's currency, e.g. 40 (Amazon's minimum is 1 in most marketplaces).",
      ),
  },
  summarize(input, _connection, before) {
    const b = named(before);
    const from = b.budget !== null ? ` from ${b.budget}` : "";
    return `Change the daily budget of Amazon Sponsored Products campaign ${input.campaign_id}${b.name} in profile ${input.profile_id}${from} to ${input.daily_budget}.`;
  },
  before: (ctx, input) => campaignOf(ctx, input),
  output: {
    profile_id: z.string().describe("Profile ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_daily_budget: z.number().nullable().describe("Previous daily budget (marketplace currency)"),
    daily_budget: z.number().describe("New daily budget (marketplace currency)"),
  },
  async run(ctx, input) {
    const { campaign, region } = await campaignOf(ctx, input);
    const after = await updateCampaign(ctx, input, region, {
      budget: { budget: input.daily_budget, budgetType: "DAILY" },
    });
    return {
      profile_id: input.profile_id,
      campaign_id: input.campaign_id,
      name: campaign?.name ?? null,
      previous_daily_budget: campaign?.daily_budget ?? null,
      daily_budget: after?.daily_budget ?? input.daily_budget,
    };
  },
});

export const operations: Operation[] = [amazonSpCampaignSetState, amazonSpCampaignSetBudget];
