import { createHash } from "node:crypto";
import type { Browser } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { test, expect, seed, apiAs, baseURL, type SeededTeam } from "../fixtures";
import { PASSWORD, seedTeamWithPasswords } from "../support/browser";
import { sessionAs } from "../support/session";
import { startExtraServer } from "../support/extra-server";
import { startInstance } from "../support/instances";
import { inDatabase } from "../support/in-database";
import {
  TestClientProvider,
  authorizeUrl,
  consentInBrowser,
  launchChromium,
  loopbackRedirect,
  mcpStatus,
  pkce,
  register,
  revoke,
  signInOn,
  startCallbackReceiver,
  startDocumentServer,
  tokenRequest,
} from "../support/mcp-oauth";

// CONTRACT §10: the MCP endpoint as an OAuth 2.1 resource server and Patchbay as its
// authorization server, driven by the official SDK client's own OAuth support, the consent page
// in Chromium, and raw requests for what a well-behaved client would never send.

let browser: Browser;
test.beforeAll(async () => {
  await startCallbackReceiver();
  browser = await launchChromium();
});
test.afterAll(async () => {
  await browser?.close();
});

const mcpUrl = () => new URL("/mcp", baseURL());

async function sandboxConnection(team: SeededTeam, name: string, user = team.users[0], extra: object = {}) {
  const res = await (
    await apiAs(user)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}` }, ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string };
}

/** The whole flow through the SDK client: 401, discovery, registration, consent, token. */
async function connectWithSdk(provider: TestClientProvider, email: string) {
  const first = new Client({ name: provider.name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.authorizationUrl, "the SDK sent the person to the authorization endpoint").toBeDefined();
  const page = await (await browser.newContext()).newPage();
  const back = await consentInBrowser(page, provider.authorizationUrl!.toString(), provider.redirectUrl, email);
  expect(back.searchParams.get("iss")).toBe(baseURL());
  await transport.finishAuth(back.searchParams.get("code")!);
  const client = new Client({ name: provider.name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  return { client, page };
}

/** A grant made over HTTP (a session posting the consent form): code, verifier, client. */
async function grantOverHttp(
  team: SeededTeam,
  user = team.users[0],
  decision: Record<string, string | string[]> = {},
  redirect = loopbackRedirect(),
) {
  const reg = await register({ redirect_uris: [redirect], client_name: "HTTP client" });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const { verifier, challenge } = pkce();
  const session = await sessionAs(user.email, PASSWORD, team.id);
  const form = new URLSearchParams({
    response_type: "code",
    client_id: reg.body.client_id,
    redirect_uri: redirect,
    state: "st",
    code_challenge: challenge,
    code_challenge_method: "S256",
    decision: "allow",
    team_id: team.id,
    server: "new",
    name: "HTTP client",
    write_policy: "off",
  });
  for (const [k, v] of Object.entries(decision)) {
    form.delete(k);
    for (const one of [v].flat()) form.append(k, one);
  }
  const res = await session.post("/oauth/consent", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: form.toString(),
    maxRedirects: 0,
  });
  expect(res.status()).toBe(303);
  const location = new URL(res.headers()["location"]);
  return { location, verifier, clientId: reg.body.client_id as string, redirect, session };
}

async function tokensFor(team: SeededTeam, user = team.users[0]) {
  const g = await grantOverHttp(team, user);
  const res = await tokenRequest({
    grant_type: "authorization_code",
    code: g.location.searchParams.get("code")!,
    redirect_uri: g.redirect,
    client_id: g.clientId,
    code_verifier: g.verifier,
    resource: `${baseURL()}/mcp`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...g, tokens: res.body as { access_token: string; refresh_token: string; expires_in: number } };
}

test.describe("discovery", () => {
  test("every 401 of /mcp names the resource metadata, which names Patchbay as the authorization server", async () => {
    const none = await fetch(mcpUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(none.status).toBe(401);
    const metadataUrl = `${baseURL()}/.well-known/oauth-protected-resource/mcp`;
    expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    for (const token of ["pbo_" + "x".repeat(40), "pbm_" + "y".repeat(40), "nonsense"]) {
      const bad = await mcpStatus(token);
      expect(bad.status).toBe(401);
      expect(bad.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", error="invalid_token"`);
    }
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const prm = await (await fetch(new URL(path, baseURL()))).json();
      expect(prm).toMatchObject({ resource: `${baseURL()}/mcp`, authorization_servers: [baseURL()] });
    }
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const res = await fetch(new URL(path, baseURL()));
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toMatchObject({
        issuer: baseURL(),
        authorization_endpoint: `${baseURL()}/oauth/authorize`,
        token_endpoint: `${baseURL()}/oauth/token`,
        registration_endpoint: `${baseURL()}/oauth/register`,
        revocation_endpoint: `${baseURL()}/oauth/revoke`,
        response_types_supported: expect.arrayContaining(["code"]),
        grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token"]),
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: expect.arrayContaining(["none"]),
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
    }
  });

  test("registration echoes the client; bad metadata is refused with RFC 7591 errors", async () => {
    const ok = await register({
      redirect_uris: ["http://127.0.0.1:1234/cb", "https://app.example/cb"],
      client_name: "Echo",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "anything",
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      client_id: expect.stringMatching(/^ocl_/),
      redirect_uris: ["http://127.0.0.1:1234/cb", "https://app.example/cb"],
      client_name: "Echo",
      token_endpoint_auth_method: "none",
    });
    for (const [body, error, words] of [
      [{ client_name: "x" }, "invalid_redirect_uri", "redirect_uris"],
      [{ redirect_uris: ["http://evil.example/cb"] }, "invalid_redirect_uri", "https"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri", "javascript"],
      [{ redirect_uris: ["https://a.example/cb#frag"] }, "invalid_redirect_uri", "fragment"],
      [{ redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] }, "invalid_client_metadata", ""],
      [[1, 2], "invalid_client_metadata", "object"],
    ] as const) {
      const res = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.detail).toContain(words);
    }
  });
});

