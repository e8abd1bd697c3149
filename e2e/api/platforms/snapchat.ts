import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";
import { snapchatIds, snapchatTokenMark } from "../../support/stand-ins/snapchat";

// Snapchat Ads (Marketing API v1) against e2e/support/stand-ins/snapchat.ts.

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/**
 * One read through run_operation, as an agent runs it; null when it fails (a rate-limited account's
 * `prepare` learns nothing, and the rate-limit test then reports the limit itself).
 */
async function run(ctx: Omit<RunContext, "p">, operation_id: string, input: Json): Promise<Json | null> {
  const r = await ctx.client.callTool({
    name: "run_operation",
    arguments: { operation_id, connection_id: ctx.connectionId, input },
  });
  return r.isError ? null : (r.structuredContent as Json);
}

function only(requests: Recorded[], method: string, path: string): Recorded {
  const found = requests.filter((r) => r.method === method && r.path === path);
  expect(found, `${method} ${path} in ${requests.map((r) => `${r.method} ${r.path}`).join(", ")}`).toHaveLength(1);
  return found[0];
}

function authorized(r: Recorded, ctx: RunContext) {
  expect(r.headers.authorization.startsWith(`Bearer ${snapchatTokenMark(ctx.account)}`)).toBe(true);
  expect(r.headers.accept).toBe("application/json");
}

/** A PUT must carry the whole campaign (Snapchat replaces it): every attribute the read gave, one changed. */
function wholeCampaign(r: Recorded, ctx: RunContext, id: string, change: Json) {
  expect(r.query).toEqual({});
  expect(r.headers["content-type"]).toBe("application/json");
  const sent = r.json?.campaigns;
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    id,
    ad_account_id: ctx.p.adAccount,
    objective: "BRAND_AWARENESS",
    start_time: "2025-01-01T00:00:00.000Z",
    buy_model: "AUCTION",
    ...change,
  });
  expect(typeof sent[0].name).toBe("string");
  expect(Object.keys(sent[0])).not.toContain("updated_at");
  expect(Object.keys(sent[0])).not.toContain("delivery_status");
}

