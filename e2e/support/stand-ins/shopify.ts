import { createHash, createHmac, randomBytes } from "node:crypto";
import { catalogGraphql, throttled } from "./shopify-catalog";
import {
  OAuthBook,
  RateLimits,
  authorizeControls,
  startStandInServer,
  testClient,
  type Reply,
  type StandInModule,
  type StandInRequest,
} from "./stand-in-server";

// Stand-in for Shopify's OAuth and Admin REST API, at Shopify's real paths and wire format:
//   GET  /admin/oauth/authorize              302 to redirect_uri with code, hmac, host, shop, state, timestamp
//   POST /admin/oauth/access_token           JSON {client_id, client_secret, code} → {access_token, scope}; 400 {error, error_description}
//   GET  /admin/api/2025-01/shop.json        X-Shopify-Access-Token → {shop:{id, name, myshopify_domain, email, …}}
//   POST /admin/api/2025-01/graphql.json     X-Shopify-Access-Token, {query, variables} → {data, extensions:{cost}}; only the
//                                            `orders` query: 60 orders derived from the store (newest first, one every 12 h),
//                                            variables first/after honoured, query's financial_status:… filter applied.
//                                            A query without `orders` → 200 {errors:[{message, extensions:{code:"undefinedField"}}]}.
//                                            A token without read_orders → 200 {errors:[{…, extensions:{code:"ACCESS_DENIED"}}]}.
//
// Access tokens (manual credential `access_token`):
//   any value works, and names a store derived from it (same token → same store);
//   `bad_scope…` → 403 {"errors":"[API] This action requires merchant approval for read_orders scope."}
//   any other `bad…` → 401 {"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}
//
// OAuth: real Shopify knows the store from the host (https://<store>.myshopify.com), which
// PROVIDER_BASE_URLS replaces, so the store the stand-in signs into the callback comes from a
// test control on the authorize URL: `shop=<domain>`; else `account` when it is a myshopify
// domain; else `<account with _ as ->.myshopify.com` (default `acct-default.myshopify.com`).
// An `account` beginning with `bad_scope` gets a token without scopes (shop.json → 403); any other
// gets the scopes the authorize URL asked for. A token the stand-in did not issue holds every scope.
//
// Products, customers, a product's status and discount codes: shopify-catalog.ts (see its header).
// Test control: GET /__stand-in/tokens?shop=<domain> → {tokens: [the access tokens issued for it]}.
// Rate limit: a store whose domain starts with `throttled-once` gets Shopify's GraphQL THROTTLED
// answer (429 with Retry-After 1, errors[].extensions.code THROTTLED, extensions.cost.throttleStatus)
// on its first graphql.json call, one starting with `throttled` on every call (Retry-After 60).

const client = testClient("SHOPIFY");
const ALL_SCOPES = "read_orders,read_products,read_customers,write_products,write_discounts";
const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";
const MISSING_SCOPE = "[API] This action requires merchant approval for read_orders scope.";
const hash = (v: string) => createHash("sha256").update(v).digest("hex");

/** HMAC-SHA256 hex over the parameters sorted by name as k=v joined with & (what Shopify signs callbacks with). */
function sign(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createHmac("sha256", secret).update(message).digest("hex");
}

function shopOf(query: URLSearchParams, account: string): string {
  const explicit = query.get("shop");
  if (explicit) return explicit.toLowerCase();
  if (/\.myshopify\.com$/.test(account)) return account.toLowerCase();
  return `${
    account
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+/, "") || "store"
  }.myshopify.com`;
}

function shopJson(domain: string) {
  const handle = domain.replace(/\.myshopify\.com$/, "");
  return {
    shop: {
      id: parseInt(hash(domain).slice(0, 10), 16),
      name: `Store ${handle}`,
      email: `owner@${handle}.example`,
      domain,
      myshopify_domain: domain,
      province: "",
      country: "US",
      currency: "USD",
      iana_timezone: "America/New_York",
      plan_name: "basic",
      plan_display_name: "Basic",
      created_at: "2024-01-01T00:00:00-05:00",
    },
  };
}

const htmlError = (status: number, message: string): Reply => ({
  status,
  text: `Oauth error invalid_request: ${message}`,
  headers: { "content-type": "text/html; charset=utf-8" },
});
const tokenError = (status: number, error: string, description: string): Reply => ({
  status,
  json: { error, error_description: description },
});