test.describe("the SDK client's own OAuth flow", () => {
  test("by Dynamic Client Registration: consent, tools, a logged call, refresh, revoke", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth DCR", members: 2 });
    const [owner, member] = team.users;
    const shared = await sandboxConnection(team, "shared");
    const mine = await sandboxConnection(team, "mine", member, { is_private: true });
    const theirs = await sandboxConnection(team, "theirs", owner, { is_private: true });
    const provider = new TestClientProvider(loopbackRedirect(), "Claude (test)");
    const { client } = await connectWithSdk(provider, member.email);
    expect(provider.info?.client_id).toMatch(/^ocl_/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("list_connections");
    // The default server: hers, private, every connection she can see (not the owner's private one).
    const listed = await client.callTool({ name: "list_connections", arguments: {} });
    const ids = (listed.structuredContent as { connections: { id: string }[] }).connections.map((c) => c.id);
    expect(ids.sort()).toEqual([shared.id, mine.id].sort());
    expect(ids).not.toContain(theirs.id);
    const api = await apiAs(member);
    const logs = (await (await api.get("/v1/logs?limit=10")).json()).data;
    const call = logs.find((l: { operation_id: string }) => l.operation_id === "mcp.list_connections");
    expect(call).toMatchObject({ source: { type: "mcp", name: "Claude (test)" }, user: { id: member.id } });
    const ledger = (await (await api.get(`/v1/credits/logs?service_id=${call.source.id}`)).json()).data;
    expect(ledger[0]).toMatchObject({ service: { type: "mcp", id: call.source.id }, user: { id: member.id } });

    // Refresh through the SDK: a new pair; the old refresh token is spent.
    const before = provider.saved!;
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: before.refresh_token!,
      client_id: provider.info!.client_id,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(before.refresh_token);
    provider.saveTokens(refreshed.body);
    expect((await mcpStatus(refreshed.body.access_token)).status).toBe(200);

    // Revoke: every token of the grant stops at once.
    expect(await revoke(refreshed.body.refresh_token)).toBe(200);
    const after = await mcpStatus(refreshed.body.access_token);
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    const again = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refreshed.body.refresh_token,
      client_id: provider.info!.client_id,
    });
    expect(again.body.error).toBe("invalid_grant");
    expect(await revoke("pbr_unknown")).toBe(200);
  });

  test("by a Client ID Metadata Document served over https: the consent page says it is verified", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth CIMD" });
    await sandboxConnection(team, "one");
    const redirect = loopbackRedirect();
    const docs = await startDocumentServer((path) => ({
      body: JSON.stringify({
        client_id: `${docsOrigin}${path}`,
        client_name: "Doc Client",
        redirect_uris: [redirect],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    }));
    const docsOrigin = docs.origin;
    try {
      const provider = new TestClientProvider(redirect, "Doc Client", `${docs.origin}/client.json`);
      const first = new Client({ name: "doc", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
      await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.authorizationUrl!.searchParams.get("client_id")).toBe(`${docs.origin}/client.json`);
      const page = await (await browser.newContext()).newPage();
      const back = await consentInBrowser(
        page,
        provider.authorizationUrl!.toString(),
        redirect,
        team.users[0].email,
        "Allow",
        async (p) => {
          await expect(p.getByText("Verified: its metadata document at")).toBeVisible();
          await expect(p.getByRole("heading", { level: 1 })).toHaveText("Allow Doc Client to use Patchbay?");
        },
      );
      await transport.finishAuth(back.searchParams.get("code")!);
      const client = new Client({ name: "doc", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      // The document is kept as its Cache-Control says: fetched once for the whole flow.
      expect(docs.hits).toEqual(["/client.json"]);
    } finally {
      await docs.close();
    }
  });
});

test.describe("consent", () => {
  test("a signed-out visitor signs in and comes back; Deny returns access_denied with state and iss", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Deny" });
    const redirect = loopbackRedirect();
    const reg = await register({ redirect_uris: [redirect], client_name: "Denied" });
    const { challenge } = pkce();
    const page = await (await browser.newContext()).newPage();
    const url = authorizeUrl({
      client_id: reg.body.client_id,
      redirect_uri: redirect,
      state: "s-1",
      code_challenge: challenge,
    });
    const back = await consentInBrowser(page, url, redirect, team.users[0].email, "Deny");
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: "access_denied",
      state: "s-1",
      iss: baseURL(),
    });
    expect(back.searchParams.get("code")).toBeNull();
  });

  test("the consent page works from the keyboard alone, on a phone's width", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Keys" });
    await sandboxConnection(team, "keyed");
    const redirect = loopbackRedirect();
    const reg = await register({ redirect_uris: [redirect], client_name: "Keyboard client" });
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    const url = authorizeUrl({
      client_id: reg.body.client_id,
      redirect_uri: redirect,
      code_challenge: pkce().challenge,
    });
    await page.goto(url);
    await signInOn(page, team.users[0].email);
    await page.waitForURL(/\/oauth\/authorize/);
    const allow = page.getByRole("button", { name: "Allow", exact: true });
    for (let i = 0; i < 30 && !(await allow.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await expect(allow).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.toString().startsWith(redirect));
    expect(new URL(page.url()).searchParams.get("code")).toBeTruthy();
  });

  test("a member cannot choose writes without approval; an owner can", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Policy", members: 2 });
    const refused = await grantOverHttp(team, team.users[1], { write_policy: "allowed" });
    expect(refused.location.pathname).toBe("/oauth/authorize");
    expect(refused.location.searchParams.get("consent_error")).toContain("Only a team owner");
    const page = await (await browser.newContext()).newPage();
    const reg = await register({ redirect_uris: [loopbackRedirect()], client_name: "Policy" });
    const { challenge } = pkce();
    const url = authorizeUrl({
      client_id: reg.body.client_id,
      redirect_uri: reg.body.redirect_uris[0],
      code_challenge: challenge,
    });
    await page.goto(url);
    await signInOn(page, team.users[1].email);
    await page.waitForURL(/\/oauth\/authorize/);
    await expect(page.getByRole("radio", { name: /Allowed without approval/ })).toHaveCount(0);
    await expect(page.getByRole("radio", { name: /^Off/ })).toBeChecked();
    const allowed = await grantOverHttp(team, team.users[0], { write_policy: "allowed" });
    expect(allowed.location.searchParams.get("code")).toBeTruthy();
  });
});

