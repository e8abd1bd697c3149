import { createHash } from "node:crypto";
import type { Reply } from "./stand-in-server";

// The Shopify stand-in's Admin GraphQL answers beside `orders` (shopify.ts hands each query here
// first): products, customers, product(id), productUpdate, codeDiscountNodeByCode and
// discountCodeBasicCreate, in the 2025-01 schema's shapes, with state per store (a product's status,
// the discounts created) that later queries see.
// - 12 products per store, "Product 1" … (ids 8000000000 + n), status ACTIVE except every fourth
//   DRAFT; `query` filters status:<s> and title:<text>; first/after paging.
// - 20 customers per store; `query` filters orders_count:>N and tag:<t>.
// - productUpdate(product: {id, status}): needs write_products (else ACCESS_DENIED); an unknown id →
//   userErrors [{field: ["id"], message: "Product does not exist"}]; a status outside ACTIVE / DRAFT /
//   ARCHIVED → a top-level error (the variable does not coerce).
// - discountCodeBasicCreate: needs write_discounts; a code already used → userErrors [{field:
//   ["basicCodeDiscount", "code"], code: "TAKEN", message: "Code must be unique. Please try a different
//   code."}]; no customerGets.value → userErrors BLANK; percentage outside 0..1 → VALUE_OUTSIDE_RANGE;
//   endsAt before startsAt → INVALID.
// - codeDiscountNodeByCode(code): the discount with that code, or null (read_discounts or write_discounts).
// Missing scopes are answered as Shopify does: 200 {errors: [{message: "Access denied for <field> field.
// Required access: `<scope>` access scope.", extensions: {code: "ACCESS_DENIED"}}]}.

type Json = Record<string, unknown>;
type Product = {
  id: string;
  title: string;
  handle: string;
  status: string;
  vendor: string;
  inventory: number;
  price: number;
  updatedAt: string;
};
type Discount = {
  id: string;
  code: string;
  title: string;
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
};
type Store = { products: Product[]; discounts: Discount[] };

const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
const stores = new Map<string, Store>();

function storeOf(domain: string): Store {
  let s = stores.get(domain);
  if (!s) {
    const products = Array.from({ length: 12 }, (_, i) => ({
      id: String(8_000_000_000 + hashInt(`${domain}/p/${i}`, 1_000_000) * 100 + i),
      title: `Product ${i + 1}`,
      handle: `product-${i + 1}`,
      status: i % 4 === 3 ? "DRAFT" : "ACTIVE",
      vendor: i % 2 ? "Acme" : "Globex",
      inventory: hashInt(`${domain}/inv/${i}`, 50),
      price: 10 + hashInt(`${domain}/price/${i}`, 9000) / 100,
      updatedAt: new Date(Date.UTC(2025, 0, 20) - i * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    }));
    stores.set(domain, (s = { products, discounts: [] }));
  }
  return s;
}

const accessDenied = (field: string, scope: string): Reply => ({
  json: {
    data: null,
    errors: [
      {
        message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
        locations: [{ line: 2, column: 3 }],
        path: [field],
        extensions: {
          code: "ACCESS_DENIED",
          documentation: "https://shopify.dev/api/usage/access-scopes",
          requiredAccess: `\`${scope}\` access scope.`,
        },
      },
    ],
  },
});

const cost = (requested: number, available = 1990) => ({
  cost: {
    requestedQueryCost: requested,
    actualQueryCost: requested,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
  },
});

/**
 * Shopify's answer to a query over the bucket: errors THROTTLED and the bucket's state, with HTTP 429
 * and Retry-After (https://shopify.dev/docs/api/usage/limits: "429 Too Many Requests" and a
 * Retry-After header; the GraphQL body names THROTTLED).
 */
export const throttled = (once: boolean): Reply => ({
  status: 429,
  headers: { "retry-after": once ? "1" : "60" },
  json: {
    errors: [
      {
        message: "Throttled",
        extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
      },
    ],
    extensions: {
      cost: {
        requestedQueryCost: 102,
        actualQueryCost: null,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 2, restoreRate: 100 },
      },
    },
  },
});

function paged<T>(all: T[], first: number, after: string | null | undefined) {
  const start = after
    ? Number(
        Buffer.from(after, "base64")
          .toString("utf8")
          .replace(/^cursor:/, ""),
      ) + 1
    : 0;
  const nodes = all.slice(start, start + first);
  const endCursor = nodes.length ? Buffer.from(`cursor:${start + nodes.length - 1}`).toString("base64") : null;
  return { nodes, pageInfo: { hasNextPage: start + first < all.length, endCursor } };
}

