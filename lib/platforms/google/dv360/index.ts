import "server-only";
import { z } from "zod";
import { googleApiCall, googleType, isObject, listOf } from "@/lib/platforms/google/google-provider";
import { marketingCall, text } from "@/lib/platforms/google/marketing-call";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { dv360Docs } from "@/lib/platforms/google/dv360/dv360-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { Operation, OperationContext } from "@/lib/platforms/kit/operation-types";

// Display & Video 360 through the Display & Video 360 API v4: the current version (generally
// available since 27 March 2025, v3 sunset on 7 October 2025; v5 is only in beta since October
// 2026), https://developers.google.com/display-video/api/deprecations. One scope: display-video.

const TYPE = "dv360";
const API = "https://displayvideo.googleapis.com/v4";
const SCOPE = "https://www.googleapis.com/auth/display-video";

const id = (what: string, example: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be a numeric ${what} ID`)
    .describe(`The ${what} ID, e.g. ${example}.`);
const partnerId = id("partner", "1234567");
const advertiserId = id("advertiser", "7654321");
const STATUSES = [
  "ENTITY_STATUS_ACTIVE",
  "ENTITY_STATUS_PAUSED",
  "ENTITY_STATUS_DRAFT",
  "ENTITY_STATUS_ARCHIVED",
] as const;
const pageInput = (max: number, fallback: number) => ({
  limit: z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .describe(`How many to return at most (1-${max}, default ${fallback}).`),
  page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
});
const statusFilter = z
  .enum(STATUSES)
  .optional()
  .describe("Only entities with this status (ENTITY_STATUS_ACTIVE, _PAUSED, _DRAFT or _ARCHIVED); default: all.");

/** DV360 list filters: `field="value"` joined with AND. */
const filterOf = (parts: Record<string, string | undefined>) =>
  Object.entries(parts)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${v}"`)
    .join(" AND ") || undefined;

async function page(ctx: OperationContext, path: string, key: string, query: Record<string, string | undefined>) {
  const what = `the ${key}.list call`;
  const body = await marketingCall(ctx, `${API}${path}`, what, { query });
  return { items: listOf(body, key, what), next: text(body.nextPageToken) };
}

