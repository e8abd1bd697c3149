import "server-only";
import { z } from "zod";
import { shopifyGraphql } from "@/lib/platforms/shopify/shopify-provider";
import { defineRead } from "@/lib/platforms/kit/define-operation";
import { isoDate, numeric, isObject } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// Shopify Admin GraphQL API (REST is legacy for new apps).

const ORDERS_QUERY = `query Orders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
    nodes {
      id
      name
      createdAt
      cancelledAt
      displayFinancialStatus
      displayFulfillmentStatus
      currentTotalPriceSet { shopMoney { amount currencyCode } }
      subtotalLineItemsQuantity
      customer { displayName }
      lineItems(first: 5) { nodes { title quantity sku } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

type Json = Record<string, unknown>;
const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);
const nodes = (v: unknown): Json[] =>
  Array.isArray(get(v, "nodes")) ? (get(v, "nodes") as unknown[]).filter(isObject) : [];

const shopifyListOrders = defineRead({
  toolName: "shopify_list_orders",
  title: "List Shopify orders",
  consent: "Read your store's orders, with each customer's name and the items bought",
  description:
    "The store's orders, newest first (Admin GraphQL API orders): order number, date, financial and fulfillment status, total with currency, item count, customer name and the first line items. " +
    "Filter by creation date and status; page with `after` (the previous answer's next_cursor). Without the read_all_orders scope Shopify only returns the last 60 days.",
  types: ["shopify"],
  id: "shopify.list_orders",
  credits: 2,
  cacheTtlSeconds: 60,
  example: { financial_status: "paid", limit: 20 },
  input: {
    created_at_min: isoDate.optional().describe("Only orders created on or after this day, YYYY-MM-DD."),
    created_at_max: isoDate.optional().describe("Only orders created on or before this day, YYYY-MM-DD."),
    financial_status: z
      .enum(["paid", "pending", "authorized", "partially_paid", "partially_refunded", "refunded", "voided", "expired"])
      .optional()
      .describe("Only orders with this payment status."),
    fulfillment_status: z
      .enum(["unshipped", "shipped", "partial", "unfulfilled", "fulfilled"])
      .optional()
      .describe("Only orders with this fulfillment status."),
    search: z
      .string()
      .max(500)
      .optional()
      .describe('Extra Shopify order search syntax, e.g. "email:jane@example.com" or "tag:wholesale".'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(250)
      .default(50)
      .describe("How many orders to return at most (1-250, Shopify's page limit; default 50)."),
    after: z.string().max(500).optional().describe("next_cursor of the previous page, to continue."),
  },
  output: {
    orders: z
      .array(
        z.object({
          id: z.string().describe("Order ID"),
          name: z.string().nullable().describe("Order number, e.g. #1001"),
          created_at: z.string().nullable().describe("Ordered at"),
          cancelled_at: z.string().nullable().describe("Cancelled at"),
          financial_status: z.string().nullable().describe("Payment status, e.g. PAID"),
          fulfillment_status: z.string().nullable().describe("Fulfillment status, e.g. FULFILLED"),
          total: z.number().describe("Order total"),
          currency: z.string().nullable().describe("Currency, e.g. USD"),
          items: z.number().nullable().describe("Items ordered"),
          customer: z.string().nullable().describe("Customer"),
          line_items: z
            .array(
              z.object({
                title: z.string().nullable().describe("Product"),
                quantity: z.number().nullable().describe("Quantity"),
                sku: z.string().nullable().describe("SKU"),
              }),
            )
            .describe("First five line items"),
        }),
      )
      .describe("Orders, newest first"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const query = [
      args.created_at_min && `created_at:>=${args.created_at_min}`,
      args.created_at_max && `created_at:<=${args.created_at_max}T23:59:59Z`,
      args.financial_status && `financial_status:${args.financial_status}`,
      args.fulfillment_status && `fulfillment_status:${args.fulfillment_status}`,
      args.search,
    ]
      .filter(Boolean)
      .join(" ");
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      ORDERS_QUERY,
      { first: args.limit, after: args.after ?? null, query: query || null },
      "the orders query",
    );
    const orders = nodes(data.orders).map((o) => ({
      id: String(o.id ?? "").replace(/^gid:\/\/shopify\/Order\//, ""),
      name: o.name ?? null,
      created_at: o.createdAt ?? null,
      cancelled_at: o.cancelledAt ?? null,
      financial_status: o.displayFinancialStatus ?? null,
      fulfillment_status: o.displayFulfillmentStatus ?? null,
      total: numeric(get(o, "currentTotalPriceSet", "shopMoney", "amount")),
      currency: get(o, "currentTotalPriceSet", "shopMoney", "currencyCode") ?? null,
      items: o.subtotalLineItemsQuantity ?? null,
      customer: get(o, "customer", "displayName") ?? null,
      line_items: nodes(o.lineItems).map((li) => ({
        title: li.title ?? null,
        quantity: li.quantity ?? null,
        sku: li.sku ?? null,
      })),
    }));
    const pageInfo = get(data.orders, "pageInfo");
    return { orders, next_cursor: get(pageInfo, "hasNextPage") === true ? (get(pageInfo, "endCursor") ?? null) : null };
  },
});

export const operations: Operation[] = [shopifyListOrders];
