import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, seed, apiAs, anonymous, expectError } from "../fixtures";
import { authorize, callback, connect, createLink, paramsOf, shopFor, start, type Link } from "../support/oauth-flow";
// The build global-setup made serves this second server too.
import { freePort, startServer } from "../support/server";

// The connect flow of an auth link (spec §3.1, §4.6, §4.7) end to end over real HTTP, for every
// provider family: the app redirects to the provider's authorize URL (a local stand-in that
// speaks the provider's wire format, or the sandbox's own consent page), the provider redirects
// back to /oauth/callback, and the app exchanges the code, verifies the account and sends the
// browser on to the caller's redirect_url.

const FAMILIES = ["sandbox_oauth", "ga4", "meta_ads", "linkedin_ads", "tiktok_ads", "shopify", "slack", "hubspot"];
// The sandbox's consent page only approves or denies; it has no provider-side failure switch.
const STAND_IN_FAMILIES = FAMILIES.filter((t) => t !== "sandbox_oauth");

const rand = () => randomBytes(4).toString("hex");

async function status(api: APIRequestContext, link: Link) {
  const res = await api.get(`/v1/connections/auth-links/${link.id}/status`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function connectionsOf(api: APIRequestContext, type: string, externalId: string) {
  const res = await api.get(`/v1/connections?type=${type}&external_id=${encodeURIComponent(externalId)}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: string; external_id: string; display_name: string; is_private: boolean }[];
}

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await apiAs((await seedTeam()).users[0]);
});

for (const type of FAMILIES) {
  test.describe(`${type}: OAuth through an auth link`, () => {
    test("success: one connection, verified account, redirect parameters appended with the service_ prefix", async () => {
      const externalId = `client-${rand()}`;
      const link = await createLink(api, {
        connection_type: type,
        external_id: externalId,
        redirect_url: "https://client.example.com/done?status=keep&step=2#section",
      });
      const location = await connect(link, type, { account: `acct_${rand()}` });

      // The caller's query kept as it was, the results appended, the fragment last.
      expect(location.startsWith("https://client.example.com/done?status=keep&step=2&")).toBe(true);
      expect(location.endsWith("#section")).toBe(true);
      const p = paramsOf(location);
      expect(p.status).toBe("keep");
      expect(p.service_status).toBe("success");
      expect(p.connection_type).toBe(type);
      expect(p.external_id).toBe(externalId);
      expect(p.connection_id).toMatch(/^conn_/);

      const s = await status(api, link);
      expect(s).toMatchObject({
        id: link.id,
        status: "connected",
        connection_type: type,
        connection_id: p.connection_id,
        external_id: externalId,
      });
      expect(s.consumed_at).toEqual(expect.any(Number));
      expect(s.connections).toHaveLength(1);
      expect(s.connections[0]).toMatchObject({ id: p.connection_id, type, external_id: externalId, is_private: false });
      expect(s.connections[0].display_name).toBeTruthy();

      const got = await api.get(`/v1/connections/${p.connection_id}`);
      expect(got.status()).toBe(200);
      const [conn] = await got.json();
      expect(conn.created_at).toBeGreaterThan(1e12); // milliseconds
      expect(await connectionsOf(api, type, externalId)).toHaveLength(1);
    });

    test("denial: error redirect with access_denied, the link stays pending and a retry connects", async () => {
      const link = await createLink(api, { connection_type: type, redirect_url: "https://client.example.com/cb" });
      const denied = paramsOf(await connect(link, type, { decision: "deny" }));
      expect(denied).toMatchObject({ status: "error", error: "access_denied", connection_type: type });
      expect(denied.error_description).toBeTruthy();
      expect(denied.connection_id).toBeUndefined();
      expect((await status(api, link)).status).toBe("pending");

      const retried = paramsOf(await connect(link, type, { account: `acct_${rand()}` }));
      expect(retried.status).toBe("success");
      expect((await status(api, link)).status).toBe("connected");
    });

    test("an invalid code is a provider_error carrying the provider's reason, and the link stays pending", async () => {
      const link = await createLink(api, { connection_type: type, redirect_url: "https://client.example.com/cb" });
      const cb = new URL(
        await authorize(
          await start(link, { shop: type === "shopify" ? shopFor("acct_default") : undefined }),
          type === "shopify" ? { shop: shopFor("acct_default") } : {},
        ),
      );
      for (const name of ["code", "auth_code"]) if (cb.searchParams.has(name)) cb.searchParams.set(name, "not-a-code");
      if (type === "shopify") {
        // Shopify signs its callback; a changed code breaks the signature before any token call.
        const p = paramsOf(await callback(cb.toString()));
        expect(p).toMatchObject({ status: "error", error: "provider_error" });
        expect(p.error_description).toMatch(/hmac|signature/i);
      } else {
        const p = paramsOf(await callback(cb.toString()));
        expect(p).toMatchObject({ status: "error", error: "provider_error" });
        expect(p.error_description.length).toBeGreaterThan(20);
      }
      expect((await status(api, link)).status).toBe("pending");
    });

    test("a replayed callback (the same state twice) connects once; the replay exchanges nothing and tells the same success", async () => {
      const link = await createLink(api, { connection_type: type, redirect_url: "https://client.example.com/cb" });
      const shop = type === "shopify" ? shopFor(`acct_${rand()}`) : undefined;
      const cb = await authorize(await start(link, { shop }), { account: shop ? undefined : `acct_${rand()}`, shop });
      const first = paramsOf(await callback(cb));
      expect(first.status).toBe("success");
      // What Back → Approve sends: the account is connected through this link, and that stands.
      expect(paramsOf(await callback(cb))).toEqual(first);
      expect((await status(api, link)).connections).toHaveLength(1);
    });

    test("20 concurrent callbacks for one link create exactly one connection", async () => {
      const externalId = `race-${rand()}`;
      const link = await createLink(api, {
        connection_type: type,
        external_id: externalId,
        redirect_url: "https://client.example.com/cb",
      });
      // 20 people (or tabs) pressed Continue and approved; all their callbacks land at once.
      const callbacks = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const account = `acct_${rand()}_${i}`;
          const shop = type === "shopify" ? shopFor(account) : undefined;
          return authorize(await start(link, { shop }), { account, shop });
        }),
      );
      const results = (await Promise.all(callbacks.map((cb) => callback(cb)))).map(paramsOf);
      expect(results.filter((r) => r.status === "success")).toHaveLength(1);
      expect(results.filter((r) => r.status === "error" && r.error === "link_used")).toHaveLength(19);
      const s = await status(api, link);
      expect(s.status).toBe("connected");
      const made = await connectionsOf(api, type, externalId);
      expect(made.map((c) => c.id)).toEqual([s.connection_id]);
    });
  });
}

for (const type of STAND_IN_FAMILIES) {
  test(`${type}: a provider error on the authorize redirect or the token endpoint is provider_error; the link stays pending`, async () => {
    const link = await createLink(api, {
      connection_type: type,
      redirect_url: "https://client.example.com/cb?error=mine",
    });
    const viaRedirect = paramsOf(await connect(link, type, { decision: "error" }));
    // The caller's URL already has `error`: ours comes prefixed.
    expect(viaRedirect).toMatchObject({ error: "mine", service_error: "provider_error", status: "error" });
    const viaToken = paramsOf(await connect(link, type, { tokenFailure: "server_error", account: `acct_${rand()}` }));
    expect(viaToken).toMatchObject({ service_error: "provider_error", status: "error" });
    expect(viaToken.error_description).toBeTruthy();
    expect((await status(api, link)).status).toBe("pending");
  });
}

test.describe("link states", () => {
  test("an expired link: the connect page says so, Continue is refused and a callback in flight is link_expired", async () => {
    const link = await createLink(api, { connection_type: "ga4", redirect_url: "https://client.example.com/cb" });
    const inFlight = await authorize(await start(link), { account: `acct_${rand()}` });
    await seed("expireAuthLink", { id: link.id });

    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("This link has expired");
    const refused = new URL(await start(link));
    expect(refused.pathname).toBe(new URL(link.url).pathname);
    expect(refused.searchParams.get("error")).toBe("link_expired");

    expect(paramsOf(await callback(inFlight))).toMatchObject({ status: "error", error: "link_expired" });
    expect((await status(api, link)).status).toBe("expired");
    expect((await status(api, link)).connections).toEqual([]);
  });

  test("a used link: the connect page says so and a second approval is link_used", async () => {
    const link = await createLink(api, { connection_type: "sandbox_oauth" });
    const second = await authorize(await start(link), { account: `second_${rand()}` });
    const done = await connect(link, "sandbox_oauth", { account: `first_${rand()}` });
    // Without a redirect_url the browser lands on our own result page.
    expect(done).toBe(`${link.url}?status=success`);
    const success = await fetch(done);
    expect(await success.text()).toContain("connected");

    const page = await (await fetch(link.url)).text();
    expect(page).toContain("This link was already used");
    const again = new URL(await callback(second));
    expect(again.searchParams.get("error")).toBe("link_used");
    expect(again.toString().startsWith(link.url)).toBe(true);
  });

  test("Back → Approve at the provider: the callback says what happened, and where to go on", async () => {
    // Connected, then the same sign-in answered again (the first answer cleared the cookie): the
    // success stands and is sent again, nothing is exchanged or connected twice.
    const link = await createLink(api, {
      connection_type: "sandbox_oauth",
      redirect_url: "https://client.example.com/cb",
    });
    const authorizeUrl = await start(link);
    const done = paramsOf(await callback(await authorize(authorizeUrl, { account: `back_${rand()}` })));
    expect(done).toMatchObject({ status: "success" });
    const again = await callback(await authorize(authorizeUrl, { account: `back_${rand()}` }), { browser: "other" });
    expect(paramsOf(again)).toEqual(done);
    expect((await status(api, link)).connections.map((c: { id: string }) => c.id)).toEqual([done.connection_id]);
    // Without a redirect_url, the link's own page says it is already connected.
    const own = await createLink(api, { connection_type: "sandbox_oauth" });
    const ownAuthorize = await start(own);
    expect(await callback(await authorize(ownAuthorize))).toBe(`${own.url}?status=success`);
    const ownAgain = await callback(await authorize(ownAuthorize), { browser: "other" });
    expect(ownAgain).toBe(`${own.url}?status=already_connected`);
    expect(await (await fetch(ownAgain)).text()).toContain("already connected");

    // Denied, then Approve on the same provider page: nothing is connected; the link's page
    // (with Continue) says the sign-in was already answered, and how.
    const denied = await createLink(api, {
      connection_type: "sandbox_oauth",
      redirect_url: "https://client.example.com/cb",
    });
    const deniedAuthorize = await start(denied);
    expect(paramsOf(await callback(await authorize(deniedAuthorize, { decision: "deny" })))).toMatchObject({
      status: "error",
      error: "access_denied",
    });
    const answered = new URL(await callback(await authorize(deniedAuthorize), { browser: "other" }));
    expect(answered.toString().startsWith(denied.url)).toBe(true);
    expect(answered.searchParams.get("error_description")).toBe(
      "This sign-in was already answered (access was denied at Sandbox), so answering it again at Sandbox changed nothing.",
    );
    expect((await (await fetch(answered)).text()).replaceAll("<!-- -->", "")).toContain("Continue to Sandbox");
    expect(await status(api, denied)).toMatchObject({ status: "pending", connection_id: null });

    // A sign-in whose 30 minutes ran out is sent back to the link's page too, not blamed on another browser.
    const slow = await createLink(api, { connection_type: "sandbox_oauth" });
    const slowCallback = await authorize(await start(slow));
    await seed("ageOAuthAttempts", { authLink: slow.id, minutes: 31 });
    const late = new URL(await callback(slowCallback, { browser: "other" }));
    expect(late.toString().startsWith(slow.url)).toBe(true);
    expect(late.searchParams.get("error_description")).toContain("took more than 30 minutes");
    expect((await status(api, slow)).status).toBe("pending");
  });

  test("an unknown link and a forged state get clear pages, not errors", async () => {
    const unknown = await fetch(`${process.env.APP_URL}/connect/${"x".repeat(32)}`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain("This link isn");

    const link = await createLink(api, { connection_type: "sandbox_oauth" });
    const cb = new URL(await authorize(await start(link)));
    cb.searchParams.set("state", `${cb.searchParams.get("state")!.slice(0, -4)}AAAA`);
    const forged = new URL(await callback(cb.toString()));
    expect(forged.pathname).toBe("/connect");
    expect(forged.searchParams.get("error")).toBe("invalid_request");
    const page = await fetch(forged);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("didn");
    expect((await status(api, link)).status).toBe("pending");
  });

  test("the connect page names the team, the provider and the access requested", async () => {
    const link = await createLink(api, { connection_type: "ga4" });
    // React separates adjacent text with <!-- --> comments.
    const html = (await (await fetch(link.url)).text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Test team");
    expect(html).toContain("Connect your Google Analytics 4 account");
    expect(html).toContain("Continue to Google");
    expect(html).toMatch(/expires in 2[34] h/);
    const shopify = await (await fetch((await createLink(api, { connection_type: "shopify" })).url)).text();
    expect(shopify).toContain('name="shop"');
  });

  test("a private link makes a private connection of the link's creator", async () => {
    const team = await seedTeam({ members: 2 });
    const [owner, other] = [await apiAs(team.users[0]), await apiAs(team.users[1])];
    const link = await createLink(owner, { connection_type: "hubspot", is_private: true });
    await connect(link, "hubspot", { account: `hub_${rand()}` });
    const s = await status(owner, link);
    expect(s.connections[0].is_private).toBe(true);
    await expectError(await other.get(`/v1/connections/${s.connection_id}`), 404);
  });

  test("the same account connected again through a new link replaces the connection in place", async () => {
    const account = `acct_${rand()}`;
    const first = await createLink(api, { connection_type: "slack", redirect_url: "https://client.example.com/cb" });
    const second = await createLink(api, { connection_type: "slack", redirect_url: "https://client.example.com/cb" });
    const a = paramsOf(await connect(first, "slack", { account }));
    const b = paramsOf(await connect(second, "slack", { account }));
    expect(b.connection_id).toBe(a.connection_id);
    expect((await status(api, second)).status).toBe("connected");
  });
});

test.describe("the sandbox grants the scopes it is asked for", () => {
  const note = (token: string) =>
    fetch(`${process.env.APP_URL}/sandbox/api/note`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ note: "from the scope test" }),
    });
  const report = (token: string) =>
    fetch(`${process.env.APP_URL}/sandbox/api/report?metric=sessions&days=1`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const connectionOf = async (location: string) => {
    const p = paramsOf(location);
    expect(p.service_status ?? p.status, location).toBe("success");
    return await seed<{ accessToken: string; refreshToken: string; scope: string | null }>("oauthTokens", {
      id: p.connection_id,
    });
  };

  test("the link asks for sandbox.write, the sandbox's consent page names it, and the grant can set the note", async () => {
    const link = await createLink(api, {
      connection_type: "sandbox_oauth",
      redirect_url: "https://client.example.com/cb",
    });
    const authorizeUrl = await start(link);
    expect(new URL(authorizeUrl).searchParams.get("scope")).toBe("sandbox.read sandbox.write");
    const page = await (await fetch(authorizeUrl)).text();
    expect(page).toContain("Change your sandbox account&#39;s note");
    expect(page).toContain("<code>sandbox.write</code>");
    const tokens = await connectionOf(await callback(await authorize(authorizeUrl, { account: `writer_${rand()}` })));
    expect(tokens.scope).toBe("sandbox.read sandbox.write");
    expect((await note(tokens.accessToken)).status).toBe(200);
  });

  test("a grant of sandbox.read alone reads but may not set the note, also after a refresh", async () => {
    const link = await createLink(api, {
      connection_type: "sandbox_oauth",
      redirect_url: "https://client.example.com/cb",
    });
    const readOnly = new URL(await start(link));
    readOnly.searchParams.set("scope", "sandbox.read");
    expect(await (await fetch(readOnly)).text()).not.toContain("sandbox.write");
    const tokens = await connectionOf(
      await callback(await authorize(readOnly.toString(), { account: `reader_${rand()}` })),
    );
    expect(tokens.scope).toBe("sandbox.read");
    expect((await report(tokens.accessToken)).status).toBe(200);
    const refused = await note(tokens.accessToken);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "insufficient_scope" });

    const refreshed = await fetch(`${process.env.APP_URL}/sandbox/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: tokens.refreshToken,
        client_id: "sandbox-client",
        client_secret: "sandbox-secret",
      }),
    });
    const body = (await refreshed.json()) as { access_token: string; scope: string };
    expect(body.scope).toBe("sandbox.read");
    expect((await note(body.access_token)).status).toBe(403);
  });

  test("an unknown scope is refused with invalid_scope on the redirect, as RFC 6749 has it", async () => {
    const link = await createLink(api, { connection_type: "sandbox_oauth" });
    const url = new URL(await start(link));
    url.searchParams.set("scope", "sandbox.read sandbox.admin");
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(back.pathname).toBe("/oauth/callback");
    expect(back.searchParams.get("error")).toBe("invalid_scope");
    expect(back.searchParams.get("error_description")).toContain("sandbox.admin");
  });
});