const productJson = (p: Product) => ({
  id: `gid://shopify/Product/${p.id}`,
  title: p.title,
  handle: p.handle,
  status: p.status,
  vendor: p.vendor,
  productType: "Shoes",
  tags: p.status === "ACTIVE" ? ["summer"] : [],
  totalInventory: p.inventory,
  createdAt: "2024-06-01T10:00:00Z",
  updatedAt: p.updatedAt,
  priceRangeV2: {
    minVariantPrice: { amount: p.price.toFixed(2), currencyCode: "USD" },
    maxVariantPrice: { amount: (p.price + 5).toFixed(2), currencyCode: "USD" },
  },
  variants: {
    nodes: ["S", "M"].map((size, i) => ({
      id: `gid://shopify/ProductVariant/${p.id}${i}`,
      title: size,
      sku: `${p.handle.toUpperCase()}-${size}`,
      price: (p.price + i * 5).toFixed(2),
      inventoryQuantity: Math.floor(p.inventory / 2),
    })),
  },
});

/**
 * The answer to a catalog query or mutation, or null when `query` is none of them (shopify.ts then
 * answers `orders`). `scopes`: what the token was granted.
 */
export function catalogGraphql(domain: string, scopes: string[], query: string, variables: Json): Reply | null {
  const has = (...wanted: string[]) => wanted.some((w) => scopes.includes(w));
  const store = storeOf(domain);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

  if (/\bproductUpdate\s*\(/.test(query)) {
    if (!has("write_products")) return accessDenied("productUpdate", "write_products");
    const input = (variables.product ?? {}) as { id?: string; status?: string };
    if (input.status !== undefined && !["ACTIVE", "DRAFT", "ARCHIVED"].includes(String(input.status)))
      return {
        json: {
          errors: [
            {
              message: `Variable $product of type ProductUpdateInput! was provided invalid value for status (Expected "${String(input.status)}" to be one of: ACTIVE, ARCHIVED, DRAFT)`,
              extensions: { code: "INVALID_VARIABLE" },
            },
          ],
        },
      };
    const p = store.products.find((x) => `gid://shopify/Product/${x.id}` === input.id);
    if (!p)
      return {
        json: {
          data: {
            productUpdate: { product: null, userErrors: [{ field: ["id"], message: "Product does not exist" }] },
          },
          extensions: cost(10),
        },
      };
    if (input.status) p.status = input.status;
    p.updatedAt = now;
    return {
      json: {
        data: {
          productUpdate: {
            product: { id: `gid://shopify/Product/${p.id}`, title: p.title, status: p.status, updatedAt: p.updatedAt },
            userErrors: [],
          },
        },
        extensions: cost(10),
      },
    };
  }

  if (/\bdiscountCodeBasicCreate\s*\(/.test(query)) {
    if (!has("write_discounts")) return accessDenied("discountCodeBasicCreate", "write_discounts");
    const d = (variables.basicCodeDiscount ?? {}) as {
      title?: string;
      code?: string;
      startsAt?: string;
      endsAt?: string;
      usageLimit?: number;
      customerGets?: { value?: { percentage?: number; discountAmount?: { amount?: string } } };
    };
    const error = (field: string[], code: string, message: string): Reply => ({
      json: {
        data: {
          discountCodeBasicCreate: {
            codeDiscountNode: null,
            userErrors: [{ field: ["basicCodeDiscount", ...field], code, message }],
          },
        },
        extensions: cost(10),
      },
    });
    const code = String(d.code ?? "");
    if (!code) return error(["code"], "BLANK", "Code can't be blank");
    if (store.discounts.some((x) => x.code.toLowerCase() === code.toLowerCase()))
      return error(["code"], "TAKEN", "Code must be unique. Please try a different code.");
    const value = d.customerGets?.value;
    if (!value || (value.percentage === undefined && value.discountAmount === undefined))
      return error(["customerGets", "value"], "BLANK", "Value can't be blank");
    if (value.percentage !== undefined && !(value.percentage > 0 && value.percentage <= 1))
      return error(["customerGets", "value", "percentage"], "VALUE_OUTSIDE_RANGE", "Value must be between 0.0 and 1.0");
    if (!d.startsAt) return error(["startsAt"], "BLANK", "Starts at can't be blank");
    if (d.endsAt && Date.parse(d.endsAt) <= Date.parse(d.startsAt))
      return error(["endsAt"], "INVALID", "Ends at needs to be after starts_at");
    const discount: Discount = {
      id: String(1_000_000_000 + hashInt(`${domain}/${code}`, 100_000_000)),
      code,
      title: d.title ?? code,
      startsAt: d.startsAt,
      endsAt: d.endsAt ?? null,
      usageLimit: d.usageLimit ?? null,
    };
    store.discounts.push(discount);
    const active = Date.parse(discount.startsAt) <= Date.now();
    return {
      json: {
        data: {
          discountCodeBasicCreate: {
            codeDiscountNode: {
              id: `gid://shopify/DiscountCodeNode/${discount.id}`,
              codeDiscount: {
                title: discount.title,
                status: active ? "ACTIVE" : "SCHEDULED",
                startsAt: discount.startsAt,
                endsAt: discount.endsAt,
                usageLimit: discount.usageLimit,
                codes: { nodes: [{ code }] },
              },
            },
            userErrors: [],
          },
        },
        extensions: cost(10),
      },
    };
  }

  if (/\bcodeDiscountNodeByCode\s*\(/.test(query)) {
    if (!has("read_discounts", "write_discounts")) return accessDenied("codeDiscountNodeByCode", "read_discounts");
    const found = store.discounts.find((x) => x.code.toLowerCase() === String(variables.code ?? "").toLowerCase());
    return {
      json: {
        data: {
          codeDiscountNodeByCode: found
            ? {
                id: `gid://shopify/DiscountCodeNode/${found.id}`,
                codeDiscount: { __typename: "DiscountCodeBasic", title: found.title, status: "ACTIVE" },
              }
            : null,
        },
        extensions: cost(2),
      },
    };
  }

  if (/\bproduct\s*\(/.test(query)) {
    if (!has("read_products", "write_products")) return accessDenied("product", "read_products");
    const p = store.products.find((x) => `gid://shopify/Product/${x.id}` === variables.id);
    return {
      json: {
        data: {
          product: p
            ? { id: `gid://shopify/Product/${p.id}`, title: p.title, status: p.status, totalInventory: p.inventory }
            : null,
        },
        extensions: cost(1),
      },
    };
  }

  const first = Math.min(250, Math.max(1, Number(variables.first ?? 10)));
  const q = String(variables.query ?? "");
  if (/\bproducts\s*\(/.test(query)) {
    if (!has("read_products", "write_products")) return accessDenied("products", "read_products");
    const status = /status:(\w+)/.exec(q)?.[1]?.toUpperCase();
    const title = /title:(\S+)/.exec(q)?.[1]?.toLowerCase();
    const all = [...store.products]
      .sort((a, z) => z.updatedAt.localeCompare(a.updatedAt))
      .filter((p) => (!status || p.status === status) && (!title || p.title.toLowerCase().includes(title)));
    const page = paged(all, first, variables.after as string | null);
    return {
      json: { data: { products: { ...page, nodes: page.nodes.map(productJson) } }, extensions: cost(2 + first * 12) },
    };
  }

  if (/\bcustomers\s*\(/.test(query)) {
    if (!has("read_customers")) return accessDenied("customers", "read_customers");
    const minOrders = Number(/orders_count:>(\d+)/.exec(q)?.[1] ?? -1);
    const tag = /tag:(\S+)/.exec(q)?.[1];
    const all = Array.from({ length: 20 }, (_, i) => {
      const orders = hashInt(`${domain}/c/${i}/o`, 9);
      return {
        id: `gid://shopify/Customer/${7_000_000_000 + i}`,
        displayName: `Customer ${i + 1}`,
        email: `customer${i + 1}@example.com`,
        state: i % 5 === 4 ? "INVITED" : "ENABLED",
        tags: orders > 5 ? ["vip"] : [],
        numberOfOrders: String(orders),
        amountSpent: { amount: (orders * 42.5).toFixed(2), currencyCode: "USD" },
        emailMarketingConsent: { marketingState: i % 3 ? "SUBSCRIBED" : "NOT_SUBSCRIBED" },
        createdAt: "2024-03-01T10:00:00Z",
        updatedAt: new Date(Date.UTC(2025, 0, 25) - i * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
      };
    }).filter((c) => Number(c.numberOfOrders) > minOrders && (!tag || c.tags.includes(tag)));
    return {
      json: { data: { customers: paged(all, first, variables.after as string | null) }, extensions: cost(2 + first) },
    };
  }
  return null;
}
