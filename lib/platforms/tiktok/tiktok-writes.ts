import "server-only";
import { z } from "zod";
import { tiktokAdvertiserIds, tiktokApiGet, tiktokApiPost } from "@/lib/platforms/tiktok/tiktok-provider";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { OperationInputError, type Operation, type OperationContext } from "@/lib/platforms/kit/operation-types";

// TikTok API for Business (Marketing API v1.3) writes. Every call names the advertiser; the
// connection's OAuth grant lists the advertisers the user authorized.

const BASE = "https://business-api.tiktok.com/open_api/v1.3";
const numeric = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be a numeric ${what} ID`);

/** ENABLE / DISABLE in TikTok's words, and how a person says them. */
const OPERATION_STATUS = { ENABLE: "Enable (resume)", DISABLE: "Pause (disable)" } as const;

function advertiserOf({ credentials }: OperationContext, given: string | undefined): string {
  const advertiserId = given ?? tiktokAdvertiserIds(credentials)[0];
  if (!advertiserId)
    throw new OperationInputError("advertiser_id is required: this connection names no authorized advertiser.");
  return advertiserId;
}

/** The campaign as campaign/get names it, or null when the advertiser has no such campaign. */
async function campaignOf(ctx: OperationContext, advertiserId: string, campaignId: string) {
  // https://business-api.tiktok.com/portal/docs?id=1739315828649986 (Campaign get)
  const data = await tiktokApiGet(
    ctx.connection.type,
    `${BASE}/campaign/get/`,
    ctx.credentials,
    {
      advertiser_id: advertiserId,
      filtering: JSON.stringify({ campaign_ids: [campaignId] }),
      fields: ["campaign_id", "campaign_name", "operation_status", "secondary_status"],
      page: 1,
      page_size: 1,
    },
    "the campaign/get call",
  );
  const found = (Array.isArray(data.list) ? data.list : [])
    .filter(isObject)
    .find((c) => String(c.campaign_id) === campaignId);
  return found
    ? {
        name: found.campaign_name ?? null,
        operation_status: found.operation_status ?? null,
        secondary_status: found.secondary_status ?? null,
      }
    : null;
}

const tiktokCampaignSetStatus = defineWrite({
  id: "tiktok_ads.campaign.set_status",
  idempotent: true,
  title: "Pause or enable a TikTok Ads campaign",
  consent: "Pause and enable campaigns",
  description:
    "Sets the operation status of one TikTok ad campaign (Marketing API campaign/status/update): DISABLE pauses it (pause, stop, turn off), ENABLE resumes it (resume, enable, start, turn on, unpause). " +
    "advertiser_id defaults to the first advertiser the user authorized. Returns the campaign's status before and after. Campaign IDs appear in tiktok_ads_report rows (data_level AUCTION_CAMPAIGN).",
  types: ["tiktok_ads"],
  credits: 1,
  example: { campaign_id: "1800000000000000001", operation_status: "DISABLE" },
  input: {
    advertiser_id: numeric("advertiser")
      .optional()
      .describe("The advertiser ID (default: the first one authorized for this connection)."),
    campaign_id: numeric("campaign").describe("The campaign ID, e.g. 1800000000000000001."),
    operation_status: z.enum(["ENABLE", "DISABLE"]).describe("DISABLE = pause the campaign, ENABLE = resume it."),
  },
  summarize(input, _connection, before) {
    const state = isObject(before) ? before : {};
    const name = typeof state.name === "string" && state.name ? ` '${state.name}'` : "";
    const from = typeof state.operation_status === "string" ? ` (now ${state.operation_status})` : "";
    const advertiser =
      typeof state.advertiser_id === "string"
        ? state.advertiser_id
        : (input.advertiser_id ?? "the connection's first authorized advertiser");
    return `${OPERATION_STATUS[input.operation_status]} TikTok campaign ${input.campaign_id}${name}${from} of advertiser ${advertiser}.`;
  },
  async before(ctx, input) {
    const advertiserId = advertiserOf(ctx, input.advertiser_id);
    const campaign = await campaignOf(ctx, advertiserId, input.campaign_id);
    return {
      advertiser_id: advertiserId,
      campaign_id: input.campaign_id,
      ...(campaign ?? { name: null, operation_status: null, secondary_status: null }),
    };
  },
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_operation_status: z.string().nullable().describe("Previous status (ENABLE or DISABLE)"),
    operation_status: z.enum(["ENABLE", "DISABLE"]).describe("Status now: ENABLE (running) or DISABLE (paused)"),
    updated_campaign_ids: z.array(z.string()).describe("Campaigns TikTok updated"),
  },
  async run(ctx, input) {
    const advertiserId = advertiserOf(ctx, input.advertiser_id);
    const previous = await campaignOf(ctx, advertiserId, input.campaign_id);
    // https://business-api.tiktok.com/portal/docs?id=1739320994354178 (Campaign status update)
    const data = await tiktokApiPost(
      ctx.connection.type,
      `${BASE}/campaign/status/update/`,
      ctx.credentials,
      { advertiser_id: advertiserId, campaign_ids: [input.campaign_id], operation_status: input.operation_status },
      "the campaign/status/update call",
    );
    const updated = Array.isArray(data.campaign_ids) ? data.campaign_ids.map(String) : [input.campaign_id];
    return {
      advertiser_id: advertiserId,
      campaign_id: input.campaign_id,
      name: previous?.name ?? null,
      previous_operation_status: previous?.operation_status ?? null,
      operation_status: input.operation_status,
      updated_campaign_ids: updated,
    };
  },
});

export const operations: Operation[] = [tiktokCampaignSetStatus];
