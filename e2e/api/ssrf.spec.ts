import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, seed, seedTeam, apiAs, baseURL, type SeededTeam } from "../fixtures";

// No input steers a provider call to another host. Every provider call goes through
// providerFetch/providerUrl (lib/platforms/kit/provider-fetch.ts), which refuses any URL whose host
// is not one of the type's hosts (ConnectionTypeDefinition.hosts, per family in
// lib/platforms/<platform>/) or its PROVIDER_BASE_URLS override; user-controlled parts (the
// Shopify store, ids in paths, Search Console site URLs) are validated before they become URLs.
// And an auth link's redirect_url is an https URL a browser shows plainly (spec §4.6).

let team: SeededTeam;
let canary: http.Server;
const canaryHits: string[] = [];
let canaryPort = 0;

test.beforeAll(async () => {
  team = await seedTeam();
  // Anything that reaches this listener is a request the app should never have made.
  canary = http.createServer((req, res) => {
    canaryHits.push(`${req.method} ${req.headers.host}${req.url}`);
    res.end("{}");
  });
  await new Promise<void>((ok) => canary.listen(0, "127.0.0.1", ok));
  canaryPort = (canary.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((ok) => canary.close(ok));
});

/** How many calls the Shopify stand-in has served (all its paths). */
async function shopifyCalls(): Promise<number> {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS!).shopify as string;
  let n = 0;
  for (const path of ["/admin/api/2025-01/shop.json", "/admin/api/2025-01/graphql.json", "/admin/oauth/access_token"]) {
    n += (await (await fetch(`${base}/__stand-in/calls?${new URLSearchParams({ path })}`)).json()).count;
  }
  return n;
}

