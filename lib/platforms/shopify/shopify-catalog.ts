import "server-only";
import { z } from "zod";
import { refuseUserErrors, shopifyGraphql } from "@/lib/platforms/shopify/shopify-provider";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject, numeric } from "@/lib/platforms/kit/input-parts";
import { ProviderRejection, ProviderUnavailable } from "@/lib/platforms/kit/types";
import { OperationInputError, type Operation, type OperationConnection } from "@/lib/platforms/kit/operation-types";

// Shopify products and customers (Admin GraphQL API, the version shopifyGraphql calls), a product's
// status, and basic discount codes: what a store's marketer looks at and changes every week.

type Json = Record<string, unknown>;
const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);
const nodes = (v: unknown): Json[] =>
  Array.isArray(get(v, "nodes")) ? (get(v, "nodes") as unknown[]).filter(isObject) : [];
const nextCursor = (connection: unknown) =>
  get(connection, "pageInfo", "hasNextPage") === true ? (get(connection, "pageInfo", "endCursor") ?? null) : null;
const money = (v: unknown) => ({ amount: numeric(get(v, "amount")) ?? null, currency: get(v, "currencyCode") ?? null });
/** money()'s answer. */
const moneyShape = z.object({
  amount: z.number().nullable().describe("Amount"),
  currency: z.string().nullable().describe("Currency, e.g. USD"),
});
const store = (c: OperationConnection) => c.name ?? c.externalId ?? c.id;

const page = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(250)
    .default(50)
    .describe("How many to return at most (1-250, Shopify's page limit; default 50)."),
  after: z.string().max(500).optional().describe("next_cursor of the previous page, to continue."),
};

