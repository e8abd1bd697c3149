import http from "node:http";
import { test, expect, seed, baseURL, type SeededTeam } from "../fixtures";
import { PASSWORD, seedTeamWithPasswords } from "../support/browser";
import { sessionAs } from "../support/session";
import { startExtraServer, type ExtraServer } from "../support/extra-server";
import { inDatabase } from "../support/in-database";
import { rawMcp } from "../support/mcp";
import {
  authorizeUrl,
  loopbackRedirect,
  pkce,
  register,
  startDocumentServer,
  tokenRequest,
} from "../support/mcp-oauth";

// Issue 45, the fifth review's findings on the OAuth server and /mcp (CONTRACT §8, §10), each
// through the route it was found on: 5 (authorize redirects a signed-out visitor anywhere),
// 6 (CIMD fetched and stored without limit), 7 (consent_error from the URL on the consent page),
// 9 (refresh without client_id), 10 (/mcp takes any Origin and Host), and tools/call with
// `arguments` that is not an object.

/** One server with the settings of these tests: a few document fetches a minute, one more allowed origin. */
const ALLOWED = "https://claude.example";
const FETCH_LIMIT = 8;
let extra: ExtraServer;
test.beforeAll(async () => {
  extra = await startExtraServer({
    OAUTH_CLIENT_METADATA_PER_MINUTE: String(FETCH_LIMIT),
    MCP_ALLOWED_ORIGINS: `${ALLOWED}, not an origin`,
    // Its own budget, in its memory: through a shared Redis (the PostgreSQL pass), the other
    // servers' document fetches from 127.0.0.1 in the same minute would count against it.
    REDIS_URL: undefined,
  });
});
test.afterAll(async () => {
  await extra?.stop();
});

async function mcpToken(team: SeededTeam) {
  const server = await seed("mcpServer", { team: team.id, name: "review", owner: team.users[0].id });
  return (await seed("mcpToken", { team: team.id, user: team.users[0].id, server: server.id })).token as string;
}

/** A POST to /mcp with a Host header of our choosing (fetch sets its own). */
function postWithHost(base: string, host: string, token: string) {
  const url = new URL("/mcp", base);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: {
          host,
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The text of the consent page's alert, or null when it shows none. */
const alertText = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? null;

test.describe("finding 5: a signed-out visitor's malformed request stays on Patchbay's page", () => {
  test("no redirect to the client's address, whatever is wrong; the consent POST does the same", async () => {
    const redirect = "https://evil.example/landing";
    const reg = await register({ redirect_uris: [redirect], client_name: "Anonymous" });
    expect(reg.status).toBe(201);
    const { challenge } = pkce();
    const good = { client_id: reg.body.client_id, redirect_uri: redirect, state: "s", code_challenge: challenge };
    for (const [params, error] of [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ state: "x".repeat(2001) }, "invalid_request"],
      [{ resource: "https://other.example/mcp" }, "invalid_target"],
    ] as const) {
      const res = await fetch(authorizeUrl({ ...good, ...params }), { redirect: "manual" });
      const what = JSON.stringify(params).slice(0, 80);
      expect(res.status, what).toBe(200);
      expect(res.headers.get("location"), what).toBeNull();
      const html = await res.text();
      expect(html, what).toContain("This sign-in link is not valid");
      expect(html, what).toContain(`(${error})`);
      expect(html, what).not.toContain("evil.example/landing?");
    }
    // The same request, well formed: the visitor is sent to sign in, on this app.
    const fine = await fetch(authorizeUrl(good), { redirect: "manual" });
    expect(fine.status).toBe(307);
    expect(new URL(fine.headers.get("location")!, baseURL()).pathname).toBe("/sign-in");
    // The consent form posted without a session: back to the authorize page, never the client.
    const posted = await fetch(new URL("/oauth/consent", baseURL()), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(baseURL()).origin },
      body: new URLSearchParams({ ...good, response_type: "token", decision: "deny" }),
      redirect: "manual",
    });
    expect(posted.status).toBe(303);
    const to = new URL(posted.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe(`${baseURL()}/oauth/authorize`);
  });
});

