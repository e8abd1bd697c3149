import { createHash } from "node:crypto";
import { expect } from "@playwright/test";
import type { Json, PlatformCase, Recorded, RunContext } from "./case";

// Shopify (products, customers, a product's status, discount codes) and HubSpot (deals, companies)
// against e2e/support/stand-ins/shopify.ts + shopify-catalog.ts and hubspot.ts + hubspot-deals.ts.

const baseOf = (type: string) => String(JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}")[type] ?? "");

/** The access tokens a stand-in issued for an account (its test control), to tell this test's calls apart. */
async function tokensOf(type: string, query: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${baseOf(type)}/__stand-in/tokens?${new URLSearchParams(query)}`);
  return ((await res.json()) as { tokens: string[] }).tokens;
}

async function run(ctx: Omit<RunContext, "p">, operation_id: string, input: Json): Promise<Json | undefined> {
  const r = await ctx.client.callTool({
    name: "run_operation",
    arguments: { operation_id, connection_id: ctx.connectionId, input },
  });
  return r.structuredContent as Json | undefined;
}

// ---------------------------------------------------------------------------------------------- Shopify

const shopFor = (account: string) => `${account.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}.myshopify.com`;
const hashInt = (seed: string, max: number) =>
  parseInt(createHash("sha256").update(seed).digest("hex").slice(0, 8), 16) % max;
/** The stand-in's product i of a store (shopify-catalog.ts). */
const productId = (shop: string, i: number) => String(8_000_000_000 + hashInt(`${shop}/p/${i}`, 1_000_000) * 100 + i);
const GRAPHQL = "/admin/api/2025-01/graphql.json";
const graphqlOf = (requests: Recorded[]) => requests.filter((r) => r.method === "POST" && r.path === GRAPHQL);

export const shopifyDepth: PlatformCase = {
  type: "shopify",
  name: "Shopify",
  credentialFields: ["shop_domain", "access_token"],
  oauth: {
    provider: "SHOPIFY",
    authorizePath: "/admin/oauth/authorize",
    pkce: false,
    scopes: ["read_orders", "read_products", "read_customers", "write_products", "write_discounts"],
    accountName: (account) => `Store ${shopFor(account).replace(/\.myshopify\.com$/, "")}`,
    refresh: false,
  },
  manual: {
    good: (account) => ({ shop_domain: shopFor(account), access_token: `shpat_${account}` }),
    refused: (account) => ({
      credentials: { shop_domain: shopFor(account), access_token: "bad_token" },
      says: ["Shopify", "[API] Invalid API key or access token"],
    }),
  },
  async prepare({ account }) {
    const shop = shopFor(account);
    return { shop, tokens: await tokensOf("shopify", { shop }), product: productId(shop, 0) };
  },
  mine: (r, { p }) =>
    r.path === GRAPHQL && (p.tokens as string[]).includes(String(r.headers["x-shopify-access-token"] ?? "")),
  // GraphQL queries are POSTs that change nothing; mutations change.
  readsByPost: (r) => r.path === GRAPHQL && !/^\s*mutation\b/.test(String(r.json?.query ?? "")),
  reads: [
    {
      op: "shopify.products.list",
      input: () => ({ status: "active", limit: 5 }),
      check(result, { p }) {
        expect(result.products.map((x: Json) => x.title)).toEqual([
          "Product 1",
          "Product 2",
          "Product 3",
          "Product 5",
          "Product 6",
        ]);
        expect(result.products[0]).toEqual({
          id: p.product,
          title: "Product 1",
          handle: "product-1",
          status: "ACTIVE",
          vendor: "Globex",
          product_type: "Shoes",
          tags: ["summer"],
          total_inventory: expect.any(Number),
          min_price: { amount: expect.any(Number), currency: "USD" },
          max_price: { amount: expect.any(Number), currency: "USD" },
          created_at: "2024-06-01T10:00:00Z",
          updated_at: expect.any(String),
          variants: [
            {
              id: `${p.product}0`,
              title: "S",
              sku: "PRODUCT-1-S",
              price: expect.any(Number),
              inventory_quantity: expect.any(Number),
            },
            {
              id: `${p.product}1`,
              title: "M",
              sku: "PRODUCT-1-M",
              price: expect.any(Number),
              inventory_quantity: expect.any(Number),
            },
          ],
        });
        expect(result.next_cursor).toEqual(expect.any(String));
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${GRAPHQL}`]);
        expect(requests[0].json?.query).toMatch(
          /products\(first: \$first, after: \$after, query: \$query, sortKey: UPDATED_AT, reverse: true\)/,
        );
        expect(requests[0].json?.variables).toEqual({ first: 5, after: null, query: "status:active" });
        expect(requests[0].headers).toMatchObject({
          "x-shopify-access-token": expect.stringMatching(/^shpat_/),
          "content-type": "application/json",
        });
      },
    },
    {
      op: "shopify.customers.list",
      input: () => ({ search: "orders_count:>3", limit: 10 }),
      check(result) {
        expect(result.customers.length).toBeGreaterThan(0);
        for (const c of result.customers) {
          expect(c).toEqual({
            id: expect.stringMatching(/^\d+$/),
            name: expect.stringMatching(/^Customer \d+$/),
            email: expect.stringMatching(/@example\.com$/),
            state: expect.stringMatching(/^(ENABLED|INVITED)$/),
            tags: expect.any(Array),
            orders: expect.any(Number),
            amount_spent: { amount: expect.any(Number), currency: "USD" },
            email_marketing: expect.stringMatching(/SUBSCRIBED$/),
            created_at: "2024-03-01T10:00:00Z",
            updated_at: expect.any(String),
          });
          expect(c.orders).toBeGreaterThan(3);
        }
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${GRAPHQL}`]);
        expect(requests[0].json?.query).toMatch(/customers\(first: \$first, after: \$after, query: \$query/);
        expect(requests[0].json?.variables).toEqual({ first: 10, after: null, query: "orders_count:>3" });
      },
    },
  ],
  writes: [
    {
      op: "shopify.product.status.update",
      input: ({ p }) => ({ product_id: `gid://shopify/Product/${p.product}`, status: "ARCHIVED" }),
      summary: ({ p }, name) =>
        `Set the status of Shopify product ${p.product} 'Product 1' to ARCHIVED (now ACTIVE) in store ${name}`,
      async check(result, ctx) {
        expect(result).toEqual({
          product_id: ctx.p.product,
          title: "Product 1",
          status: "ARCHIVED",
          updated_at: expect.any(String),
        });
        const archived = await run(ctx, "shopify.products.list", { status: "archived" });
        expect(archived?.products.map((x: Json) => x.id)).toEqual([ctx.p.product]);
      },
      requests(requests, { p }) {
        const mutations = graphqlOf(requests).filter((r) => /^\s*mutation\b/.test(String(r.json?.query)));
        expect(mutations).toHaveLength(1);
        expect(mutations[0].json?.query).toMatch(/productUpdate\(product: \$product\)/);
        expect(mutations[0].json?.variables).toEqual({
          product: { id: `gid://shopify/Product/${p.product}`, status: "ARCHIVED" },
        });
      },
      refusal: () => ({
        input: { product_id: "1", status: "DRAFT" },
        says: ["Shopify", "Product does not exist"],
      }),
    },
    {
      op: "shopify.discount_code.create",
      input: ({ nonce }) => ({
        code: `SPRING${nonce.toUpperCase()}`,
        percent_off: 20,
        ends_at: "2030-01-01T00:00:00Z",
      }),
      summary: ({ nonce }, name) =>
        `Create Shopify discount code SPRING${nonce.toUpperCase()} for 20% off the order until 2030-01-01T00:00:00Z in store ${name}`,
      check(result, { nonce }) {
        expect(result).toEqual({
          id: expect.stringMatching(/^\d+$/),
          code: `SPRING${nonce.toUpperCase()}`,
          title: `SPRING${nonce.toUpperCase()}`,
          status: "ACTIVE",
          starts_at: expect.any(String),
          ends_at: "2030-01-01T00:00:00Z",
          usage_limit: null,
        });
      },
      requests(requests, { nonce }) {
        const mutations = graphqlOf(requests).filter((r) => /^\s*mutation\b/.test(String(r.json?.query)));
        expect(mutations).toHaveLength(1);
        expect(mutations[0].json?.query).toMatch(/discountCodeBasicCreate\(basicCodeDiscount: \$basicCodeDiscount\)/);
        expect(mutations[0].json?.variables).toEqual({
          basicCodeDiscount: {
            title: `SPRING${nonce.toUpperCase()}`,
            code: `SPRING${nonce.toUpperCase()}`,
            startsAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
            endsAt: "2030-01-01T00:00:00Z",
            customerSelection: { all: true },
            customerGets: { value: { percentage: 0.2 }, items: { all: true } },
            appliesOncePerCustomer: false,
          },
        });
      },
      // The same code again: Shopify refuses a code the store already has.
      refusal: ({ nonce }) => ({
        input: { code: `SPRING${nonce.toUpperCase()}`, amount_off: 5 },
        says: ["Shopify", "TAKEN", "Code must be unique"],
      }),
    },
  ],
  rateLimit: {
    op: "shopify.products.list",
    input: () => ({ limit: 3 }),
    says: ["Shopify's rate limit was reached", "THROTTLED", "wait 60 s"],
  },
  searches: [
    { ask: "list the products in my shopify store", first: "shopify.products.list" },
    { ask: "which shopify products are low on inventory", first: "shopify.products.list" },
    { ask: "shopify customers with the most orders", first: "shopify.customers.list" },
    { ask: "create a discount code for 20% off", first: "shopify.discount_code.create" },
    { ask: "archive a product in shopify", first: "shopify.product.status.update" },
  ],
};

