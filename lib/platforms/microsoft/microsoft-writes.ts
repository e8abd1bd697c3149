import "server-only";
import { z } from "zod";
import {
  accessTokenOf,
  CAMPAIGN_API,
  customerOf,
  errorsReason,
  msadsCall,
  partialErrors,
  PROVIDER,
} from "@/lib/platforms/microsoft/microsoft-provider";
import { accountInput, ALL_CAMPAIGN_TYPES, campaignView, id } from "@/lib/platforms/microsoft/microsoft-operations";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderRejection } from "@/lib/platforms/kit/types";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Microsoft Advertising writes: UpdateCampaigns with only the fields that change (Status, or
// DailyBudget); the campaign is read first with GetCampaignsByIds.

/**
 * The campaign as GetCampaignsByIds has it (null when the account has none: the update then
 * carries Microsoft's own refusal, 1100 CampaignServiceInvalidCampaignId), and the customer.
 */
async function campaignOf(
  ctx: OperationContext,
  input: { account_id: string; customer_id?: string; campaign_id: string },
): Promise<{ campaign: ReturnType<typeof campaignView> | null; customerId: string }> {
  const token = accessTokenOf(ctx.credentials);
  const customerId = await customerOf(ctx.connection.type, token, input.account_id, input.customer_id);
  // https://learn.microsoft.com/en-us/advertising/campaign-management-service/getcampaignsbyids
  const body = await msadsCall(
    ctx.connection.type,
    `${CAMPAIGN_API}/Campaigns/QueryByIds`,
    token,
    "the GetCampaignsByIds call",
    { AccountId: input.account_id, CampaignIds: [input.campaign_id], CampaignType: ALL_CAMPAIGN_TYPES },
    { customerId, accountId: input.account_id },
  );
  const found = (Array.isArray(body.Campaigns) ? body.Campaigns : []).find(isObject);
  return { campaign: found ? campaignView(found) : null, customerId };
}

/** UpdateCampaigns with one campaign's changed fields; its partial errors are Microsoft's refusal. */
async function updateCampaign(
  ctx: OperationContext,
  input: { account_id: string; campaign_id: string },
  customerId: string,
  fields: Record<string, unknown>,
) {
  // https://learn.microsoft.com/en-us/advertising/campaign-management-service/updatecampaigns
  const body = await msadsCall(
    ctx.connection.type,
    `${CAMPAIGN_API}/Campaigns`,
    accessTokenOf(ctx.credentials),
    "the UpdateCampaigns call",
    { AccountId: input.account_id, Campaigns: [{ Id: input.campaign_id, ...fields }] },
    { customerId, accountId: input.account_id, method: "PUT" },
  );
  const errors = partialErrors(body);
  if (errors.length) throw new ProviderRejection(PROVIDER, errorsReason(errors));
}

const named = (before: unknown) => {
  const s = isObject(before) && isObject(before.campaign) ? before.campaign : {};
  return {
    name: typeof s.name === "string" && s.name ? ` '${s.name}'` : "",
    status: typeof s.status === "string" ? s.status : null,
    budget: typeof s.daily_budget === "number" ? s.daily_budget : null,
  };
};

const microsoftCampaignSetStatus = defineWrite({
  id: "microsoft_ads.campaign.set_status",
  idempotent: true,
  title: "Pause or enable a Microsoft Advertising (Bing Ads) campaign",
  consent: "Pause and enable campaigns",
  description:
    "Sets the status of one Microsoft Advertising (Bing Ads) campaign (Campaign Management UpdateCampaigns): Paused pauses it (pause, stop, turn off), Active resumes it (enable, resume, start, turn on, unpause). " +
    "Returns the campaign's status before and after. Campaign IDs come from microsoft_ads.campaigns.list.",
  types: ["microsoft_ads"],
  credits: 1,
  example: { account_id: "150123456", campaign_id: "410987654", status: "Paused" },
  input: {
    ...accountInput,
    campaign_id: id("campaign").describe("The campaign ID, e.g. 410987654."),
    status: z.enum(["Paused", "Active"]).describe("Paused = pause the campaign, Active = enable (resume) it."),
  },
  summarize(input, _connection, before) {
    const b = named(before);
    const verb = input.status === "Paused" ? "Pause" : "Enable";
    return `${verb} Microsoft Advertising campaign ${input.campaign_id}${b.name}${b.status ? ` (now ${b.status})` : ""} of account ${input.account_id}.`;
  },
  before: (ctx, input) => campaignOf(ctx, input),
  output: {
    account_id: z.string().describe("Account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_status: z.string().nullable().describe("Previous status"),
    status: z.enum(["Paused", "Active"]).describe("Status now: Paused or Active"),
  },
  async run(ctx, input) {
    const { campaign, customerId } = await campaignOf(ctx, input);
    await updateCampaign(ctx, input, customerId, { Status: input.status });
    return {
      account_id: input.account_id,
      campaign_id: input.campaign_id,
      name: campaign?.name ?? null,
      previous_status: campaign?.status ?? null,
      status: input.status,
    };
  },
});

const microsoftCampaignSetBudget = defineWrite({
  id: "microsoft_ads.campaign.set_budget",
  idempotent: true,
  title: "Change a Microsoft Advertising (Bing Ads) campaign's daily budget",
  consent: "Change the daily budgets of campaigns",
  description:
    "Sets the daily budget of one Microsoft Advertising (Bing Ads) campaign (Campaign Management UpdateCampaigns DailyBudget), in the account's currency: raise, lower, increase, decrease or change the budget or daily spend. " +
    "A campaign on a shared budget is refused by Microsoft (CampaignServiceCannotUpdateSharedBudget). Returns the budget before and after.",
  types: ["microsoft_ads"],
  credits: 1,
  example: { account_id: "150123456", campaign_id: "410987654", daily_budget: 75 },
  input: {
    ...accountInput,
    campaign_id: id("campaign").describe("The campaign ID, e.g. 410987654."),
    daily_budget: z
      .number()
      .positive()
      .max(1_000_000_000)
      .describe("The new daily budget in the account's currency, e.g. 75.5."),
  },
  summarize(input, _connection, before) {
    const b = named(before);
    const from = b.budget !== null ? ` from ${b.budget}` : "";
    return `Change the daily budget of Microsoft Advertising campaign ${input.campaign_id}${b.name} in account ${input.account_id}${from} to ${input.daily_budget}.`;
  },
  before: (ctx, input) => campaignOf(ctx, input),
  output: {
    account_id: z.string().describe("Account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_daily_budget: z.number().nullable().describe("Previous daily budget (account currency)"),
    daily_budget: z.number().describe("New daily budget (account currency)"),
  },
  async run(ctx, input) {
    const { campaign, customerId } = await campaignOf(ctx, input);
    await updateCampaign(ctx, input, customerId, { DailyBudget: input.daily_budget });
    return {
      account_id: input.account_id,
      campaign_id: input.campaign_id,
      name: campaign?.name ?? null,
      previous_daily_budget: campaign?.daily_budget ?? null,
      daily_budget: input.daily_budget,
    };
  },
});

export const operations: Operation[] = [microsoftCampaignSetStatus, microsoftCampaignSetBudget];
