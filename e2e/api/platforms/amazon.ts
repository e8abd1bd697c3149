import { expect } from "@playwright/test";
import type { PlatformCase, Recorded } from "./case";
import { amazonCampaignIds, amazonFacts, amazonReportTag } from "../../support/stand-ins/amazon";
import { testClient } from "../../support/stand-ins/stand-in-server";

// Amazon Ads against e2e/support/stand-ins/amazon.ts (Login with Amazon, Sponsored Products v3,
// reporting v3). The stand-in serves the three regional hosts alike.
//
// The stand-in's access tokens name their account, so a test's calls are those whose bearer
// names its account, plus the report downloads tagged with it. The SP campaign list is a POST:
// the writes' `before` read (a list filtered to one campaign ID) is left out when it succeeded,
// since the suite takes any other method than GET for a change at the provider.

const SP_CAMPAIGN = "application/vnd.spCampaign.v3+json";
const CLIENT_ID = testClient("AMAZON").clientId;

const apiHeaders = (account: string) => ({
  authorization: expect.stringMatching(new RegExp(`^Bearer Atza\\|${account}\\|[0-9a-f]+$`)),
  "amazon-advertising-api-clientid": CLIENT_ID,
});
const profileHeaders = (account: string, profile: string) => ({
  ...apiHeaders(account),
  "amazon-advertising-api-scope": profile,
});
const lines = (requests: Recorded[]) => requests.map((r) => `${r.method} ${r.path}`);

