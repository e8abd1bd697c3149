import "server-only";
import { z } from "zod";
import {
  accessTokenOf,
  CAMPAIGN_API,
  CUSTOMER_API,
  customerOf,
  getUser,
  msadsCall,
  PROVIDER,
  REPORTING_API,
} from "@/lib/platforms/microsoft/microsoft-provider";
import { firstZipEntry, parseCsv } from "@/lib/platforms/microsoft/report-file";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { dateRangeOrThrow, isObject, isoDate, numeric, rowLimit } from "@/lib/platforms/kit/input-parts";
import { hostedType, providerFetch, providerReason } from "@/lib/platforms/kit/provider-fetch";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation } from "@/lib/platforms/kit/operation-types";
import { reportedDates } from "@/lib/platforms/kit/output-parts";
import { microsoftTypes } from "@/lib/platforms/microsoft/microsoft-provider";

// Microsoft Advertising reads: the user's customers and ad accounts (Customer Management), the
// campaigns of an account (Campaign Management) and a campaign performance report (Reporting:
// submit, poll, download the ZIP).

export const id = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, `must be a numeric ${what} ID`);

export const accountInput = {
  account_id: id("account").describe(
    "The ad account ID (AccountId, e.g. 150123456), from microsoft_ads.accounts.list; not the account number.",
  ),
  customer_id: id("customer")
    .optional()
    .describe("The customer (manager account) ID the account belongs to; found from your roles when left out."),
};

/** Every campaign type, as the CampaignType flags of GetCampaignsByAccountId / GetCampaignsByIds take them. */
export const ALL_CAMPAIGN_TYPES = "Search,Shopping,DynamicSearchAds,Audience,PerformanceMax,Hotel,App";

/** campaignView's answer. */
const campaignShape = {
  id: z.string().describe("Campaign ID"),
  name: z.string().nullable().describe("Campaign"),
  status: z.string().nullable().describe("Status, e.g. Active or Paused"),
  campaign_type: z.string().nullable().describe("Campaign type, e.g. Search"),
  daily_budget: z.number().nullable().describe("Daily budget (account currency)"),
  budget_type: z.string().nullable().describe("Budget type, e.g. DailyBudgetStandard"),
  shared_budget_id: z.string().nullable().describe("Shared budget ID (null: its own budget)"),
};

/** A campaign as the operations return it. */
export function campaignView(c: Record<string, unknown>) {
  const budgetId = c.BudgetId === null || c.BudgetId === undefined ? null : String(c.BudgetId);
  return {
    id: String(c.Id ?? ""),
    name: c.Name ?? null,
    status: c.Status ?? null,
    campaign_type: c.CampaignType ?? null,
    daily_budget: typeof c.DailyBudget === "number" ? c.DailyBudget : (numeric(c.DailyBudget) ?? null),
    budget_type: c.BudgetType ?? null,
    shared_budget_id: budgetId && budgetId !== "0" ? budgetId : null,
  };
}

const microsoftAccountsList = defineRead({
  id: "microsoft_ads.accounts.list",
  title: "List Microsoft Advertising (Bing Ads) customers and ad accounts",
  consent: "See your customers and ad accounts",
  description:
    "The Microsoft Advertising (Bing Ads) customers (manager accounts) the connected user has a role in and the ad accounts each holds (Customer Management GetUser + GetAccountsInfo): account ID, name, number and status. " +
    "Use it to find the account_id (and customer_id) the other Microsoft Advertising tools take.",
  types: ["microsoft_ads"],
  credits: 1,
  cacheTtlSeconds: 300,
  example: {},
  input: {
    customer_id: id("customer")
      .optional()
      .describe("Only this customer's ad accounts (default: every customer you have a role in)."),
  },
  output: {
    user: z
      .object({
        id: z.string().describe("User ID"),
        user_name: z.string().nullable().describe("User name"),
      })
      .describe("Signed-in user"),
    customers: z
      .array(
        z.object({
          customer_id: z.string().describe("Customer ID"),
          accounts: z
            .array(
              z.object({
                id: z.string().describe("Account ID"),
                name: z.string().nullable().describe("Account name"),
                number: z.string().nullable().describe("Account number"),
                status: z.string().nullable().describe("Status, e.g. Active"),
                pause_reason: z.number().nullable().describe("Pause reason code"),
              }),
            )
            .describe("Its ad accounts"),
        }),
      )
      .describe("Customers"),
  },
  async run({ connection, credentials }, args) {
    const token = accessTokenOf(credentials);
    const user = await getUser(connection.type, token);
    const roles = (Array.isArray(user.CustomerRoles) ? user.CustomerRoles : []).filter(isObject);
    const customerIds = args.customer_id
      ? [args.customer_id]
      : [...new Set(roles.map((r) => String(r.CustomerId ?? "")).filter(Boolean))].slice(0, 20);
    const customers = [];
    for (const customerId of customerIds) {
      // https://learn.microsoft.com/en-us/advertising/customer-management-service/getaccountsinfo
      const body = await msadsCall(
        connection.type,
        `${CUSTOMER_API}/AccountsInfo/Query`,
        token,
        "the GetAccountsInfo call",
        { CustomerId: customerId, OnlyParentAccounts: false },
        { customerId },
      );
      const accounts = (Array.isArray(body.AccountsInfo) ? body.AccountsInfo : []).filter(isObject).map((a) => ({
        id: String(a.Id ?? ""),
        name: a.Name ?? null,
        number: a.Number ?? null,
        status: a.AccountLifeCycleStatus ?? null,
        pause_reason: a.PauseReason ?? null,
      }));
      customers.push({ customer_id: customerId, accounts });
    }
    const u = isObject(user.User) ? user.User : {};
    return { user: { id: String(u.Id ?? ""), user_name: u.UserName ?? null }, customers };
  },
});