export const snapchatCases: PlatformCase[] = [
  {
    type: "snapchat_ads",
    name: "Snapchat Ads",
    credentialFields: null,
    oauth: {
      provider: "SNAPCHAT",
      authorizePath: "/login/oauth2/authorize",
      pkce: false,
      scopes: ["snapchat-marketing-api"],
      accountName: (account) => `${account}@example.com`,
      refresh: true,
    },
    // The campaigns as an agent finds them, from the campaigns list.
    async prepare(ctx) {
      // The ad account is the stand-in's one for the account (snapchat_ads.list_ad_accounts, which the
      // reads check, would be answered from the read cache after a run here); a page size of its own
      // keeps the reads' campaign list out of that cache too.
      const adAccount = snapchatIds(ctx.account).adAccount;
      const list = await run(ctx, "snapchat_ads.list_campaigns", { ad_account_id: adAccount, limit: 1000 });
      const byName = (name: string) => list?.campaigns?.find((c: Json) => c.name === name)?.id as string | undefined;
      return { adAccount, summer: byName("Summer launch"), always: byName("Always on"), holiday: byName("Holiday") };
    },
    mine: (r, ctx) => String(r.headers.authorization ?? "").startsWith(`Bearer ${snapchatTokenMark(ctx.account)}`),
    reads: [
      {
        op: "snapchat_ads.list_ad_accounts",
        input: () => ({}),
        check(result, ctx) {
          const ids = snapchatIds(ctx.account);
          expect(result).toEqual({
            organizations: [
              {
                id: ids.organization,
                name: `${ctx.account} organization`,
                ad_accounts: [
                  {
                    id: ids.adAccount,
                    name: `${ctx.account} ad account`,
                    status: "ACTIVE",
                    currency: "USD",
                    timezone: "UTC",
                  },
                ],
              },
            ],
          });
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", "/v1/me/organizations");
          expect(r.query).toEqual({ with_ad_accounts: "true" });
          authorized(r, ctx);
        },
      },
      {
        op: "snapchat_ads.list_campaigns",
        input: ({ p }) => ({ ad_account_id: p.adAccount }),
        check(result, { p }) {
          expect(result.ad_account_id).toBe(p.adAccount);
          expect(result.campaigns.map((c: Json) => c.id)).toEqual([p.summer, p.always, p.holiday]);
          expect(result.campaigns[2]).toEqual({
            id: p.holiday,
            name: "Holiday",
            ad_account_id: p.adAccount,
            status: "ACTIVE",
            objective: "BRAND_AWARENESS",
            daily_budget_micro: null,
            lifetime_spend_cap_micro: null,
            start_time: "2025-01-01T00:00:00.000Z",
            end_time: null,
            delivery_status: ["VALID"],
          });
          expect(result.next_cursor).toBeNull();
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", `/v1/adaccounts/${ctx.p.adAccount}/campaigns`);
          expect(r.query).toEqual({ limit: "50" });
          authorized(r, ctx);
        },
      },
      {
        op: "snapchat_ads.campaign_stats",
        input: ({ p }) => ({ campaign_id: p.holiday, start_date: day(3), end_date: day(1), granularity: "DAY" }),
        check(result, { p }) {
          expect(result).toMatchObject({
            campaign_id: p.holiday,
            start: day(3),
            end: day(1),
            granularity: "DAY",
            total: null,
          });
          expect(result.days).toHaveLength(3);
          expect(result.days[0].start_time).toBe(`${day(3)}T00:00:00.000Z`);
          expect(Object.keys(result.days[0].stats)).toEqual(["impressions", "swipes", "spend"]);
          expect(typeof result.days[0].stats.spend).toBe("number");
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", `/v1/campaigns/${ctx.p.holiday}/stats`);
          expect(r.query).toEqual({
            granularity: "DAY",
            fields: "impressions,swipes,spend",
            start_time: `${day(3)}T00:00:00.000Z`,
            end_time: `${day(0)}T00:00:00.000Z`,
          });
          authorized(r, ctx);
        },
      },
    ],
    writes: [
      {
        op: "snapchat_ads.campaign.set_status",
        input: ({ p }) => ({ campaign_id: p.summer, status: "PAUSED" }),
        summary: ({ p }) =>
          `Pause Snapchat campaign ${p.summer} 'Summer launch' (now ACTIVE) in ad account ${p.adAccount}.`,
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            campaign_id: p.summer,
            name: "Summer launch",
            status: "PAUSED",
          });
        },
        requests(requests, ctx) {
          // Read first (GET the campaign), then the whole campaign PUT back with the new status.
          for (const read of requests.filter((x) => x.method === "GET"))
            expect(read.path).toBe(`/v1/campaigns/${ctx.p.summer}`);
          const r = only(requests, "PUT", `/v1/adaccounts/${ctx.p.adAccount}/campaigns`);
          wholeCampaign(r, ctx, ctx.p.summer, {
            name: "Summer launch",
            status: "PAUSED",
            daily_budget_micro: 50_000_000,
          });
          authorized(r, ctx);
        },
        refusal: () => ({
          input: { campaign_id: "00000000-0000-4000-8000-000000000000", status: "ACTIVE" },
          says: ["Snapchat", "Campaign 00000000-0000-4000-8000-000000000000 not found"],
        }),
      },
      {
        op: "snapchat_ads.campaign.set_daily_budget",
        input: ({ p }) => ({ campaign_id: p.always, daily_budget: 35 }),
        summary: ({ p }) =>
          `Set the daily budget of Snapchat campaign ${p.always} 'Always on' from 20 to 35 in ad account ${p.adAccount}.`,
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            campaign_id: p.always,
            name: "Always on",
            daily_budget: 35,
            daily_budget_micro: 35_000_000,
          });
        },
        requests(requests, ctx) {
          const r = only(requests, "PUT", `/v1/adaccounts/${ctx.p.adAccount}/campaigns`);
          wholeCampaign(r, ctx, ctx.p.always, { name: "Always on", status: "PAUSED", daily_budget_micro: 35_000_000 });
          authorized(r, ctx);
        },
        refusal: () => ({
          input: { campaign_id: "00000000-0000-4000-8000-000000000001", daily_budget: 10 },
          says: ["Snapchat", "Campaign 00000000-0000-4000-8000-000000000001 not found"],
        }),
      },
    ],
    rateLimit: {
      op: "snapchat_ads.list_ad_accounts",
      input: () => ({}),
      says: ["Snapchat's rate limit was reached", "Too Many Requests", "60 s"],
    },
    searches: [
      { ask: "pause a Snapchat campaign", first: "snapchat_ads.campaign.set_status" },
      { ask: "Snapchat impressions swipes and spend for a campaign", first: "snapchat_ads.campaign_stats" },
      { ask: "change the daily budget of my Snapchat campaign", first: "snapchat_ads.campaign.set_daily_budget" },
      { ask: "list my Snapchat ad accounts", first: "snapchat_ads.list_ad_accounts" },
      { ask: "turn my Snapchat ad campaign back on", first: "snapchat_ads.campaign.set_status" },
      { ask: "show the campaigns in my Snapchat ad account", first: "snapchat_ads.list_campaigns" },
    ],
  },
];
