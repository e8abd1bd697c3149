import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  providerFetch,
  providerReason,
  rateLimitReason,
  type ProviderResponse,
  rejection,
} from "@/lib/platforms/kit/provider-fetch";
import { urlWith } from "@/lib/platforms/kit/oauth2";
import {
  ProviderRejection,
  ProviderUnavailable,
  type ConnectionTypeDefinition,
  type OAuthDefinition,
  type OAuthScope,
  type VerifiedAccount,
  type FreshCredentials,
} from "@/lib/platforms/kit/types";
import { shopifyDocs } from "@/lib/platforms/shopify/shopify-docs";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import { hostedType } from "@/lib/platforms/kit/provider-fetch";

/** The type's hosts, for providerFetch (which calls nothing else). */
const hosted = (type: string) => hostedType(shopifyTypes, type);

// Shopify: one store per connection. Every call goes to the store's own host
// (https://<store>.myshopify.com/admin/...), so the domain is validated before it becomes a URL.

const PROVIDER = "Shopify";
const API_VERSION = "2025-01";
const SCOPES: OAuthScope[] = [
  { name: "read_orders", allows: "See your store's orders, transactions and fulfillments" },
  { name: "read_products", allows: "See your products, variants and collections" },
  { name: "read_customers", allows: "See your customers and their details" },
  // shopify.product.status.update (https://shopify.dev/docs/api/admin-graphql/2025-01/mutations/productUpdate).
  { name: "write_products", allows: "Change your products, variants and collections", changes: true },
  // shopify.discount_code.create (https://shopify.dev/docs/api/admin-graphql/2025-01/mutations/discountCodeBasicCreate).
  { name: "write_discounts", allows: "Create and change your discounts and discount codes", changes: true },
];
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

const logo = monogramLogo("#95BF47", "S");

/**
 * The store's permanent domain (lower-cased; a pasted https:// or trailing slash is tolerated), or
 * a rejection saying what is expected.
 */
function shopDomainOrThrow(input: string | undefined, what: string): string {
  const shop = (input ?? "")
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/+$/, "");
  if (!SHOP_DOMAIN.test(shop)) {
    throw new ProviderRejection(
      PROVIDER,
      `${what} ${JSON.stringify(input ?? "")} is not a store's myshopify.com domain; give its permanent domain, like acme.myshopify.com (Shopify admin → Settings → Domains).`,
    );
  }
  return shop;
}

/**
 * 4xx = Shopify refused (bad token, missing scope, unknown or frozen store); 429, 5xx and redirects
 * = Shopify trouble.
 */
function fail(res: ProviderResponse, shop: string, what: string): never {
  if (res.status >= 400 && res.status < 500 && res.status !== 429) {
    const reason = providerReason(res);
    throw rejection(PROVIDER, res, res.status === 404 ? `${reason} (no store answers at ${shop})` : reason);
  }
  if (res.status >= 300 && res.status < 400)
    throw new ProviderRejection(
      PROVIDER,
      `${shop} redirected the API call (HTTP ${res.status}): the store does not exist under that domain.`,
    );
  throw new ProviderUnavailable(PROVIDER, `${PROVIDER} ${what} answered ${providerReason(res)}.`);
}

/**
 * The store and token of a connection: the OAuth grant's shop (kept in the token set) or the posted
 * shop_domain + access_token.
 */
function shopifyAuth(credentials: FreshCredentials): { shop: string; accessToken: string } {
  if (credentials.kind === "oauth")
    return {
      shop: shopDomainOrThrow(String(credentials.tokens.extra?.shop ?? ""), "The connection's store"),
      accessToken: credentials.tokens.accessToken,
    };
  return {
    shop: shopDomainOrThrow(credentials.credentials.shop_domain, "shop_domain"),
    accessToken: credentials.credentials.access_token,
  };
}

type GraphqlError = { message?: unknown; extensions?: { code?: unknown } };

/**
 * One Admin GraphQL call on the connection's store. HTTP errors as for REST; a 200 whose
 * `errors` are THROTTLED or INTERNAL_SERVER_ERROR is Shopify's trouble, any other (ACCESS_DENIED,
 * a bad query) is a refusal with Shopify's messages.
 */
