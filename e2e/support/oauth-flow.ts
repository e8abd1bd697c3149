import { expect, type APIRequestContext } from "@playwright/test";
import { baseURL } from "../fixtures";

// Drives the OAuth connect flow over real HTTP the way a browser would, one hop at a time:
// connect page → POST start → provider authorize (a stand-in, or the sandbox's own page) →
// the app's /oauth/callback → the caller's redirect_url or our result page.

export type Link = { id: string; url: string; expires_at: number };

export async function createLink(api: APIRequestContext, body: object): Promise<Link> {
  const res = await api.post("/v1/connections/auth-link", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const hop = (url: string, init: RequestInit = {}) => fetch(url, { ...init, redirect: "manual" });

function locationOf(res: Response, status: number | number[], what: string): string {
  const expected = Array.isArray(status) ? status : [status];
  expect(expected, `${what}: HTTP ${res.status} ${res.headers.get("location") ?? ""}`).toContain(res.status);
  const location = res.headers.get("location");
  expect(location, `${what} has a Location`).toBeTruthy();
  return new URL(location!, baseURL()).toString();
}

/** The store a Shopify test connects for an account (the connect page asks for it). */
export const shopFor = (account: string) => `${account.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}.myshopify.com`;

// The browser's cookie jar, as far as the flow needs one: "Continue" sets a cookie that binds
// the attempt to the browser, and the callback is refused without it. Kept by the attempt's
// state, which the provider hands back to the callback.
const jar = new Map<string, string>();
const stateOf = (url: string) => new URL(url).searchParams.get("state") ?? "";

/** The cookie "Continue" set for the attempt that `url` (an authorize or callback URL) carries the state of. */
export const bindingCookieFor = (url: string) => jar.get(stateOf(url));

/** Presses "Continue" on the connect page; returns the provider authorize URL it redirects to (and keeps its cookie). */
export async function start(link: Link, options: { shop?: string } = {}): Promise<string> {
  const body = new URLSearchParams(options.shop ? { shop: options.shop } : {});
  const res = await hop(`${link.url}/start`, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const authorizeUrl = locationOf(res, 303, "POST start");
  const cookie = res.headers.get("set-cookie");
  if (cookie) jar.set(stateOf(authorizeUrl), cookie.split(";")[0]);
  return authorizeUrl;
}

export type Decision = {
  decision?: "approve" | "deny" | "error";
  account?: string;
  tokenFailure?: "server_error";
  shop?: string;
};

/** The provider's answer: the callback URL (on the app) it sends the browser to. */
export async function authorize(authorizeUrl: string, d: Decision = {}): Promise<string> {
  const url = new URL(authorizeUrl);
  if (url.origin === new URL(baseURL()).origin) {
    // The sandbox's own consent page: a form posted back to its URL.
    const page = await hop(url.toString());
    expect(page.status, await page.clone().text()).toBe(200);
    const form = new URLSearchParams({
      decision: d.decision === "approve" || !d.decision ? "approve" : "deny",
      account: d.account ?? "sandbox-user",
    });
    return locationOf(
      await hop(url.toString(), {
        method: "POST",
        body: form,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      302,
      "sandbox decision",
    );
  }
  if (d.decision) url.searchParams.set("decision", d.decision);
  if (d.account) url.searchParams.set("account", d.account);
  if (d.tokenFailure) url.searchParams.set("token_failure", d.tokenFailure);
  if (d.shop) url.searchParams.set("shop", d.shop);
  return locationOf(await hop(url.toString()), [302, 303], "provider authorize");
}

/**
 * The browser arriving at the app's callback, with the cookie of the attempt when this
 * "browser" pressed Continue (`browser: "other"` plays a victim handed someone else's provider
 * URL); returns where the app sends it next.
 */
export async function callback(callbackUrl: string, options: { browser?: "same" | "other" } = {}): Promise<string> {
  expect(new URL(callbackUrl).pathname).toBe("/oauth/callback");
  const cookie = options.browser === "other" ? undefined : bindingCookieFor(callbackUrl);
  return locationOf(await hop(callbackUrl, { headers: cookie ? { cookie } : {} }), 302, "callback");
}

/** A whole flow for a link: start, authorize with the decision, callback. */
export async function connect(link: Link, type: string, d: Decision = {}): Promise<string> {
  const account = d.account ?? "acct_default";
  const shop = type === "shopify" ? shopFor(account) : undefined;
  const authorizeUrl = await start(link, { shop });
  return callback(await authorize(authorizeUrl, { ...d, shop }));
}

/** Query parameters of a redirect target as an object (first value of each). */
export function paramsOf(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location).searchParams);
}