test("Back → Allow: a repeated consent of the same person and client keeps the grant's server and grant", async () => {
  const team = await seedTeamWithPasswords({ name: "OAuth Twice" });
  const redirect = loopbackRedirect();
  const reg = await register({ redirect_uris: [redirect], client_name: "Twice AI" });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const headers = { "x-patchbay-team": team.id };
  // The same form posted twice, as the browser does after Back: a new server of the app's name.
  const allow = async () => {
    const { verifier, challenge } = pkce();
    const res = await session.post("/oauth/consent", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: new URLSearchParams({
        response_type: "code",
        client_id: reg.body.client_id,
        redirect_uri: redirect,
        state: "again",
        code_challenge: challenge,
        code_challenge_method: "S256",
        decision: "allow",
        team_id: team.id,
        server: "new",
        name: "Twice AI",
        write_policy: "off",
      }).toString(),
      maxRedirects: 0,
    });
    expect(res.status()).toBe(303);
    const code = new URL(res.headers()["location"]).searchParams.get("code")!;
    expect(code).toBeTruthy();
    return { code, verifier };
  };
  const exchange = async ({ code, verifier }: { code: string; verifier: string }) => {
    const res = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      client_id: reg.body.client_id,
      code_verifier: verifier,
      resource: `${baseURL()}/mcp`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.access_token as string;
  };
  const first = await exchange(await allow());
  const second = await exchange(await allow());
  const servers = (await (await session.get("/api/dashboard/mcp-servers", { headers })).json()).data as {
    id: string;
    name: string;
  }[];
  expect(servers.map((s) => s.name)).toEqual(["Twice AI"]);
  const apps = (await (await session.get(`/api/dashboard/mcp-servers/${servers[0].id}/apps`, { headers })).json())
    .data as { id: string }[];
  expect(apps).toHaveLength(1);
  // Both answers' tokens act through that one grant.
  expect((await mcpStatus(first)).status).toBe(200);
  expect((await mcpStatus(second)).status).toBe(200);
  // The page asked again says so, and offers that server rather than a new one.
  const page = await (
    await session.get(
      `/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: reg.body.client_id,
        redirect_uri: redirect,
        state: "third",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
      })}`,
    )
  )
    .text()
    .then((html) => html.replaceAll("<!-- -->", "")); // React's separators between text and values
  expect(page).toContain("You already allowed Twice AI on Twice AI: allowing it again keeps that server");
  expect(page).not.toContain("A new MCP server, private to you");
});