export async function shopifyGraphql(
  type: string,
  credentials: FreshCredentials,
  query: string,
  variables: Record<string, unknown>,
  what: string,
): Promise<Record<string, unknown>> {
  const { shop, accessToken } = shopifyAuth(credentials);
  // https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits: a THROTTLED answer is
  // tried again once the bucket has refilled enough for the query's cost (at most twice, and only
  // for a wait of a few seconds; a longer one is reported).
  for (let attempt = 0; ; attempt++) {
    const res = await providerFetch(PROVIDER, hosted(type), `https://${shop}/admin/api/${API_VERSION}/graphql.json`, {
      method: "POST",
      headers: {
        "x-shopify-access-token": accessToken,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({ query, variables }),
    });
    // A 429 (Retry-After) is what providerFetch did not wait out: reported with Shopify's words.
    if (res.status === 429)
      throw new ProviderUnavailable(
        PROVIDER,
        rateLimitReason(PROVIDER, res, graphqlErrors(res.body) || providerReason(res)),
      );
    if (res.status !== 200) fail(res, shop, what);
    const body = (res.body ?? {}) as { data?: unknown; errors?: unknown; extensions?: unknown };
    if (!Array.isArray(body.errors) || !body.errors.length) {
      if (!body.data || typeof body.data !== "object")
        throw new ProviderUnavailable(
          PROVIDER,
          `${PROVIDER} ${what} answered 200 without data: ${res.text.slice(0, 200)}`,
        );
      return body.data as Record<string, unknown>;
    }
    const errors = body.errors as GraphqlError[];
    const text = graphqlErrors(body);
    if (errors.some((e) => e.extensions?.code === "THROTTLED")) {
      const wait = throttleWaitMs(body.extensions);
      if (attempt < 2 && wait !== null && wait <= 5_000) {
        await new Promise((ok) => setTimeout(ok, wait));
        continue;
      }
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER}'s rate limit was reached (${text})${wait !== null ? `; it refills enough in ${Math.ceil(wait / 1000)} s` : ""}.`,
      );
    }
    if (errors.some((e) => e.extensions?.code === "INTERNAL_SERVER_ERROR"))
      throw new ProviderUnavailable(PROVIDER, `${PROVIDER} ${what} answered ${text}.`);
    throw new ProviderRejection(PROVIDER, text);
  }
}

/** "CODE: message; …" of a GraphQL answer's `errors`, or "" when it has none. */
function graphqlErrors(body: unknown): string {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return "";
  return (errors as GraphqlError[])
    .map((e) => [e?.extensions?.code, e?.message].filter((v) => typeof v === "string" && v).join(": "))
    .filter(Boolean)
    .join("; ");
}

/**
 * How long until the cost bucket holds the throttled query's cost, from the answer's
 * extensions.cost (requestedQueryCost, throttleStatus.currentlyAvailable and restoreRate per second).
 */
function throttleWaitMs(extensions: unknown): number | null {
  const cost = (extensions as { cost?: Record<string, unknown> } | null)?.cost;
  const status = (cost?.throttleStatus ?? {}) as Record<string, unknown>;
  const [requested, available, rate] = [cost?.requestedQueryCost, status.currentlyAvailable, status.restoreRate].map(
    Number,
  );
  if (![requested, available, rate].every(Number.isFinite) || rate <= 0) return null;
  return Math.max(0, Math.ceil(((requested - available) / rate) * 1000));
}

/** Mutations answer `userErrors` ({field, code, message}) for input Shopify refuses: a rejection with their words. */
export function refuseUserErrors(payload: unknown) {
  const errors = (payload as { userErrors?: unknown } | null)?.userErrors;
  if (!Array.isArray(errors) || !errors.length) return;
  const text = errors
    .map((e) => {
      const o = (e ?? {}) as { field?: unknown; code?: unknown; message?: unknown };
      const field = Array.isArray(o.field) ? o.field.join(".") : "";
      return [o.code, field, o.message].filter((v) => typeof v === "string" && v).join(": ");
    })
    .join("; ");
  throw new ProviderRejection(PROVIDER, text);
}

type Shop = { id: number | string; name?: string; myshopify_domain?: string; email?: string };

/** GET shop.json: proves the token works for this store and names it. */
async function shopIdentity(type: string, shop: string, accessToken: string): Promise<Shop> {
  const res = await providerFetch(PROVIDER, hosted(type), `https://${shop}/admin/api/${API_VERSION}/shop.json`, {
    headers: { "x-shopify-access-token": accessToken, accept: "application/json" },
  });
  if (res.status !== 200) fail(res, shop, "shop.json");
  const s = (res.body as { shop?: Shop } | null)?.shop;
  if (!s || (typeof s.id !== "number" && typeof s.id !== "string"))
    throw new ProviderUnavailable(
      PROVIDER,
      `${PROVIDER} shop.json answered 200 without a shop: ${res.text.slice(0, 200)}`,
    );
  return s;
}