export const standIn: StandInModule = {
  types: ["shopify"],
  oauthProviders: ["SHOPIFY"],
  async start() {
    const book = new OAuthBook();
    const rateLimits = new RateLimits();
    // Which store each issued token belongs to (the book's `account`) is the shop domain.

    /** The store a token opens, or Shopify's refusal (for GraphQL, a missing scope is answered in `errors` instead). */
    function storeOf(req: StandInRequest, graphql = false): string | Reply {
      const token = String(req.headers["x-shopify-access-token"] ?? "");
      if (!token) return { status: 401, json: { errors: INVALID_TOKEN } };
      const issued = book.accessTokens.get(token);
      if (issued) return issued.scope || graphql ? issued.account : { status: 403, json: { errors: MISSING_SCOPE } };
      if (token.startsWith("bad_scope"))
        return graphql
          ? `store-${hash(token).slice(0, 8)}.myshopify.com`
          : { status: 403, json: { errors: MISSING_SCOPE } };
      if (token.startsWith("bad")) return { status: 401, json: { errors: INVALID_TOKEN } };
      return `store-${hash(token).slice(0, 8)}.myshopify.com`;
    }

    return startStandInServer({
      // Test control: the access tokens issued for the store `shop` (a test tells its own calls apart by them).
      "GET /__stand-in/tokens": (req: StandInRequest) => ({
        json: {
          tokens: [...book.accessTokens].filter(([, g]) => g.account === req.query.get("shop")).map(([t]) => t),
        },
      }),
      "GET /admin/oauth/authorize": (req: StandInRequest) => {
        const q = req.query;
        if (q.get("client_id") !== client.clientId)
          return htmlError(400, "The client_id is not a valid API key of an app.");
        const redirectUri = q.get("redirect_uri") ?? "";
        if (!/^https?:\/\/[^/]+(\/.*)?\/oauth\/callback$/.test(redirectUri))
          return htmlError(400, "The redirect_uri is missing or is not whitelisted.");
        const state = q.get("state");
        if (!state) return htmlError(400, "The state parameter is missing.");
        if (!q.get("scope")) return htmlError(400, "The scope parameter is missing.");
        const controls = authorizeControls(q);
        const shop = shopOf(q, controls.account);
        const back = new URL(redirectUri);
        if (controls.decision === "deny") {
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The merchant declined the installation.");
          back.searchParams.set("state", state);
          return { status: 302, redirect: back.toString() };
        }
        if (controls.decision === "error") {
          back.searchParams.set("error", "server_error");
          back.searchParams.set("error_description", "Shopify could not complete the installation.");
          back.searchParams.set("state", state);
          return { status: 302, redirect: back.toString() };
        }
        const scope = controls.account.startsWith("bad_scope") ? "" : (q.get("scope") ?? "");
        const code = book.issueCode({
          clientId: client.clientId,
          redirectUri,
          account: shop,
          scope,
          codeChallenge: null,
          tokenFailure: controls.tokenFailure,
        });
        const params: Record<string, string> = {
          code,
          host: Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, "")}`)
            .toString("base64")
            .replace(/=+$/, ""),
          shop,
          state,
          timestamp: String(Math.floor(Date.now() / 1000)),
        };
        params.hmac = sign(params, client.clientSecret);
        for (const [k, v] of Object.entries(params)) back.searchParams.set(k, v);
        return { status: 302, redirect: back.toString() };
      },

      "POST /admin/oauth/access_token": (req: StandInRequest) => {
        const input = (req.json && typeof req.json === "object" ? req.json : Object.fromEntries(req.form)) as Record<
          string,
          string | undefined
        >;
        if (input.client_id !== client.clientId || input.client_secret !== client.clientSecret) {
          return tokenError(400, "invalid_client", "Client credentials cannot be found");
        }
        const code = input.code ?? "";
        if (book.codes.get(code)?.tokenFailure === "server_error")
          return { status: 500, text: "Internal Server Error" };
        const grant = book.redeem(code, client.clientId, null, null);
        if (typeof grant === "string")
          return tokenError(400, "invalid_request", "The authorization code was not found or was already used");
        const token = `shpat_${randomBytes(16).toString("hex")}`;
        book.accessTokens.set(token, { account: grant.account, scope: grant.scope });
        return { json: { access_token: token, scope: grant.scope } };
      },

      "GET /admin/api/2025-01/shop.json": (req: StandInRequest) => {
        const store = storeOf(req);
        if (typeof store !== "string") return store;
        return { json: shopJson(store) };
      },

      "POST /admin/api/2025-01/graphql.json": (req: StandInRequest) => {
        const token = String(req.headers["x-shopify-access-token"] ?? "");
        const scoped = !token.startsWith("bad_scope") && book.accessTokens.get(token)?.scope !== "";
        const store = storeOf(req, true);
        if (typeof store !== "string") return store;
        const body = (req.json ?? {}) as {
          query?: string;
          variables?: { first?: number; after?: string | null; query?: string | null };
        };
        if (rateLimits.limited(store)) return throttled(store.startsWith("throttled-once"));
        const granted = book.accessTokens.get(token)?.scope ?? (token.startsWith("bad_scope") ? "" : ALL_SCOPES);
        const catalog = catalogGraphql(store, granted.split(",").filter(Boolean), body.query ?? "", {
          ...(body.variables ?? {}),
        });
        if (catalog) return catalog;
        if (!/\borders\s*\(/.test(body.query ?? "")) {
          return {
            json: {
              errors: [
                {
                  message: "Field 'orders' must be selected: the stand-in answers only the orders query.",
                  locations: [{ line: 1, column: 1 }],
                  extensions: { code: "undefinedField" },
                },
              ],
            },
          };
        }
        if (!scoped) {
          return {
            json: {
              data: null,
              errors: [
                {
                  message:
                    "Access denied for orders field. Required access: `read_orders` access scope, along with `read_all_orders` access scope for orders older than 60 days.",
                  locations: [{ line: 2, column: 3 }],
                  path: ["orders"],
                  extensions: {
                    code: "ACCESS_DENIED",
                    documentation: "https://shopify.dev/api/usage/access-scopes",
                    requiredAccess: "`read_orders` access scope.",
                  },
                },
              ],
            },
          };
        }
        const v = body.variables ?? {};
        const first = Math.min(250, Math.max(1, Number(v.first ?? 10)));
        const financial = /financial_status:(\w+)/.exec(v.query ?? "")?.[1];
        const statuses = ["PAID", "PENDING", "REFUNDED", "PARTIALLY_REFUNDED"];
        const base = Date.UTC(2025, 0, 31, 12);
        const all = Array.from({ length: 60 }, (_, i) => {
          const n = parseInt(hash(`${store}/${i}`).slice(0, 8), 16);
          return {
            id: `gid://shopify/Order/${5_000_000_000 + (n % 1_000_000)}`,
            name: `#${1060 - i}`,
            createdAt: new Date(base - i * 12 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
            cancelledAt: null,
            displayFinancialStatus: statuses[n % statuses.length],
            displayFulfillmentStatus: n % 3 === 0 ? "UNFULFILLED" : "FULFILLED",
            currentTotalPriceSet: { shopMoney: { amount: ((n % 30000) / 100 + 10).toFixed(2), currencyCode: "USD" } },
            subtotalLineItemsQuantity: 1 + (n % 4),
            customer: { displayName: `Customer ${n % 97}` },
            lineItems: { nodes: [{ title: `Product ${n % 13}`, quantity: 1 + (n % 4), sku: `SKU-${n % 13}` }] },
          };
        }).filter((o) => !financial || o.displayFinancialStatus === financial.toUpperCase());
        const start = v.after
          ? Number(
              Buffer.from(v.after, "base64")
                .toString("utf8")
                .replace(/^cursor:/, ""),
            ) + 1
          : 0;
        const page = all.slice(start, start + first);
        const endCursor = page.length ? Buffer.from(`cursor:${start + page.length - 1}`).toString("base64") : null;
        return {
          json: {
            data: { orders: { nodes: page, pageInfo: { hasNextPage: start + first < all.length, endCursor } } },
            extensions: {
              cost: {
                requestedQueryCost: 2 + first,
                actualQueryCost: 2 + page.length,
                throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 },
              },
            },
          },
        };
      },
    });
  },
};
