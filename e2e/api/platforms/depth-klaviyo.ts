import { createHash } from "node:crypto";
import { expect } from "@playwright/test";
import type { PlatformCase } from "./case";

// Klaviyo's campaign report, lists, segments and unsubscribes against e2e/support/stand-ins/api-keys.ts
// (JSON:API with the revision header).

const hash = (v: string) => createHash("sha256").update(v).digest("hex");
/** The stand-in's Klaviyo-looking ids (api-keys.ts klaviyoId). */
const klaviyoId = (seed: string, length: number) =>
  Buffer.from(createHash("sha256").update(seed).digest())
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, length);
const keyFor = (account: string) => `pk_${account}`;
const HEADERS = {
  revision: "2024-10-15",
  accept: "application/vnd.api+json",
  authorization: expect.stringMatching(/^Klaviyo-API-Key pk_/),
};

export const klaviyoDepth: PlatformCase = {
  type: "klaviyo",
  name: "Klaviyo",
  credentialFields: ["private_api_key"],
  manual: {
    good: (account) => ({ private_api_key: keyFor(account) }),
    refused: () => ({
      credentials: { private_api_key: "bad_key" },
      says: ["Klaviyo", "not_authenticated", "Missing or invalid private key"],
    }),
  },
  async prepare({ account }) {
    const key = keyFor(account);
    return {
      metric: klaviyoId(`${key}/metric/placed-order`, 6),
      emailCampaign: hash(`${key}/email/0`).slice(0, 26).toUpperCase(),
      smsCampaign: hash(`${key}/sms/0`).slice(0, 26).toUpperCase(),
      list: klaviyoId(`${key}/list/0`, 6),
    };
  },
  mine: (r, { account }) =>
    r.path.startsWith("/api/") && r.headers.authorization === `Klaviyo-API-Key ${keyFor(account)}`,
  readsByPost: (r) => r.path === "/api/campaign-values-reports/",
  reads: [
    {
      op: "klaviyo.campaign_report",
      input: ({ p }) => ({ conversion_metric_id: p.metric, timeframe: "last_30_days" }),
      check(result, { p }) {
        expect(result.timeframe).toBe("last_30_days");
        expect(
          result.campaigns.map((c: { channel: string; campaign_id: string }) => [c.channel, c.campaign_id]),
        ).toEqual([
          ["email", p.emailCampaign],
          ["sms", p.smsCampaign],
        ]);
        expect(result.campaigns[0]).toEqual({
          campaign_id: p.emailCampaign,
          channel: "email",
          message_id: expect.stringMatching(/^[0-9A-F]{26}$/),
          recipients: expect.any(Number),
          open_rate: expect.any(Number),
          click_rate: expect.any(Number),
          conversion_value: expect.any(Number),
        });
      },
      requests(requests, { p }) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/campaign-values-reports/"]);
        expect(requests[0].json).toEqual({
          data: {
            type: "campaign-values-report",
            attributes: {
              statistics: ["recipients", "open_rate", "click_rate", "conversion_value"],
              timeframe: { key: "last_30_days" },
              conversion_metric_id: p.metric,
            },
          },
        });
        expect(requests[0].headers).toMatchObject({ ...HEADERS, "content-type": "application/vnd.api+json" });
      },
    },
    {
      op: "klaviyo.lists.list",
      input: () => ({}),
      check(result, { p }) {
        expect(result).toEqual({
          lists: [
            {
              id: p.list,
              name: "Newsletter",
              created: "2025-01-02T10:00:00+00:00",
              updated: "2025-01-02T10:00:00+00:00",
            },
            { id: expect.any(String), name: "VIP customers", created: expect.any(String), updated: expect.any(String) },
            {
              id: expect.any(String),
              name: "Webinar signups",
              created: expect.any(String),
              updated: expect.any(String),
            },
          ],
          next_cursor: null,
        });
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/lists/"]);
        expect(requests[0].query).toEqual({ "fields[list]": "name,created,updated" });
        expect(requests[0].headers).toMatchObject(HEADERS);
      },
    },
    {
      op: "klaviyo.segments.list",
      input: () => ({ name_contains: "lapsed" }),
      check(result) {
        expect(result).toEqual({
          segments: [
            {
              id: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
              name: "Lapsed customers",
              active: true,
              starred: false,
              created: expect.any(String),
              updated: expect.any(String),
            },
          ],
          next_cursor: null,
        });
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/segments/"]);
        expect(requests[0].query).toEqual({
          "fields[segment]": "name,created,updated,is_active,is_starred",
          filter: 'contains(name,"lapsed")',
        });
      },
    },
  ],
  writes: [
    {
      op: "klaviyo.profile.unsubscribe",
      input: ({ nonce, p }) => ({ email: `Jane.${nonce}@Example.com`, list_id: p.list }),
      summary: ({ nonce, p }, name) =>
        `Unsubscribe jane.${nonce}@example.com (no profile has this email yet) from list ${p.list} 'Newsletter' in Klaviyo account ${name}.`,
      check(result, { nonce, p }) {
        expect(result).toEqual({ email: `jane.${nonce}@example.com`, list_id: p.list, unsubscribed: true });
      },
      requests(requests, { nonce, p }) {
        const writes = requests.filter((r) => r.method !== "GET");
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
          "POST /api/profile-subscription-bulk-delete-jobs/",
        ]);
        expect(writes[0].json).toEqual({
          data: {
            type: "profile-subscription-bulk-delete-job",
            attributes: {
              profiles: {
                data: [
                  {
                    type: "profile",
                    attributes: {
                      email: `jane.${nonce}@example.com`,
                      subscriptions: { email: { marketing: { consent: "UNSUBSCRIBED" } } },
                    },
                  },
                ],
              },
            },
            relationships: { list: { data: { type: "list", id: p.list } } },
          },
        });
        expect(writes[0].headers).toMatchObject({ ...HEADERS, "content-type": "application/vnd.api+json" });
      },
      refusal: ({ nonce }) => ({
        input: { email: `jane.${nonce}@example.com`, list_id: "NOPE12" },
        says: ["Klaviyo", "not_found", "A list with id NOPE12 does not exist."],
      }),
    },
  ],
  rateLimit: {
    op: "klaviyo.lists.list",
    input: () => ({}),
    says: ["Klaviyo's rate limit was reached", "throttled", "wait 60 s"],
  },
  searches: [
    { ask: "klaviyo campaign open rate and revenue", first: "klaviyo.campaign_report" },
    { ask: "show my klaviyo lists", first: "klaviyo.lists.list" },
    { ask: "which segments do I have in klaviyo", first: "klaviyo.segments.list" },
    { ask: "unsubscribe this email address in klaviyo", first: "klaviyo.profile.unsubscribe" },
  ],
};