test.describe("token refresh", () => {
  test("an expiring access token is refreshed when used; a refused refresh marks the connection for re-authorization", async () => {
    const team = await seedTeam();
    const owner = await apiAs(team.users[0]);
    const account = `acct_${rand()}`;
    const link = await createLink(owner, { connection_type: "ga4" });
    await connect(link, "ga4", { account });
    const { connection_id: id } = await status(owner, link);

    const before = await seed("oauthTokens", { id });
    expect(before.accessToken).toBeTruthy();
    expect(before.refreshToken).toBeTruthy();
    // Not expiring: used as is.
    expect((await seed("freshCredentials", { team: team.id, id })).ok.tokens.accessToken).toBe(before.accessToken);

    await seed("oauthTokens", { id, expire: true });
    const refreshed = (await seed("freshCredentials", { team: team.id, id })).ok.tokens;
    expect(refreshed.accessToken).not.toBe(before.accessToken);
    expect(refreshed.expiresAt).toBeGreaterThan(Date.now());
    expect((await seed("oauthTokens", { id })).accessToken).toBe(refreshed.accessToken);

    await seed("oauthTokens", { id, expire: true, refreshToken: "bad_revoked" });
    const refused = await seed("freshCredentials", { team: team.id, id });
    expect(refused.error.status).toBe(409);
    expect(refused.error.detail).toContain("invalid_grant");
    expect((await seed("oauthTokens", { id })).needsReauthAt).toBeTruthy();

    // Re-authorizing the same account through a new link clears it.
    await connect(await createLink(owner, { connection_type: "ga4" }), "ga4", { account });
    expect((await seed("oauthTokens", { id })).needsReauthAt).toBeNull();
    expect((await seed("freshCredentials", { team: team.id, id })).ok.kind).toBe("oauth");
  });
});

