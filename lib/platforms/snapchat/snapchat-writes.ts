import "server-only";
import { z } from "zod";
import { SNAPCHAT_API, snapchatApi, snapchatEntities } from "@/lib/platforms/snapchat/snapchat-provider";
import { campaignId, campaignOut } from "@/lib/platforms/snapchat/snapchat-operations";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Snapchat Marketing API writes. An update is a PUT of the whole campaign to its ad account's
// campaigns (Snapchat replaces the entity with what it is sent), so each write reads the campaign
// first and sends it back with the one field changed.

/** What Snapchat sets itself on a campaign: left out of the PUT. */
const READ_ONLY = new Set([
  "updated_at",
  "created_at",
  "delivery_status",
  "deleted",
  "created_by_app_id",
  "created_by_user",
  "last_updated_by_app_id",
  "last_updated_by_user",
]);

/** The campaign entity as Get a campaign answers it. */
async function readCampaign(ctx: OperationContext, campaign: string): Promise<Record<string, unknown>> {
  // https://developers.snap.com/api/marketing-api/Ads-API/campaigns (Get a specific campaign)
  const body = await snapchatApi(
    ctx.connection.type,
    `${SNAPCHAT_API}/campaigns/${campaign}`,
    ctx.credentials,
    "the campaign read",
  );
  const [found] = snapchatEntities(body, "campaigns", "campaign");
  if (!found)
    throw new ProviderUnavailable("Snapchat", `Snapchat answered the campaign read without campaign ${campaign}.`);
  return found;
}

/** The campaign sent back whole with `change` applied; the campaign as Snapchat answers the update. */
async function putCampaign(ctx: OperationContext, current: Record<string, unknown>, change: Record<string, unknown>) {
  const account = String(current.ad_account_id ?? "");
  if (!account)
    throw new ProviderUnavailable("Snapchat", `Snapchat named no ad account for campaign ${String(current.id)}.`);
  const whole = Object.fromEntries(Object.entries(current).filter(([k]) => !READ_ONLY.has(k)));
  // https://developers.snap.com/api/marketing-api/Ads-API/campaigns (Update a campaign: PUT /v1/adaccounts/{id}/campaigns)
  const body = await snapchatApi(
    ctx.connection.type,
    `${SNAPCHAT_API}/adaccounts/${account}/campaigns`,
    ctx.credentials,
    "the campaign update",
    { campaigns: [{ ...whole, ...change }] },
  );
  const [updated] = snapchatEntities(body, "campaigns", "campaign");
  return campaignOut(updated ?? { ...current, ...change });
}

const beforeOf = (before: unknown) => (isObject(before) ? before : {});
const named = (before: unknown) => {
  const b = beforeOf(before);
  return typeof b.name === "string" && b.name ? ` '${b.name}'` : "";
};
const accountOf = (before: unknown) => {
  const b = beforeOf(before);
  return typeof b.ad_account_id === "string" && b.ad_account_id ? ` in ad account ${b.ad_account_id}` : "";
};

