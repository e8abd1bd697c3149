import "server-only";
import { z } from "zod";
import { REDDIT_API, redditApi } from "@/lib/platforms/reddit/reddit-provider";
import { campaignId, campaignOut } from "@/lib/platforms/reddit/reddit-operations";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Reddit Ads API v3 writes: a campaign is updated by PATCH /campaigns/{id} with {"data": {only
// the fields to change}}; the answer is the campaign after the change.

const campaignUrl = (id: string) => `${REDDIT_API}/campaigns/${encodeURIComponent(id)}`;

async function readCampaign(ctx: OperationContext, id: string) {
  // https://ads-api.reddit.com/docs/v3/ (Get a campaign: GET /campaigns/{campaign_id})
  const body = await redditApi(ctx.connection.type, campaignUrl(id), ctx.credentials, "the campaign read");
  if (!isObject(body.data)) throw new ProviderUnavailable("Reddit", "Reddit answered the campaign read without data.");
  return campaignOut(body.data);
}

const redditCampaignSetStatus = defineWrite({
  id: "reddit_ads.campaign.set_status",
  idempotent: true,
  title: "Pause or enable (activate) a Reddit ad campaign",
  consent: "Pause and activate campaigns",
  description:
    "Sets the configured status of one Reddit ad campaign (Ads API v3 Update a campaign, configured_status): PAUSED pauses it (pause, stop, turn off), ACTIVE activates or resumes it (resume, enable, start, turn on, unpause). " +
    "Returns the status before and after; effective_status can lag a few minutes. Campaign IDs come from reddit_ads.list_campaigns.",
  types: ["reddit_ads"],
  credits: 1,
  example: { campaign_id: "1234567890", configured_status: "PAUSED" },
  input: {
    campaign_id: campaignId,
    configured_status: z
      .enum(["ACTIVE", "PAUSED"])
      .describe("PAUSED = pause the campaign, ACTIVE = activate or resume it."),
  },
  summarize(input, _connection, before) {
    const b = isObject(before) ? before : {};
    const verb = input.configured_status === "PAUSED" ? "Pause" : "Activate";
    const name = typeof b.name === "string" && b.name ? ` '${b.name}'` : "";
    const from = typeof b.configured_status === "string" ? ` (now ${b.configured_status})` : "";
    const account = typeof b.ad_account_id === "string" && b.ad_account_id ? ` in ad account ${b.ad_account_id}` : "";
    return `${verb} Reddit campaign ${input.campaign_id}${name}${from}${account}.`;
  },
  async before(ctx, input) {
    const c = await readCampaign(ctx, input.campaign_id);
    return {
      campaign_id: input.campaign_id,
      name: c.name,
      ad_account_id: c.ad_account_id,
      configured_status: c.configured_status,
    };
  },
  output: {
    ad_account_id: z.string().nullable().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_configured_status: z.string().nullable().describe("Previous status"),
    configured_status: z.string().describe("Status now, e.g. PAUSED or ACTIVE"),
    effective_status: z.string().nullable().describe("Effective status"),
  },
  async run(ctx, input) {
    const previous = await readCampaign(ctx, input.campaign_id);
    // https://ads-api.reddit.com/docs/v3/ (Update a campaign: PATCH /campaigns/{campaign_id})
    const body = await redditApi(
      ctx.connection.type,
      campaignUrl(input.campaign_id),
      ctx.credentials,
      "the campaign update",
      {
        method: "PATCH",
        body: { data: { configured_status: input.configured_status } },
      },
    );
    const updated = isObject(body.data) ? campaignOut(body.data) : null;
    return {
      ad_account_id: updated?.ad_account_id ?? previous.ad_account_id,
      campaign_id: input.campaign_id,
      name: updated?.name ?? previous.name,
      previous_configured_status: previous.configured_status,
      configured_status: updated?.configured_status ?? input.configured_status,
      effective_status: updated?.effective_status ?? null,
    };
  },
});

export const operations: Operation[] = [redditCampaignSetStatus];
