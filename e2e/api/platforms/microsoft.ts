import { expect } from "@playwright/test";
import type { PlatformCase, Recorded } from "./case";
import {
  MICROSOFT_DEVELOPER_TOKEN,
  msadsCampaignIds,
  msadsFacts,
  msadsReportTag,
} from "../../support/stand-ins/microsoft";

// Microsoft Advertising against e2e/support/stand-ins/microsoft.ts (Bing Ads API v13 REST).
//
// The stand-in's access tokens name their account, so a test's calls are those whose bearer
// names its account, plus the report downloads tagged with it. Bing Ads reads are POSTs: the
// writes' `before` read (GetUser, GetCampaignsByIds) is left out when it succeeded, since the
// suite takes any other method than GET for a change at the provider.

const CAMPAIGN_TYPES = "Search,Shopping,DynamicSearchAds,Audience,PerformanceMax,Hotel,App";

const apiHeaders = (account: string) => ({
  authorization: expect.stringMatching(new RegExp(`^Bearer at_${account}_[0-9a-f]+$`)),
  developertoken: MICROSOFT_DEVELOPER_TOKEN,
  "content-type": "application/json",
});
const accountHeaders = (account: string, adAccount: string) => ({
  ...apiHeaders(account),
  customerid: msadsFacts(account).customerId,
  customeraccountid: adAccount,
});
const lines = (requests: Recorded[]) => requests.map((r) => `${r.method} ${r.path}`);

