import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, anonymous, baseURL, type SeededTeam, expectError } from "../fixtures";

// Spec §4.6 (create an auth link) and §4.7 (its status), over real HTTP against the
// production server. Every test (or describe) makes its own team.

const DAY_MS = 24 * 60 * 60 * 1000;

type AuthLink = { id: string; url: string; expires_at: number };

async function createLink(api: APIRequestContext, body: object): Promise<AuthLink> {
  const res = await api.post("/v1/connections/auth-link", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test.describe("POST /v1/connections/auth-link", () => {
  test("requires a bearer API key", async () => {
    const api = await anonymous();
    await expectError(await api.post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth" } }), 401);
    await expectError(
      await (
        await apiAs({ key: "pbk_not-a-real-key" })
      ).post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth" } }),
      401,
    );
  });

  test("creates a link for an OAuth type that expires in 24 hours (milliseconds) at the app's address", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const before = Date.now();
    const link = await createLink(api, { connection_type: "sandbox_oauth" });
    const after = Date.now();
    expect(link).toEqual({ id: expect.any(String), url: expect.any(String), expires_at: expect.any(Number) });
    expect(Number.isInteger(link.expires_at)).toBe(true);
    expect(link.expires_at).toBeGreaterThanOrEqual(before + DAY_MS - 2_000);
    expect(link.expires_at).toBeLessThanOrEqual(after + DAY_MS + 2_000);
    expect(link.url.startsWith(baseURL())).toBe(true);
    expect(() => new URL(link.url)).not.toThrow();
  });

  test("every link is distinct", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const [a, b] = [
      await createLink(api, { connection_type: "sandbox_oauth" }),
      await createLink(api, { connection_type: "sandbox_oauth" }),
    ];
    expect(a.id).not.toBe(b.id);
    expect(a.url).not.toBe(b.url);
  });

  test("accepts a white-label type, an https redirect_url, external_id and is_private", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const link = await createLink(api, {
      connection_type: "sandbox_whitelabel",
      redirect_url: "https://example.com/done?tab=integrations",
      external_id: "customer-1",
      is_private: true,
    });
    expect(link.url.startsWith(baseURL())).toBe(true);
  });

  test("an external_id of 255 characters is accepted", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const externalId = "e".repeat(255);
    const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: externalId });
    const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
    expect(status.external_id).toBe(externalId);
  });

  test.describe("validates input", () => {
    let team: SeededTeam;
    let api: APIRequestContext;
    test.beforeAll(async () => {
      team = await seedTeam();
      api = await apiAs(team.users[0]);
    });
    const post = (data: unknown) => api.post("/v1/connections/auth-link", { data: data as object });

    test("redirect_url must use HTTPS", async () => {
      await expectError(
        await post({ connection_type: "sandbox_oauth", redirect_url: "http://example.com/done" }),
        400,
        "redirect_url",
      );
      await expectError(
        await post({ connection_type: "sandbox_oauth", redirect_url: "javascript:alert(1)" }),
        400,
        "redirect_url",
      );
      await expectError(
        await post({ connection_type: "sandbox_oauth", redirect_url: "not a url" }),
        400,
        "redirect_url",
      );
    });

    test("an external_id of 256 characters is rejected", async () => {
      await expectError(
        await post({ connection_type: "sandbox_oauth", external_id: "e".repeat(256) }),
        400,
        "external_id",
      );
    });

    test("a type that connects only from credentials is rejected", async () => {
      await expectError(await post({ connection_type: "sandbox_key" }), 400, "sandbox_key");
    });

    test("an unknown type is rejected", async () => {
      await expectError(await post({ connection_type: "no_such_type" }), 400, "no_such_type");
    });

    test("connection_type is required", async () => {
      await expectError(await post({ external_id: "x" }), 400, "connection_type");
    });

    test("an unknown key is named", async () => {
      await expectError(
        await post({ connection_type: "sandbox_oauth", redirect_uri: "https://example.com" }),
        400,
        "redirect_uri",
      );
    });

    test("is_private must be a boolean", async () => {
      await expectError(await post({ connection_type: "sandbox_oauth", is_private: "yes" }), 400, "is_private");
    });

    test("a body that is not a JSON object is rejected", async () => {
      await expectError(
        await api.post("/v1/connections/auth-link", {
          data: Buffer.from("{nope"),
          headers: { "content-type": "application/json" },
        }),
        400,
        "JSON",
      );
      await expectError(
        await api.post("/v1/connections/auth-link", {
          data: Buffer.from('[{"connection_type":"sandbox_oauth"}]'),
          headers: { "content-type": "application/json" },
        }),
        400,
      );
    });
  });
});

test.describe("GET /v1/connections/auth-links/{auth_link_id}/status", () => {
  test("a new link is pending, echoes its type and external_id, and has no connection yet", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: "customer-9" });
    const res = await api.get(`/v1/connections/auth-links/${link.id}/status`);
    expect(res.status()).toBe(200);
    const status = await res.json();
    expect(status).toEqual({
      id: link.id,
      status: "pending",
      connection_type: "sandbox_oauth",
      connection_id: null,
      external_id: "customer-9",
      expires_at: link.expires_at,
      consumed_at: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      connections: [],
    });
    expect(Number.isInteger(status.created_at)).toBe(true);
    expect(Number.isInteger(status.updated_at)).toBe(true);
    expect(Math.abs(status.created_at - Date.now())).toBeLessThan(10_000); // milliseconds
    expect(status.expires_at - status.created_at).toBe(DAY_MS);
  });

  test("external_id is null when none was given", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const link = await createLink(api, { connection_type: "sandbox_whitelabel" });
    const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
    expect(status).toMatchObject({
      status: "pending",
      connection_type: "sandbox_whitelabel",
      external_id: null,
      connection_id: null,
      connections: [],
    });
  });

  test("another member of the team sees the team's link", async () => {
    const team = await seedTeam({ members: 2 });
    const link = await createLink(await apiAs(team.users[0]), { connection_type: "sandbox_oauth" });
    const res = await (await apiAs(team.users[1])).get(`/v1/connections/auth-links/${link.id}/status`);
    expect(res.status()).toBe(200);
    expect((await res.json()).id).toBe(link.id);
  });

  test("another team gets 404", async () => {
    const a = await seedTeam();
    const b = await seedTeam();
    const link = await createLink(await apiAs(a.users[0]), { connection_type: "sandbox_oauth" });
    await expectError(await (await apiAs(b.users[0])).get(`/v1/connections/auth-links/${link.id}/status`), 404);
  });

  test("an unknown id is 404", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    await expectError(await api.get("/v1/connections/auth-links/al_doesnotexist/status"), 404);
  });

  test("requires a bearer API key", async () => {
    const team = await seedTeam();
    const link = await createLink(await apiAs(team.users[0]), { connection_type: "sandbox_oauth" });
    await expectError(await (await anonymous()).get(`/v1/connections/auth-links/${link.id}/status`), 401);
  });
});
