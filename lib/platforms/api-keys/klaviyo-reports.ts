import "server-only";
import { z } from "zod";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  type ProviderResponse,
} from "@/lib/platforms/kit/provider-fetch";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import { apiKeyHeaders, apiKeyTypes, nonsense, refuseOrUnavailable } from "@/lib/platforms/api-keys/api-key-providers";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { ProviderUnavailable } from "@/lib/platforms/kit/types";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(apiKeyTypes, type);

// Klaviyo's campaign performance (Reporting API), its lists and segments, and unsubscribing a
// profile from email marketing: JSON:API under the revision header the other Klaviyo calls send.

const API = "https://a.klaviyo.com/api";
const PROVIDER = "Klaviyo";

const keyOf = ({ credentials }: OperationContext) =>
  credentials.kind === "manual" ? (credentials.credentials.private_api_key ?? "") : credentials.tokens.accessToken;

/** One Klaviyo call: its JSON:API body, or Klaviyo's refusal; 429 (after providerFetch's retries) is its rate limit. */
async function klaviyoCall(
  ctx: OperationContext,
  url: string,
  what: string,
  body?: unknown,
): Promise<ProviderResponse> {
  const res = await providerFetch(PROVIDER, hosted(ctx.connection.type), url, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...apiKeyHeaders.klaviyo(keyOf(ctx)),
      ...(body !== undefined && { "content-type": "application/vnd.api+json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  // https://developers.klaviyo.com/en/docs/rate_limits_and_error_handling (429 throttled, Retry-After)
  if (res.status === 429) throw new ProviderUnavailable(PROVIDER, rateLimitReason(PROVIDER, res, providerReason(res)));
  if (res.status < 200 || res.status >= 300) refuseOrUnavailable(PROVIDER, res);
  if (res.status !== 202 && res.status !== 204 && !isObject(res.body)) nonsense(PROVIDER, what, res);
  return res;
}

const nextCursor = (body: unknown) => {
  const next = isObject(body) && isObject(body.links) ? body.links.next : null;
  return typeof next === "string" ? new URL(next).searchParams.get("page[cursor]") : null;
};

const STATISTICS = [
  "recipients",
  "delivered",
  "opens_unique",
  "open_rate",
  "clicks_unique",
  "click_rate",
  "conversions",
  "conversion_rate",
  "conversion_value",
  "revenue_per_recipient",
  "unsubscribes",
  "unsubscribe_rate",
  "bounce_rate",
  "spam_complaints",
] as const;
const STATISTIC_LABELS: Record<(typeof STATISTICS)[number], string> = {
  recipients: "Recipients",
  delivered: "Delivered",
  opens_unique: "Unique opens",
  open_rate: "Open rate (0-1)",
  clicks_unique: "Unique clicks",
  click_rate: "Click rate (0-1)",
  conversions: "Conversions",
  conversion_rate: "Conversion rate (0-1)",
  conversion_value: "Conversion value",
  revenue_per_recipient: "Revenue per recipient",
  unsubscribes: "Unsubscribes",
  unsubscribe_rate: "Unsubscribe rate (0-1)",
  bounce_rate: "Bounce rate (0-1)",
  spam_complaints: "Spam complaints",
};
const TIMEFRAMES = [
  "today",
  "yesterday",
  "last_7_days",
  "last_30_days",
  "last_90_days",
  "last_365_days",
  "this_month",
  "last_month",
  "this_year",
  "last_12_months",
] as const;

const campaignReport = defineRead({
  id: "klaviyo.campaign_report",
  title: "Klaviyo campaign performance report",
  consent: "Read your campaigns' performance",
  description:
    "Performance of Klaviyo campaigns as the Klaviyo UI reports it (Reporting API campaign-values-reports): per campaign and channel, recipients, delivered, open rate, click rate, conversions, revenue (conversion_value), revenue per recipient, unsubscribes, bounce rate … over a timeframe. " +
    "Needs the conversion metric's ID (usually the Placed Order metric). Use klaviyo.list_campaigns for campaign IDs. Klaviyo allows 2 of these reports a minute.",
  types: ["klaviyo"],
  credits: 2,
  cacheTtlSeconds: 600,
  example: { conversion_metric_id: "RESQ6t", timeframe: "last_30_days", statistics: ["open_rate", "click_rate"] },
  input: {
    conversion_metric_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, "must be a Klaviyo metric ID like RESQ6t")
      .describe("The ID of the metric conversions count (usually Placed Order; in Klaviyo → Analytics → Metrics)."),
    statistics: z
      .array(z.enum(STATISTICS))
      .min(1)
      .max(STATISTICS.length)
      .default(["recipients", "open_rate", "click_rate", "conversion_value"])
      .describe(
        `Which statistics: ${STATISTICS.join(", ")} (default recipients, open_rate, click_rate, conversion_value).`,
      ),
    timeframe: z.enum(TIMEFRAMES).default("last_30_days").describe("The reporting period (default last_30_days)."),
    campaign_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, "must be a Klaviyo campaign ID")
      .optional()
      .describe("Only this campaign."),
  },
  output: {
    timeframe: z.enum(TIMEFRAMES).describe("Period reported"),
    campaigns: z
      .array(
        z.object({
          campaign_id: z.string().nullable().describe("Campaign ID"),
          channel: z.string().nullable().describe("Channel, e.g. email or sms"),
          message_id: z.string().nullable().describe("Campaign message ID"),
          ...Object.fromEntries(
            STATISTICS.map((s) => [
              s,
              z.number().nullable().optional().describe(`${STATISTIC_LABELS[s]} (when asked for)`),
            ]),
          ),
        }),
      )
      .describe("One row per campaign message, with the statistics asked for"),
  },
  async run(ctx, args) {
    // https://developers.klaviyo.com/en/reference/query_campaign_values
    const res = await klaviyoCall(ctx, `${API}/campaign-values-reports/`, "POST /api/campaign-values-reports/", {
      data: {
        type: "campaign-values-report",
        attributes: {
          statistics: args.statistics,
          timeframe: { key: args.timeframe },
          conversion_metric_id: args.conversion_metric_id,
          ...(args.campaign_id && { filter: `equals(campaign_id,"${args.campaign_id}")` }),
        },
      },
    });
    const data = isObject(res.body) && isObject(res.body.data) ? res.body.data : {};
    const attributes = isObject(data.attributes) ? data.attributes : {};
    const results = Array.isArray(attributes.results) ? attributes.results.filter(isObject) : [];
    return {
      timeframe: args.timeframe,
      campaigns: results.map((r) => {
        const g = isObject(r.groupings) ? r.groupings : {};
        return {
          campaign_id: g.campaign_id ?? null,
          channel: g.send_channel ?? null,
          message_id: g.campaign_message_id ?? null,
          ...Object.fromEntries(
            args.statistics.map((s) => [s, isObject(r.statistics) ? (r.statistics[s] ?? null) : null]),
          ),
        };
      }),
    };
  },
});

function audienceRead(kind: "lists" | "segments") {
  const one = kind === "lists" ? "list" : "segment";
  return defineRead({
    id: `klaviyo.${kind}.list`,
    title: kind === "lists" ? "List Klaviyo lists" : "List Klaviyo segments",
    consent: "Read your lists and segments",
    description:
      kind === "lists"
        ? "Shows the account's Klaviyo lists (GET /api/lists): ID, name, created and updated times: the subscriber lists and audiences you send to. Use a list ID with klaviyo.list.add_profile or klaviyo.profile.unsubscribe."
        : "The account's Klaviyo segments (GET /api/segments): ID, name, whether it is active and starred, created and updated times: the dynamic audiences defined by conditions.",
    types: ["klaviyo"],
    credits: 1,
    cacheTtlSeconds: 300,
    example: {},
    input: {
      name_contains: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe(`Only ${kind} whose name contains this text.`),
      cursor: z.string().max(500).optional().describe("next_cursor of the previous page, to continue."),
    },
    output: {
      [kind]: z
        .array(
          z.object({
            id: z
              .string()
              .nullable()
              .describe(`${kind === "lists" ? "List" : "Segment"} ID`),
            name: z
              .string()
              .nullable()
              .describe(kind === "lists" ? "List" : "Segment"),
            ...(kind === "segments" && {
              active: z.boolean().nullable().describe("Active"),
              starred: z.boolean().nullable().describe("Starred"),
            }),
            created: z.string().nullable().describe("Created at"),
            updated: z.string().nullable().describe("Updated at"),
          }),
        )
        .describe(kind === "lists" ? "Lists" : "Segments"),
      next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
    },
    async run(ctx, args) {
      // https://developers.klaviyo.com/en/reference/get_lists, https://developers.klaviyo.com/en/reference/get_segments
      const url = urlWith(`${API}/${kind}/`, {
        [`fields[${one}]`]: kind === "lists" ? "name,created,updated" : "name,created,updated,is_active,is_starred",
        filter: args.name_contains ? `contains(name,"${args.name_contains.replace(/"/g, "")}")` : undefined,
        "page[cursor]": args.cursor,
      });
      const res = await klaviyoCall(ctx, url, `GET /api/${kind}/`);
      const body = res.body as { data?: unknown };
      if (!Array.isArray(body.data)) nonsense(PROVIDER, `GET /api/${kind}/`, res);
      return {
        [kind]: body.data.filter(isObject).map((l) => {
          const a = isObject(l.attributes) ? l.attributes : {};
          return {
            id: l.id ?? null,
            name: a.name ?? null,
            ...(kind === "segments" && { active: a.is_active ?? null, starred: a.is_starred ?? null }),
            created: a.created ?? null,
            updated: a.updated ?? null,
          };
        }),
        next_cursor: nextCursor(res.body),
      };
    },
  });
}

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("must be an email address"))
  .describe("The person's email address.");