const partners = defineRead({
  id: "dv360.partners.list",
  title: "List Display & Video 360 partners",
  consent: "See your Display & Video 360 partners, advertisers, campaigns, insertion orders and line items",
  description:
    "Lists the Display & Video 360 partners this connection can reach (DV360 API v4 partners.list): partner_id, name and status. Use partner_id with dv360.advertisers.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: pageInput(200, 100),
  example: { limit: 100 },
  output: {
    partners: z
      .array(
        z.object({
          partner_id: z.string().nullable().describe("Partner ID"),
          name: z.string().nullable().describe("Partner name"),
          status: z.string().nullable().describe("Status, e.g. ENTITY_STATUS_ACTIVE"),
        }),
      )
      .describe("Partners"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    // https://developers.google.com/display-video/api/reference/rest/v4/partners/list
    const p = await page(ctx, "/partners", "partners", { pageSize: String(args.limit), pageToken: args.page_token });
    return {
      partners: p.items.map((x) => ({
        partner_id: text(x.partnerId),
        name: text(x.displayName),
        status: text(x.entityStatus),
      })),
      next_page_token: p.next,
    };
  },
});

const advertisers = defineRead({
  id: "dv360.advertisers.list",
  title: "List the advertisers of a Display & Video 360 partner",
  consent: "See your Display & Video 360 partners, advertisers, campaigns, insertion orders and line items",
  description:
    "Lists the advertisers of one Display & Video 360 partner (DV360 API v4 advertisers.list, partnerId required): advertiser_id, name, status, currency and domain. Use advertiser_id with dv360.campaigns.list, dv360.insertion_orders.list and dv360.line_items.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: { partner_id: partnerId, status: statusFilter, ...pageInput(200, 100) },
  example: { partner_id: "1234567" },
  output: {
    partner_id: z.string().describe("Partner ID"),
    advertisers: z
      .array(
        z.object({
          advertiser_id: z.string().nullable().describe("Advertiser ID"),
          name: z.string().nullable().describe("Advertiser name"),
          status: z.string().nullable().describe("Status, e.g. ENTITY_STATUS_ACTIVE"),
          currency: z.string().nullable().describe("Currency, e.g. USD"),
          domain: z.string().nullable().describe("Advertiser website"),
        }),
      )
      .describe("Advertisers"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    // https://developers.google.com/display-video/api/reference/rest/v4/advertisers/list
    const p = await page(ctx, "/advertisers", "advertisers", {
      partnerId: args.partner_id,
      filter: filterOf({ entityStatus: args.status }),
      pageSize: String(args.limit),
      pageToken: args.page_token,
    });
    return {
      partner_id: args.partner_id,
      advertisers: p.items.map((a) => {
        const general = isObject(a.generalConfig) ? a.generalConfig : {};
        return {
          advertiser_id: text(a.advertiserId),
          name: text(a.displayName),
          status: text(a.entityStatus),
          currency: text(general.currencyCode),
          domain: text(general.domainUrl),
        };
      }),
      next_page_token: p.next,
    };
  },
});

const campaigns = defineRead({
  id: "dv360.campaigns.list",
  title: "List the campaigns of a Display & Video 360 advertiser",
  consent: "See your Display & Video 360 partners, advertisers, campaigns, insertion orders and line items",
  description:
    "Lists the campaigns of one Display & Video 360 advertiser (DV360 API v4 advertisers.campaigns.list): campaign_id, name, status, goal and flight dates.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: { advertiser_id: advertiserId, status: statusFilter, ...pageInput(200, 100) },
  example: { advertiser_id: "7654321" },
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    campaigns: z
      .array(
        z.object({
          campaign_id: z.string().nullable().describe("Campaign ID"),
          name: z.string().nullable().describe("Campaign name"),
          status: z.string().nullable().describe("Status, e.g. ENTITY_STATUS_ACTIVE"),
          goal: z.string().nullable().describe("Campaign goal"),
          start_date: z.string().nullable().describe("Flight start date"),
          end_date: z.string().nullable().describe("Flight end date"),
        }),
      )
      .describe("Campaigns"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    // https://developers.google.com/display-video/api/reference/rest/v4/advertisers.campaigns/list
    const p = await page(ctx, `/advertisers/${args.advertiser_id}/campaigns`, "campaigns", {
      filter: filterOf({ entityStatus: args.status }),
      pageSize: String(args.limit),
      pageToken: args.page_token,
    });
    return {
      advertiser_id: args.advertiser_id,
      campaigns: p.items.map((c) => {
        const goal = isObject(c.campaignGoal) ? c.campaignGoal : {};
        const flight =
          isObject(c.campaignFlight) && isObject(c.campaignFlight.plannedDates) ? c.campaignFlight.plannedDates : {};
        const day = (d: unknown) =>
          isObject(d)
            ? `${String(d.year)}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`
            : null;
        return {
          campaign_id: text(c.campaignId),
          name: text(c.displayName),
          status: text(c.entityStatus),
          goal: text(goal.campaignGoalType),
          start_date: day(flight.startDate),
          end_date: day(flight.endDate),
        };
      }),
      next_page_token: p.next,
    };
  },
});

const insertionOrders = defineRead({
  id: "dv360.insertion_orders.list",
  title: "List the insertion orders of a Display & Video 360 advertiser",
  consent: "See your Display & Video 360 partners, advertisers, campaigns, insertion orders and line items",
  description:
    "Lists the insertion orders (IOs) of one Display & Video 360 advertiser, optionally of one campaign (DV360 API v4 advertisers.insertionOrders.list): insertion_order_id, campaign_id, name, status and pacing.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    advertiser_id: advertiserId,
    campaign_id: id("campaign", "11223344").optional().describe("Only the insertion orders of this campaign."),
    status: statusFilter,
    ...pageInput(200, 100),
  },
  example: { advertiser_id: "7654321" },
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    insertion_orders: z
      .array(
        z.object({
          insertion_order_id: z.string().nullable().describe("Insertion order ID"),
          campaign_id: z.string().nullable().describe("Campaign ID"),
          name: z.string().nullable().describe("Insertion order name"),
          status: z.string().nullable().describe("Status, e.g. ENTITY_STATUS_ACTIVE"),
          pacing: z.string().nullable().describe("Pacing, e.g. PACING_TYPE_EVEN"),
        }),
      )
      .describe("Insertion orders"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    // https://developers.google.com/display-video/api/reference/rest/v4/advertisers.insertionOrders/list
    const p = await page(ctx, `/advertisers/${args.advertiser_id}/insertionOrders`, "insertionOrders", {
      filter: filterOf({ campaignId: args.campaign_id, entityStatus: args.status }),
      pageSize: String(args.limit),
      pageToken: args.page_token,
    });
    return {
      advertiser_id: args.advertiser_id,
      insertion_orders: p.items.map((o) => {
        const pacing = isObject(o.pacing) ? o.pacing : {};
        return {
          insertion_order_id: text(o.insertionOrderId),
          campaign_id: text(o.campaignId),
          name: text(o.displayName),
          status: text(o.entityStatus),
          pacing: text(pacing.pacingType),
        };
      }),
      next_page_token: p.next,
    };
  },
});

function shownLineItem(l: Record<string, unknown>) {
  return {
    line_item_id: text(l.lineItemId),
    insertion_order_id: text(l.insertionOrderId),
    campaign_id: text(l.campaignId),
    name: text(l.displayName),
    type: text(l.lineItemType),
    status: text(l.entityStatus),
  };
}

const lineItems = defineRead({
  id: "dv360.line_items.list",
  title: "List the line items of a Display & Video 360 advertiser",
  consent: "See your Display & Video 360 partners, advertisers, campaigns, insertion orders and line items",
  description:
    "Lists the line items of one Display & Video 360 advertiser, optionally of one insertion order (DV360 API v4 advertisers.lineItems.list): line_item_id, insertion order, campaign, name, type and status (active, paused, draft). " +
    "Use line_item_id with dv360.line_item.set_status to pause or activate one.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    advertiser_id: advertiserId,
    insertion_order_id: id("insertion order", "55667788")
      .optional()
      .describe("Only the line items of this insertion order."),
    status: statusFilter,
    ...pageInput(200, 100),
  },
  example: { advertiser_id: "7654321" },
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    line_items: z
      .array(
        z.object({
          line_item_id: z.string().nullable().describe("Line item ID"),
          insertion_order_id: z.string().nullable().describe("Insertion order ID"),
          campaign_id: z.string().nullable().describe("Campaign ID"),
          name: z.string().nullable().describe("Line item name"),
          type: z.string().nullable().describe("Line item type"),
          status: z.string().nullable().describe("Status, e.g. ENTITY_STATUS_ACTIVE"),
        }),
      )
      .describe("Line items"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    // https://developers.google.com/display-video/api/reference/rest/v4/advertisers.lineItems/list
    const p = await page(ctx, `/advertisers/${args.advertiser_id}/lineItems`, "lineItems", {
      filter: filterOf({ insertionOrderId: args.insertion_order_id, entityStatus: args.status }),
      pageSize: String(args.limit),
      pageToken: args.page_token,
    });
    return { advertiser_id: args.advertiser_id, line_items: p.items.map(shownLineItem), next_page_token: p.next };
  },
});

