import type { APIRequestContext, APIResponse } from "@playwright/test";
import { test, expect, seed, seedTeam, apiAs, anonymous, cli, type SeededTeam } from "../fixtures";

// Spec §5 (authentication) and §7 (401 on every endpoint): every endpoint of §4.1–4.11 is
// called with each kind of bad credential and must answer 401 with a JSON `{detail}` string;
// a valid key gets through; a plan change does not invalidate keys (only §5.5's 403 applies).

type Ids = { connection: string; authLink: string; log: string };
type Endpoint = {
  name: string;
  call: (api: APIRequestContext, ids: Ids, headers?: Record<string, string>) => Promise<APIResponse>;
};

const newKeyBody = (name = "auth-spec key") => ({
  connection_type: "sandbox_key",
  name,
  credentials: { api_key: "sk_auth_spec" },
});

const ENDPOINTS: Endpoint[] = [
  { name: "GET /v1/connections", call: (api, _ids, headers) => api.get("/v1/connections", { headers }) },
  {
    name: "POST /v1/connections",
    call: (api, _ids, headers) => api.post("/v1/connections", { headers, data: newKeyBody() }),
  },
  { name: "GET /v1/connections/types", call: (api, _ids, headers) => api.get("/v1/connections/types", { headers }) },
  {
    name: "GET /v1/connections/{id}",
    call: (api, ids, headers) => api.get(`/v1/connections/${ids.connection}`, { headers }),
  },
  {
    name: "DELETE /v1/connections/{id}",
    call: (api, ids, headers) => api.delete(`/v1/connections/${ids.connection}`, { headers }),
  },
  {
    name: "POST /v1/connections/auth-link",
    call: (api, _ids, headers) =>
      api.post("/v1/connections/auth-link", { headers, data: { connection_type: "sandbox_oauth" } }),
  },
  {
    name: "GET /v1/connections/auth-links/{id}/status",
    call: (api, ids, headers) => api.get(`/v1/connections/auth-links/${ids.authLink}/status`, { headers }),
  },
  { name: "GET /v1/credits", call: (api, _ids, headers) => api.get("/v1/credits", { headers }) },
  { name: "GET /v1/credits/logs", call: (api, _ids, headers) => api.get("/v1/credits/logs", { headers }) },
  { name: "GET /v1/logs", call: (api, _ids, headers) => api.get("/v1/logs", { headers }) },
  { name: "GET /v1/logs/{id}", call: (api, ids, headers) => api.get(`/v1/logs/${ids.log}`, { headers }) },
];

const UNKNOWN_KEY = `pbk_${"A1b2C3d4E5".repeat(4)}`; // the shape of a real key, issued to nobody

async function expect401(res: APIResponse, what: string) {
  const text = await res.text();
  expect(res.status(), `${what}: ${text.slice(0, 300)}`).toBe(401);
  expect(res.headers()["content-type"], what).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  expect(Object.keys(body), what).toEqual(["detail"]);
  expect(typeof body.detail, what).toBe("string");
  expect(body.detail.length, what).toBeGreaterThan(0);
  // A rejected key is never echoed back.
  expect(body.detail, what).not.toContain(UNKNOWN_KEY);
}

/** A team with one of each resource, so every by-id endpoint has a real target. */
async function teamWithData(): Promise<{ team: SeededTeam; api: APIRequestContext; ids: Ids }> {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  // A log from a few seconds ago: inside every plan's history window.
  const { ids: logIds } = await seed<{ ids: string[] }>("logs", { team: team.id, startedAgo: [5] });
  const conn = await api.post("/v1/connections", { data: newKeyBody("auth-spec target") });
  expect(conn.status(), await conn.text()).toBe(200);
  const link = await api.post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth" } });
  expect(link.status(), await link.text()).toBe(200);
  return { team, api, ids: { connection: (await conn.json()).id, authLink: (await link.json()).id, log: logIds[0] } };
}

