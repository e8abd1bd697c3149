import "server-only";
import { z } from "zod";
import { googleApiCall, googleType, isObject, listOf } from "@/lib/platforms/google/google-provider";
import { count, lastSegment, marketingCall, text } from "@/lib/platforms/google/marketing-call";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { merchantDocs } from "@/lib/platforms/google/merchant/merchant-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { OperationInputError, type OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderRejection } from "@/lib/platforms/kit/types";

// Google Merchant Center through the Merchant API (accounts_v1, products_v1), not the Content API
// for Shopping v2.1: Google sunset the Content API on 18 August 2026, its requests fail
// intermittently with 410 Gone since 1 September 2026 and it is shut down in early 2027
// (https://developers.google.com/shopping-content/guides/deprecation-and-sunset). The Merchant
// API's processed product carries its status (productStatus: destinations, item-level issues),
// so statuses need no call of their own; a price or availability change is a productInputs.patch
// on the product's data source (https://developers.google.com/merchant/api/guides/products/frequent-updates).

const TYPE = "google_merchant";
const API = "https://merchantapi.googleapis.com";
const SCOPE = "https://www.googleapis.com/auth/content";

const accountId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, "must be the numeric Merchant Center account ID")
  .describe("The Merchant Center account ID (the number in the Merchant Center URL), e.g. 123456789.");

/** contentLanguage~feedLabel~offerId (or local~…), as the Merchant API names a product. */
const productId = z
  .string()
  .trim()
  .min(5)
  .max(200)
  .regex(
    /^(local~)?[a-z]{2,3}~[A-Za-z0-9_-]{1,20}~.+$/,
    "must be contentLanguage~feedLabel~offerId, e.g. en~US~sku123 (product_id of google_merchant.products.list)",
  )
  .describe('The product: contentLanguage~feedLabel~offerId, e.g. "en~US~sku123" (product_id in the products list).');

/**
 * The product segment of a URL: plain when it can be, else unpadded base64url, as the API asks
 * for an offer ID holding / % or ~.
 */