const lineItemUrl = (a: { advertiser_id: string; line_item_id: string }) =>
  `${API}/advertisers/${a.advertiser_id}/lineItems/${a.line_item_id}`;

const WORD = { ENTITY_STATUS_PAUSED: "Pause", ENTITY_STATUS_ACTIVE: "Activate" } as const;

const setLineItemStatus = defineWrite({
  id: "dv360.line_item.set_status",
  idempotent: true,
  title: "Pause or activate a Display & Video 360 line item",
  consent: "Pause and activate line items",
  description:
    "Sets the status of one Display & Video 360 line item (DV360 API v4 advertisers.lineItems.patch, updateMask=entityStatus): ENTITY_STATUS_PAUSED pauses it (pause, stop, turn off), ENTITY_STATUS_ACTIVE activates it (activate, resume, enable, unpause, turn on). " +
    "Returns the status before and after. Find line item IDs with dv360.line_items.list.",
  types: [TYPE],
  credits: 1,
  input: {
    advertiser_id: advertiserId,
    line_item_id: id("line item", "99887766"),
    status: z
      .enum(["ENTITY_STATUS_PAUSED", "ENTITY_STATUS_ACTIVE"])
      .describe("ENTITY_STATUS_PAUSED = pause the line item, ENTITY_STATUS_ACTIVE = activate (resume) it."),
  },
  example: { advertiser_id: "7654321", line_item_id: "99887766", status: "ENTITY_STATUS_PAUSED" },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const name = typeof state.name === "string" ? ` '${state.name}'` : "";
    const now = typeof state.status === "string" ? ` (now ${state.status})` : "";
    return `${WORD[args.status]} Display & Video 360 line item ${args.line_item_id}${name}${now} of advertiser ${args.advertiser_id}.`;
  },
  // https://developers.google.com/display-video/api/reference/rest/v4/advertisers.lineItems/get
  before: async (ctx, args) => shownLineItem(await marketingCall(ctx, lineItemUrl(args), "the lineItems.get call")),
  output: {
    advertiser_id: z.string().describe("Advertiser ID"),
    line_item_id: z.string().describe("Line item ID"),
    name: z.string().nullable().describe("Line item name"),
    previous_status: z.string().nullable().describe("Previous status"),
    status: z.string().describe("Status now, e.g. ENTITY_STATUS_PAUSED"),
  },
  async run(ctx, args) {
    const previous = shownLineItem(await marketingCall(ctx, lineItemUrl(args), "the lineItems.get call"));
    // https://developers.google.com/display-video/api/reference/rest/v4/advertisers.lineItems/patch
    const body = await marketingCall(ctx, lineItemUrl(args), "the lineItems.patch call", {
      method: "PATCH",
      query: { updateMask: "entityStatus" },
      body: { entityStatus: args.status },
    });
    const now = shownLineItem(body);
    return {
      advertiser_id: args.advertiser_id,
      line_item_id: args.line_item_id,
      name: now.name ?? previous.name,
      previous_status: previous.status,
      status: now.status ?? args.status,
    };
  },
});

const operations: Operation[] = [partners, advertisers, campaigns, insertionOrders, lineItems, setLineItemStatus];

export const product: GoogleProduct = {
  types: [
    googleType({
      type: TYPE,
      name: "Display & Video 360",
      logo: monogramLogo("#0F9D58", "DV"),
      scopes: [
        {
          name: SCOPE,
          allows: "Create, see, edit, and permanently delete your Display & Video 360 entities and reports",
          changes: true,
        },
      ],
      credentialFields: ["client_id", "client_secret", "refresh_token"],
      docs: dv360Docs,
      hosts: ["displayvideo.googleapis.com"],
      async check(type, accessToken) {
        const what = "the Display & Video 360 API call (partners.list)";
        // https://developers.google.com/display-video/api/reference/rest/v4/partners/list
        const body = await googleApiCall(type, `${API}/partners?pageSize=1`, accessToken, what);
        const [first] = listOf(body, "partners", what);
        return { accountId: text(first?.partnerId) ?? undefined, accountName: text(first?.displayName) ?? undefined };
      },
    }),
  ],
  operations,
};