const microsoftCampaignsList = defineRead({
  id: "microsoft_ads.campaigns.list",
  title: "List Microsoft Advertising (Bing Ads) campaigns",
  consent: "See the campaigns of your ad accounts",
  description:
    "The campaigns of one Microsoft Advertising (Bing Ads) ad account (Campaign Management GetCampaignsByAccountId): ID, name, status (Active, Paused, BudgetPaused …), campaign type, daily budget and budget type. " +
    "Campaigns on a shared budget name it in shared_budget_id.",
  types: ["microsoft_ads"],
  credits: 1,
  cacheTtlSeconds: 120,
  example: { account_id: "150123456" },
  input: {
    ...accountInput,
    campaign_types: z
      .array(z.enum(["Search", "Shopping", "DynamicSearchAds", "Audience", "PerformanceMax", "Hotel", "App"]))
      .min(1)
      .max(7)
      .optional()
      .describe("Campaign types to return (default: all)."),
  },
  output: {
    account_id: z.string().describe("Account ID"),
    customer_id: z.string().describe("Customer ID"),
    campaigns: z.array(z.object(campaignShape)).describe("Campaigns"),
  },
  async run({ connection, credentials }, args) {
    const token = accessTokenOf(credentials);
    const customerId = await customerOf(connection.type, token, args.account_id, args.customer_id);
    // https://learn.microsoft.com/en-us/advertising/campaign-management-service/getcampaignsbyaccountid
    const body = await msadsCall(
      connection.type,
      `${CAMPAIGN_API}/Campaigns/QueryByAccountId`,
      token,
      "the GetCampaignsByAccountId call",
      { AccountId: args.account_id, CampaignType: args.campaign_types?.join(",") ?? ALL_CAMPAIGN_TYPES },
      { customerId, accountId: args.account_id },
    );
    const campaigns = (Array.isArray(body.Campaigns) ? body.Campaigns : []).filter(isObject).map(campaignView);
    return { account_id: args.account_id, customer_id: customerId, campaigns };
  },
});

const METRICS = [
  "Impressions",
  "Clicks",
  "Ctr",
  "AverageCpc",
  "Spend",
  "Conversions",
  "ConversionRate",
  "CostPerConversion",
  "Revenue",
  "ReturnOnAdSpend",
] as const;
const DEFAULT_METRICS = ["Impressions", "Clicks", "Spend", "Conversions"] as const;
const METRIC_LABELS: Record<(typeof METRICS)[number], string> = {
  Impressions: "Impressions",
  Clicks: "Clicks",
  Ctr: "Click-through rate (%)",
  AverageCpc: "Average cost per click",
  Spend: "Spend",
  Conversions: "Conversions",
  ConversionRate: "Conversion rate (%)",
  CostPerConversion: "Cost per conversion",
  Revenue: "Revenue",
  ReturnOnAdSpend: "Return on ad spend",
};
const metricFields = Object.fromEntries(
  METRICS.map((m) => [m, z.number().optional().describe(`${METRIC_LABELS[m]} (when asked for)`)]),
);
const POLL_WAITS_MS = [0, 1000, 2000, 3000, 4000, 5000];

const dateOf = (iso: string) => {
  const [Year, Month, Day] = iso.split("-").map(Number);
  return { Day, Month, Year };
};