export const microsoftAds: PlatformCase = {
  type: "microsoft_ads",
  name: "Microsoft Advertising",
  credentialFields: null,
  oauth: {
    provider: "MICROSOFT",
    authorizePath: "/common/oauth2/v2.0/authorize",
    pkce: true,
    scopes: ["https://ads.microsoft.com/msads.manage", "offline_access"],
    accountName: (account) => `${account}@example.com`,
    refresh: true,
  },
  // The customer and ad account come from the accounts list, as an agent finds them; the
  // stand-in's campaigns of an account are msadsCampaignIds(account).
  async prepare({ client, connectionId }) {
    const listed = await client.callTool({
      name: "run_operation",
      arguments: { operation_id: "microsoft_ads.accounts.list", connection_id: connectionId, input: {} },
    });
    const customers = (
      listed.structuredContent as { customers?: { customer_id: string; accounts: { id: string }[] }[] } | undefined
    )?.customers;
    const customer = customers?.[0]?.customer_id ?? "";
    const account = customers?.[0]?.accounts?.[0]?.id ?? "";
    return { customer, account, campaigns: account ? msadsCampaignIds(account) : [] };
  },
  mine(r, { account }) {
    if (r.path.startsWith("/reports/")) return r.path.startsWith(`/reports/${msadsReportTag(account)}`);
    if (!String(r.headers.authorization ?? "").includes(`at_${account}_`)) return false;
    return !(r.status === 200 && /\/(User\/Query|Campaigns\/QueryByIds)$/.test(r.path));
  },
  reads: [
    {
      op: "microsoft_ads.accounts.list",
      input: ({ p }) => ({ customer_id: p.customer }),
      check(result, { account }) {
        const f = msadsFacts(account);
        expect(result).toEqual({
          user: { id: f.userId, user_name: account },
          customers: [
            {
              customer_id: f.customerId,
              accounts: f.accountIds.map((id, i) => ({
                id,
                name: i === 0 ? "Main account" : "Second account",
                number: expect.stringMatching(/^F\d{6}$/),
                status: "Active",
                pause_reason: null,
              })),
            },
          ],
        });
      },
      requests(requests, { account }) {
        // GetUser (the customers) is left out of the journal (see above); then GetAccountsInfo.
        expect(lines(requests)).toEqual(["POST /CustomerManagement/v13/AccountsInfo/Query"]);
        expect(requests[0].json).toEqual({ CustomerId: msadsFacts(account).customerId, OnlyParentAccounts: false });
        expect(requests[0].headers).toMatchObject({
          ...apiHeaders(account),
          customerid: msadsFacts(account).customerId,
        });
      },
    },
    {
      op: "microsoft_ads.campaigns.list",
      input: ({ p }) => ({ account_id: p.account, customer_id: p.customer }),
      check(result, { p }) {
        const [brand, generic, remarketing] = p.campaigns as string[];
        const campaign = (id: string, name: string, status: string, budget: number, shared = false) => ({
          id,
          name,
          status,
          campaign_type: "Search",
          daily_budget: budget,
          budget_type: "DailyBudgetStandard",
          shared_budget_id: shared ? expect.stringMatching(/^\d{9}$/) : null,
        });
        expect(result).toEqual({
          account_id: p.account,
          customer_id: p.customer,
          campaigns: [
            campaign(brand, "Brand - US", "Active", 50),
            campaign(generic, "Generic - EU", "Active", 25, true),
            campaign(remarketing, "Remarketing", "Paused", 10),
          ],
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual(["POST /CampaignManagement/v13/Campaigns/QueryByAccountId"]);
        expect(requests[0].json).toEqual({ AccountId: p.account, CampaignType: CAMPAIGN_TYPES });
        expect(requests[0].headers).toMatchObject(accountHeaders(account, p.account));
      },
    },
    {
      op: "microsoft_ads.campaigns.report",
      input: ({ p }) => ({
        account_id: p.account,
        customer_id: p.customer,
        start_date: "2026-10-01",
        end_date: "2026-10-03",
        daily: true,
        metrics: ["Impressions", "Clicks", "Spend"],
      }),
      check(result, { p }) {
        expect(result).toMatchObject({
          account_id: p.account,
          date_range: { start_date: "2026-10-01", end_date: "2026-10-03" },
          report_request_id: expect.stringMatching(/^\d{17}$/),
          total_rows: 9,
        });
        expect(result.rows).toHaveLength(9);
        expect(result.rows[0]).toEqual({
          TimePeriod: "2026-10-01",
          AccountId: p.account,
          CampaignId: p.campaigns[0],
          CampaignName: "Brand - US",
          CampaignStatus: "Active",
          Impressions: expect.any(Number),
          Clicks: expect.any(Number),
          Spend: expect.any(Number),
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual([
          "POST /Reporting/v13/GenerateReport/Submit",
          "POST /Reporting/v13/GenerateReport/Poll",
          expect.stringMatching(/^GET \/reports\/\d{17}\.zip$/),
        ]);
        const [submit, poll, download] = requests;
        expect(submit.json).toEqual({
          ReportRequest: {
            Type: "CampaignPerformanceReportRequest",
            ReportName: "Patchbay campaign performance 2026-10-01..2026-10-03",
            Format: "Csv",
            FormatVersion: "2.0",
            ExcludeReportHeader: true,
            ExcludeReportFooter: true,
            ExcludeColumnHeaders: false,
            ReturnOnlyCompleteData: false,
            Aggregation: "Daily",
            Columns: [
              "TimePeriod",
              "AccountId",
              "CampaignId",
              "CampaignName",
              "CampaignStatus",
              "Impressions",
              "Clicks",
              "Spend",
            ],
            Scope: { AccountIds: [p.account] },
            Time: {
              CustomDateRangeStart: { Day: 1, Month: 10, Year: 2026 },
              CustomDateRangeEnd: { Day: 3, Month: 10, Year: 2026 },
            },
          },
        });
        expect(submit.headers).toMatchObject(accountHeaders(account, p.account));
        expect(poll.json).toEqual({ ReportRequestId: expect.stringMatching(/^\d{17}$/) });
        expect(download.path).toBe(`/reports/${poll.json!.ReportRequestId}.zip`);
        expect(download.query).toMatchObject({ sig: "stand-in", sp: "r" });
        // The pre-signed download carries none of the account's credentials.
        expect(download.headers.authorization).toBeUndefined();
        expect(download.headers.developertoken).toBeUndefined();
      },
    },
  ],
  writes: [
    {
      op: "microsoft_ads.campaign.set_status",
      input: ({ p }) => ({
        account_id: p.account,
        customer_id: p.customer,
        campaign_id: p.campaigns[0],
        status: "Paused",
      }),
      summary: ({ p }) =>
        `Pause Microsoft Advertising campaign ${p.campaigns[0]} 'Brand - US' (now Active) of account ${p.account}.`,
      check(result, { p }) {
        expect(result).toEqual({
          account_id: p.account,
          campaign_id: p.campaigns[0],
          name: "Brand - US",
          previous_status: "Active",
          status: "Paused",
        });
      },
      requests(requests, { account, p }) {
        // GetCampaignsByIds (the status before) is left out (see above); then one UpdateCampaigns.
        expect(lines(requests)).toEqual(["PUT /CampaignManagement/v13/Campaigns"]);
        expect(requests[0].json).toEqual({
          AccountId: p.account,
          Campaigns: [{ Id: p.campaigns[0], Status: "Paused" }],
        });
        expect(requests[0].headers).toMatchObject(accountHeaders(account, p.account));
      },
      refusal: ({ p }) => ({
        input: { account_id: p.account, customer_id: p.customer, campaign_id: "123", status: "Active" },
        says: ["Microsoft Advertising", "CampaignServiceInvalidCampaignId", "1100"],
      }),
    },
    {
      op: "microsoft_ads.campaign.set_budget",
      input: ({ p }) => ({
        account_id: p.account,
        customer_id: p.customer,
        campaign_id: p.campaigns[0],
        daily_budget: 75,
      }),
      summary: ({ p }) =>
        `Change the daily budget of Microsoft Advertising campaign ${p.campaigns[0]} 'Brand - US' in account ${p.account} from 50 to 75.`,
      check(result, { p }) {
        expect(result).toEqual({
          account_id: p.account,
          campaign_id: p.campaigns[0],
          name: "Brand - US",
          previous_daily_budget: 50,
          daily_budget: 75,
        });
      },
      requests(requests, { account, p }) {
        expect(lines(requests)).toEqual(["PUT /CampaignManagement/v13/Campaigns"]);
        expect(requests[0].json).toEqual({
          AccountId: p.account,
          Campaigns: [{ Id: p.campaigns[0], DailyBudget: 75 }],
        });
        expect(requests[0].headers).toMatchObject(accountHeaders(account, p.account));
      },
      // "Generic - EU" spends from a shared budget, which a campaign update cannot change.
      refusal: ({ p }) => ({
        input: { account_id: p.account, customer_id: p.customer, campaign_id: p.campaigns[1], daily_budget: 30 },
        says: ["Microsoft Advertising", "CampaignServiceCannotUpdateSharedBudget", "1159"],
      }),
    },
  ],
  rateLimit: {
    op: "microsoft_ads.accounts.list",
    input: ({ account }) => ({ customer_id: msadsFacts(account).customerId }),
    says: ["Microsoft Advertising", "CallRateExceeded", "117", "60 s"],
  },
  searches: [
    { ask: "pause my Microsoft Advertising campaign", first: "microsoft_ads.campaign.set_status" },
    { ask: "change the daily budget of a Bing Ads campaign", first: "microsoft_ads.campaign.set_budget" },
    { ask: "Microsoft Ads campaign performance report for last week", first: "microsoft_ads.campaigns.report" },
    { ask: "which Microsoft Advertising ad accounts can I reach", first: "microsoft_ads.accounts.list" },
    { ask: "show the campaigns in my Bing Ads account", first: "microsoft_ads.campaigns.list" },
  ],
};
