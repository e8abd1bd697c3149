import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";
import { pinterestIds, pinterestTokenMark } from "../../support/stand-ins/pinterest";

// Pinterest Ads (API v5) against e2e/support/stand-ins/pinterest.ts.

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

/** The one request of `method` to `path` among a run's requests. */
function only(requests: Recorded[], method: string, path: string): Recorded {
  const found = requests.filter((r) => r.method === method && r.path === path);
  expect(found, `${method} ${path} in ${requests.map((r) => `${r.method} ${r.path}`).join(", ")}`).toHaveLength(1);
  return found[0];
}

function authorized(r: Recorded, ctx: RunContext) {
  expect(r.headers.authorization.startsWith(`Bearer ${pinterestTokenMark(ctx.account)}`)).toBe(true);
  expect(r.headers.accept).toBe("application/json");
}

export const pinterestCases: PlatformCase[] = [
  {
    type: "pinterest_ads",
    name: "Pinterest Ads",
    credentialFields: null,
    oauth: {
      provider: "PINTEREST",
      authorizePath: "/oauth/",
      pkce: false,
      scopes: ["ads:read", "ads:write", "user_accounts:read"],
      accountName: (account) => account,
      refresh: true,
    },
    // The ad account and campaigns as an agent finds them: the accounts list, then the campaigns.
    async prepare(ctx) {
      const accounts = await run(ctx, "pinterest_ads.list_ad_accounts", {});
      const adAccount = accounts?.ad_accounts?.[0]?.id as string | undefined;
      const list = adAccount ? await run(ctx, "pinterest_ads.list_campaigns", { ad_account_id: adAccount }) : null;
      const byName = (name: string) => list?.campaigns?.find((c: Json) => c.name === name)?.id as string | undefined;
      return {
        adAccount,
        spring: byName("Spring sale"),
        brand: byName("Brand awareness"),
        retargeting: byName("Retargeting"),
      };
    },
    mine: (r, ctx) => String(r.headers.authorization ?? "").startsWith(`Bearer ${pinterestTokenMark(ctx.account)}`),
    reads: [
      {
        op: "pinterest_ads.list_ad_accounts",
        // Not `prepare`'s input, which the read cache would answer.
        input: () => ({ page_size: 10 }),
        check(result, ctx) {
          expect(result).toEqual({
            ad_accounts: [
              {
                id: pinterestIds(ctx.account).adAccount,
                name: `${ctx.account} ads`,
                currency: "USD",
                country: "US",
                owner: ctx.account,
              },
            ],
            bookmark: null,
          });
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", "/v5/ad_accounts");
          expect(r.query).toEqual({ include_shared_accounts: "true", page_size: "10" });
          authorized(r, ctx);
        },
      },
      {
        op: "pinterest_ads.list_campaigns",
        input: ({ p }) => ({ ad_account_id: p.adAccount, page_size: 2 }),
        check(result, { p }) {
          expect(result.ad_account_id).toBe(p.adAccount);
          expect(result.campaigns.map((c: Json) => c.id)).toEqual([p.spring, p.brand]);
          expect(result.campaigns[0]).toMatchObject({
            name: "Spring sale",
            objective_type: "CONVERSIONS",
            lifetime_spend_cap: null,
          });
          expect(["ACTIVE", "PAUSED"]).toContain(result.campaigns[0].status);
          expect(result.bookmark).toBe("2");
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", `/v5/ad_accounts/${ctx.p.adAccount}/campaigns`);
          expect(r.query).toEqual({ entity_statuses: "ACTIVE,PAUSED", page_size: "2" });
          authorized(r, ctx);
        },
      },
      {
        op: "pinterest_ads.campaign_analytics",
        input: ({ p }) => ({
          ad_account_id: p.adAccount,
          campaign_ids: [p.spring],
          start_date: day(7),
          end_date: day(1),
          granularity: "DAY",
        }),
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            start: day(7),
            end: day(1),
            granularity: "DAY",
          });
          expect(result.rows).toHaveLength(7);
          expect(result.rows[0].campaign_id).toBe(p.spring);
          expect(result.rows.map((r: Json) => r.date)).toEqual([7, 6, 5, 4, 3, 2, 1].map(day));
          expect(Object.keys(result.rows[0].metrics)).toEqual([
            "SPEND_IN_DOLLAR",
            "TOTAL_IMPRESSION",
            "TOTAL_CLICKTHROUGH",
            "CTR",
            "TOTAL_CONVERSIONS",
          ]);
          expect(typeof result.rows[0].metrics.TOTAL_IMPRESSION).toBe("number");
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", `/v5/ad_accounts/${ctx.p.adAccount}/campaigns/analytics`);
          expect(r.query).toEqual({
            start_date: day(7),
            end_date: day(1),
            campaign_ids: ctx.p.spring,
            columns: "SPEND_IN_DOLLAR,TOTAL_IMPRESSION,TOTAL_CLICKTHROUGH,CTR,TOTAL_CONVERSIONS",
            granularity: "DAY",
          });
          authorized(r, ctx);
        },
      },
    ],
    writes: [
      {
        op: "pinterest_ads.campaign.set_status",
        input: ({ p }) => ({ ad_account_id: p.adAccount, campaign_id: p.spring, status: "PAUSED" }),
        summary: ({ p }) =>
          `Pause Pinterest campaign ${p.spring} 'Spring sale' (now ACTIVE) in ad account ${p.adAccount}.`,
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            campaign_id: p.spring,
            name: "Spring sale",
            status: "PAUSED",
          });
          expect(["ACTIVE", "PAUSED"]).toContain(result.previous_status);
        },
        requests(requests, ctx) {
          const r = only(requests, "PATCH", `/v5/ad_accounts/${ctx.p.adAccount}/campaigns`);
          expect(r.query).toEqual({});
          expect(r.json).toEqual([{ id: ctx.p.spring, ad_account_id: ctx.p.adAccount, status: "PAUSED" }]);
          expect(r.headers["content-type"]).toBe("application/json");
          authorized(r, ctx);
          // The state read before the change names the one campaign.
          for (const read of requests.filter((x) => x.method === "GET")) {
            expect(read.path).toBe(`/v5/ad_accounts/${ctx.p.adAccount}/campaigns`);
            expect(read.query).toEqual({ campaign_ids: ctx.p.spring, entity_statuses: "ACTIVE,PAUSED,ARCHIVED,DRAFT" });
          }
        },
        refusal: ({ p }) => ({
          input: { ad_account_id: p.adAccount, campaign_id: "999999999", status: "ACTIVE" },
          says: ["Pinterest", "Campaign 999999999 not found"],
        }),
      },
      {
        op: "pinterest_ads.campaign.set_daily_budget",
        input: ({ p }) => ({ ad_account_id: p.adAccount, campaign_id: p.brand, daily_budget: 40.5 }),
        summary: ({ p }) =>
          `Set the daily budget of Pinterest campaign ${p.brand} 'Brand awareness' from 10 to 40.5 in ad account ${p.adAccount}.`,
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            campaign_id: p.brand,
            name: "Brand awareness",
            daily_budget: 40.5,
            daily_spend_cap_micro: 40_500_000,
          });
        },
        requests(requests, ctx) {
          const r = only(requests, "PATCH", `/v5/ad_accounts/${ctx.p.adAccount}/campaigns`);
          expect(r.json).toEqual([{ id: ctx.p.brand, ad_account_id: ctx.p.adAccount, daily_spend_cap: 40_500_000 }]);
          expect(r.headers["content-type"]).toBe("application/json");
          authorized(r, ctx);
        },
        refusal: ({ p }) => ({
          input: { ad_account_id: p.adAccount, campaign_id: p.retargeting, daily_budget: 30 },
          says: ["Pinterest", "daily_spend_cap and lifetime_spend_cap cannot be set at the same time"],
        }),
      },
    ],
    rateLimit: {
      op: "pinterest_ads.list_ad_accounts",
      input: () => ({}),
      says: ["Pinterest's rate limit was reached", "code 29", "You have exceeded your rate limit", "60 s"],
    },
    searches: [
      { ask: "pause my Pinterest campaign", first: "pinterest_ads.campaign.set_status" },
      { ask: "Pinterest ads spend and clicks per campaign last week", first: "pinterest_ads.campaign_analytics" },
      { ask: "raise the daily budget of a Pinterest campaign", first: "pinterest_ads.campaign.set_daily_budget" },
      { ask: "which Pinterest ad accounts do I have", first: "pinterest_ads.list_ad_accounts" },
      { ask: "archive an old Pinterest campaign", first: "pinterest_ads.campaign.set_status" },
      { ask: "show the campaigns in my Pinterest ad account", first: "pinterest_ads.list_campaigns" },
    ],
  },
];