// Shopify routes every Admin API call by host, so the store that answered is the domain we
// called: rotation is keyed on that domain (it equals shop.myshopify_domain).
const storeAccount = (shop: string, s: Shop): VerifiedAccount => ({
  rotationKey: `store:${shop}`,
  accountId: String(s.id),
  accountName: s.name || shop,
});

/**
 * The callback's hmac: HMAC-SHA256 (hex) over the other parameters sorted by name as k=v joined
 * with &, keyed with the app secret.
 */
function verifyCallbackHmac(callback: URLSearchParams, clientSecret: string) {
  const hmac = callback.get("hmac");
  if (!hmac)
    throw new ProviderRejection(
      PROVIDER,
      "The OAuth callback carries no hmac, so it cannot be proven to come from Shopify.",
    );
  const message = [...callback.entries()]
    .filter(([k]) => k !== "hmac")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const expected = Buffer.from(createHmac("sha256", clientSecret).update(message).digest("hex"));
  const given = Buffer.from(hmac.toLowerCase());
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ProviderRejection(
      PROVIDER,
      "The OAuth callback's hmac does not match: it was not signed by Shopify with this app's secret.",
    );
  }
}

const shopifyOAuth: OAuthDefinition = {
  provider: "SHOPIFY",
  providerName: PROVIDER,
  scopes: SCOPES,
  identity: "See your store's name and domain",
  pkce: false,
  needsShop: true,
  authorizeUrl: ({ client, redirectUri, state, shop }) =>
    urlWith(`https://${shopDomainOrThrow(shop, "The store domain")}/admin/oauth/authorize`, {
      client_id: client.clientId,
      scope: SCOPES.map((s) => s.name).join(","),
      redirect_uri: redirectUri,
      state,
    }),
  async exchangeCode({ type, client, callback, shop }) {
    const expected = shopDomainOrThrow(shop, "The store domain");
    verifyCallbackHmac(callback, client.clientSecret);
    const returned = callback.get("shop");
    if (returned !== expected) {
      throw new ProviderRejection(
        PROVIDER,
        `The OAuth callback is for the store ${JSON.stringify(returned ?? "")}, but the connection was started for ${expected}.`,
      );
    }
    const code = callback.get("code");
    if (!code) throw new ProviderRejection(PROVIDER, "The OAuth callback carries no code.");
    const res = await providerFetch(PROVIDER, hosted(type), `https://${expected}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ client_id: client.clientId, client_secret: client.clientSecret, code }),
    });
    const body = res.body as { access_token?: unknown; scope?: unknown } | null;
    if (res.status !== 200) fail(res, expected, "token endpoint");
    if (typeof body?.access_token !== "string" || !body.access_token) {
      throw new ProviderUnavailable(
        PROVIDER,
        `${PROVIDER} token endpoint answered 200 without an access_token: ${res.text.slice(0, 200)}`,
      );
    }
    // Offline tokens: no expiry and no refresh token.
    return {
      accessToken: body.access_token,
      refreshToken: null,
      expiresAt: null,
      scope: typeof body.scope === "string" ? body.scope : null,
      extra: { shop: expected },
    };
  },
  async identify({ type, shop }, tokens) {
    const domain = shopDomainOrThrow(
      typeof tokens.extra?.shop === "string" ? tokens.extra.shop : shop,
      "The store domain",
    );
    return storeAccount(domain, await shopIdentity(type, domain, tokens.accessToken));
  },
};

export const shopifyTypes: ConnectionTypeDefinition[] = [
  {
    type: "shopify",
    name: "Shopify",
    logo,
    authMethods: ["oauth", "manual"],
    credentialFields: ["shop_domain", "access_token"],
    docs: shopifyDocs,
    family: "storefront",
    hosts: ["*.myshopify.com"],
    oauth: shopifyOAuth,
    async verify(credentials, ctx) {
      const shop = shopDomainOrThrow(credentials.shop_domain, "shop_domain");
      return storeAccount(shop, await shopIdentity(ctx.type, shop, credentials.access_token));
    },
  },
];