test.describe("Shopify store domain", () => {
  const HOSTILE = () => [
    "127.0.0.1:5432",
    `127.0.0.1:${canaryPort}`,
    "localhost",
    "[::1]",
    "169.254.169.254",
    "evil.com#.myshopify.com",
    "evil.com?.myshopify.com",
    "evil.com/.myshopify.com",
    "evil.com\\.myshopify.com",
    "acme.myshopify.com@evil.com",
    "acme.myshopify.com.evil.com",
    "acme.myshopify.com:5432",
    `acme.myshopify.com:${canaryPort}`,
    "acme.myshopify.com/../../evil",
    "acme.myshopify.com%2f..%2fevil",
    "acme%2emyshopify.com",
    "a.b.myshopify.com",
    ".myshopify.com",
    "-.myshopify.com",
    "acme.myshopify.com.",
    "acme.myshopify.com\u0000.evil.com",
    "acme\u202e.myshopify.com",
    "ацме.myshopify.com",
    "http://127.0.0.1/.myshopify.com",
    `http://127.0.0.1:${canaryPort}/`,
    "javascript:alert(1)//.myshopify.com",
  ];

  test("POST /v1/connections with a hostile shop_domain is 400 and calls nothing", async () => {
    const api = await apiAs(team.users[0]);
    const before = await shopifyCalls();
    const problems: string[] = [];
    for (const shop of HOSTILE()) {
      const res = await api.post("/v1/connections", {
        data: { connection_type: "shopify", name: "shop", credentials: { shop_domain: shop, access_token: "shpat_x" } },
      });
      const text = await res.text();
      if (res.status() !== 400 || !/shop_domain|NUL/.test(JSON.parse(text).detail ?? ""))
        problems.push(`${JSON.stringify(shop)} → ${res.status()} ${text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(await shopifyCalls(), "a hostile shop_domain reached the Shopify stand-in").toBe(before);
    expect(canaryHits).toEqual([]);
    // The counter works: a real store domain is called once.
    await api.post("/v1/connections", {
      data: {
        connection_type: "shopify",
        name: "shop",
        credentials: { shop_domain: "acme.myshopify.com", access_token: "shpat_x" },
      },
    });
    expect(await shopifyCalls()).toBe(before + 1);
  });

  test("the connect page's store field cannot send the browser or the token call elsewhere", async () => {
    const api = await apiAs(team.users[0]);
    const link = await (await api.post("/v1/connections/auth-link", { data: { connection_type: "shopify" } })).json();
    const problems: string[] = [];
    for (const shop of HOSTILE()) {
      const res = await fetch(`${link.url}/start`, {
        method: "POST",
        body: new URLSearchParams({ shop }),
        redirect: "manual",
      });
      const location = res.headers.get("location") ?? "";
      const target = location ? new URL(location, baseURL()) : null;
      // Back to the connect page with an error; never to a host but this app.
      if (
        res.status !== 303 ||
        !target ||
        target.origin !== new URL(baseURL()).origin ||
        !target.searchParams.get("error")
      )
        problems.push(`${JSON.stringify(shop)} → ${res.status} ${location.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(canaryHits).toEqual([]);
  });
});

test.describe("the provider host allow-list (providerUrl)", () => {
  type Verdict = { url: string; to?: string; refused?: string };
  const check = (type: string, urls: string[]) => seed<Verdict[]>("providerUrls", { type, urls });

  test("every family's real hosts pass (to its stand-in); anything else is refused", async () => {
    const cases: [string, string[], string[]][] = [
      [
        "gsc",
        [
          "https://www.googleapis.com/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F/searchAnalytics/query",
          "https://oauth2.googleapis.com/token",
          "https://accounts.google.com/o/oauth2/v2/auth?x=1",
        ],
        [
          "https://www.googleapis.com/webmasters/v3/sites/../../evil",
          "https://www.googleapis.com/webmasters/v3/sites/%2e%2e/x",
          "https://www.googleapis.com/webmasters/v3/sites/./x",
          "https://www.googleapis.com/a#b",
          "https://www.googleapis.com\\@evil.com/",
          "http://www.googleapis.com/webmasters/v3/sites",
          "https://www.googleapis.com:8443/",
          "https://user:pw@www.googleapis.com/",
          "https://www.googleapis.com.evil.com/",
          "https://googleapis.com/",
          "https://evil.com/?www.googleapis.com",
          `http://127.0.0.1:${canaryPort}/`,
          "file:///etc/passwd",
          "not a url",
        ],
      ],
      [
        "meta_ads",
        ["https://graph.facebook.com/v21.0/me", "https://www.facebook.com/v21.0/dialog/oauth"],
        ["https://graph.facebook.com.evil.com/", "https://facebook.com/", "https://graph.facebook.com@evil.com/"],
      ],
      [
        "shopify",
        ["https://acme.myshopify.com/admin/api/2025-01/shop.json", "https://a-1.myshopify.com/admin/oauth/authorize"],
        [
          "https://a.b.myshopify.com/",
          "https://myshopify.com/",
          "https://-x.myshopify.com/",
          "https://acme.myshopify.com.evil.com/",
          "https://acme.myshopify.com:5432/",
          "https://127.0.0.1/.myshopify.com",
        ],
      ],
      ["slack", ["https://slack.com/api/auth.test"], ["https://evil.slack.com/api", "https://slack.com.evil.com/"]],
      [
        "openai",
        ["https://api.openai.com/v1/models"],
        ["https://api.anthropic.com/v1/models", "https://api.openai.com/v1/../../x"],
      ],
      ["stripe", ["https://api.stripe.com/v1/balance"], ["https://api.openai.com/v1/models"]],
      [
        "sandbox_key",
        [`${baseURL()}/sandbox/api/me`],
        ["https://evil.com/sandbox/api/me", `http://127.0.0.1:${canaryPort}/sandbox/api/me`],
      ],
    ];
    const problems: string[] = [];
    for (const [type, allowed, refused] of cases) {
      const verdicts = await check(type, [...allowed, ...refused]);
      for (const v of verdicts) {
        const shouldPass = allowed.includes(v.url);
        if (shouldPass && !v.to) problems.push(`${type}: ${v.url} refused: ${v.refused}`);
        if (!shouldPass && !v.refused) problems.push(`${type}: ${v.url} allowed → ${v.to}`);
        // An allowed URL goes where PROVIDER_BASE_URLS points the type (the stand-in), path kept.
        if (shouldPass && v.to && type !== "sandbox_key")
          expect(new URL(v.to).host).toBe(new URL(JSON.parse(process.env.PROVIDER_BASE_URLS!)[type]).host);
      }
    }
    expect(problems).toEqual([]);
    expect(canaryHits).toEqual([]);
  });
});

test.describe("redirect_url of an auth link (spec §4.6: must use HTTPS)", () => {
  const link = (redirect_url: string) => ({ connection_type: "sandbox_oauth", redirect_url });

  test("anything but a plain https URL is 400", async () => {
    const api = await apiAs(team.users[0]);
    const problems: string[] = [];
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)//https://x",
      "data:text/html,<script>alert(1)</script>",
      "data:text/html;base64,PHNjcmlwdD4=",
      "http://example.com/done",
      "HTTP://example.com/done",
      "ftp://example.com/",
      "//evil.com/done",
      "https:evil.com/done",
      "https:/evil.com/done",
      "https://user:pass@example.com/done",
      "https://bank.example@evil.example/",
      "https://:@example.com/",
      " https://example.com/done",
      "https://example.com/done ",
      "https://exa\u202emple.com/",
      "https://example.com/\u202egnp.exe",
      "https://example.com/\u200b",
      "https://example.com/\u0000",
      "https://example.com/\ud800",
      "https://exa mple.com/",
      "https://example.com\n.evil.com/",
      "https://",
      "https:///path",
    ]) {
      const res = await api.post("/v1/connections/auth-link", { data: link(url) });
      const body = await res.json().catch(() => ({}));
      if (res.status() !== 400 || typeof body.detail !== "string" || !/redirect_url|NUL|surrogate/.test(body.detail))
        problems.push(`${JSON.stringify(url)} → ${res.status()} ${JSON.stringify(body).slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  test("https URLs with international hosts, unicode paths and query parameters are accepted", async () => {
    const api = await apiAs(team.users[0]);
    for (const url of [
      "https://example.com/done",
      "HTTPS://example.com/done",
      "https://bücher.example/fertig",
      "https://xn--bcher-kva.example/",
      "https://example.com/ü/😀?x=1&status=keep#frag",
      "https://example.com:8443/cb",
    ]) {
      const res = await api.post("/v1/connections/auth-link", { data: link(url) });
      expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
    }
  });
});