test.describe("finding 6: client metadata documents are fetched within a limit and expire unused", () => {
  test("past the per-address limit nothing is fetched or stored; unused documents are deleted after their cache time", async () => {
    const docs = await startDocumentServer((path) => ({
      body: JSON.stringify({
        client_id: `${docs.origin}${path}`,
        client_name: "Review doc",
        redirect_uris: ["http://127.0.0.1:9/cb"],
        token_endpoint_auth_method: "none",
      }),
    }));
    try {
      const run = `${Date.now()}`;
      const ids = Array.from({ length: FETCH_LIMIT + 12 }, (_, i) => `${docs.origin}/review-${run}/${i}.json`);
      const answers: string[] = [];
      for (const id of ids) {
        const res = await fetch(
          authorizeUrl(
            { client_id: id, redirect_uri: "http://127.0.0.1:9/cb", code_challenge: pkce().challenge },
            extra.baseUrl,
          ),
          { redirect: "manual" },
        );
        const html = await res.text();
        answers.push(res.status === 307 ? "sign-in" : html.includes("Too many apps asked at once") ? "limited" : html);
      }
      expect(answers).toEqual([...Array(FETCH_LIMIT).fill("sign-in"), ...Array(12).fill("limited")]);
      expect(docs.hits).toHaveLength(FETCH_LIMIT);
      const stored = await inDatabase<string[]>(
        `return (await db.oAuthClient.findMany({ where: { id: { in: args.ids } }, select: { id: true } })).map((c) => c.id);`,
        { ids },
      );
      expect(stored.sort()).toEqual(ids.slice(0, FETCH_LIMIT).sort());

      // Two hours past their cache time: one was used by a consent (kept), the rest never (deleted
      // at the next fetch of any document, here through the run's own server).
      await inDatabase(
        `await db.oAuthClient.updateMany({ where: { id: { in: args.ids } }, data: { cachedUntil: new Date(Date.now() - 2 * 3600e3) } });
         await db.oAuthClient.update({ where: { id: args.ids[0] }, data: { usedAt: new Date() } });`,
        { ids: stored },
      );
      const next = `${docs.origin}/review-${run}/next.json`;
      const res = await fetch(
        authorizeUrl({ client_id: next, redirect_uri: "http://127.0.0.1:9/cb", code_challenge: pkce().challenge }),
        { redirect: "manual" },
      );
      expect(res.status).toBe(307);
      const left = await inDatabase<string[]>(
        `return (await db.oAuthClient.findMany({ where: { id: { in: args.ids } }, select: { id: true } })).map((c) => c.id);`,
        { ids: [...ids, next] },
      );
      expect(left.sort()).toEqual([ids[0], next].sort());
    } finally {
      await docs.close();
    }
  });
});

test.describe("finding 7: the consent page shows only refusals Patchbay signed for this request", () => {
  test("a consent_error in the URL is ignored unless signed for the same request and person", async () => {
    const team = await seedTeamWithPasswords({ name: "Review Consent", members: 2 });
    const member = team.users[1];
    const session = await sessionAs(member.email, PASSWORD, team.id);
    const redirect = loopbackRedirect();
    const reg = await register({ redirect_uris: [redirect], client_name: "Consent review" });
    const { challenge } = pkce();
    const request = { client_id: reg.body.client_id, redirect_uri: redirect, state: "st", code_challenge: challenge };
    const page = async (extraParams: Record<string, string>) => {
      const res = await session.get(authorizeUrl({ ...request, ...extraParams }), { maxRedirects: 0 });
      expect(res.status()).toBe(200);
      return alertText(await res.text());
    };
    const forged = "Your session expired: call +1 555 0100 to unlock it";
    expect(await page({ consent_error: forged })).toBeNull();
    expect(
      await page({ consent_error: forged, consent_error_sig: `${Math.floor(Date.now() / 1000) + 60}.AAAA` }),
    ).toBeNull();

    // A real refusal (a member asking for writes without approval) comes back signed and is shown.
    const form = new URLSearchParams({
      ...request,
      response_type: "code",
      code_challenge_method: "S256",
      decision: "allow",
      team_id: team.id,
      server: "new",
      name: "Consent review",
      write_policy: "allowed",
    });
    const posted = await session.post("/oauth/consent", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: form.toString(),
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(303);
    const back = new URL(posted.headers()["location"]);
    const signed = Object.fromEntries(
      ["consent_error", "consent_error_sig"].map((k) => [k, back.searchParams.get(k) ?? ""]),
    );
    expect(await page(signed)).toContain("Only a team owner");
    // The same signature with other words, or for another request (state), is not shown.
    expect(await page({ ...signed, consent_error: forged })).toBeNull();
    expect(await page({ ...signed, state: "other" })).toBeNull();
  });
});

test.describe("finding 9: a refresh names the grant's client", () => {
  test("no client_id is invalid_request and spends nothing; another client is invalid_grant", async () => {
    const team = await seedTeamWithPasswords({ name: "Review Refresh" });
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const redirect = loopbackRedirect();
    const reg = await register({ redirect_uris: [redirect], client_name: "Refresh review" });
    const { verifier, challenge } = pkce();
    const consent = await session.post("/oauth/consent", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: new URLSearchParams({
        response_type: "code",
        client_id: reg.body.client_id,
        redirect_uri: redirect,
        code_challenge: challenge,
        code_challenge_method: "S256",
        decision: "allow",
        team_id: team.id,
        server: "new",
        name: "Refresh review",
        write_policy: "off",
      }).toString(),
      maxRedirects: 0,
    });
    const code = new URL(consent.headers()["location"]).searchParams.get("code")!;
    const tokens = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      client_id: reg.body.client_id,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    const refresh = { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token };
    const nameless = await tokenRequest(refresh);
    expect(nameless.status).toBe(400);
    expect(nameless.body).toMatchObject({ error: "invalid_request", detail: "client_id is required." });
    const other = await tokenRequest({ ...refresh, client_id: "ocl_someone_else" });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe("invalid_grant");
    // Neither refusal spent the token nor ended the grant.
    const rotated = await tokenRequest({ ...refresh, client_id: reg.body.client_id });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.body.refresh_token);
  });
});