export const amazonAds: PlatformCase = {
  type: "amazon_ads",
  name: "Amazon Ads",
  credentialFields: null,
  oauth: {
    provider: "AMAZON",
    authorizePath: "/ap/oa",
    pkce: true,
    scopes: ["advertising::campaign_management", "profile"],
    accountName: (account) => `${account}@example.com`,
    refresh: true,
  },
  // The US profile comes from the profiles list, as an agent finds it; the stand-in's SP
  // campaigns of a profile are amazonCampaignIds(profile).
  async prepare({ client, connectionId }) {
    const listed = await client.callTool({
      name: "run_operation",
      arguments: { operation_id: "amazon_ads.profiles.list", connection_id: connectionId, input: { region: "na" } },
    });
    const profiles = (
      listed.structuredContent as { profiles?: { profile_id: string; country_code: string }[] } | undefined
    )?.profiles;
    const profile = profiles?.find((x) => x.country_code === "US")?.profile_id ?? "";
    return { profile, campaigns: profile ? amazonCampaignIds(profile) : [] };
  },
  mine(r, { account }) {
    const tag = amazonReportTag(account);
    if (r.path.startsWith(`/${tag}`)) return true;
    if (!String(r.headers.authorization ?? "").includes(`Atza|${account}|`)) return false;
    return !(r.status === 200 && r.path === "/sp/campaigns/list" && r.json?.campaignIdFilter !== undefined);
  },
  reads: [
    {
      op: "amazon_ads.profiles.list",
      input: () => ({}),
      check(result, { account }) {
        const f = amazonFacts(account);
        const profile = (id: string, country: string, currency: string, marketplace: string) => ({
          profile_id: id,
          region: "na",
          country_code: country,
          currency_code: currency,
          timezone: "America/Los_Angeles",
          account: {
            id: expect.stringMatching(/^A\d{12}$/),
            type: "seller",
            name: `${account} store`,
            marketplace_id: marketplace,
          },
        });
        expect(result).toEqual({
          profiles: [
            profile(f.profiles.US, "US", "USD", "ATVPDKIKX0DER"),
            profile(f.profiles.CA, "CA", "CAD", "A2EUQ1WTGCTBG2"),
          ],
        });
      },
      requests(requests, { account }) {
        // One GET per regional host (the stand-in answers all three alike), no profile scope.
        expect(lines(requests)).toEqual(["GET /v2/profiles", "GET /v2/profiles", "GET /v2/profiles"]);
        for (const r of requests) {
          expect(r.headers).toMatchObject(apiHeaders(account));
          expect(r.headers["amazon-advertising-api-scope"]).toBeUndefined();
        }
      },
    },
    {
      op: "amazon_ads.sp_campaigns.list",
      input: ({ p }) => ({ profile_id: p.profile, region: "na", states: ["ENABLED", "PAUSED"], limit: 50 }),
      check(result, { p }) {
        const [brand, auto, clearance] = p.campaigns as string[];
        const campaign = (
          id: string,
          name: string,
          state: string,
          targeting: string,
          budget: number,
          start: string,
        ) => ({
          campaign_id: id,
          name,
          state,
          targeting_type: targeting,
          daily_budget: budget,
          budget_type: "DAILY",
          start_date: start,
          end_date: null,
          portfolio_id: null,
        });
        expect(result).toEqual({
          profile_id: p.profile,
          region: "na",
          total: 3,
          campaigns: [
            campaign(brand, "SP - Brand", "ENABLED", "MANUAL", 30, "2025-01-15"),
            campaign(auto, "SP - Auto", "ENABLED", "AUTO", 20, "2025-02-01"),
            campaign(clearance, "SP - Clearance", "PAUSED", "MANUAL", 10, "2025-03-10"),
          ],
          next_token: null,
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual(["POST /sp/campaigns/list"]);
        expect(requests[0].json).toEqual({ maxResults: 50, stateFilter: { include: ["ENABLED", "PAUSED"] } });
        expect(requests[0].headers).toMatchObject({
          ...profileHeaders(account, p.profile),
          accept: SP_CAMPAIGN,
          "content-type": SP_CAMPAIGN,
        });
      },
    },
    {
      op: "amazon_ads.sp_campaigns.report",
      // No region: it is found from the profiles list.
      input: ({ p }) => ({
        profile_id: p.profile,
        start_date: "2026-10-01",
        end_date: "2026-10-02",
        metrics: ["impressions", "clicks", "cost"],
      }),
      check(result, { p }) {
        expect(result).toMatchObject({
          profile_id: p.profile,
          region: "na",
          report_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f-]{27}$/),
          date_range: { start_date: "2026-10-01", end_date: "2026-10-02" },
          total_rows: 3,
        });
        expect(result.rows[0]).toEqual({
          campaignId: p.campaigns[0],
          campaignName: "SP - Brand",
          campaignStatus: "ENABLED",
          startDate: "2026-10-01",
          endDate: "2026-10-02",
          impressions: expect.any(Number),
          clicks: expect.any(Number),
          cost: expect.any(Number),
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual([
          "GET /v2/profiles",
          "POST /reporting/reports",
          expect.stringMatching(/^GET \/reporting\/reports\/[0-9a-f-]{36}$/),
          expect.stringMatching(/^GET \/[0-9a-f-]{36}\/report-[0-9a-f-]{36}\.json\.gz$/),
        ]);
        const [, create, status, download] = requests;
        expect(create.json).toEqual({
          name: "Patchbay SP campaigns 2026-10-01..2026-10-02",
          startDate: "2026-10-01",
          endDate: "2026-10-02",
          configuration: {
            adProduct: "SPONSORED_PRODUCTS",
            groupBy: ["campaign"],
            columns: [
              "campaignId",
              "campaignName",
              "campaignStatus",
              "startDate",
              "endDate",
              "impressions",
              "clicks",
              "cost",
            ],
            reportTypeId: "spCampaigns",
            timeUnit: "SUMMARY",
            format: "GZIP_JSON",
          },
        });
        expect(create.headers).toMatchObject({
          ...profileHeaders(account, p.profile),
          "content-type": "application/vnd.createasyncreportrequest.v3+json",
        });
        expect(status.headers).toMatchObject(profileHeaders(account, p.profile));
        // The pre-signed S3 link takes no Amazon Ads credentials.
        expect(download.query).toMatchObject({ "X-Amz-Signature": "stand-in" });
        expect(download.headers.authorization).toBeUndefined();
        expect(download.headers["amazon-advertising-api-clientid"]).toBeUndefined();
      },
    },
  ],
  writes: [
    {
      op: "amazon_ads.sp_campaign.set_state",
      input: ({ p }) => ({ profile_id: p.profile, region: "na", campaign_id: p.campaigns[0], state: "PAUSED" }),
      summary: ({ p }) =>
        `Pause Amazon Sponsored Products campaign ${p.campaigns[0]} 'SP - Brand' (now ENABLED) of profile ${p.profile}.`,
      check(result, { p }) {
        expect(result).toEqual({
          profile_id: p.profile,
          campaign_id: p.campaigns[0],
          name: "SP - Brand",
          previous_state: "ENABLED",
          state: "PAUSED",
        });
      },
      requests(requests, { account, p }) {
        // The filtered list (the state before) is left out (see above); then one update.
        expect(lines(requests)).toEqual(["PUT /sp/campaigns"]);
        expect(requests[0].json).toEqual({ campaigns: [{ campaignId: p.campaigns[0], state: "PAUSED" }] });
        expect(requests[0].headers).toMatchObject({
          ...profileHeaders(account, p.profile),
          accept: SP_CAMPAIGN,
          "content-type": SP_CAMPAIGN,
          prefer: "return=representation",
        });
      },
      refusal: ({ p }) => ({
        input: { profile_id: p.profile, region: "na", campaign_id: "999", state: "ENABLED" },
        says: ["Amazon Ads", "entityNotFoundError", "NOT_FOUND"],
      }),
    },
    {
      op: "amazon_ads.sp_campaign.set_budget",
      input: ({ p }) => ({ profile_id: p.profile, region: "na", campaign_id: p.campaigns[1], daily_budget: 35 }),
      summary: ({ p }) =>
        `Change the daily budget of Amazon Sponsored Products campaign ${p.campaigns[1]} 'SP - Auto' in profile ${p.profile} from 20 to 35.`,
      check(result, { p }) {
        expect(result).toEqual({
          profile_id: p.profile,
          campaign_id: p.campaigns[1],
          name: "SP - Auto",
          previous_daily_budget: 20,
          daily_budget: 35,
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual(["PUT /sp/campaigns"]);
        expect(requests[0].json).toEqual({
          campaigns: [{ campaignId: p.campaigns[1], budget: { budget: 35, budgetType: "DAILY" } }],
        });
        expect(requests[0].headers).toMatchObject({
          ...profileHeaders(account, p.profile),
          "content-type": SP_CAMPAIGN,
        });
      },
      refusal: ({ p }) => ({
        input: { profile_id: p.profile, region: "na", campaign_id: "999", daily_budget: 5 },
        says: ["Amazon Ads", "entityNotFoundError", "NOT_FOUND"],
      }),
    },
  ],
  rateLimit: {
    op: "amazon_ads.profiles.list",
    input: () => ({ region: "eu" }),
    says: ["Amazon Ads", "Too Many Requests", "60 s"],
  },
  searches: [
    { ask: "pause an Amazon sponsored products campaign", first: "amazon_ads.sp_campaign.set_state" },
    { ask: "increase the daily budget of my Amazon campaign", first: "amazon_ads.sp_campaign.set_budget" },
    { ask: "Amazon sponsored products campaign report with ACOS", first: "amazon_ads.sp_campaigns.report" },
    { ask: "which Amazon advertising profiles can I manage", first: "amazon_ads.profiles.list" },
    { ask: "list my Amazon sponsored products campaigns", first: "amazon_ads.sp_campaigns.list" },
  ],
};