test.describe("401 on every endpoint", () => {
  let owner: { team: SeededTeam; api: APIRequestContext; ids: Ids };
  let anon: APIRequestContext;
  let revokedKey: string;

  test.beforeAll(async () => {
    owner = await teamWithData();
    anon = await anonymous();
    // A second member of the same team whose key gets revoked: the target data is real and
    // reachable by the team, so only the revocation can explain a 401.
    const created = await cli(
      "user",
      "create",
      "--team",
      owner.team.id,
      "--email",
      `revoked-${owner.team.id.slice(5).toLowerCase()}@test.patchbay.dev`,
    );
    expect(created.code, JSON.stringify(created.json)).toBe(0);
    const key = await cli("apikey", "create", "--team", owner.team.id, "--user", created.json.id);
    expect(key.code, JSON.stringify(key.json)).toBe(0);
    const before = await (await apiAs({ key: key.json.key })).get("/v1/connections");
    expect(before.status()).toBe(200);
    const revoked = await cli("apikey", "revoke", "--id", key.json.id);
    expect(revoked.json).toEqual({ id: key.json.id, revoked: true });
    revokedKey = key.json.key;
  });

  const CASES: { name: string; headers: () => Record<string, string> | undefined }[] = [
    { name: "no Authorization header", headers: () => undefined },
    { name: "Basic scheme", headers: () => ({ authorization: "Basic x" }) },
    {
      name: "Basic scheme carrying a real key",
      headers: () => ({ authorization: `Basic ${owner.team.users[0].key}` }),
    },
    { name: "Bearer alone", headers: () => ({ authorization: "Bearer" }) },
    { name: "Bearer with only spaces", headers: () => ({ authorization: "Bearer    " }) },
    { name: "real key without a scheme", headers: () => ({ authorization: owner.team.users[0].key }) },
    {
      name: "two tokens",
      headers: () => ({ authorization: `Bearer ${owner.team.users[0].key} ${owner.team.users[0].key}` }),
    },
    { name: "unknown key of valid shape", headers: () => ({ authorization: `Bearer ${UNKNOWN_KEY}` }) },
    { name: "garbage key", headers: () => ({ authorization: "Bearer not-a-key!!" }) },
    {
      name: "real key with a character changed",
      headers: () => ({
        authorization: `Bearer ${owner.team.users[0].key.slice(0, -1)}${owner.team.users[0].key.endsWith("a") ? "b" : "a"}`,
      }),
    },
    {
      name: "real key truncated",
      headers: () => ({ authorization: `Bearer ${owner.team.users[0].key.slice(0, -1)}` }),
    },
    { name: "10k-character key", headers: () => ({ authorization: `Bearer ${"k".repeat(10_000)}` }) },
    { name: "revoked key", headers: () => ({ authorization: `Bearer ${revokedKey}` }) },
  ];

  for (const endpoint of ENDPOINTS) {
    test(`${endpoint.name} answers 401 with {detail} for every bad credential`, async () => {
      for (const c of CASES) {
        const res = await endpoint.call(anon, owner.ids, c.headers());
        await expect401(res, `${endpoint.name} with ${c.name}`);
      }
      // None of those requests had any effect: the targets are still there and nothing was added.
      expect((await owner.api.get(`/v1/connections/${owner.ids.connection}`)).status()).toBe(200);
      const conns = await (await owner.api.get("/v1/connections")).json();
      expect(conns.map((c: { display_name: string }) => c.display_name)).toEqual(["auth-spec target"]);
    });
  }
});

test("a valid key reaches every endpoint", async () => {
  const { api, ids } = await teamWithData();
  const fresh = await api.post("/v1/connections", { data: newKeyBody("to delete") });
  expect(fresh.status()).toBe(200);
  const deletable = { ...ids, connection: (await fresh.json()).id };
  for (const endpoint of ENDPOINTS) {
    const res = await endpoint.call(api, endpoint.name.startsWith("DELETE") ? deletable : ids);
    expect(res.status(), `${endpoint.name}: ${(await res.text()).slice(0, 300)}`).toBe(200);
    expect(res.headers()["content-type"], endpoint.name).toMatch(/^application\/json/);
  }
});

