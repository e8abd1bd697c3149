import "server-only";
import { z } from "zod";
import { PINTEREST_API, pinterestApi, pinterestItem } from "@/lib/platforms/pinterest/pinterest-provider";
import { adAccountId, campaignId, campaignOut, listCampaigns } from "@/lib/platforms/pinterest/pinterest-operations";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Pinterest API v5 writes: Update campaigns (PATCH /ad_accounts/{id}/campaigns, an array of
// partial campaigns, each with id and ad_account_id; the answer holds data or exceptions per item).

/** The campaign as List campaigns names it (any status), or null when the account has no such campaign. */
async function campaignState(ctx: OperationContext, account: string, campaign: string) {
  const page = await listCampaigns(ctx, account, {
    campaign_ids: campaign,
    entity_statuses: "ACTIVE,PAUSED,ARCHIVED,DRAFT",
  });
  const found = page.items.find((c) => String(c.id) === campaign);
  return found ? campaignOut(found) : null;
}

/** One campaign partially updated; the updated campaign as Pinterest answers it. */
async function updateCampaign(
  ctx: OperationContext,
  account: string,
  campaign: string,
  change: Record<string, unknown>,
) {
  // https://developers.pinterest.com/docs/api/v5/campaigns-update
  const body = await pinterestApi(
    ctx.connection.type,
    `${PINTEREST_API}/ad_accounts/${account}/campaigns`,
    ctx.credentials,
    "the campaigns update",
    [{ id: campaign, ad_account_id: account, ...change }],
  );
  return campaignOut(pinterestItem(body, "the campaigns update"));
}

const named = (before: unknown) =>
  isObject(before) && typeof before.name === "string" && before.name ? ` '${before.name}'` : "";

const pinterestCampaignSetStatus = defineWrite({
  id: "pinterest_ads.campaign.set_status",
  idempotent: true,
  title: "Pause or enable (activate) a Pinterest ad campaign",
  consent: "Pause and activate campaigns and change their budgets",
  description:
    "Sets the status of one Pinterest ad campaign (API v5 Update campaigns): PAUSED pauses it (pause, stop, turn off), ACTIVE activates or resumes it (resume, enable, start, turn on, unpause), ARCHIVED archives it for good. " +
    "Returns the campaign's status before and after. Campaign IDs come from pinterest_ads.list_campaigns.",
  types: ["pinterest_ads"],
  credits: 1,
  example: { ad_account_id: "549755885175", campaign_id: "626736533506", status: "PAUSED" },
  input: {
    ad_account_id: adAccountId,
    campaign_id: campaignId,
    status: z
      .enum(["ACTIVE", "PAUSED", "ARCHIVED"])
      .describe(
        "PAUSED = pause the campaign, ACTIVE = activate or resume it, ARCHIVED = archive it (cannot be undone).",
      ),
  },
  summarize(input, _connection, before) {
    const verb = input.status === "PAUSED" ? "Pause" : input.status === "ACTIVE" ? "Activate" : "Archive";
    const from = isObject(before) && typeof before.status === "string" ? ` (now ${before.status})` : "";
    return `${verb} Pinterest campaign ${input.campaign_id}${named(before)}${from} in ad account ${input.ad_account_id}.`;
  },
  async before(ctx, input) {
    const campaign = await campaignState(ctx, input.ad_account_id, input.campaign_id);
    return { campaign_id: input.campaign_id, name: campaign?.name ?? null, status: campaign?.status ?? null };
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_status: z.string().nullable().describe("Previous status"),
    status: z.string().describe("Status now, e.g. PAUSED or ACTIVE"),
  },
  async run(ctx, input) {
    const previous = await campaignState(ctx, input.ad_account_id, input.campaign_id);
    const updated = await updateCampaign(ctx, input.ad_account_id, input.campaign_id, { status: input.status });
    return {
      ad_account_id: input.ad_account_id,
      campaign_id: input.campaign_id,
      name: updated.name ?? previous?.name ?? null,
      previous_status: previous?.status ?? null,
      status: updated.status ?? input.status,
    };
  },
});

const MICRO = 1_000_000;

const pinterestCampaignSetDailyBudget = defineWrite({
  id: "pinterest_ads.campaign.set_daily_budget",
  idempotent: true,
  title: "Change a Pinterest ad campaign's daily budget",
  consent: "Pause and activate campaigns and change their budgets",
  description:
    "Sets the daily spend cap (daily budget) of one Pinterest ad campaign (API v5 Update campaigns, daily_spend_cap): raise, lower or change how much the campaign may spend per day, in the ad account's currency (e.g. 25.50). " +
    "Pinterest refuses it on a campaign with a lifetime spend cap. Returns the daily budget before and after.",
  types: ["pinterest_ads"],
  credits: 1,
  example: { ad_account_id: "549755885175", campaign_id: "626736533506", daily_budget: 25 },
  input: {
    ad_account_id: adAccountId,
    campaign_id: campaignId,
    daily_budget: z
      .number()
      .positive()
      .max(1_000_000)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "has more than two decimals")
      .describe("The new daily budget in the ad account's currency, e.g. 25.50 (sent as micro-currency)."),
  },
  summarize(input, _connection, before) {
    const cap = isObject(before) && typeof before.daily_spend_cap === "number" ? before.daily_spend_cap / MICRO : null;
    const from = cap !== null ? ` from ${cap}` : "";
    return `Set the daily budget of Pinterest campaign ${input.campaign_id}${named(before)}${from} to ${input.daily_budget} in ad account ${input.ad_account_id}.`;
  },
  async before(ctx, input) {
    const campaign = await campaignState(ctx, input.ad_account_id, input.campaign_id);
    return {
      campaign_id: input.campaign_id,
      name: campaign?.name ?? null,
      daily_spend_cap: campaign?.daily_spend_cap ?? null,
    };
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_daily_budget: z.number().nullable().describe("Previous daily budget (account currency)"),
    daily_budget: z.number().describe("New daily budget (account currency)"),
    daily_spend_cap_micro: z.number().describe("New daily budget in micro-units"),
  },
  async run(ctx, input) {
    const previous = await campaignState(ctx, input.ad_account_id, input.campaign_id);
    const micro = Math.round(input.daily_budget * MICRO);
    const updated = await updateCampaign(ctx, input.ad_account_id, input.campaign_id, { daily_spend_cap: micro });
    const cap = (v: unknown) => (typeof v === "number" ? v / MICRO : null);
    return {
      ad_account_id: input.ad_account_id,
      campaign_id: input.campaign_id,
      name: updated.name ?? previous?.name ?? null,
      previous_daily_budget: cap(previous?.daily_spend_cap),
      daily_budget: cap(updated.daily_spend_cap) ?? input.daily_budget,
      daily_spend_cap_micro: typeof updated.daily_spend_cap === "number" ? updated.daily_spend_cap : micro,
    };
  },
});

export const operations: Operation[] = [pinterestCampaignSetStatus, pinterestCampaignSetDailyBudget];