const snapchatCampaignSetStatus = defineWrite({
  id: "snapchat_ads.campaign.set_status",
  idempotent: true,
  title: "Pause or enable (activate) a Snapchat ad campaign",
  consent: "Pause and activate campaigns and change their budgets",
  description:
    "Sets the status of one Snapchat ad campaign (Marketing API Update a campaign): PAUSED pauses it (pause, stop, turn off), ACTIVE activates or resumes it (resume, enable, start, turn on, unpause). " +
    "Reads the campaign first and sends it back whole, as Snapchat requires. Returns the status before and after. Campaign IDs come from snapchat_ads.list_campaigns.",
  types: ["snapchat_ads"],
  credits: 1,
  example: { campaign_id: "ff869d1f-0923-4d28-8577-4c36291f0fca", status: "PAUSED" },
  input: {
    campaign_id: campaignId,
    status: z.enum(["ACTIVE", "PAUSED"]).describe("PAUSED = pause the campaign, ACTIVE = activate or resume it."),
  },
  summarize(input, _connection, before) {
    const verb = input.status === "PAUSED" ? "Pause" : "Activate";
    const b = beforeOf(before);
    const from = typeof b.status === "string" ? ` (now ${b.status})` : "";
    return `${verb} Snapchat campaign ${input.campaign_id}${named(before)}${from}${accountOf(before)}.`;
  },
  async before(ctx, input) {
    const c = await readCampaign(ctx, input.campaign_id);
    return {
      campaign_id: input.campaign_id,
      name: c.name ?? null,
      ad_account_id: c.ad_account_id ?? null,
      status: c.status ?? null,
    };
  },
  output: {
    ad_account_id: z.string().nullable().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_status: z.string().nullable().describe("Previous status"),
    status: z.string().describe("Status now, e.g. PAUSED or ACTIVE"),
  },
  async run(ctx, input) {
    const current = await readCampaign(ctx, input.campaign_id);
    const updated = await putCampaign(ctx, current, { status: input.status });
    return {
      ad_account_id: current.ad_account_id ?? null,
      campaign_id: input.campaign_id,
      name: updated.name ?? current.name ?? null,
      previous_status: current.status ?? null,
      status: updated.status ?? input.status,
    };
  },
});

const MICRO = 1_000_000;

const snapchatCampaignSetDailyBudget = defineWrite({
  id: "snapchat_ads.campaign.set_daily_budget",
  idempotent: true,
  title: "Change a Snapchat ad campaign's daily budget",
  consent: "Pause and activate campaigns and change their budgets",
  description:
    "Sets the daily spend cap (daily budget) of one Snapchat ad campaign (Marketing API Update a campaign, daily_budget_micro): raise, lower or change how much it may spend per day, in the ad account's currency (e.g. 50 or 20.5). " +
    "Reads the campaign first and sends it back whole, as Snapchat requires. Returns the daily budget before and after.",
  types: ["snapchat_ads"],
  credits: 1,
  example: { campaign_id: "ff869d1f-0923-4d28-8577-4c36291f0fca", daily_budget: 50 },
  input: {
    campaign_id: campaignId,
    daily_budget: z
      .number()
      .positive()
      .max(10_000_000)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "has more than two decimals")
      .describe("The new daily budget in the ad account's currency, e.g. 50 (sent as micro-currency)."),
  },
  summarize(input, _connection, before) {
    const b = beforeOf(before);
    const from = typeof b.daily_budget_micro === "number" ? ` from ${b.daily_budget_micro / MICRO}` : "";
    return `Set the daily budget of Snapchat campaign ${input.campaign_id}${named(before)}${from} to ${input.daily_budget}${accountOf(before)}.`;
  },
  async before(ctx, input) {
    const c = await readCampaign(ctx, input.campaign_id);
    return {
      campaign_id: input.campaign_id,
      name: c.name ?? null,
      ad_account_id: c.ad_account_id ?? null,
      daily_budget_micro: c.daily_budget_micro ?? null,
    };
  },
  output: {
    ad_account_id: z.string().nullable().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_daily_budget: z.number().nullable().describe("Previous daily budget (account currency)"),
    daily_budget: z.number().describe("New daily budget (account currency)"),
    daily_budget_micro: z.number().describe("New daily budget in micro-units"),
  },
  async run(ctx, input) {
    const current = await readCampaign(ctx, input.campaign_id);
    const micro = Math.round(input.daily_budget * MICRO);
    const updated = await putCampaign(ctx, current, { daily_budget_micro: micro });
    const money = (v: unknown) => (typeof v === "number" ? v / MICRO : null);
    return {
      ad_account_id: current.ad_account_id ?? null,
      campaign_id: input.campaign_id,
      name: updated.name ?? current.name ?? null,
      previous_daily_budget: money(current.daily_budget_micro),
      daily_budget: money(updated.daily_budget_micro) ?? input.daily_budget,
      daily_budget_micro: typeof updated.daily_budget_micro === "number" ? updated.daily_budget_micro : micro,
    };
  },
});

export const operations: Operation[] = [snapchatCampaignSetStatus, snapchatCampaignSetDailyBudget];