// ---------------------------------------------------------------------------------------------- HubSpot

/** The stand-in's ids (hubspot-deals.ts): the first digits of sha256(seed). */
const hubNumber = (seed: string, n: number) =>
  BigInt(`0x${createHash("sha256").update(seed).digest("hex").slice(0, 14)}`)
    .toString()
    .slice(0, n);
const DEAL_PROPERTIES = ["dealname", "amount", "dealstage", "pipeline", "closedate", "hubspot_owner_id", "createdate"];
const bearerOf = (r: Recorded) => String(r.headers.authorization ?? "").replace(/^Bearer /i, "");

export const hubspotDepth: PlatformCase = {
  type: "hubspot",
  name: "HubSpot",
  credentialFields: null,
  oauth: {
    provider: "HUBSPOT",
    authorizePath: "/oauth/authorize",
    pkce: false,
    scopes: [
      "oauth",
      "crm.objects.contacts.read",
      "crm.objects.contacts.write",
      "crm.objects.deals.read",
      "crm.objects.deals.write",
      "crm.objects.companies.read",
      "crm.objects.companies.write",
    ],
    accountName: (account) => `${account.replace(/_/g, "-")}.example.com`,
    refresh: true,
  },
  async prepare({ account }) {
    return {
      tokens: await tokensOf("hubspot", { account }),
      // Deal 0 of the portal: "Acme — Renewal", appointmentscheduled, 1000.
      deal: hubNumber(`deal:${account}:0`, 11),
      wonDeal: hubNumber(`deal:${account}:5`, 11),
    };
  },
  mine: (r, { p }) =>
    /^\/crm\/v3\/objects\/(deals|companies)/.test(r.path) && (p.tokens as string[]).includes(bearerOf(r)),
  readsByPost: (r) => r.method === "POST" && r.path.endsWith("/search"),
  reads: [
    {
      op: "hubspot.deals.list",
      input: () => ({ dealstage: "closedwon", limit: 10 }),
      check(result, { p }) {
        expect(result).toEqual({
          total: 1,
          deals: [
            {
              id: p.wonDeal,
              dealname: "Stark — Upsell",
              amount: "6000",
              dealstage: "closedwon",
              pipeline: "default",
              closedate: expect.stringMatching(/^2025-02-15T/),
              hubspot_owner_id: "75000001",
              createdate: expect.stringMatching(/^2025-01-06T/),
            },
          ],
          next_after: null,
        });
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /crm/v3/objects/deals/search"]);
        expect(requests[0].json).toEqual({
          filterGroups: [{ filters: [{ propertyName: "dealstage", operator: "EQ", value: "closedwon" }] }],
          properties: DEAL_PROPERTIES,
          sorts: [{ propertyName: "hs_lastmodifieddate", direction: "DESCENDING" }],
          limit: 10,
        });
        expect(requests[0].headers).toMatchObject({
          authorization: expect.stringMatching(/^Bearer at_/),
          "content-type": "application/json",
        });
      },
    },
    {
      op: "hubspot.companies.list",
      input: () => ({ limit: 5 }),
      check(result) {
        expect(result.companies).toHaveLength(5);
        expect(result.companies[0]).toEqual({
          id: expect.stringMatching(/^\d{11}$/),
          name: expect.any(String),
          domain: expect.stringMatching(/\.example$/),
          industry: expect.any(String),
          city: expect.any(String),
          country: expect.any(String),
          numberofemployees: expect.stringMatching(/^\d+$/),
          lifecyclestage: expect.stringMatching(/^(lead|customer)$/),
        });
        expect(result.next_after).toBe("5");
      },
      requests(requests) {
        expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /crm/v3/objects/companies"]);
        expect(requests[0].query).toEqual({
          limit: "5",
          properties: "name,domain,industry,city,country,numberofemployees,lifecyclestage",
          archived: "false",
        });
        expect(requests[0].headers).toMatchObject({ authorization: expect.stringMatching(/^Bearer at_/) });
      },
    },
  ],
  writes: [
    {
      op: "hubspot.deal.update_stage",
      input: ({ p }) => ({ deal_id: p.deal, dealstage: "closedwon", amount: "1500" }),
      summary: ({ p }, name) =>
        `Move HubSpot deal ${p.deal} 'Acme — Renewal' from appointmentscheduled to closedwon and set amount 1500 in portal ${name}`,
      async check(result, ctx) {
        expect(result).toEqual({
          deal_id: ctx.p.deal,
          dealname: "Acme — Renewal",
          dealstage: "closedwon",
          pipeline: "default",
          amount: "1500",
          closedate: expect.any(String),
          updated_at: expect.any(String),
        });
        const won = await run(ctx, "hubspot.deals.list", { dealstage: "closedwon", limit: 20 });
        expect(won?.deals.map((d: Json) => d.id)).toContain(ctx.p.deal);
      },
      requests(requests, { p }) {
        const writes = requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/search"));
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /crm/v3/objects/deals/batch/update"]);
        expect(writes[0].json).toEqual({
          inputs: [{ id: p.deal, properties: { dealstage: "closedwon", amount: "1500" } }],
        });
      },
      refusal: ({ p }) => ({
        input: { deal_id: p.deal, dealstage: "negotiation" },
        says: ["HubSpot", "VALIDATION_ERROR", "negotiation was not one of the allowed options"],
      }),
    },
    {
      op: "hubspot.company.create",
      input: ({ nonce }) => ({
        name: `Nonce ${nonce} GmbH`,
        domain: `n${nonce}.example.org`,
        properties: { city: "Berlin" },
      }),
      summary: ({ nonce }, name) =>
        `Create HubSpot company 'Nonce ${nonce} GmbH' (n${nonce}.example.org) in portal ${name}`,
      check(result, { nonce }) {
        expect(result).toEqual({
          id: expect.stringMatching(/^\d{11}$/),
          name: `Nonce ${nonce} GmbH`,
          domain: `n${nonce}.example.org`,
          properties: { city: "Berlin" },
          created_at: expect.any(String),
        });
      },
      requests(requests, { nonce }) {
        const writes = requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/search"));
        expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /crm/v3/objects/companies"]);
        expect(writes[0].json).toEqual({
          properties: { name: `Nonce ${nonce} GmbH`, domain: `n${nonce}.example.org`, city: "Berlin" },
        });
      },
      refusal: () => ({
        input: { name: "Colourful Ltd", properties: { favourite_colour: "blue" } },
        says: ["HubSpot", "VALIDATION_ERROR", "PROPERTY_DOESNT_EXIST"],
      }),
    },
  ],
  rateLimit: {
    op: "hubspot.companies.list",
    input: () => ({ limit: 3 }),
    says: ["HubSpot's rate limit was reached", "RATE_LIMIT", "secondly limit", "wait 60 s"],
  },
  searches: [
    { ask: "show the deals in my hubspot pipeline", first: "hubspot.deals.list" },
    { ask: "move the hubspot deal to closed won", first: "hubspot.deal.update_stage" },
    { ask: "list companies in hubspot", first: "hubspot.companies.list" },
    { ask: "create a new company in the crm", first: "hubspot.company.create" },
  ],
};