test.describe("OAuth apps come from configuration", () => {
  test("without OAUTH_* settings a white-label type offers no oauth, an OAuth-only type is not listed, and an auth link says which setting is missing", async () => {
    const port = await freePort();
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^OAUTH_/.test(k)),
    ) as NodeJS.ProcessEnv;
    const server = await startServer(port, {
      ...env,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      WORKFLOW_RUNNER: "off",
    });
    try {
      const key = (await seedTeam()).users[0].key;
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const types = (await (await fetch(`${server.baseUrl}/v1/connections/types`, { headers })).json()) as {
        type: string;
        auth_methods: string[];
      }[];
      const byType = Object.fromEntries(types.map((t) => [t.type, t.auth_methods]));
      expect(byType.ga4).toEqual(["manual"]);
      expect(byType.linkedin_ads).toBeUndefined();
      expect(byType.sandbox_oauth).toEqual(["oauth"]); // the sandbox's app is built in
      const res = await fetch(`${server.baseUrl}/v1/connections/auth-link`, {
        method: "POST",
        headers,
        body: JSON.stringify({ connection_type: "ga4" }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toContain("OAUTH_GOOGLE_CLIENT_ID");
    } finally {
      await server.stop();
    }
  });
});

test("the redirect URI and the authorize URL are the provider's, with PKCE where the provider supports it", async () => {
  const link = await createLink(api, { connection_type: "ga4" });
  const authorizeUrl = new URL(await start(link));
  expect(authorizeUrl.pathname).toBe("/o/oauth2/v2/auth");
  expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${process.env.APP_URL}/oauth/callback`);
  expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(authorizeUrl.searchParams.get("state")).toMatch(/^oa_/);
  expect(authorizeUrl.searchParams.get("scope")).toContain("https://www.googleapis.com/auth/analytics.readonly");
  const anon = await anonymous();
  await expectError(await anon.post("/v1/connections/auth-link", { data: { connection_type: "ga4" } }), 401);
});