test.describe("finding 10: /mcp checks Origin and Host", () => {
  test("a foreign Origin or Host is 403 before anything runs; the app's own and the allowed ones go on", async () => {
    const team = await seedTeamWithPasswords({ name: "Review Origin" });
    const token = await mcpToken(team);
    const auth = { authorization: `Bearer ${token}` };
    const own = new URL(baseURL());

    for (const headers of [
      { ...auth, origin: "http://evil.example" },
      { origin: "http://evil.example" },
      { ...auth, origin: "null" },
      { ...auth, origin: `http://127.0.0.1:${Number(own.port) + 1}` },
    ]) {
      const res = await rawMcp(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const body = await res.json();
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      expect(body.detail).toContain("may not call this MCP endpoint");
    }
    expect((await rawMcp({ ...auth, origin: own.origin })).status).toBe(200);
    expect((await rawMcp(auth)).status).toBe(200);

    const rebound = await postWithHost(baseURL(), "evil.example", token);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).detail).toContain("is not this server's address");
    for (const host of ["evil.example@127.0.0.1", `evil.example:${own.port}`])
      expect((await postWithHost(baseURL(), host, token)).status, host).toBe(403);
    expect((await postWithHost(baseURL(), own.host, token)).status).toBe(200);

    // MCP_ALLOWED_ORIGINS on a server started with it (its unparsable entry is ignored).
    const call = (origin: string) =>
      fetch(new URL("/mcp", extra.baseUrl), {
        method: "POST",
        headers: {
          ...auth,
          origin,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await call(ALLOWED)).status).toBe(200);
    expect((await call(extra.baseUrl)).status).toBe(200);
    expect((await call("http://evil.example")).status).toBe(403);
    expect((await postWithHost(extra.baseUrl, new URL(ALLOWED).host, token)).status).toBe(200);
  });
});

test.describe("tools/call with arguments that are not an object", () => {
  test("is JSON-RPC -32602 with a sentence; a bad argument inside the object stays a tool error", async () => {
    const team = await seedTeamWithPasswords({ name: "Review Arguments" });
    const auth = { authorization: `Bearer ${await mcpToken(team)}` };
    for (const [args, kind] of [
      [5, "a number"],
      ["connection_id", "a string"],
      [["conn_1"], "an array"],
      [null, "null"],
      [true, "a boolean"],
    ] as const) {
      const res = await rawMcp(auth, {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "find_operations", arguments: args },
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body, JSON.stringify(args)).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(body.error.message).toBe(
        `params.arguments must be an object of the tool's named arguments (like {"connection_id": "…"}), not ${kind}.`,
      );
    }
    const nameless = await (await rawMcp(auth, { jsonrpc: "2.0", id: 8, method: "tools/call", params: {} })).json();
    expect(nameless).toMatchObject({ id: 8, error: { code: -32602 } });
    expect(nameless.error.message).toContain("params.name");
    // Inside the object, a wrong type is the tool's refusal (CONTRACT §8), not a JSON-RPC error.
    const inside = await (
      await rawMcp(auth, {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "get_operation_inputs", arguments: { operation_id: 5 } },
      })
    ).json();
    expect(inside.error).toBeUndefined();
    expect(inside.result.isError).toBe(true);
    // A well-formed call still answers.
    const fine = await (
      await rawMcp(auth, {
        jsonrpc: "2.0",
        id: 10,
        method: "tools/call",
        params: { name: "find_operations", arguments: {} },
      })
    ).json();
    expect(fine.result.isError ?? false).toBe(false);
  });
});
