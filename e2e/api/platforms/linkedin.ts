import { expect } from "@playwright/test";
import type { PlatformCase } from "./case";

// LinkedIn Ads against e2e/support/stand-ins/linkedin.ts (Marketing API, versioned REST under /rest).

const REST_HEADERS = { "linkedin-version": expect.stringMatching(/^\d{6}$/), "x-restli-protocol-version": "2.0.0" };

export const linkedinAds: PlatformCase = {
  type: "linkedin_ads",
  name: "LinkedIn Ads",
  credentialFields: null,
  oauth: {
    provider: "LINKEDIN",
    authorizePath: "/oauth/v2/authorization",
    pkce: false,
    scopes: ["openid", "profile", "email", "r_ads", "r_ads_reporting", "rw_ads"],
    accountName: (account) => `${account}@example.com`,
    refresh: true,
  },
  // The ad account comes from the accounts list, as an agent finds it; its campaigns are
  // <first four digits of the account>1..3 at the stand-in.
  async prepare({ client, connectionId }) {
    const listed = await client.callTool({
      name: "run_operation",
      arguments: { operation_id: "linkedin_ads.list_accounts", connection_id: connectionId, input: {} },
    });
    const accounts = (listed.structuredContent as { ad_accounts?: { ad_account_id: string }[] } | undefined)
      ?.ad_accounts;
    const account = accounts?.[0]?.ad_account_id ?? "";
    return { account, campaign: `${account.slice(0, 4)}1` };
  },
  reads: [
    {
      op: "linkedin_ads.list_accounts",
      input: () => ({ limit: 10 }),
      check(result, { account }) {
        expect(result.ad_accounts).toHaveLength(2);
        expect(result.ad_accounts[0]).toEqual({
          ad_account_id: expect.stringMatching(/^\d{9}$/),
          name: `${account} ads 1`,
          status: "ACTIVE",
          type: "BUSINESS",
          currency: "USD",
        });
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /rest/adAccounts"]);
        expect(requests[0].query).toEqual({ q: "search", pageSize: "10" });
        expect(requests[0].headers).toMatchObject({
          ...REST_HEADERS,
          authorization: expect.stringMatching(/^Bearer at_[0-9a-f]+$/),
        });
      },
    },
    {
      op: "linkedin_ads.analytics",
      input: ({ p }) => ({
        ad_account_id: p.account,
        pivot: "CAMPAIGN",
        start_date: "2025-03-01",
        end_date: "2025-03-31",
        metrics: ["impressions", "clicks"],
      }),
      check(result, { p }) {
        expect(result).toMatchObject({
          ad_account_id: p.account,
          pivot: "CAMPAIGN",
          date_range: { start_date: "2025-03-01", end_date: "2025-03-31" },
          truncated: false,
        });
        expect(result.rows).toHaveLength(3);
        expect(result.rows[0]).toEqual({
          pivot: expect.stringMatching(/^urn:li:sponsoredCampaign:\d+$/),
          start_date: "2025-03-01",
          end_date: "2025-03-31",
          impressions: expect.any(Number),
          clicks: expect.any(Number),
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /rest/adAnalytics"]);
        expect(requests[0].query).toEqual({
          q: "analytics",
          pivot: "CAMPAIGN",
          timeGranularity: "ALL",
          dateRange: "(start:(year:2025,month:3,day:1),end:(year:2025,month:3,day:31))",
          accounts: `List(urn:li:sponsoredAccount:${p.account})`,
          fields: "dateRange,pivotValues,impressions,clicks",
        });
        expect(requests[0].headers).toMatchObject(REST_HEADERS);
      },
    },
  ],
  writes: [
    {
      op: "linkedin_ads.campaign.set_status",
      input: ({ p }) => ({ ad_account_id: p.account, campaign_id: p.campaign, status: "PAUSED" }),
      summary: ({ p }) =>
        `Pause LinkedIn campaign ${p.campaign} 'Brand awareness' (now ACTIVE) in ad account ${p.account}.`,
      check(result, { p }) {
        expect(result).toEqual({
          ad_account_id: p.account,
          campaign_id: p.campaign,
          name: "Brand awareness",
          previous_status: "ACTIVE",
          status: "PAUSED",
        });
      },
      requests(requests, { p }) {
        const path = `/rest/adAccounts/${p.account}/adCampaigns/${p.campaign}`;
        // The campaign is read (the status before), then changed once.
        expect(new Set(requests.map((r) => r.path))).toEqual(new Set([path]));
        const writes = requests.filter((r) => r.method !== "GET");
        expect(writes.map((r) => r.method)).toEqual(["POST"]);
        const [write] = writes;
        expect(write.json).toEqual({ patch: { $set: { status: "PAUSED" } } });
        expect(write.headers).toMatchObject({
          ...REST_HEADERS,
          "x-restli-method": "PARTIAL_UPDATE",
          "content-type": "application/json",
        });
      },
      refusal: ({ p }) => ({
        input: { ad_account_id: p.account, campaign_id: "77", status: "ACTIVE" },
        says: ["LinkedIn", "NOT_FOUND", "urn:li:sponsoredCampaign:77"],
      }),
    },
  ],
  rateLimit: {
    op: "linkedin_ads.list_accounts",
    input: () => ({}),
    says: ["LinkedIn", "TOO_MANY_REQUESTS", "throttle"],
  },
  searches: [
    { ask: "pause the linkedin campaign", first: "linkedin_ads.campaign.set_status" },
    { ask: "linkedin ads performance by campaign last month", first: "linkedin_ads.analytics" },
    { ask: "which linkedin ad accounts can I use", first: "linkedin_ads.list_accounts" },
  ],
};