test.describe("refusals", () => {
  test("authorize: no PKCE, plain, another resource go back with the error; unknown clients and redirect URIs stay here", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Strict" });
    // Signed in: the error goes back to the client (a signed-out visitor sees it here, oauth-review.spec.ts).
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const redirect = loopbackRedirect();
    const reg = await register({ redirect_uris: [redirect], client_name: "Strict" });
    const { challenge } = pkce();
    const go = (params: Record<string, string | undefined>) =>
      fetch(authorizeUrl({ client_id: reg.body.client_id, redirect_uri: redirect, state: "z", ...params }), {
        redirect: "manual",
      });
    for (const [params, error] of [
      [{}, "invalid_request"],
      [{ code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: challenge, resource: "https://other.example/mcp" }, "invalid_target"],
    ] as const) {
      const res = await session.get(
        authorizeUrl({ client_id: reg.body.client_id, redirect_uri: redirect, state: "z", ...params }),
        { maxRedirects: 0 },
      );
      expect(res.status(), JSON.stringify(params)).toBeGreaterThanOrEqual(300);
      expect(res.status()).toBeLessThan(400);
      const to = new URL(res.headers()["location"]);
      expect(`${to.origin}${to.pathname}`).toBe(redirect);
      expect(Object.fromEntries(to.searchParams)).toMatchObject({ error, state: "z", iss: baseURL() });
    }
    for (const params of [
      { client_id: "ocl_nobody", code_challenge: challenge },
      { redirect_uri: "http://127.0.0.1:1/elsewhere", code_challenge: challenge },
      { redirect_uri: "https://evil.example/cb", code_challenge: challenge },
    ]) {
      const res = await go(params);
      expect(res.status, JSON.stringify(params)).toBe(200);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toMatch(/not known here|not registered/);
    }
  });

  test("token: a wrong verifier, redirect URI or client is invalid_grant; a replayed code revokes what it issued", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Codes" });
    const g = await grantOverHttp(team);
    const code = g.location.searchParams.get("code")!;
    expect(g.location.searchParams.get("iss")).toBe(baseURL());
    expect(g.location.searchParams.get("state")).toBe("st");
    const base = { grant_type: "authorization_code", code, redirect_uri: g.redirect, client_id: g.clientId };
    for (const wrong of [
      { code_verifier: pkce().verifier },
      { code_verifier: g.verifier, redirect_uri: "http://127.0.0.1:2/other" },
      { code_verifier: g.verifier, client_id: "ocl_other" },
    ]) {
      const res = await tokenRequest({ ...base, ...wrong });
      expect(res.status, JSON.stringify(wrong)).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
    const target = await tokenRequest({ ...base, code_verifier: g.verifier, resource: "https://other.example/mcp" });
    expect(target.body.error).toBe("invalid_target");
    const first = await tokenRequest({ ...base, code_verifier: g.verifier });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect((await mcpStatus(first.body.access_token)).status).toBe(200);
    const replay = await tokenRequest({ ...base, code_verifier: g.verifier });
    expect(replay.body.error).toBe("invalid_grant");
    expect((await mcpStatus(first.body.access_token)).status).toBe(401);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: first.body.refresh_token,
      client_id: g.clientId,
    });
    expect(refresh.body.error).toBe("invalid_grant");
    const unsupported = await tokenRequest({ grant_type: "password" });
    expect(unsupported.body.error).toBe("unsupported_grant_type");
  });

  test("a reused refresh token revokes the grant", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Reuse" });
    const { tokens, clientId } = await tokensFor(team);
    // A public client naming itself by HTTP Basic (as confidential clients do) is read the same.
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:`).toString("base64")}`;
    const next = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }, baseURL(), {
      authorization: basic,
    });
    expect(next.status).toBe(200);
    const otherClient = `Basic ${Buffer.from("ocl_someone_else:").toString("base64")}`;
    const wrong = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: next.body.refresh_token },
      baseURL(),
      { authorization: otherClient },
    );
    expect(wrong.body.error).toBe("invalid_grant");
    const reuse = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await mcpStatus(next.body.access_token)).status).toBe(401);
    const later = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: next.body.refresh_token,
      client_id: clientId,
    });
    expect(later.body.error).toBe("invalid_grant");
  });

  test("tokens are stored as hashes only; an expired access token or code is refused", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Expiry" });
    const { tokens, clientId: client_id } = await tokensFor(team);
    const stored = await inDatabase<{ hash: string; kind: string }[]>(
      `return db.oAuthToken.findMany({ where: { grant: { teamId: args.team } }, select: { hash: true, kind: true } });`,
      { team: team.id },
    );
    const hashes = stored.map((t) => t.hash);
    for (const raw of [tokens.access_token, tokens.refresh_token]) {
      expect(hashes).not.toContain(raw);
      expect(hashes).toContain(createHash("sha256").update(raw).digest("hex"));
    }
    await inDatabase(
      `await db.oAuthToken.updateMany({ where: { kind: "access", grant: { teamId: args.team } }, data: { expiresAt: new Date(Date.now() - 1000) } });`,
      { team: team.id },
    );
    const expired = await fetch(mcpUrl(), {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(expired.status).toBe(401);
    expect((await expired.json()).detail).toContain("expired");
    // A refresh still works: the grant itself is fine.
    const next = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id });
    expect(next.status).toBe(200);
    expect((await mcpStatus(next.body.access_token)).status).toBe(200);
    const g = await grantOverHttp(team);
    await inDatabase(
      `await db.oAuthToken.updateMany({ where: { kind: "code", grant: { teamId: args.team } }, data: { expiresAt: new Date(Date.now() - 1000) } });`,
      { team: team.id },
    );
    const late = await tokenRequest({
      grant_type: "authorization_code",
      code: g.location.searchParams.get("code")!,
      redirect_uri: g.redirect,
      client_id: g.clientId,
      code_verifier: g.verifier,
    });
    expect(late.body).toMatchObject({ error: "invalid_grant" });
    expect(late.body.detail).toContain("expired");
  });

  test("a member who leaves the team ends the grant at the next request", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Leaver", members: 2 });
    const { tokens, clientId } = await tokensFor(team, team.users[1]);
    expect((await mcpStatus(tokens.access_token)).status).toBe(200);
    await seed("removeMember", { team: team.id, by: team.users[0].id, user: team.users[1].id });
    expect((await mcpStatus(tokens.access_token)).status).toBe(401);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe("invalid_grant");
    // The grant and its end are audit events; the leaver's app is gone from the lists at once.
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const audit = (await (await owner.get("/api/dashboard/audit?limit=50")).json()).data as {
      action: string;
      details: Record<string, unknown>;
    }[];
    expect(audit.find((e) => e.action === "oauth_grant.create")?.details).toMatchObject({ client: "HTTP client" });
    expect(audit.find((e) => e.action === "oauth_grant.revoke")?.details.reason).toContain("no longer in the team");
    const servers = (await (await owner.get("/api/dashboard/mcp-servers")).json()).data as { id: string }[];
    for (const s of servers)
      expect((await (await owner.get(`/api/dashboard/mcp-servers/${s.id}/apps`)).json()).data).toEqual([]);
  });

  test("metadata documents: one offering none among its methods is public; secret-only, foreign or non-JSON ones are refused", async () => {
    const redirect = loopbackRedirect();
    let origin = "";
    const docs = await startDocumentServer((path) => {
      const id = `${origin}${path}`;
      const base = { client_id: id, redirect_uris: [redirect], grant_types: ["authorization_code", "refresh_token"] };
      const bodies: Record<string, object> = {
        // ChatGPT's published document: private_key_jwt, and none among the methods it supports.
        "/chatgpt.json": {
          ...base,
          client_name: "ChatGPT",
          token_endpoint_auth_method: "private_key_jwt",
          token_endpoint_auth_methods_supported: ["none", "private_key_jwt"],
        },
        "/secret.json": { ...base, token_endpoint_auth_method: "client_secret_basic" },
        "/foreign.json": { ...base, client_id: "https://elsewhere.example/client.json" },
      };
      return { body: path in bodies ? JSON.stringify(bodies[path]) : "<html>not json</html>" };
    });
    origin = docs.origin;
    try {
      const { challenge } = pkce();
      const go = (path: string) =>
        fetch(authorizeUrl({ client_id: `${origin}${path}`, redirect_uri: redirect, code_challenge: challenge }), {
          redirect: "manual",
        });
      const ok = await go("/chatgpt.json");
      expect(ok.status).toBe(307);
      expect(ok.headers.get("location")).toContain("/sign-in?callbackUrl=");
      for (const [path, words] of [
        ["/secret.json", "client_secret_basic"],
        ["/foreign.json", "is not its own URL"],
        ["/page.html", "is not JSON"],
      ]) {
        const res = await go(path);
        expect(res.status, path).toBe(200);
        expect(await res.text()).toContain(words);
      }
    } finally {
      await docs.close();
    }
  });

  test("a metadata document on a private address is refused without the development switch", async () => {
    const docs = await startDocumentServer(() => ({ body: "{}" }));
    const strict = await startExtraServer({ WEBHOOK_ALLOW_PRIVATE_URLS: undefined });
    try {
      const { challenge } = pkce();
      const url = authorizeUrl(
        {
          client_id: `${docs.origin}/client.json`,
          redirect_uri: "http://127.0.0.1:3/cb",
          code_challenge: challenge,
        },
        strict.baseUrl,
      );
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("loopback, private, link-local or reserved address");
      expect(docs.hits).toEqual([]);
    } finally {
      await strict.stop();
      await docs.close();
    }
  });

  test("a token for another resource is refused; a revocation on one instance holds on the other at once", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Instances" });
    const { tokens } = await tokensFor(team);
    // Another deployment address on the same database: its resource is another /mcp.
    const other = await startExtraServer({});
    const twin = await startInstance();
    try {
      const foreign = await mcpStatus(tokens.access_token, other.baseUrl);
      expect(foreign.status).toBe(401);
      expect((await mcpStatus(tokens.access_token, twin.baseUrl)).status).toBe(200);
      expect(await revoke(tokens.access_token)).toBe(200);
      expect((await mcpStatus(tokens.access_token, twin.baseUrl)).status).toBe(401);
    } finally {
      await other.stop();
      await twin.stop();
    }
  });

  test("pbm_ tokens keep working beside OAuth", async () => {
    const team = await seedTeamWithPasswords({ name: "OAuth Static" });
    const server = await seed("mcpServer", { team: team.id, name: "static", owner: team.users[0].id });
    const t = await seed("mcpToken", { team: team.id, user: team.users[0].id, server: server.id });
    expect((await mcpStatus(t.token)).status).toBe(200);
  });
});
