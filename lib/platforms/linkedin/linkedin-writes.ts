import "server-only";
import { z } from "zod";
import { linkedinRestGet, linkedinRestPartialUpdate } from "@/lib/platforms/linkedin/linkedin-provider";
import { defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// LinkedIn Marketing API writes (versioned REST under /rest, Rest.li 2.0). A campaign lives
// under its ad account: /rest/adAccounts/{account}/adCampaigns/{campaign}.

const API = "https://api.linkedin.com/rest";

/** The statuses an advertiser sets on a campaign; DRAFT, COMPLETED, CANCELED … are LinkedIn's to set. */
const SETTABLE = ["ACTIVE", "PAUSED", "ARCHIVED"] as const;

const numericId = (urnType: string, what: string) =>
  z
    .string()
    .transform((v) => v.trim().replace(new RegExp(`^urn:li:${urnType}:`), ""))
    .pipe(z.string().regex(/^\d{1,20}$/, `must be a numeric ${what} ID`));

const campaignUrl = (account: string, campaign: string) => `${API}/adAccounts/${account}/adCampaigns/${campaign}`;

const linkedinCampaignSetStatus = defineWrite({
  id: "linkedin_ads.campaign.set_status",
  idempotent: true,
  title: "Pause, resume or archive a LinkedIn Ads campaign",
  consent: "Pause, resume and archive campaigns",
  description:
    "Sets the status of one LinkedIn ad campaign (Marketing API adCampaigns, partial update): PAUSED stops its delivery (pause, stop, turn off), ACTIVE resumes or enables it (resume, start, turn on, unpause), ARCHIVED hides it. " +
    "Returns the campaign's status before and after. Use linkedin_ads_list_accounts when you do not know the ad account ID; the campaign ID is the number in urn:li:sponsoredCampaign:… (analytics rows name it).",
  types: ["linkedin_ads"],
  credits: 1,
  example: { ad_account_id: "507404993", campaign_id: "123456789", status: "PAUSED" },
  input: {
    ad_account_id: numericId("sponsoredAccount", "ad account").describe(
      "The ad account the campaign belongs to, e.g. 507404993 (urn:li:sponsoredAccount:507404993 is accepted).",
    ),
    campaign_id: numericId("sponsoredCampaign", "campaign").describe(
      "The campaign, e.g. 123456789 (urn:li:sponsoredCampaign:123456789 is accepted).",
    ),
    status: z
      .enum(SETTABLE)
      .describe("The new status: PAUSED (pause, stop delivery), ACTIVE (resume, enable) or ARCHIVED."),
  },
  summarize(input, _connection, before) {
    const name = isObject(before) && typeof before.name === "string" && before.name ? ` '${before.name}'` : "";
    const verb = input.status === "PAUSED" ? "Pause" : input.status === "ACTIVE" ? "Resume (set ACTIVE)" : "Archive";
    const from = isObject(before) && typeof before.status === "string" ? ` (now ${before.status})` : "";
    return `${verb} LinkedIn campaign ${input.campaign_id}${name}${from} in ad account ${input.ad_account_id}.`;
  },
  async before({ connection, credentials }, input) {
    // https://learn.microsoft.com/en-us/linkedin/marketing/integrations/ads/account-structure/create-and-manage-campaigns#get-a-campaign
    const campaign = await linkedinRestGet(
      connection.type,
      campaignUrl(input.ad_account_id, input.campaign_id),
      credentials,
      "the adCampaigns get",
    );
    return { campaign_id: input.campaign_id, name: campaign.name ?? null, status: campaign.status ?? null };
  },
  output: {
    ad_account_id: z.string().describe("Ad account ID"),
    campaign_id: z.string().describe("Campaign ID"),
    name: z.string().nullable().describe("Campaign"),
    previous_status: z.string().nullable().describe("Previous status"),
    status: z.enum(SETTABLE).describe("Status now (ACTIVE, PAUSED or ARCHIVED)"),
  },
  async run({ connection, credentials }, input) {
    const url = campaignUrl(input.ad_account_id, input.campaign_id);
    // https://learn.microsoft.com/en-us/linkedin/marketing/integrations/ads/account-structure/create-and-manage-campaigns#get-a-campaign
    const previous = await linkedinRestGet(connection.type, url, credentials, "the adCampaigns get");
    // https://learn.microsoft.com/en-us/linkedin/marketing/integrations/ads/account-structure/create-and-manage-campaigns#update-a-campaign
    await linkedinRestPartialUpdate(
      connection.type,
      url,
      credentials,
      { status: input.status },
      "the adCampaigns partial update",
    );
    return {
      ad_account_id: input.ad_account_id,
      campaign_id: input.campaign_id,
      name: previous.name ?? null,
      previous_status: previous.status ?? null,
      status: input.status,
    };
  },
});

export const operations: Operation[] = [linkedinCampaignSetStatus];