test("the scheme name is case-insensitive and surrounding spaces are tolerated", async () => {
  const team = await seedTeam();
  const anon = await anonymous();
  for (const header of [`bearer ${team.users[0].key}`, `BEARER ${team.users[0].key}`, `Bearer  ${team.users[0].key}`]) {
    const res = await anon.get("/v1/connections", { headers: { authorization: header } });
    expect(res.status(), header.replace(team.users[0].key, "<key>")).toBe(200);
  }
});

test("revoking one member's key leaves the other keys of the team working", async () => {
  const team = await seedTeam({ members: 2 });
  const [first, second] = await Promise.all(team.users.map((u) => apiAs(u)));
  expect((await first.get("/v1/credits")).status()).toBe(200);
  const revoked = await cli("apikey", "revoke", "--id", team.users[0].keyId);
  expect(revoked).toEqual({ code: 0, json: { id: team.users[0].keyId, revoked: true } });
  for (const endpoint of ["/v1/connections", "/v1/credits", "/v1/logs"]) {
    await expect401(await first.get(endpoint), `revoked ${endpoint}`);
    expect((await second.get(endpoint)).status(), endpoint).toBe(200);
  }
});

test.describe("plan changes", () => {
  const whitelabel = {
    connection_type: "sandbox_whitelabel",
    name: "own app",
    credentials: { client_id: "cid", client_secret: "cs", refresh_token: "rt" },
  };

  test("a key keeps working after the team moves to the free plan; white-label creation then answers 403", async () => {
    const { team, api, ids } = await teamWithData();
    const moved = await cli("team", "set-plan", "--team", team.id, "--plan", "free");
    expect(moved).toEqual({ code: 0, json: { id: team.id, plan: "free" } });

    for (const endpoint of ENDPOINTS) {
      if (endpoint.name.startsWith("DELETE")) continue;
      const res = await endpoint.call(api, ids);
      expect(res.status(), `${endpoint.name}: ${(await res.text()).slice(0, 300)}`).toBe(200);
    }
    const credits = await (await api.get("/v1/credits")).json();
    expect(credits.tier).toBe("free");

    // §5.5: white-label capable type on a non-Team plan → 403 with a detail; nothing stored.
    const forbidden = await api.post("/v1/connections", { data: whitelabel });
    expect(forbidden.status(), await forbidden.text()).toBe(403);
    const body = await forbidden.json();
    expect(typeof body.detail).toBe("string");
    expect(body.detail.length).toBeGreaterThan(0);
    expect(await (await api.get("/v1/connections?type=sandbox_whitelabel")).json()).toEqual([]);

    // A manual-only type needs no Team plan.
    const manual = await api.post("/v1/connections", { data: newKeyBody("still allowed") });
    expect(manual.status(), await manual.text()).toBe(200);

    const deleted = await api.delete(`/v1/connections/${ids.connection}`);
    expect(deleted.status()).toBe(200);
  });

  test("white-label creation is 403 on pro and allowed again once the team is back on team", async () => {
    const team = await seedTeam({ plan: "pro" });
    const api = await apiAs(team.users[0]);
    const onPro = await api.post("/v1/connections", { data: whitelabel });
    expect(onPro.status(), await onPro.text()).toBe(403);
    expect(typeof (await onPro.json()).detail).toBe("string");

    expect((await cli("team", "set-plan", "--team", team.id, "--plan", "team")).code).toBe(0);
    const onTeam = await api.post("/v1/connections", { data: whitelabel });
    expect(onTeam.status(), await onTeam.text()).toBe(200);
    expect(await onTeam.json()).toMatchObject({
      type: "sandbox_whitelabel",
      display_name: "own app",
      is_private: false,
    });
  });
});
