import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";
import { redditIds, redditTokenMark } from "../../support/stand-ins/reddit";

// Reddit Ads (Ads API v3) against e2e/support/stand-ins/reddit.ts.

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** The User-Agent Patchbay sends Reddit (lib/platforms/reddit/reddit-provider.ts), as Reddit requires. */
const USER_AGENT = "web:patchbay-ads-connector:v1.0 (by Patchbay, https://patchbay.dev)";

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
  expect(r.headers.authorization.startsWith(`Bearer ${redditTokenMark(ctx.account)}`)).toBe(true);
  expect(r.headers["user-agent"]).toBe(USER_AGENT);
  expect(r.headers.accept).toBe("application/json");
}

export const redditCases: PlatformCase[] = [
  {
    type: "reddit_ads",
    name: "Reddit Ads",
    credentialFields: null,
    oauth: {
      provider: "REDDIT",
      authorizePath: "/api/v1/authorize",
      pkce: false,
      scopes: ["adsread", "adsedit"],
      accountName: (account) => account,
      refresh: true,
    },
    // The campaigns as an agent finds them, from the campaigns list.
    async prepare(ctx) {
      // The ad account is the stand-in's one for the account (reddit_ads.list_ad_accounts, which the
      // reads check, would be answered from the read cache after a run here); a page size of its own
      // keeps the reads' campaign list out of that cache too.
      const adAccount = redditIds(ctx.account).adAccount;
      const list = await run(ctx, "reddit_ads.list_campaigns", { ad_account_id: adAccount, page_size: 1000 });
      const byName = (name: string) => list?.campaigns?.find((c: Json) => c.name === name)?.id as string | undefined;
      return { adAccount, launch: byName("Launch week"), evergreen: byName("Evergreen"), retarget: byName("Retarget") };
    },
    mine: (r, ctx) => String(r.headers.authorization ?? "").startsWith(`Bearer ${redditTokenMark(ctx.account)}`),
    reads: [
      {
        op: "reddit_ads.list_ad_accounts",
        input: () => ({}),
        check(result, ctx) {
          const ids = redditIds(ctx.account);
          expect(result).toEqual({
            businesses: [
              {
                id: ids.business,
                name: `${ctx.account} business`,
                ad_accounts: [
                  {
                    id: ids.adAccount,
                    name: `${ctx.account} ads`,
                    currency: "USD",
                    time_zone_id: "Etc/UTC",
                    status: "APPROVED",
                  },
                ],
              },
            ],
          });
        },
        requests(requests, ctx) {
          expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
            "GET /api/v3/me/businesses",
            `GET /api/v3/businesses/${redditIds(ctx.account).business}/ad_accounts`,
          ]);
          for (const r of requests) {
            expect(r.query).toEqual({});
            authorized(r, ctx);
          }
        },
      },
      {
        op: "reddit_ads.list_campaigns",
        input: ({ p }) => ({ ad_account_id: p.adAccount, page_size: 2 }),
        check(result, { p }) {
          expect(result.ad_account_id).toBe(p.adAccount);
          expect(result.campaigns.map((c: Json) => c.id)).toEqual([p.launch, p.evergreen]);
          expect(result.campaigns[0]).toMatchObject({
            name: "Launch week",
            ad_account_id: p.adAccount,
            objective: "CLICKS",
            goal_type: "DAILY_SPEND",
            goal_value: 30_000_000,
          });
          expect(result.next_page_token).toBe("2");
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "GET", `/api/v3/ad_accounts/${ctx.p.adAccount}/campaigns`);
          expect(r.query).toEqual({ "page.size": "2" });
          authorized(r, ctx);
        },
      },
      {
        op: "reddit_ads.report",
        input: ({ p }) => ({
          ad_account_id: p.adAccount,
          start_date: day(2),
          end_date: day(1),
          breakdowns: ["CAMPAIGN_ID", "DATE"],
          fields: ["IMPRESSIONS", "CLICKS", "SPEND"],
        }),
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            start: day(2),
            end: day(1),
            breakdowns: ["CAMPAIGN_ID", "DATE"],
            more_rows: false,
          });
          expect(result.rows).toHaveLength(6);
          expect(Object.keys(result.rows[0])).toEqual(["campaign_id", "date", "impressions", "clicks", "spend"]);
          expect(result.rows[0]).toMatchObject({ campaign_id: p.launch, date: day(2) });
        },
        requests(requests, ctx) {
          expect(requests).toHaveLength(1);
          const r = only(requests, "POST", `/api/v3/ad_accounts/${ctx.p.adAccount}/reports`);
          expect(r.query).toEqual({});
          expect(r.json).toEqual({
            data: {
              starts_at: `${day(2)}T00:00:00Z`,
              ends_at: `${day(0)}T00:00:00Z`,
              breakdowns: ["CAMPAIGN_ID", "DATE"],
              fields: ["IMPRESSIONS", "CLICKS", "SPEND"],
            },
          });
          expect(r.headers["content-type"]).toBe("application/json");
          authorized(r, ctx);
        },
      },
    ],
    writes: [
      {
        op: "reddit_ads.campaign.set_status",
        input: ({ p }) => ({ campaign_id: p.launch, configured_status: "PAUSED" }),
        summary: ({ p }) =>
          `Pause Reddit campaign ${p.launch} 'Launch week' (now ACTIVE) in ad account ${p.adAccount}.`,
        check(result, { p }) {
          expect(result).toMatchObject({
            ad_account_id: p.adAccount,
            campaign_id: p.launch,
            name: "Launch week",
            configured_status: "PAUSED",
            effective_status: "PAUSED",
          });
        },
        requests(requests, ctx) {
          for (const read of requests.filter((x) => x.method === "GET"))
            expect(read.path).toBe(`/api/v3/campaigns/${ctx.p.launch}`);
          const r = only(requests, "PATCH", `/api/v3/campaigns/${ctx.p.launch}`);
          expect(r.query).toEqual({});
          expect(r.json).toEqual({ data: { configured_status: "PAUSED" } });
          expect(r.headers["content-type"]).toBe("application/json");
          authorized(r, ctx);
        },
        refusal: () => ({
          input: { campaign_id: "404404404", configured_status: "ACTIVE" },
          says: ["Reddit", "Campaign 404404404 not found"],
        }),
      },
    ],
    rateLimit: {
      op: "reddit_ads.list_campaigns",
      input: (ctx) => ({ ad_account_id: redditIds(ctx.account).adAccount }),
      says: ["Reddit's rate limit was reached", "Too Many Requests", "60 s"],
    },
    searches: [
      { ask: "pause my Reddit ad campaign", first: "reddit_ads.campaign.set_status" },
      { ask: "Reddit ads performance report with spend and clicks", first: "reddit_ads.report" },
      { ask: "show the campaigns in my Reddit ad account", first: "reddit_ads.list_campaigns" },
      { ask: "which Reddit businesses and ad accounts can I use", first: "reddit_ads.list_ad_accounts" },
      { ask: "resume a paused Reddit campaign", first: "reddit_ads.campaign.set_status" },
      { ask: "Reddit ads impressions and clicks by day", first: "reddit_ads.report" },
    ],
  },
];
