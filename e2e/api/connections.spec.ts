import type { APIRequestContext } from "@playwright/test";
import { test, expect, seed, seedTeam, apiAs, anonymous, cli, type SeededTeam, expectError } from "../fixtures";
import { inDatabase } from "../support/in-database";

// Spec §4.1-§4.5 (connections) and §4.3 (types), over real HTTP against the production
// server. Every test makes its own team, so the file runs fully in parallel.

type Connection = {
  id: string;
  type: string;
  display_name: string | null;
  external_id: string | null;
  is_private: boolean;
  created_at: number;
  updated_at: number;
};

const whiteLabel = (name: string, credentials: Record<string, string> = {}, extra: object = {}) => ({
  connection_type: "sandbox_whitelabel",
  name,
  credentials: { client_id: "client-1", client_secret: "secret-1", refresh_token: "refresh-1", ...credentials },
  ...extra,
});

const apiKeyType = (name: string, apiKey = "sk-sandbox-1", extra: object = {}) => ({
  connection_type: "sandbox_key",
  name,
  credentials: { api_key: apiKey },
  ...extra,
});

async function create(api: APIRequestContext, body: object): Promise<Connection> {
  const res = await api.post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function list(api: APIRequestContext, query = ""): Promise<Connection[]> {
  const res = await api.get(`/v1/connections${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const expectUnixSeconds = (t: number) => {
  expect(Number.isInteger(t)).toBe(true);
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);
};
const expectMilliseconds = (t: number) => {
  expect(Number.isInteger(t)).toBe(true);
  expect(Math.abs(t - Date.now())).toBeLessThan(10_000);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// No endpoint sets a connection's external_id yet except the OAuth flow of an auth link
// (spec §2.1), so these two helpers reach the rows through the product's own db client.
const giveExternalId = (id: string, externalId: string) =>
  inDatabase("await db.connection.update({ where: { id: args.id }, data: { externalId: args.externalId } });", {
    id,
    externalId,
  });
const storedCredentials = (id: string) =>
  inDatabase<Record<string, string>>(
    "return decryptJson((await db.connection.findUniqueOrThrow({ where: { id: args.id } })).credentials, `connection:${args.id}`);",
    { id },
  );

test.describe("authentication", () => {
  test("requires a bearer API key", async () => {
    const api = await anonymous();
    await expectError(await api.get("/v1/connections"), 401);
    await expectError(await api.get("/v1/connections/types"), 401);
    await expectError(await api.post("/v1/connections", { data: apiKeyType("x") }), 401);
    await expectError(await api.get("/v1/connections/conn_x"), 401);
    await expectError(await api.delete("/v1/connections/conn_x"), 401);
  });

  test("rejects an invalid or revoked key with 401", async () => {
    const team = await seedTeam();
    await expectError(await (await apiAs({ key: "pbk_not-a-real-key" })).get("/v1/connections"), 401);
    const revoked = await cli("apikey", "revoke", "--id", team.users[0].keyId);
    expect(revoked).toEqual({ code: 0, json: { id: team.users[0].keyId, revoked: true } });
    await expectError(await (await apiAs(team.users[0])).get("/v1/connections"), 401);
  });
});

test.describe("GET /v1/connections/types", () => {
  test("lists the three sandbox types with their auth methods and credential fields", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const res = await api.get("/v1/connections/types");
    expect(res.status()).toBe(200);
    const types: {
      type: string;
      name: string;
      auth_methods: string[];
      credential_fields: string[] | null;
      docs_url: string | null;
    }[] = await res.json();
    const byType = Object.fromEntries(types.map((t) => [t.type, t]));
    expect(byType.sandbox_oauth).toMatchObject({ auth_methods: ["oauth"], credential_fields: null });
    expect(byType.sandbox_whitelabel).toMatchObject({
      auth_methods: ["oauth", "manual"],
      credential_fields: ["client_id", "client_secret", "refresh_token"],
    });
    expect(byType.sandbox_key).toMatchObject({ auth_methods: ["manual"], credential_fields: ["api_key"] });
    for (const t of types) {
      expect(typeof t.name).toBe("string");
      expect(t.name.length).toBeGreaterThan(0);
      for (const m of t.auth_methods) expect(["oauth", "manual"]).toContain(m);
    }
  });

  test("docs_url of each sandbox type is a fetchable plain-markdown page", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const types: { type: string; credential_fields: string[] | null; docs_url: string | null }[] = await (
      await api.get("/v1/connections/types")
    ).json();
    const reader = await anonymous();
    for (const t of types.filter((t) => t.type.startsWith("sandbox_"))) {
      expect(t.docs_url, t.type).toMatch(/^https?:\/\//);
      const page = await reader.get(t.docs_url!);
      expect(page.status(), t.docs_url!).toBe(200);
      expect(page.headers()["content-type"]).toMatch(/^text\/markdown/);
      const text = await page.text();
      expect(text).toMatch(/^# /);
      expect(text).not.toMatch(/<html/i);
      for (const field of t.credential_fields ?? []) expect(text).toContain(field);
    }
  });
});

test.describe("POST /v1/connections", () => {
  test("creates an API-key connection: display_name = name, external_id null, shared, timestamps in Unix seconds", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const res = await api.post("/v1/connections", { data: apiKeyType("Primary key", "sk-live-123") });
    expect(res.status()).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("sk-live-123");
    const created: Connection = JSON.parse(text);
    expect(created).toEqual({
      id: expect.any(String),
      type: "sandbox_key",
      display_name: "Primary key",
      external_id: null,
      is_private: false,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expectUnixSeconds(created.created_at);
    expectUnixSeconds(created.updated_at);

    const [listed] = await list(api);
    expect(listed).toMatchObject({
      id: created.id,
      type: "sandbox_key",
      display_name: "Primary key",
      external_id: null,
      is_private: false,
    });
    expectMilliseconds(listed.created_at);
    expect(Math.floor(listed.created_at / 1000)).toBe(created.created_at);
    expect(await storedCredentials(created.id)).toEqual({ api_key: "sk-live-123" });
  });

  test("an API-key type creates a new connection on every post of the same values", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const first = await create(api, apiKeyType("Same", "sk-same"));
    const second = await create(api, apiKeyType("Same", "sk-same"));
    expect(second.id).not.toBe(first.id);
    expect((await list(api)).map((c) => c.id).sort()).toEqual([first.id, second.id].sort());
  });

  test("a white-label post with the same type and name replaces the credentials in place", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const first = await create(api, whiteLabel("Ads account", { refresh_token: "refresh-old" }));
    expect(first).toMatchObject({
      type: "sandbox_whitelabel",
      display_name: "Ads account",
      external_id: null,
      is_private: false,
    });
    expectUnixSeconds(first.created_at);
    const [before] = await list(api);

    await sleep(1100); // updated_at of the create response has one-second resolution
    const second = await create(
      api,
      whiteLabel("Ads account", { client_id: "client-2", refresh_token: "refresh-new" }),
    );
    expect(second.id).toBe(first.id);
    expect(second.created_at).toBe(first.created_at);
    expect(second.updated_at).toBeGreaterThan(first.updated_at);
    expectUnixSeconds(second.updated_at);

    const after = await list(api);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(first.id);
    expect(after[0].created_at).toBe(before.created_at);
    expect(after[0].updated_at).toBeGreaterThan(before.updated_at);
    expect(await storedCredentials(first.id)).toEqual({
      client_id: "client-2",
      client_secret: "secret-1",
      refresh_token: "refresh-new",
    });
  });

  test("a white-label post with a different name creates a separate connection", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const first = await create(api, whiteLabel("Brand A"));
    const second = await create(api, whiteLabel("Brand B"));
    expect(second.id).not.toBe(first.id);
    expect((await list(api)).map((c) => c.display_name).sort()).toEqual(["Brand A", "Brand B"]);
  });

  test("replacing white-label credentials without is_private keeps the visibility; sending it changes it", async () => {
    const team = await seedTeam({ members: 2 });
    const [owner, other] = [await apiAs(team.users[0]), await apiAs(team.users[1])];
    const created = await create(owner, whiteLabel("Private ads", {}, { is_private: true }));
    expect(created.is_private).toBe(true);

    const replaced = await create(owner, whiteLabel("Private ads", { refresh_token: "refresh-2" }));
    expect(replaced.id).toBe(created.id);
    expect(replaced.is_private).toBe(true);
    expect(await list(other)).toEqual([]);

    const shared = await create(
      owner,
      whiteLabel("Private ads", { refresh_token: "refresh-3" }, { is_private: false }),
    );
    expect(shared.id).toBe(created.id);
    expect(shared.is_private).toBe(false);
    expect((await list(other)).map((c) => c.id)).toEqual([created.id]);
  });

  test("display_name is exactly the name sent, spaces included", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    expect((await create(api, apiKeyType("  Padded name "))).display_name).toBe("  Padded name ");
    expect((await list(api))[0].display_name).toBe("  Padded name ");
  });

  test("a name of exactly 100 characters is accepted", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const name = "n".repeat(100);
    expect((await create(api, apiKeyType(name))).display_name).toBe(name);
  });

  test("concurrent posts of the same white-label name create exactly one connection", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post("/v1/connections", { data: whiteLabel("Raced account", { refresh_token: `refresh-${i}` }) }),
      ),
    );
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status(), body: await r.json() })));
    expect(
      bodies.map((b) => b.status),
      JSON.stringify(bodies),
    ).toEqual(Array(10).fill(200));
    expect(new Set(bodies.map((b) => b.body.id)).size).toBe(1);
    const listed = (await list(api)).filter((c) => c.display_name === "Raced account");
    expect(listed).toHaveLength(1);
    expect(listed[0].id).toBe(bodies[0].body.id);
  });

  for (const plan of ["free", "pro"] as const) {
    test(`a ${plan} team gets 403 for a white-label type but can still create an API-key type`, async () => {
      // seedTeam's key was created by the operator, so it still authenticates on a non-Team plan.
      const api = await apiAs((await seedTeam({ plan })).users[0]);
      const detail = await expectError(await api.post("/v1/connections", { data: whiteLabel("Ads") }), 403);
      expect(detail).toMatch(/team plan/i);
      expect(await list(api)).toEqual([]);
      expect((await create(api, apiKeyType("Key on " + plan))).type).toBe("sandbox_key");
    });
  }

  test.describe("validates input and stores nothing on rejection", () => {
    let team: SeededTeam;
    let api: APIRequestContext;
    test.beforeAll(async () => {
      team = await seedTeam();
      api = await apiAs(team.users[0]);
    });
    test.afterEach(async () => {
      expect(await list(api)).toEqual([]);
    });

    test("an OAuth-only type is rejected", async () => {
      await expectError(
        await api.post("/v1/connections", {
          data: { connection_type: "sandbox_oauth", name: "OAuth", credentials: {} },
        }),
        400,
        "sandbox_oauth",
      );
    });

    test("an unknown type is rejected", async () => {
      await expectError(
        await api.post("/v1/connections", {
          data: { connection_type: "no_such_type", name: "x", credentials: { api_key: "k" } },
        }),
        400,
        "no_such_type",
      );
    });

    test("a missing credential field is named, before any provider call", async () => {
      // client_id "bad" would make the provider answer invalid_client: it must not be asked.
      const detail = await expectError(
        await api.post("/v1/connections", {
          data: {
            connection_type: "sandbox_whitelabel",
            name: "x",
            credentials: { client_id: "bad", client_secret: "s" },
          },
        }),
        400,
        "credentials.refresh_token",
      );
      expect(detail).not.toContain("invalid_client");
    });

    test("an unrecognised credential field is named, before any provider call", async () => {
      const detail = await expectError(
        await api.post("/v1/connections", {
          data: apiKeyType("x", "bad", { credentials: { api_key: "bad", region: "eu" } }),
        }),
        400,
        "credentials.region",
      );
      expect(detail).not.toContain("invalid_api_key");
    });

    test("a missing top-level field is named", async () => {
      await expectError(
        await api.post("/v1/connections", { data: { connection_type: "sandbox_key", credentials: { api_key: "k" } } }),
        400,
        "name",
      );
      await expectError(
        await api.post("/v1/connections", { data: { connection_type: "sandbox_key", name: "x" } }),
        400,
        "credentials",
      );
      await expectError(
        await api.post("/v1/connections", { data: { name: "x", credentials: { api_key: "k" } } }),
        400,
        "connection_type",
      );
    });

    test("an unknown body key is named", async () => {
      await expectError(
        await api.post("/v1/connections", { data: apiKeyType("x", "k", { colour: "blue" }) }),
        400,
        "colour",
      );
    });

    test("is_private must be a boolean and credential values strings", async () => {
      await expectError(
        await api.post("/v1/connections", { data: apiKeyType("x", "k", { is_private: "yes" }) }),
        400,
        "is_private",
      );
      await expectError(
        await api.post("/v1/connections", {
          data: { connection_type: "sandbox_key", name: "x", credentials: { api_key: 42 } },
        }),
        400,
        "credentials.api_key",
      );
    });

    test("a name of 101 characters is rejected", async () => {
      await expectError(await api.post("/v1/connections", { data: apiKeyType("n".repeat(101)) }), 400, "name");
    });

    test("a body that is not JSON is rejected", async () => {
      await expectError(
        await api.post("/v1/connections", {
          data: Buffer.from("{not json"),
          headers: { "content-type": "application/json" },
        }),
        400,
        "JSON",
      );
    });

    test("a body that is a JSON array is rejected", async () => {
      await expectError(
        await api.post("/v1/connections", {
          data: Buffer.from(JSON.stringify([apiKeyType("x")])),
          headers: { "content-type": "application/json" },
        }),
        400,
      );
    });

    test("provider rejections carry the provider's reason, distinguishing an expired token from a missing scope", async () => {
      const expired = await expectError(
        await api.post("/v1/connections", { data: whiteLabel("x", { refresh_token: "bad-xyz" }) }),
        400,
        "invalid_grant: refresh_token expired",
      );
      const scope = await expectError(
        await api.post("/v1/connections", { data: whiteLabel("x", { refresh_token: "bad_scope" }) }),
        400,
        "insufficient_scope",
      );
      expect(expired).not.toContain("insufficient_scope");
      expect(scope).not.toContain("invalid_grant");
      await expectError(await api.post("/v1/connections", { data: apiKeyType("x", "bad") }), 400, "invalid_api_key");
      await expectError(
        await api.post("/v1/connections", { data: whiteLabel("x", { client_id: "bad" }) }),
        400,
        "invalid_client",
      );
    });
  });
});

test.describe("GET /v1/connections", () => {
  test("lists shared connections plus the caller's own private ones, in milliseconds", async () => {
    const team = await seedTeam({ members: 2 });
    const [owner, other] = [await apiAs(team.users[0]), await apiAs(team.users[1])];
    const mine = await create(owner, apiKeyType("Mine", "k1", { is_private: true }));
    const shared = await create(owner, apiKeyType("Shared", "k2"));
    expect(mine.is_private).toBe(true);

    const ownerList = await list(owner);
    expect(ownerList.map((c) => c.id).sort()).toEqual([mine.id, shared.id].sort());
    expect(ownerList.find((c) => c.id === mine.id)?.is_private).toBe(true);
    expect(ownerList.find((c) => c.id === shared.id)?.is_private).toBe(false);
    for (const c of ownerList) {
      expectMilliseconds(c.created_at);
      expectMilliseconds(c.updated_at);
    }

    const otherList = await list(other);
    expect(otherList.map((c) => c.id)).toEqual([shared.id]);
  });

  test("another team's connections are not listed", async () => {
    const a = await seedTeam();
    const b = await seedTeam();
    await create(await apiAs(a.users[0]), apiKeyType("Team A"));
    expect(await list(await apiAs(b.users[0]))).toEqual([]);
  });

  test("filters by type and by external_id", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const key = await create(api, apiKeyType("Key"));
    const wl = await create(api, whiteLabel("White label"));
    const tagged = await create(api, apiKeyType("Tagged"));
    await giveExternalId(tagged.id, "customer-42");
    await giveExternalId(wl.id, "customer-42");

    expect((await list(api, "?type=sandbox_key")).map((c) => c.id).sort()).toEqual([key.id, tagged.id].sort());
    expect((await list(api, "?type=sandbox_whitelabel")).map((c) => c.id)).toEqual([wl.id]);
    expect(await list(api, "?type=sandbox_oauth")).toEqual([]);
    const byExternal = await list(api, "?external_id=customer-42");
    expect(byExternal.map((c) => c.id).sort()).toEqual([tagged.id, wl.id].sort());
    expect(byExternal.every((c) => c.external_id === "customer-42")).toBe(true);
    expect((await list(api, "?external_id=customer-42&type=sandbox_key")).map((c) => c.id)).toEqual([tagged.id]);
    expect(await list(api, "?external_id=nobody")).toEqual([]);
  });
});

test.describe("GET /v1/connections/{connection_id}", () => {
  test("returns a list of the one connection, in milliseconds", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const created = await create(api, apiKeyType("Lookup"));
    const res = await api.get(`/v1/connections/${created.id}`);
    expect(res.status()).toBe(200);
    const body: Connection[] = await res.json();
    expect(body).toEqual(await list(api));
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({
      id: created.id,
      type: "sandbox_key",
      display_name: "Lookup",
      external_id: null,
      is_private: false,
    });
    expectMilliseconds(body[0].created_at);
    expect(Math.floor(body[0].created_at / 1000)).toBe(created.created_at);
  });

  test("another team gets 404", async () => {
    const a = await seedTeam();
    const b = await seedTeam();
    const created = await create(await apiAs(a.users[0]), apiKeyType("Team A"));
    await expectError(await (await apiAs(b.users[0])).get(`/v1/connections/${created.id}`), 404);
  });

  test("another member's private connection is 404; the owner sees it", async () => {
    const team = await seedTeam({ members: 2 });
    const owner = await apiAs(team.users[0]);
    const created = await create(owner, apiKeyType("Private", "k", { is_private: true }));
    await expectError(await (await apiAs(team.users[1])).get(`/v1/connections/${created.id}`), 404);
    expect((await (await owner.get(`/v1/connections/${created.id}`)).json())[0].is_private).toBe(true);
  });

  test("an unknown id is 404", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    await expectError(await api.get("/v1/connections/conn_doesnotexist"), 404);
  });

  test("lookup_by=external_id returns every match and 404 when none", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const a = await create(api, apiKeyType("A"));
    const b = await create(api, whiteLabel("B"));
    await create(api, apiKeyType("Untagged"));
    await giveExternalId(a.id, "shop-7");
    await giveExternalId(b.id, "shop-7");

    const res = await api.get("/v1/connections/shop-7?lookup_by=external_id");
    expect(res.status()).toBe(200);
    const found: Connection[] = await res.json();
    expect(found.map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.every((c) => c.external_id === "shop-7")).toBe(true);

    await expectError(await api.get("/v1/connections/shop-7"), 404); // default lookup is by id
    await expectError(await api.get("/v1/connections/shop-8?lookup_by=external_id"), 404);
    expect((await (await api.get(`/v1/connections/${a.id}?lookup_by=id`)).json())[0].id).toBe(a.id);
  });

  test("lookup_by must be id or external_id", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const created = await create(api, apiKeyType("x"));
    await expectError(await api.get(`/v1/connections/${created.id}?lookup_by=bogus`), 400, "lookup_by");
  });
});

test.describe("DELETE /v1/connections/{connection_id}", () => {
  test("returns the deleted connection in milliseconds, after which it is gone", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const created = await create(api, apiKeyType("Doomed"));
    const [before] = await (await api.get(`/v1/connections/${created.id}`)).json();

    const res = await api.delete(`/v1/connections/${created.id}`);
    expect(res.status()).toBe(200);
    const deleted: Connection = await res.json();
    expect(deleted).toEqual(before);
    expectMilliseconds(deleted.created_at);
    expectMilliseconds(deleted.updated_at);

    await expectError(await api.get(`/v1/connections/${created.id}`), 404);
    await expectError(await api.delete(`/v1/connections/${created.id}`), 404);
    expect(await list(api)).toEqual([]);
  });

  test("another team gets 404 and the connection stays", async () => {
    const a = await seedTeam();
    const b = await seedTeam();
    const owner = await apiAs(a.users[0]);
    const created = await create(owner, apiKeyType("Team A"));
    await expectError(await (await apiAs(b.users[0])).delete(`/v1/connections/${created.id}`), 404);
    expect((await list(owner)).map((c) => c.id)).toEqual([created.id]);
  });

  test("another member's private connection is 404 and stays", async () => {
    const team = await seedTeam({ members: 2 });
    const owner = await apiAs(team.users[0]);
    const created = await create(owner, apiKeyType("Private", "k", { is_private: true }));
    await expectError(await (await apiAs(team.users[1])).delete(`/v1/connections/${created.id}`), 404);
    expect((await list(owner)).map((c) => c.id)).toEqual([created.id]);
    expect((await owner.delete(`/v1/connections/${created.id}`)).status()).toBe(200);
  });

  test("an external id is not accepted", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const created = await create(api, apiKeyType("Tagged"));
    await giveExternalId(created.id, "ext-delete-me");
    await expectError(await api.delete("/v1/connections/ext-delete-me"), 404);
    expect((await api.delete("/v1/connections/ext-delete-me?lookup_by=external_id")).status()).not.toBe(200);
    expect((await list(api)).map((c) => c.id)).toEqual([created.id]);
  });

  test("deactivates the team's active workflows that use it and leaves the others active", async () => {
    const team = await seedTeam();
    const api = await apiAs(team.users[0]);
    const doomed = await create(api, apiKeyType("Doomed"));
    const kept = await create(api, apiKeyType("Kept"));
    const workflow = (connections: string[]) =>
      seed<{ id: string }>("workflow", { team: team.id, connections, active: true });
    const usesDoomed = await workflow([doomed.id]);
    const usesBoth = await workflow([doomed.id, kept.id]);
    const usesKept = await workflow([kept.id]);
    const usesNothing = await workflow([]);

    expect((await api.delete(`/v1/connections/${doomed.id}`)).status()).toBe(200);

    const state = (wf: { id: string }) => seed<{ active: boolean }>("workflowState", { id: wf.id });
    expect(await state(usesDoomed)).toEqual({ active: false });
    expect(await state(usesBoth)).toEqual({ active: false });
    expect(await state(usesKept)).toEqual({ active: true });
    expect(await state(usesNothing)).toEqual({ active: true });
  });
});

test("a connection's last use is written at most once a minute, and not again by a process whose node read a fresher one", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const fresh = await create(api, apiKeyType("Used 10 s ago"));
  const old = await create(api, apiKeyType("Used 2 minutes ago"));
  const out = await inDatabase<{ fresh: number; old: number; oldAgain: number; now: number }>(
    `
    const readNodeFacts = pick(await import("./lib/workflows/node-reads.ts"), "readNodeFacts");
    const markConnectionsUsed = pick(await import("./lib/logs/record-operations.ts"), "markConnectionsUsed");
    const transaction = pick(await import("./lib/db/transaction.ts"), "transaction");
    const now = Math.floor(Date.now() / 1000);
    const setUsed = (id, at) => db.connection.update({ where: { id }, data: { lastUsedAt: BigInt(at) } });
    const used = async (id) => Number((await db.connection.findUniqueOrThrow({ where: { id } })).lastUsedAt);
    // A workflow node reads its connection, then writes its log and moves the connection's last use.
    const node = async (id, at) => {
      await readNodeFacts(args.team, { connectionId: id });
      await transaction((tx) => markConnectionsUsed(tx, [{ connectionId: id, startedAt: at }]));
    };
    const markOnly = (id, at) => transaction((tx) => markConnectionsUsed(tx, [{ connectionId: id, startedAt: at }]));
    // Another process used the first connection 10 s ago. Its row is then set back behind this
    // process's back, so that an UPDATE sent by the node would show.
    await setUsed(args.fresh, now - 10);
    await readNodeFacts(args.team, { connectionId: args.fresh });
    await setUsed(args.fresh, now - 1000);
    await markOnly(args.fresh, now);
    // The second was used 2 minutes ago: the node moves it, and a use 5 s later sends nothing.
    await setUsed(args.old, now - 120);
    await node(args.old, now);
    const moved = await used(args.old);
    await setUsed(args.old, now - 1000);
    await markOnly(args.old, now + 5);
    return { fresh: await used(args.fresh), old: moved, oldAgain: await used(args.old), now };
    `,
    { team: team.id, fresh: fresh.id, old: old.id },
  );
  expect(out.fresh).toBe(out.now - 1000);
  expect(out.old).toBe(out.now);
  expect(out.oldAgain).toBe(out.now - 1000);
});