const productId = z
  .string()
  .trim()
  .regex(/^(gid:\/\/shopify\/Product\/)?\d{1,20}$/, "must be a Shopify product ID (digits or gid://shopify/Product/…)")
  .transform((v) => v.replace(/^gid:\/\/shopify\/Product\//, ""));

// https://shopify.dev/docs/api/admin-graphql/2025-01/queries/products
const PRODUCTS_QUERY = `query Products($first: Int!, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT, reverse: true) {
    nodes {
      id
      title
      handle
      status
      vendor
      productType
      tags
      totalInventory
      createdAt
      updatedAt
      priceRangeV2 { minVariantPrice { amount currencyCode } maxVariantPrice { amount currencyCode } }
      variants(first: 10) { nodes { id title sku price inventoryQuantity } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const listProducts = defineRead({
  id: "shopify.products.list",
  title: "List Shopify products",
  consent: "Read your store's products and inventory",
  description:
    "The store's products, most recently updated first (Admin GraphQL API products): ID, title, handle, status (ACTIVE, DRAFT, ARCHIVED), vendor, type, tags, total inventory, price range with currency, and up to 10 variants with SKU, price and inventory quantity. " +
    'Filter by status or with Shopify\'s product search syntax (e.g. "title:shirt", "vendor:Acme", "inventory_total:<5"); page with `after` (the previous answer\'s next_cursor).',
  types: ["shopify"],
  credits: 2,
  cacheTtlSeconds: 60,
  example: { status: "active", search: "title:shirt", limit: 20 },
  input: {
    status: z.enum(["active", "draft", "archived"]).optional().describe("Only products with this status."),
    search: z
      .string()
      .max(500)
      .optional()
      .describe('Extra Shopify product search syntax, e.g. "title:shirt", "vendor:Acme" or "inventory_total:<5".'),
    ...page,
  },
  output: {
    products: z
      .array(
        z.object({
          id: z.string().describe("Product ID"),
          title: z.string().nullable().describe("Product"),
          handle: z.string().nullable().describe("Handle (URL name)"),
          status: z.string().nullable().describe("Status: ACTIVE, DRAFT or ARCHIVED"),
          vendor: z.string().nullable().describe("Vendor"),
          product_type: z.string().nullable().describe("Product type"),
          tags: z.array(z.string()).describe("Tags"),
          total_inventory: z.number().nullable().describe("Inventory"),
          min_price: moneyShape.describe("Lowest variant price"),
          max_price: moneyShape.describe("Highest variant price"),
          created_at: z.string().nullable().describe("Created at"),
          updated_at: z.string().nullable().describe("Updated at"),
          variants: z
            .array(
              z.object({
                id: z.string().describe("Variant ID"),
                title: z.string().nullable().describe("Variant"),
                sku: z.string().nullable().describe("SKU"),
                price: z.number().nullable().describe("Price"),
                inventory_quantity: z.number().nullable().describe("Inventory"),
              }),
            )
            .describe("First ten variants"),
        }),
      )
      .describe("Products, most recently updated first"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const query = [args.status && `status:${args.status}`, args.search].filter(Boolean).join(" ");
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      PRODUCTS_QUERY,
      { first: args.limit, after: args.after ?? null, query: query || null },
      "the products query",
    );
    return {
      products: nodes(data.products).map((p) => ({
        id: String(p.id ?? "").replace(/^gid:\/\/shopify\/Product\//, ""),
        title: p.title ?? null,
        handle: p.handle ?? null,
        status: p.status ?? null,
        vendor: p.vendor ?? null,
        product_type: p.productType ?? null,
        tags: Array.isArray(p.tags) ? p.tags : [],
        total_inventory: p.totalInventory ?? null,
        min_price: money(get(p, "priceRangeV2", "minVariantPrice")),
        max_price: money(get(p, "priceRangeV2", "maxVariantPrice")),
        created_at: p.createdAt ?? null,
        updated_at: p.updatedAt ?? null,
        variants: nodes(p.variants).map((v) => ({
          id: String(v.id ?? "").replace(/^gid:\/\/shopify\/ProductVariant\//, ""),
          title: v.title ?? null,
          sku: v.sku ?? null,
          price: numeric(v.price) ?? null,
          inventory_quantity: v.inventoryQuantity ?? null,
        })),
      })),
      next_cursor: nextCursor(data.products),
    };
  },
});

// https://shopify.dev/docs/api/admin-graphql/2025-01/queries/customers
const CUSTOMERS_QUERY = `query Customers($first: Int!, $after: String, $query: String) {
  customers(first: $first, after: $after, query: $query, sortKey: UPDATED_AT, reverse: true) {
    nodes {
      id
      displayName
      email
      state
      tags
      numberOfOrders
      amountSpent { amount currencyCode }
      emailMarketingConsent { marketingState }
      createdAt
      updatedAt
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const listCustomers = defineRead({
  id: "shopify.customers.list",
  title: "List Shopify customers",
  consent: "Read your store's customers",
  description:
    "The store's customers (shoppers), most recently updated first (Admin GraphQL API customers): ID, name, email, account state, tags, number of orders, total amount spent with currency, email marketing consent (SUBSCRIBED, NOT_SUBSCRIBED …) and dates. " +
    'Filter with Shopify\'s customer search syntax (e.g. "orders_count:>3", "tag:vip", "email_subscription_status:subscribed", "country:Germany"); page with `after`.',
  types: ["shopify"],
  credits: 2,
  cacheTtlSeconds: 60,
  example: { search: "orders_count:>3", limit: 20 },
  input: {
    search: z
      .string()
      .max(500)
      .optional()
      .describe('Shopify customer search syntax, e.g. "orders_count:>3", "tag:vip" or "email:jane@example.com".'),
    ...page,
  },
  output: {
    customers: z
      .array(
        z.object({
          id: z.string().describe("Customer ID"),
          name: z.string().nullable().describe("Customer"),
          email: z.string().nullable().describe("Email"),
          state: z.string().nullable().describe("Account state, e.g. ENABLED"),
          tags: z.array(z.string()).describe("Tags"),
          orders: z.number().nullable().describe("Orders"),
          amount_spent: moneyShape.describe("Amount spent"),
          email_marketing: z.string().nullable().describe("Email marketing, e.g. SUBSCRIBED"),
          created_at: z.string().nullable().describe("Customer since"),
          updated_at: z.string().nullable().describe("Updated at"),
        }),
      )
      .describe("Customers, most recently updated first"),
    next_cursor: z.string().nullable().describe("Cursor of the next page (null on the last page)"),
  },
  async run({ connection, credentials }, args) {
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      CUSTOMERS_QUERY,
      { first: args.limit, after: args.after ?? null, query: args.search || null },
      "the customers query",
    );
    return {
      customers: nodes(data.customers).map((c) => ({
        id: String(c.id ?? "").replace(/^gid:\/\/shopify\/Customer\//, ""),
        name: c.displayName ?? null,
        email: c.email ?? null,
        state: c.state ?? null,
        tags: Array.isArray(c.tags) ? c.tags : [],
        orders: numeric(c.numberOfOrders) ?? null,
        amount_spent: money(c.amountSpent),
        email_marketing: get(c, "emailMarketingConsent", "marketingState") ?? null,
        created_at: c.createdAt ?? null,
        updated_at: c.updatedAt ?? null,
      })),
      next_cursor: nextCursor(data.customers),
    };
  },
});

// https://shopify.dev/docs/api/admin-graphql/2025-01/queries/product
const PRODUCT_QUERY = `query Product($id: ID!) { product(id: $id) { id title status totalInventory } }`;
// https://shopify.dev/docs/api/admin-graphql/2025-01/mutations/productUpdate
const PRODUCT_UPDATE = `mutation ProductUpdate($product: ProductUpdateInput!) {
  productUpdate(product: $product) {
    product { id title status updatedAt }
    userErrors { field message }
  }
}`;

const updateProductStatus = defineWrite({
  id: "shopify.product.status.update",
  idempotent: true,
  title: "Change a Shopify product's status",
  consent: "Change your products' status",
  description:
    "Sets one product's status (Admin GraphQL productUpdate): ACTIVE to sell it, DRAFT to hide it while it is not ready, ARCHIVED to stop selling it and take it off every sales channel: publish, unpublish, hide, archive or unarchive a product. " +
    "Returns the product's title and new status. Find product IDs with shopify.products.list.",
  types: ["shopify"],
  credits: 1,
  example: { product_id: "108828309", status: "ARCHIVED" },
  input: {
    product_id: productId.describe("The product's ID, e.g. 108828309 (gid://shopify/Product/108828309 is accepted)."),
    status: z.enum(["ACTIVE", "DRAFT", "ARCHIVED"]).describe("The new status: ACTIVE, DRAFT or ARCHIVED."),
  },
  summarize(args, connection, before) {
    const title = isObject(before) && typeof before.title === "string" ? ` '${before.title}'` : "";
    const now = isObject(before) && typeof before.status === "string" ? ` (now ${before.status})` : "";
    return `Set the status of Shopify product ${args.product_id}${title} to ${args.status}${now} in store ${store(connection)}`;
  },
  async before({ connection, credentials }, args) {
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      PRODUCT_QUERY,
      { id: `gid://shopify/Product/${args.product_id}` },
      "the product query",
    );
    if (!isObject(data.product)) throw new ProviderRejection("Shopify", `the store has no product ${args.product_id}.`);
    return {
      product_id: args.product_id,
      title: data.product.title ?? null,
      status: data.product.status ?? null,
      total_inventory: data.product.totalInventory ?? null,
    };
  },
  output: {
    product_id: z.string().describe("Product ID"),
    title: z.string().nullable().describe("Product"),
    status: z.string().describe("Status now: ACTIVE, DRAFT or ARCHIVED"),
    updated_at: z.string().nullable().describe("Updated at"),
  },
  async run({ connection, credentials }, args) {
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      PRODUCT_UPDATE,
      { product: { id: `gid://shopify/Product/${args.product_id}`, status: args.status } },
      "the productUpdate mutation",
    );
    refuseUserErrors(data.productUpdate);
    const product = get(data, "productUpdate", "product");
    if (!isObject(product))
      throw new ProviderUnavailable("Shopify", "Shopify answered the productUpdate mutation without a product.");
    return {
      product_id: args.product_id,
      title: product.title ?? null,
      status: product.status ?? args.status,
      updated_at: product.updatedAt ?? null,
    };
  },
});

// https://shopify.dev/docs/api/admin-graphql/2025-01/queries/codeDiscountNodeByCode
const DISCOUNT_BY_CODE = `query DiscountByCode($code: String!) {
  codeDiscountNodeByCode(code: $code) { id codeDiscount { __typename ... on DiscountCodeBasic { title status } } }
}`;
// https://shopify.dev/docs/api/admin-graphql/2025-01/mutations/discountCodeBasicCreate
const DISCOUNT_CREATE = `mutation DiscountCreate($basicCodeDiscount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
    codeDiscountNode {
      id
      codeDiscount { ... on DiscountCodeBasic { title status startsAt endsAt usageLimit codes(first: 1) { nodes { code } } } }
    }
    userErrors { field code message }
  }
}`;

const offer = (args: { percent_off?: number; amount_off?: number }) =>
  args.percent_off !== undefined
    ? `${args.percent_off}% off`
    : args.amount_off !== undefined
      ? `${args.amount_off.toFixed(2)} (store currency) off`
      : "an amount off";

const createDiscountCode = defineWrite({
  id: "shopify.discount_code.create",
  additive: true,
  idempotent: false,
  title: "Create a Shopify discount code",
  consent: "Create discount codes",
  description:
    "Creates a discount code customers type at checkout (Admin GraphQL discountCodeBasicCreate): a percentage or a fixed amount off the whole order, for all customers, from a start date to an optional end date, with an optional total usage limit and once per customer. " +
    "Make a promo code, coupon or voucher for a campaign, e.g. SUMMER20 for 20% off. Returns the discount's ID, code, status and dates.",
  types: ["shopify"],
  credits: 1,
  example: { code: "SUMMER20", title: "Summer sale 20%", percent_off: 20, ends_at: "2025-08-31T23:59:59Z" },
  input: {
    code: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^[^\s]+$/, "must have no spaces")
      .describe("The code customers enter at checkout, e.g. SUMMER20."),
    title: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe("The discount's name in the admin (default: the code)."),
    percent_off: z.number().gt(0).max(100).optional().describe("A percentage off the order, 0-100, e.g. 20."),
    amount_off: z
      .number()
      .positive()
      .max(1_000_000)
      .optional()
      .describe("A fixed amount off the order in the store's currency, e.g. 10 (give this or percent_off)."),
    starts_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("When the code starts to work, ISO 8601 (default: now)."),
    ends_at: z.iso.datetime({ offset: true }).optional().describe("When it stops working, ISO 8601 (default: never)."),
    usage_limit: z.number().int().min(1).max(1_000_000).optional().describe("How many times it can be used in total."),
    once_per_customer: z.boolean().default(false).describe("Whether each customer can use it only once."),
  },
  summarize(args, connection, before) {
    const exists =
      isObject(before) && isObject(before.existing)
        ? ` (a discount with this code already exists: Shopify will refuse it)`
        : "";
    const until = args.ends_at ? ` until ${args.ends_at}` : "";
    return `Create Shopify discount code ${args.code} for ${offer(args)} the order${until} in store ${store(connection)}${exists}`;
  },
  async before({ connection, credentials }, args) {
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      DISCOUNT_BY_CODE,
      { code: args.code },
      "the codeDiscountNodeByCode query",
    );
    const node = data.codeDiscountNodeByCode;
    return {
      code: args.code,
      existing: isObject(node)
        ? {
            id: node.id ?? null,
            title: get(node, "codeDiscount", "title") ?? null,
            status: get(node, "codeDiscount", "status") ?? null,
          }
        : null,
    };
  },
  output: {
    id: z.string().describe("Discount ID"),
    code: z.string().describe("Discount code"),
    title: z.string().nullable().describe("Discount name"),
    status: z.string().nullable().describe("Status, e.g. ACTIVE or SCHEDULED"),
    starts_at: z.string().nullable().describe("Starts at"),
    ends_at: z.string().nullable().describe("Ends at (null: never)"),
    usage_limit: z.number().nullable().describe("Usage limit (null: none)"),
  },
  async run({ connection, credentials }, args) {
    if ((args.percent_off === undefined) === (args.amount_off === undefined))
      throw new OperationInputError("Give exactly one of percent_off and amount_off.");
    if (args.starts_at && args.ends_at && Date.parse(args.ends_at) <= Date.parse(args.starts_at))
      throw new OperationInputError(`ends_at ${args.ends_at} is not after starts_at ${args.starts_at}.`);
    const value =
      args.percent_off !== undefined
        ? { percentage: Math.round(args.percent_off * 100) / 10_000 }
        : { discountAmount: { amount: args.amount_off!.toFixed(2), appliesOnEachItem: false } };
    const data = await shopifyGraphql(
      connection.type,
      credentials,
      DISCOUNT_CREATE,
      {
        basicCodeDiscount: {
          title: args.title ?? args.code,
          code: args.code,
          startsAt: args.starts_at ?? new Date().toISOString(),
          ...(args.ends_at && { endsAt: args.ends_at }),
          customerSelection: { all: true },
          customerGets: { value, items: { all: true } },
          appliesOncePerCustomer: args.once_per_customer,
          ...(args.usage_limit && { usageLimit: args.usage_limit }),
        },
      },
      "the discountCodeBasicCreate mutation",
    );
    refuseUserErrors(data.discountCodeBasicCreate);
    const node = get(data, "discountCodeBasicCreate", "codeDiscountNode");
    if (!isObject(node))
      throw new ProviderUnavailable(
        "Shopify",
        "Shopify answered the discountCodeBasicCreate mutation without a discount.",
      );
    const discount = isObject(node.codeDiscount) ? node.codeDiscount : {};
    return {
      id: String(node.id ?? "").replace(/^gid:\/\/shopify\/DiscountCodeNode\//, ""),
      code: nodes(discount.codes)[0]?.code ?? args.code,
      title: discount.title ?? null,
      status: discount.status ?? null,
      starts_at: discount.startsAt ?? null,
      ends_at: discount.endsAt ?? null,
      usage_limit: discount.usageLimit ?? null,
    };
  },
});

export const operations: Operation[] = [listProducts, listCustomers, updateProductStatus, createDiscountCode];