const unsubscribe = defineWrite({
  id: "klaviyo.profile.unsubscribe",
  idempotent: true,
  title: "Unsubscribe a profile from Klaviyo email marketing",
  consent: "Unsubscribe profiles from email marketing",
  description:
    "Unsubscribes a person by email from Klaviyo email marketing (POST /api/profile-subscription-bulk-delete-jobs): opt out, unsubscribe or stop emailing someone who asked; with list_id, from that list's marketing only. " +
    "Klaviyo records the opt-out; it runs as a job, so it can take a moment to show. Returns the email and the list.",
  types: ["klaviyo"],
  credits: 1,
  example: { email: "jane.doe@example.com", list_id: "Y6nRLr" },
  input: {
    email,
    list_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,64}$/, "must be a Klaviyo list ID like Y6nRLr")
      .optional()
      .describe("Unsubscribe from this list only (its ID); leave out to unsubscribe from all email marketing."),
  },
  summarize(input, connection, before) {
    const b = isObject(before) ? before : {};
    const who =
      typeof b.profile_id === "string"
        ? ` (profile ${b.profile_id})`
        : b.profile_id === null
          ? " (no profile has this email yet)"
          : "";
    const list = input.list_id
      ? ` from list ${input.list_id}${typeof b.list_name === "string" ? ` '${b.list_name}'` : ""}`
      : " from all email marketing";
    return `Unsubscribe ${input.email}${who}${list} in Klaviyo account ${connection.name ?? connection.externalId ?? connection.id}.`;
  },
  async before(ctx, input) {
    // https://developers.klaviyo.com/en/reference/get_profiles (filter equals(email,"…"))
    const found = await klaviyoCall(
      ctx,
      urlWith(`${API}/profiles/`, { filter: `equals(email,"${input.email}")`, "fields[profile]": "email" }),
      "GET /api/profiles/",
    );
    const listed = (found.body as { data?: unknown }).data;
    const [profile] = Array.isArray(listed) ? listed.filter(isObject) : [];
    let listName: unknown = undefined;
    if (input.list_id) {
      // https://developers.klaviyo.com/en/reference/get_list
      const list = await klaviyoCall(ctx, `${API}/lists/${input.list_id}/`, "GET /api/lists/{id}/");
      const data = isObject(list.body) && isObject(list.body.data) ? list.body.data : {};
      listName = isObject(data.attributes) ? data.attributes.name : undefined;
    }
    return { email: input.email, profile_id: profile ? String(profile.id) : null, list_name: listName ?? null };
  },
  output: {
    email: z.string().describe("Email"),
    list_id: z.string().nullable().describe("List unsubscribed from (null: all email marketing)"),
    unsubscribed: z.literal(true).describe("Klaviyo accepted the unsubscribe"),
  },
  async run(ctx, input) {
    // https://developers.klaviyo.com/en/reference/unsubscribe_profiles (revision 2024-10-15 body)
    await klaviyoCall(
      ctx,
      `${API}/profile-subscription-bulk-delete-jobs/`,
      "POST /api/profile-subscription-bulk-delete-jobs/",
      {
        data: {
          type: "profile-subscription-bulk-delete-job",
          attributes: {
            profiles: {
              data: [
                {
                  type: "profile",
                  attributes: {
                    email: input.email,
                    subscriptions: { email: { marketing: { consent: "UNSUBSCRIBED" } } },
                  },
                },
              ],
            },
          },
          ...(input.list_id && { relationships: { list: { data: { type: "list", id: input.list_id } } } }),
        },
      },
    );
    return { email: input.email, list_id: input.list_id ?? null, unsubscribed: true };
  },
});

export const operations: Operation[] = [campaignReport, audienceRead("lists"), audienceRead("segments"), unsubscribe];