const microsoftCampaignReport = defineRead({
  id: "microsoft_ads.campaigns.report",
  title: "Microsoft Advertising (Bing Ads) campaign performance report",
  consent: "See the performance reports of your ad accounts",
  description:
    "Performance of the campaigns of a Microsoft Advertising (Bing Ads) ad account (Reporting API CampaignPerformanceReportRequest, submitted, polled and downloaded): impressions, clicks, CTR, average CPC, spend, conversions, revenue … per campaign, in total or per day. " +
    "Dates are in the account's time zone; at most 366 days (daily rows: 90).",
  types: ["microsoft_ads"],
  credits: 3,
  cacheTtlSeconds: 600,
  example: { account_id: "150123456", start_date: "2026-11-01", end_date: "2026-11-07" },
  input: {
    ...accountInput,
    start_date: isoDate.optional().describe("First day, YYYY-MM-DD (default: 7 days before end_date)."),
    end_date: isoDate.optional().describe("Last day, inclusive, YYYY-MM-DD (default: yesterday)."),
    daily: z.boolean().default(false).describe("true = one row per campaign and day; false = totals over the range."),
    metrics: z
      .array(z.enum(METRICS))
      .min(1)
      .max(METRICS.length)
      .default([...DEFAULT_METRICS])
      .describe(`Metrics to return (default ${DEFAULT_METRICS.join(", ")}).`),
    limit: rowLimit(200, 5000),
  },
  output: {
    account_id: z.string().describe("Account ID"),
    date_range: reportedDates(),
    report_request_id: z.string().describe("Report request ID"),
    total_rows: z.number().describe("Total rows of the report (may be more than the rows returned)"),
    rows: z
      .array(
        z.object({
          TimePeriod: z.string().optional().describe("Day (daily rows)"),
          AccountId: z.string().optional().describe("Account ID"),
          CampaignId: z.string().optional().describe("Campaign ID"),
          CampaignName: z.string().optional().describe("Campaign"),
          CampaignStatus: z.string().optional().describe("Campaign status, e.g. Active"),
          ...metricFields,
        }),
      )
      .describe("Report rows: one per campaign (and day), with the metrics asked for"),
  },
  async run({ connection, credentials }, args) {
    const range = dateRangeOrThrow(args.start_date, args.end_date, { defaultDays: 7, maxDays: args.daily ? 90 : 366 });
    const token = accessTokenOf(credentials);
    const customerId = await customerOf(connection.type, token, args.account_id, args.customer_id);
    const scope = { customerId, accountId: args.account_id };
    const columns = [
      ...(args.daily ? ["TimePeriod"] : []),
      "AccountId",
      "CampaignId",
      "CampaignName",
      "CampaignStatus",
      ...args.metrics,
    ];
    // https://learn.microsoft.com/en-us/advertising/reporting-service/submitgeneratereport
    const submitted = await msadsCall(
      connection.type,
      `${REPORTING_API}/GenerateReport/Submit`,
      token,
      "the SubmitGenerateReport call",
      {
        ReportRequest: {
          Type: "CampaignPerformanceReportRequest",
          ReportName: `Patchbay campaign performance ${range.start}..${range.end}`,
          Format: "Csv",
          FormatVersion: "2.0",
          ExcludeReportHeader: true,
          ExcludeReportFooter: true,
          ExcludeColumnHeaders: false,
          ReturnOnlyCompleteData: false,
          Aggregation: args.daily ? "Daily" : "Summary",
          Columns: columns,
          Scope: { AccountIds: [args.account_id] },
          Time: { CustomDateRangeStart: dateOf(range.start), CustomDateRangeEnd: dateOf(range.end) },
        },
      },
      scope,
    );
    const requestId = typeof submitted.ReportRequestId === "string" ? submitted.ReportRequestId : "";
    if (!requestId)
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} answered SubmitGenerateReport without a ReportRequestId.`);
    let status: Record<string, unknown> = {};
    for (const wait of POLL_WAITS_MS) {
      if (wait) await new Promise((ok) => setTimeout(ok, wait));
      // https://learn.microsoft.com/en-us/advertising/reporting-service/pollgeneratereport
      const polled = await msadsCall(
        connection.type,
        `${REPORTING_API}/GenerateReport/Poll`,
        token,
        "the PollGenerateReport call",
        { ReportRequestId: requestId },
        scope,
      );
      status = isObject(polled.ReportRequestStatus) ? polled.ReportRequestStatus : {};
      if (status.Status !== "Pending" && status.Status !== "InProgress") break;
    }
    const base = {
      account_id: args.account_id,
      date_range: { start_date: range.start, end_date: range.end },
      report_request_id: requestId,
    };
    if (status.Status === "Error")
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} could not generate report ${requestId} (status Error).`);
    if (status.Status !== "Success")
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} has not finished report ${requestId} yet (status ${String(status.Status ?? "unknown")}); try again in a minute.`,
      );
    // Success without a URL: no data for the account in the range.
    if (typeof status.ReportDownloadUrl !== "string" || !status.ReportDownloadUrl)
      return { ...base, total_rows: 0, rows: [] };
    const file = await providerFetch(PROVIDER, hostedType(microsoftTypes, connection.type), status.ReportDownloadUrl);
    const csv = file.status === 200 && file.bytes ? firstZipEntry(file.bytes) : null;
    if (!csv)
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER}'s report download answered ${file.status === 200 ? "with a file that is not a ZIP archive" : providerReason(file)}.`,
      );
    const [header = [], ...lines] = parseCsv(csv.toString("utf8"));
    const keys = header.map((h) => h.trim());
    const rows = lines.map((cells) =>
      Object.fromEntries(
        keys.map((k, i) => [k, ["AccountId", "CampaignId", "CampaignName"].includes(k) ? cells[i] : numeric(cells[i])]),
      ),
    );
    return { ...base, total_rows: rows.length, rows: rows.slice(0, args.limit) };
  },
});

export const operations: Operation[] = [microsoftAccountsList, microsoftCampaignsList, microsoftCampaignReport];
