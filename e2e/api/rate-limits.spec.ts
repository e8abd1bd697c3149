import { randomBytes } from "node:crypto";
import { test, expect, seedTeam, cli, type SeededTeam } from "../fixtures";
import { freePort } from "../support/server";
import { startExtraServer, type ExtraServer } from "../support/extra-server";
import { requestContext } from "../support/request-context";

// Rate limits against servers of their own with small limits and a short window (the run's
// shared server keeps the generous defaults). With REDIS_URL in the run's environment these
// servers count in Redis, otherwise each in its own memory; the same behaviour is expected.

const LIMIT = 3;
const WINDOW_SECONDS = 10;
const LOW_LIMITS = {
  RATE_LIMIT_API_PER_MINUTE: String(LIMIT),
  RATE_LIMIT_MCP_PER_MINUTE: String(LIMIT),
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  SIGN_IN_RATE_LIMIT: "2",
  SIGN_IN_IP_RATE_LIMIT: "4",
  // The tests play clients at many addresses through X-Forwarded-For, as a proxy on 127.0.0.1 would send it.
  TRUSTED_PROXIES: "127.0.0.1",
};

// One worker runs the file: the servers are started once and their windows are not disturbed.
test.describe.configure({ mode: "serial" });

let server: ExtraServer;
const others: ExtraServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startExtraServer(LOW_LIMITS);
});

test.afterAll(async () => {
  for (const s of [server, ...others]) await s?.stop();
});

const listConnections = (base: string, key: string) =>
  fetch(`${base}/v1/connections`, { headers: { authorization: `Bearer ${key}` } });

const mcpToolsList = (base: string, token: string) =>
  fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

/** The 429 of a spent budget: Retry-After within the window, `{detail}` naming the limit. */
async function expectLimited(res: Response, per: string) {
  const text = await res.text();
  expect(res.status, text).toBe(429);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.headers.get("ratelimit-limit")).toBe(String(LIMIT));
  expect(res.headers.get("ratelimit-remaining")).toBe("0");
  const body = JSON.parse(text);
  expect(Object.keys(body)).toEqual(["detail"]);
  expect(body.detail).toContain(`at most ${LIMIT} requests per ${WINDOW_SECONDS} s per ${per}`);
  expect(body.detail).toContain(`Try again in ${retryAfter} s`);
  return retryAfter;
}

/** Spends `key`'s whole budget on `base`, checking the RateLimit headers count down. */
async function spend(base: string, key: string, count = LIMIT) {
  for (let i = 1; i <= count; i++) {
    const res = await listConnections(base, key);
    expect(res.status, await res.text()).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe(String(LIMIT));
    expect(res.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i));
    expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
  }
}

test("an API key over its limit gets 429 with Retry-After and a detail naming the limit; another key of the team is unaffected", async () => {
  const team = await seedTeam({ members: 2 });
  const [a, b] = team.users;
  await spend(server.baseUrl, a.key);
  await expectLimited(await listConnections(server.baseUrl, a.key), "API key");
  // Every /v1 route goes through the same wrapper and the same budget.
  await expectLimited(
    await fetch(`${server.baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${a.key}` } }),
    "API key",
  );

  const other = await listConnections(server.baseUrl, b.key);
  expect(other.status).toBe(200);
  expect(other.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1));
  // Requests that fail authentication are not counted against anyone (and carry no limit headers).
  const bad = await listConnections(server.baseUrl, `pbk_${"A1b2C3d4E5".repeat(4)}`);
  expect(bad.status).toBe(401);
});

test("the window frees up: after Retry-After the key is served again", async () => {
  test.setTimeout(60_000);
  const team = await seedTeam();
  const key = team.users[0].key;
  await spend(server.baseUrl, key);
  const retryAfter = await expectLimited(await listConnections(server.baseUrl, key), "API key");
  await new Promise((r) => setTimeout(r, retryAfter * 1000 + 300));
  const again = await listConnections(server.baseUrl, key);
  expect(again.status, await again.text()).toBe(200);
  expect(again.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1));
});

test("/mcp is limited per MCP token", async () => {
  const team = await seedTeam();
  const owner = team.users[0];
  const made = async (name: string) => {
    const r = await cli("mcp", "create", "--team", team.id, "--user", owner.id, "--name", name);
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    return r.json.token as string;
  };
  const [first, second] = [await made("Agent one"), await made("Agent two")];
  for (let i = 1; i <= LIMIT; i++) {
    const res = await mcpToolsList(server.baseUrl, first);
    expect(res.status, await res.text()).toBe(200);
    expect(res.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i));
  }
  await expectLimited(await mcpToolsList(server.baseUrl, first), "MCP token");
  expect((await mcpToolsList(server.baseUrl, second)).status).toBe(200);
  // The MCP budget is the token's own: the owner's API key still has its whole budget.
  const api = await listConnections(server.baseUrl, owner.key);
  expect(api.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1));
});

/** One sign-in attempt through next-auth's credentials callback; returns the error it reports, or null. */
async function signInAttempt(base: string, email: string, password: string, ip: string): Promise<string | null> {
  const ctx = await requestContext({ baseURL: base });
  try {
    const { csrfToken } = await (await ctx.get("/api/auth/csrf")).json();
    const res = await ctx.post("/api/auth/callback/credentials", {
      form: { csrfToken, email, password, json: "true" },
      headers: { "x-forwarded-for": ip },
      maxRedirects: 0,
    });
    const location = res.headers()["location"] ?? (await res.json().catch(() => ({}))).url ?? "";
    return new URL(location, base).searchParams.get("error");
  } finally {
    await ctx.dispose();
  }
}