function productSegment(id: string): string {
  const parts = id.split("~");
  const offer = parts.slice(id.startsWith("local~") ? 3 : 2).join("~");
  return /[/%~?#]/.test(offer) ? Buffer.from(id, "utf8").toString("base64url") : id;
}

/** A Merchant API Price {amountMicros, currencyCode} as {amount, currency}. */
function money(v: unknown) {
  if (!isObject(v)) return null;
  const micros = count(v.amountMicros);
  return { amount: micros === null ? null : micros / 1e6, currency: text(v.currencyCode) };
}

/** money()'s answer. */
const priceShape = z
  .object({
    amount: z.number().nullable().describe("Amount (currency units)"),
    currency: z.string().nullable().describe("Currency, e.g. USD"),
  })
  .nullable();

/** shownProduct's answer. */
const productShape = {
  product_id: z.string().nullable().describe("Product ID (language~feed label~offer ID)"),
  offer_id: z.string().nullable().describe("Offer ID (your SKU)"),
  title: z.string().nullable().describe("Product title"),
  price: priceShape.describe("Price"),
  sale_price: priceShape.describe("Sale price"),
  availability: z.string().nullable().describe("Availability, e.g. IN_STOCK or OUT_OF_STOCK"),
  link: z.string().nullable().describe("Product page"),
  content_language: z.string().nullable().describe("Language"),
  feed_label: z.string().nullable().describe("Feed label"),
  data_source: z.string().nullable().describe("Data source"),
  disapproved: z.boolean().describe("Disapproved by Google"),
  issue_count: z.number().describe("Issues"),
};

/** What the tools return of a processed product. */
function shownProduct(p: Record<string, unknown>) {
  const attributes = isObject(p.productAttributes) ? p.productAttributes : {};
  const status = isObject(p.productStatus) ? p.productStatus : {};
  const issues = Array.isArray(status.itemLevelIssues) ? status.itemLevelIssues.filter(isObject) : [];
  return {
    product_id: lastSegment(p.name),
    offer_id: text(p.offerId),
    title: text(attributes.title),
    price: money(attributes.price),
    sale_price: money(attributes.salePrice),
    availability: text(attributes.availability),
    link: text(attributes.link),
    content_language: text(p.contentLanguage),
    feed_label: text(p.feedLabel),
    data_source: text(p.dataSource),
    disapproved: issues.some((i) => i.severity === "DISAPPROVED"),
    issue_count: issues.length,
  };
}

function shownStatus(p: Record<string, unknown>) {
  const attributes = isObject(p.productAttributes) ? p.productAttributes : {};
  const status = isObject(p.productStatus) ? p.productStatus : {};
  const issues = (Array.isArray(status.itemLevelIssues) ? status.itemLevelIssues : []).filter(isObject);
  const destinations = (Array.isArray(status.destinationStatuses) ? status.destinationStatuses : []).filter(isObject);
  return {
    product_id: lastSegment(p.name),
    title: text(attributes.title),
    destinations: destinations.map((d) => ({
      reporting_context: text(d.reportingContext),
      approved_countries: Array.isArray(d.approvedCountries) ? d.approvedCountries : [],
      pending_countries: Array.isArray(d.pendingCountries) ? d.pendingCountries : [],
      disapproved_countries: Array.isArray(d.disapprovedCountries) ? d.disapprovedCountries : [],
    })),
    issues: issues.map((i) => ({
      code: text(i.code),
      severity: text(i.severity),
      reporting_context: text(i.reportingContext),
      attribute: text(i.attribute),
      description: text(i.description),
      detail: text(i.detail),
      resolution: text(i.resolution),
      documentation: text(i.documentation),
      countries: Array.isArray(i.applicableCountries) ? i.applicableCountries : [],
    })),
    last_update: text(status.lastUpdateDate),
  };
}

async function productsPage(ctx: OperationContext, account: string, limit: number, pageToken?: string) {
  const what = "the products.list call";
  // https://developers.google.com/merchant/api/reference/rest/products_v1/accounts.products/list
  const body = await marketingCall(ctx, `${API}/products/v1/accounts/${account}/products`, what, {
    query: { pageSize: String(limit), pageToken },
  });
  return { products: listOf(body, "products", what), next: text(body.nextPageToken) };
}

async function productOf(ctx: OperationContext, account: string, id: string) {
  // https://developers.google.com/merchant/api/reference/rest/products_v1/accounts.products/get
  return marketingCall(
    ctx,
    `${API}/products/v1/accounts/${account}/products/${productSegment(id)}`,
    "the products.get call",
  );
}

const listAccounts = defineRead({
  id: "google_merchant.accounts.list",
  title: "List Google Merchant Center accounts",
  consent: "See the Merchant Center accounts you can reach",
  description:
    "Lists the Google Merchant Center accounts this connection can reach (Merchant API accounts.list): account_id, name, time zone, language and whether it is a test account. " +
    "Use the account_id with google_merchant.products.list and the other Merchant Center operations.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(100)
      .describe("How many accounts to return at most (1-500, default 100)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { limit: 50 },
  output: {
    accounts: z
      .array(
        z.object({
          account_id: z.string().nullable().describe("Merchant Center account ID"),
          name: z.string().nullable().describe("Account name"),
          time_zone: z.string().nullable().describe("Time zone"),
          language_code: z.string().nullable().describe("Language"),
          test_account: z.boolean().describe("A test account"),
        }),
      )
      .describe("Merchant Center accounts"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the accounts.list call";
    // https://developers.google.com/merchant/api/reference/rest/accounts_v1/accounts/list
    const body = await marketingCall(ctx, `${API}/accounts/v1/accounts`, what, {
      query: { pageSize: String(args.limit), pageToken: args.page_token },
    });
    return {
      accounts: listOf(body, "accounts", what).map((a) => ({
        account_id: text(a.accountId) ?? lastSegment(a.name),
        name: text(a.accountName),
        time_zone: isObject(a.timeZone) ? text(a.timeZone.id) : null,
        language_code: text(a.languageCode),
        test_account: a.testAccount === true,
      })),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const listProducts = defineRead({
  id: "google_merchant.products.list",
  title: "List the products of a Google Merchant Center account",
  consent: "See your Merchant Center products and their statuses",
  description:
    "Lists the products (processed product listings) of a Google Merchant Center account (Merchant API products.list): product_id, offer ID, title, price, sale price, availability (in stock, out of stock …), link, data source, and whether Google disapproved it. " +
    "For the reasons a product is disapproved or limited, use google_merchant.product_statuses.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    account_id: accountId,
    limit: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(25)
      .describe("How many products to return at most (1-1000, default 25)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { account_id: "123456789", limit: 25 },
  output: {
    account_id: z.string().describe("Merchant Center account ID"),
    products: z.array(z.object(productShape)).describe("Products"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const page = await productsPage(ctx, args.account_id, args.limit, args.page_token);
    return { account_id: args.account_id, products: page.products.map(shownProduct), next_page_token: page.next };
  },
});

const listStatuses = defineRead({
  id: "google_merchant.product_statuses.list",
  title: "List Google Merchant Center product statuses and disapprovals",
  consent: "See your Merchant Center products and their statuses",
  description:
    "Product statuses of a Google Merchant Center account: for each product, where it is approved, pending or disapproved (Shopping ads, free listings … per country) and its item-level issues (disapproval reasons, warnings, the attribute at fault and how to fix it). " +
    "only_problems (default true) keeps only products with issues or disapprovals. Reads the productStatus of the Merchant API's products.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    account_id: accountId,
    only_problems: z.boolean().default(true).describe("true (default) = only products with an issue or a disapproval."),
    limit: z.number().int().min(1).max(1000).default(100).describe("How many products to read (1-1000, default 100)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { account_id: "123456789", only_problems: true },
  output: {
    account_id: z.string().describe("Merchant Center account ID"),
    products_read: z.number().describe("Products read"),
    disapproved: z.number().describe("Disapproved products"),
    statuses: z
      .array(
        z.object({
          product_id: z.string().nullable().describe("Product ID (language~feed label~offer ID)"),
          title: z.string().nullable().describe("Product title"),
          destinations: z
            .array(
              z.object({
                reporting_context: z.string().nullable().describe("Destination, e.g. SHOPPING_ADS"),
                approved_countries: z.array(z.string()).describe("Approved in countries"),
                pending_countries: z.array(z.string()).describe("Pending in countries"),
                disapproved_countries: z.array(z.string()).describe("Disapproved in countries"),
              }),
            )
            .describe("Status per destination"),
          issues: z
            .array(
              z.object({
                code: z.string().nullable().describe("Issue code"),
                severity: z.string().nullable().describe("Severity, e.g. DISAPPROVED"),
                reporting_context: z.string().nullable().describe("Destination, e.g. SHOPPING_ADS"),
                attribute: z.string().nullable().describe("Attribute at fault"),
                description: z.string().nullable().describe("Issue"),
                detail: z.string().nullable().describe("Detail"),
                resolution: z.string().nullable().describe("Who can fix it, e.g. merchant_action"),
                documentation: z.string().nullable().describe("Help page"),
                countries: z.array(z.string()).describe("Countries affected"),
              }),
            )
            .describe("Item-level issues"),
          last_update: z.string().nullable().describe("Status updated at"),
        }),
      )
      .describe("Product statuses"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const page = await productsPage(ctx, args.account_id, args.limit, args.page_token);
    const statuses = page.products
      .map(shownStatus)
      .filter(
        (s) => !args.only_problems || s.issues.length > 0 || s.destinations.some((d) => d.disapproved_countries.length),
      );
    return {
      account_id: args.account_id,
      products_read: page.products.length,
      disapproved: statuses.filter((s) => s.issues.some((i) => i.severity === "DISAPPROVED")).length,
      statuses,
      next_page_token: page.next,
    };
  },
});

const AVAILABILITY = ["IN_STOCK", "OUT_OF_STOCK", "PREORDER", "BACKORDER", "LIMITED_AVAILABILITY"] as const;

const productState = async (ctx: OperationContext, account: string, id: string) =>
  shownProduct(await productOf(ctx, account, id));

const describePrice = (p: { amount: number | null; currency: string | null } | null | undefined) =>
  p && p.amount !== null ? `${p.amount.toFixed(2)} ${p.currency ?? ""}`.trim() : null;

const updateProduct = defineWrite({
  id: "google_merchant.product.update",
  idempotent: true,
  title: "Change a Google Merchant Center product's price or availability",
  consent: "Change the price and availability of your products",
  description:
    "Changes the price and/or the availability of one Google Merchant Center product (Merchant API productInputs.patch on the product's data source): set a new price, mark it in stock, out of stock (sold out), preorder, backorder or limited availability. " +
    "price is in currency units (19.99), currency defaults to the product's current one. Returns the previous and the new values. It can take a few minutes before products.list shows the change.",
  types: [TYPE],
  credits: 2,
  input: {
    account_id: accountId,
    product_id: productId,
    price: z
      .number()
      .positive()
      .max(1e9)
      .optional()
      .describe("The new price in currency units, e.g. 19.99 (not micros)."),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")
      .optional()
      .describe("ISO 4217 currency of price (default: the product's current currency)."),
    availability: z
      .enum(AVAILABILITY)
      .optional()
      .describe("The new availability: IN_STOCK, OUT_OF_STOCK, PREORDER, BACKORDER or LIMITED_AVAILABILITY."),
    data_source: z
      .string()
      .regex(/^accounts\/\d+\/dataSources\/\d+$/, "must be accounts/{account}/dataSources/{id}")
      .optional()
      .describe("The API data source to update (default: the product's primary data source)."),
  },
  example: { account_id: "123456789", product_id: "en~US~sku123", availability: "OUT_OF_STOCK" },
  summarize(args, _connection, before) {
    const state = (isObject(before) ? before : {}) as Partial<ReturnType<typeof shownProduct>>;
    const title = state.title ? ` '${state.title}'` : "";
    const was = describePrice(state.price);
    const currency = args.currency ?? state.price?.currency ?? "";
    const changes: string[] = [];
    if (args.price !== undefined)
      changes.push(`price${was ? ` from ${was}` : ""} to ${`${args.price.toFixed(2)} ${currency}`.trim()}`);
    if (args.availability)
      changes.push(`availability${state.availability ? ` from ${state.availability}` : ""} to ${args.availability}`);
    return `Change the ${changes.join(" and the ")} of Merchant Center product ${args.product_id}${title} in account ${args.account_id}.`;
  },
  before: (ctx, args) => productState(ctx, args.account_id, args.product_id),
  output: {
    account_id: z.string().describe("Merchant Center account ID"),
    product_id: z.string().describe("Product ID (language~feed label~offer ID)"),
    title: z.string().nullable().describe("Product title"),
    data_source: z.string().describe("Data source updated"),
    previous_price: priceShape.describe("Previous price"),
    previous_availability: z.string().nullable().describe("Previous availability"),
    price: priceShape.describe("Price now"),
    availability: z.string().nullable().describe("Availability now, e.g. IN_STOCK or OUT_OF_STOCK"),
  },
  async run(ctx, args) {
    if (args.price === undefined && args.availability === undefined)
      throw new OperationInputError("Give price, availability or both: there is nothing to change.");
    const previous = await productState(ctx, args.account_id, args.product_id);
    const dataSource = args.data_source ?? previous.data_source;
    if (!dataSource)
      throw new ProviderRejection("Google", `product ${args.product_id} names no data source; give data_source.`);
    const currency = args.currency ?? previous.price?.currency;
    if (args.price !== undefined && !currency)
      throw new OperationInputError(`Product ${args.product_id} has no price yet: give currency with price.`);
    const attributes: Record<string, unknown> = {};
    const mask: string[] = [];
    if (args.price !== undefined) {
      attributes.price = { amountMicros: String(Math.round(args.price * 100) * 10_000), currencyCode: currency };
      mask.push("productAttributes.price");
    }
    if (args.availability !== undefined) {
      attributes.availability = args.availability;
      mask.push("productAttributes.availability");
    }
    // https://developers.google.com/merchant/api/reference/rest/products_v1/accounts.productInputs/patch
    const body = await marketingCall(
      ctx,
      `${API}/products/v1/accounts/${args.account_id}/productInputs/${productSegment(args.product_id)}`,
      "the productInputs.patch call",
      { method: "PATCH", query: { updateMask: mask.join(","), dataSource }, body: { productAttributes: attributes } },
    );
    const now = isObject(body.productAttributes) ? body.productAttributes : {};
    return {
      account_id: args.account_id,
      product_id: args.product_id,
      title: previous.title,
      data_source: dataSource,
      previous_price: previous.price,
      previous_availability: previous.availability,
      price: args.price !== undefined ? (money(now.price) ?? { amount: args.price, currency }) : previous.price,
      availability:
        args.availability !== undefined ? (text(now.availability) ?? args.availability) : previous.availability,
    };
  },
});

export const product: GoogleProduct = {
  types: [
    googleType({
      type: TYPE,
      name: "Google Merchant Center",
      logo: monogramLogo("#4285F4", "MC"),
      scopes: [{ name: SCOPE, allows: "Manage your product listings and accounts for Google Shopping", changes: true }],
      credentialFields: ["client_id", "client_secret", "refresh_token"],
      docs: merchantDocs,
      hosts: ["merchantapi.googleapis.com"],
      async check(type, accessToken) {
        const what = "the Merchant API call (accounts.list)";
        // https://developers.google.com/merchant/api/reference/rest/accounts_v1/accounts/list
        const body = await googleApiCall(type, `${API}/accounts/v1/accounts?pageSize=1`, accessToken, what);
        const [first] = listOf(body, "accounts", what);
        return {
          accountId: text(first?.accountId) ?? lastSegment(first?.name) ?? undefined,
          accountName: text(first?.accountName) ?? undefined,
        };
      },
    }),
  ],
  operations: [listAccounts, listProducts, listStatuses, updateProduct],
};