const randomIp = () => `10.${[...randomBytes(3)].join(".")}`;

test("sign-in attempts are limited per account and address pair (growing delays) and per client address", async () => {
  const team: SeededTeam = await seedTeam({ password: "correct horse battery staple" });
  const email = team.users[0].email;
  const ip = randomIp();
  expect(await signInAttempt(server.baseUrl, email, "wrong-1", ip)).toContain("Wrong email or password");
  expect(await signInAttempt(server.baseUrl, email, "wrong-2", ip)).toContain("Wrong email or password");
  // That pair's allowance (2) is spent: its next attempt waits, even with the right password…
  expect(await signInAttempt(server.baseUrl, email, "correct horse battery staple", ip)).toMatch(
    /Too many sign-in attempts\. Try again in 1 s/,
  );
  // …but the account is not locked: from another address its owner signs in.
  expect(await signInAttempt(server.baseUrl, email, "correct horse battery staple", randomIp())).toBeNull();

  // One address trying many accounts: 4 attempts, then refused; another address is not.
  const spray = randomIp();
  for (let i = 0; i < 4; i++)
    expect(await signInAttempt(server.baseUrl, `nobody-${i}-${spray}@test.patchbay.dev`, "x", spray)).toContain(
      "Wrong email or password",
    );
  expect(await signInAttempt(server.baseUrl, `nobody-5-${spray}@test.patchbay.dev`, "x", spray)).toContain(
    "Too many sign-in attempts",
  );
  expect(await signInAttempt(server.baseUrl, `nobody-6-${spray}@test.patchbay.dev`, "x", randomIp())).toContain(
    "Wrong email or password",
  );
});

test("dashboard (session) requests are limited per signed-in user", async () => {
  const team = await seedTeam({ password: "correct horse battery staple" });
  const { email, key } = team.users[0];
  const ctx = await requestContext({ baseURL: server.baseUrl });
  try {
    const { csrfToken } = await (await ctx.get("/api/auth/csrf")).json();
    await ctx.post("/api/auth/callback/credentials", {
      form: { csrfToken, email, password: "correct horse battery staple", json: "true" },
      headers: { "x-forwarded-for": randomIp() },
      maxRedirects: 0,
    });
    const headers = { "x-patchbay-team": team.id };
    for (let i = 1; i <= LIMIT; i++) {
      const res = await ctx.get("/v1/connections", { headers });
      expect(res.status(), await res.text()).toBe(200);
      expect(res.headers()["ratelimit-remaining"]).toBe(String(LIMIT - i));
    }
    const limited = await ctx.get("/v1/connections", { headers });
    await expectLimited(
      new Response(await limited.text(), { status: limited.status(), headers: limited.headers() }),
      "signed-in user",
    );
    // The user's API key has a budget of its own.
    expect((await listConnections(server.baseUrl, key)).status).toBe(200);
  } finally {
    await ctx.dispose();
  }
});

test("with REDIS_URL, two server processes share one budget per key", async () => {
  test.skip(
    !process.env.REDIS_URL,
    "REDIS_URL is not set: without Redis every instance counts in its own memory (run with REDIS_URL=redis://127.0.0.1:6379 to test sharing)",
  );
  test.setTimeout(120_000);
  const second = await startExtraServer(LOW_LIMITS);
  others.push(second);
  const team = await seedTeam();
  const key = team.users[0].key;
  expect((await listConnections(server.baseUrl, key)).headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1));
  expect((await listConnections(second.baseUrl, key)).headers.get("ratelimit-remaining")).toBe(String(LIMIT - 2));
  expect((await listConnections(server.baseUrl, key)).headers.get("ratelimit-remaining")).toBe("0");
  await expectLimited(await listConnections(second.baseUrl, key), "API key");
  await expectLimited(await listConnections(server.baseUrl, key), "API key");

  // Sign-in attempts too: failures of one account from one address on one instance count on the other, and so does the wait they earn.
  const signer = await seedTeam({ password: "correct horse battery staple" });
  const email = signer.users[0].email;
  const ip = randomIp();
  expect(await signInAttempt(server.baseUrl, email, "wrong-1", ip)).toContain("Wrong email or password");
  expect(await signInAttempt(second.baseUrl, email, "wrong-2", ip)).toContain("Wrong email or password");
  expect(await signInAttempt(server.baseUrl, email, "wrong-3", ip)).toContain("Too many sign-in attempts");
  expect(await signInAttempt(second.baseUrl, email, "wrong-3", ip)).toContain("Too many sign-in attempts");
});

test("with Redis configured but down, requests are still served and limited per instance, with a warning in the log", async () => {
  test.setTimeout(120_000);
  const deadPort = await freePort(); // nothing listens there
  const orphan = await startExtraServer({ ...LOW_LIMITS, REDIS_URL: `redis://127.0.0.1:${deadPort}` });
  others.push(orphan);
  const team = await seedTeam({ password: "correct horse battery staple" });
  const { key, email, id: userId } = team.users[0];
  await spend(orphan.baseUrl, key);
  await expectLimited(await listConnections(orphan.baseUrl, key), "API key");

  const mcp = await cli("mcp", "create", "--team", team.id, "--user", userId, "--name", "Agent");
  expect((await mcpToolsList(orphan.baseUrl, mcp.json.token)).status).toBe(200);
  expect(await signInAttempt(orphan.baseUrl, email, "wrong", randomIp())).toContain("Wrong email or password");
  expect((await fetch(`${orphan.baseUrl}/healthz`)).status).toBe(200);
  expect(orphan.log()).toContain("Redis unavailable");
  expect(orphan.log()).not.toContain("unhandled error");
});
