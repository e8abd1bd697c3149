import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, anonymous, expectError } from "../fixtures";

// The real Google (ga4, gads, gsc) and Meta (meta_ads) types created from credentials (spec
// §4.2), against the stand-ins of e2e/support/stand-ins/google.ts and meta.ts, which speak
// Google's and Meta's wire formats and reject values beginning with "bad" the way the real
// providers do. Plus the type list entries of the OAuth-only LinkedIn, TikTok and HubSpot types.
// The OAuth browser flow of these types is covered with every other type elsewhere.

type Connection = {
  id: string;
  type: string;
  display_name: string | null;
  external_id: string | null;
  is_private: boolean;
  created_at: number;
  updated_at: number;
};
type ConnectionType = {
  type: string;
  name: string;
  auth_methods: string[];
  credential_fields: string[] | null;
  docs_url: string | null;
};

const GOOGLE = {
  ga4: {
    client_id: "123-abc.apps.googleusercontent.com",
    client_secret: "GOCSPX-ga4",
    refresh_token: "1//ga4-refresh",
  },
  gsc: {
    client_id: "123-abc.apps.googleusercontent.com",
    client_secret: "GOCSPX-gsc",
    refresh_token: "1//gsc-refresh",
  },
  gads: {
    client_id: "123-abc.apps.googleusercontent.com",
    client_secret: "GOCSPX-gads",
    refresh_token: "1//gads-refresh",
    developer_token: "dev-token-22-characters",
  },
} as const;
type GoogleType = keyof typeof GOOGLE;
const META = { app_id: "1234567890123456", app_secret: "meta-app-secret", access_token: "EAAsystemusertoken" };

const body = (connection_type: string, name: string, credentials: Record<string, string>) => ({
  connection_type,
  name,
  credentials,
});

async function teamApi(): Promise<APIRequestContext> {
  return apiAs((await seedTeam({ plan: "team" })).users[0]);
}

async function create(api: APIRequestContext, data: object): Promise<Connection> {
  const res = await api.post("/v1/connections", { data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function list(api: APIRequestContext): Promise<Connection[]> {
  const res = await api.get("/v1/connections");
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const expectUnixSeconds = (t: number) => {
  expect(Number.isInteger(t)).toBe(true);
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.describe("GET /v1/connections/types: Google, Meta, LinkedIn, TikTok and HubSpot", () => {
  test("lists ga4, gads, gsc and meta_ads as white-label types (oauth and manual) with their credential fields", async () => {
    const types: ConnectionType[] = await (await (await teamApi()).get("/v1/connections/types")).json();
    const byType = Object.fromEntries(types.map((t) => [t.type, t]));
    expect(byType.ga4).toMatchObject({
      name: "Google Analytics 4",
      auth_methods: ["oauth", "manual"],
      credential_fields: ["client_id", "client_secret", "refresh_token"],
    });
    expect(byType.gsc).toMatchObject({
      name: "Google Search Console",
      auth_methods: ["oauth", "manual"],
      credential_fields: ["client_id", "client_secret", "refresh_token"],
    });
    expect(byType.gads).toMatchObject({
      name: "Google Ads",
      auth_methods: ["oauth", "manual"],
      credential_fields: ["client_id", "client_secret", "refresh_token", "developer_token"],
    });
    expect(byType.meta_ads).toMatchObject({
      name: "Meta Ads",
      auth_methods: ["oauth", "manual"],
      credential_fields: ["app_id", "app_secret", "access_token"],
    });
  });

  test("lists linkedin_ads, tiktok_ads and hubspot as OAuth-only types without credential fields", async () => {
    const types: ConnectionType[] = await (await (await teamApi()).get("/v1/connections/types")).json();
    const byType = Object.fromEntries(types.map((t) => [t.type, t]));
    expect(byType.linkedin_ads).toMatchObject({
      name: "LinkedIn Ads",
      auth_methods: ["oauth"],
      credential_fields: null,
    });
    expect(byType.tiktok_ads).toMatchObject({ name: "TikTok Ads", auth_methods: ["oauth"], credential_fields: null });
    expect(byType.hubspot).toMatchObject({ name: "HubSpot", auth_methods: ["oauth"], credential_fields: null });
  });

  test("serves each type's docs_url as a plain-markdown page that explains every credential field", async () => {
    const types: ConnectionType[] = await (await (await teamApi()).get("/v1/connections/types")).json();
    const reader = await anonymous();
    const wanted = ["ga4", "gads", "gsc", "meta_ads", "linkedin_ads", "tiktok_ads", "hubspot"];
    const ours = types.filter((t) => wanted.includes(t.type));
    expect(ours.map((t) => t.type).sort()).toEqual([...wanted].sort());
    for (const t of ours) {
      expect(t.docs_url, t.type).toMatch(new RegExp(`^https?://.+/${t.type}\\.md$`));
      const page = await reader.get(t.docs_url!);
      expect(page.status(), t.docs_url!).toBe(200);
      expect(page.headers()["content-type"]).toMatch(/^text\/markdown/);
      const text = await page.text();
      expect(text).toMatch(/^# /);
      expect(text).not.toMatch(/<html/i);
      for (const field of t.credential_fields ?? [])
        expect(text, `${t.type} docs explain ${field}`).toContain(`\`${field}\``);
    }
    const docs = async (type: string) => (await reader.get(ours.find((t) => t.type === type)!.docs_url!)).text();
    expect(await docs("ga4")).toContain("https://www.googleapis.com/auth/analytics.readonly");
    expect(await docs("gads")).toContain("https://www.googleapis.com/auth/adwords");
    expect(await docs("gsc")).toContain("https://www.googleapis.com/auth/webmasters.readonly");
    expect(await docs("meta_ads")).toContain("ads_read");
    expect(await docs("linkedin_ads")).toContain("r_ads_reporting");
    expect(await docs("hubspot")).toContain("crm.objects.contacts.read");
  });
});

test.describe("POST /v1/connections: Google types from your own OAuth client", () => {
  for (const type of Object.keys(GOOGLE) as GoogleType[]) {
    test(`${type}: good credentials create a shared connection named as sent, timestamps in Unix seconds`, async () => {
      const api = await teamApi();
      const res = await api.post("/v1/connections", { data: body(type, "Acme marketing", GOOGLE[type]) });
      expect(res.status(), await res.text()).toBe(200);
      const text = await res.text();
      for (const secret of Object.values(GOOGLE[type])) expect(text).not.toContain(secret);
      const created: Connection = JSON.parse(text);
      expect(created).toEqual({
        id: expect.any(String),
        type,
        display_name: "Acme marketing",
        external_id: null,
        is_private: false,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      });
      expectUnixSeconds(created.created_at);
      expectUnixSeconds(created.updated_at);
      expect((await list(api)).map((c) => c.id)).toEqual([created.id]);
    });

    test(`${type}: posting the same name again replaces in place; another name creates a separate connection`, async () => {
      const api = await teamApi();
      const first = await create(api, body(type, "Brand A", GOOGLE[type]));
      await sleep(1100); // updated_at of the create response has one-second resolution
      const again = await create(api, body(type, "Brand A", { ...GOOGLE[type], refresh_token: "1//rotated-refresh" }));
      expect(again.id).toBe(first.id);
      expect(again.created_at).toBe(first.created_at);
      expect(again.updated_at).toBeGreaterThan(first.updated_at);
      const other = await create(api, body(type, "Brand B", GOOGLE[type]));
      expect(other.id).not.toBe(first.id);
      expect((await list(api)).map((c) => c.display_name).sort()).toEqual(["Brand A", "Brand B"]);
    });

    test(`${type}: an expired refresh token and a token without the scope are rejected with Google's distinct reasons`, async () => {
      const api = await teamApi();
      const expired = await expectError(
        await api.post("/v1/connections", {
          data: body(type, "Expired", { ...GOOGLE[type], refresh_token: "bad-expired-refresh" }),
        }),
        400,
        "Google rejected the credentials",
        "invalid_grant: Token has been expired or revoked.",
      );
      const unscoped = await expectError(
        await api.post("/v1/connections", {
          data: body(type, "No scope", { ...GOOGLE[type], refresh_token: "bad_scope-refresh" }),
        }),
        400,
        "Google rejected the credentials",
        "PERMISSION_DENIED: Request had insufficient authentication scopes.",
      );
      expect(expired).not.toContain("PERMISSION_DENIED");
      expect(unscoped).not.toContain("invalid_grant");
      expect(await list(api)).toEqual([]);
    });
  }

  test("an unknown client or a wrong secret is rejected with Google's invalid_client reasons", async () => {
    const api = await teamApi();
    await expectError(
      await api.post("/v1/connections", {
        data: body("ga4", "Acme", { ...GOOGLE.ga4, client_id: "bad-client.apps.googleusercontent.com" }),
      }),
      400,
      "Google rejected the credentials: invalid_client: The OAuth client was not found.",
    );
    await expectError(
      await api.post("/v1/connections", { data: body("gsc", "Acme", { ...GOOGLE.gsc, client_secret: "bad-secret" }) }),
      400,
      "Google rejected the credentials: invalid_client: Unauthorized",
    );
    expect(await list(api)).toEqual([]);
  });

  test("gads: an invalid developer token and a test-only developer token are rejected with the Ads API's error codes", async () => {
    const api = await teamApi();
    const invalid = await expectError(
      await api.post("/v1/connections", {
        data: body("gads", "Ads", { ...GOOGLE.gads, developer_token: "bad-developer-token" }),
      }),
      400,
      "Google rejected the credentials: DEVELOPER_TOKEN_INVALID: The developer token is not valid.",
    );
    const unapproved = await expectError(
      await api.post("/v1/connections", {
        data: body("gads", "Ads", { ...GOOGLE.gads, developer_token: "bad_unapproved-token" }),
      }),
      400,
      "Google rejected the credentials: DEVELOPER_TOKEN_NOT_APPROVED",
      "only approved for use with test accounts",
    );
    expect(invalid).not.toBe(unapproved);
    expect(await list(api)).toEqual([]);
  });

  test("a rejected rotation leaves the existing connection untouched", async () => {
    const api = await teamApi();
    const first = await create(api, body("ga4", "Acme", GOOGLE.ga4));
    await expectError(
      await api.post("/v1/connections", { data: body("ga4", "Acme", { ...GOOGLE.ga4, refresh_token: "bad-revoked" }) }),
      400,
      "invalid_grant",
    );
    const after = await list(api);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first.id, display_name: "Acme" });
    expect(Math.floor(after[0].updated_at / 1000)).toBe(first.updated_at);
  });

  test("a missing or unrecognised credential field is a 400 before Google is called", async () => {
    const api = await teamApi();
    // The refresh token would be rejected by Google; the field check answers first.
    const withoutDeveloperToken = {
      client_id: GOOGLE.gads.client_id,
      client_secret: GOOGLE.gads.client_secret,
      refresh_token: "bad-expired",
    };
    const missing = await expectError(
      await api.post("/v1/connections", { data: body("gads", "Ads", withoutDeveloperToken) }),
      400,
      "credentials.developer_token",
      "client_id, client_secret, refresh_token, developer_token",
    );
    const unknown = await expectError(
      await api.post("/v1/connections", {
        data: body("ga4", "GA", { ...GOOGLE.ga4, refresh_token: "bad-expired", developer_token: "x" }),
      }),
      400,
      "credentials.developer_token",
    );
    for (const detail of [missing, unknown]) {
      expect(detail).not.toContain("rejected the credentials");
      expect(detail).not.toContain("invalid_grant");
    }
    expect(await list(api)).toEqual([]);
  });

  test("a team without the Team plan cannot create white-label Google connections", async () => {
    const api = await apiAs((await seedTeam({ plan: "pro" })).users[0]);
    await expectError(
      await api.post("/v1/connections", { data: body("ga4", "GA", GOOGLE.ga4) }),
      403,
      "ga4",
      "Team plan",
    );
  });
});

test.describe("POST /v1/connections: Meta Ads from your own app and a system-user token", () => {
  test("good credentials create a shared connection named as sent, timestamps in Unix seconds", async () => {
    const api = await teamApi();
    const res = await api.post("/v1/connections", { data: body("meta_ads", "Acme ads", META) });
    expect(res.status(), await res.text()).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(META.access_token);
    expect(text).not.toContain(META.app_secret);
    const created: Connection = JSON.parse(text);
    expect(created).toMatchObject({ type: "meta_ads", display_name: "Acme ads", external_id: null, is_private: false });
    expectUnixSeconds(created.created_at);
    expectUnixSeconds(created.updated_at);
  });

  test("posting the same name again replaces in place; another name creates a separate connection", async () => {
    const api = await teamApi();
    const first = await create(api, body("meta_ads", "Brand A", META));
    const again = await create(api, body("meta_ads", "Brand A", { ...META, access_token: "EAArotatedtoken" }));
    expect(again.id).toBe(first.id);
    expect(again.created_at).toBe(first.created_at);
    const other = await create(api, body("meta_ads", "Brand B", META));
    expect(other.id).not.toBe(first.id);
    expect((await list(api)).map((c) => c.display_name).sort()).toEqual(["Brand A", "Brand B"]);
  });

  test("an expired token and a token without ads_read are rejected with distinct reasons", async () => {
    const api = await teamApi();
    const expired = await expectError(
      await api.post("/v1/connections", {
        data: body("meta_ads", "Ads", { ...META, access_token: "bad-expired-token" }),
      }),
      400,
      "Meta rejected the credentials",
      "code 190, subcode 463",
      "Error validating access token: Session has expired",
    );
    const unscoped = await expectError(
      await api.post("/v1/connections", {
        data: body("meta_ads", "Ads", { ...META, access_token: "bad_scope-token" }),
      }),
      400,
      "Meta rejected the credentials",
      "lacks the ads_read permission",
    );
    expect(expired).not.toContain("ads_read");
    expect(unscoped).not.toContain("Session has expired");
    expect(await list(api)).toEqual([]);
  });

  test("a wrong app secret, an unknown app and another app's token are rejected with Graph's reasons", async () => {
    const api = await teamApi();
    await expectError(
      await api.post("/v1/connections", { data: body("meta_ads", "Ads", { ...META, app_secret: "bad-secret" }) }),
      400,
      "Meta rejected the credentials: OAuthException (code 190): Invalid OAuth access token signature.",
    );
    await expectError(
      await api.post("/v1/connections", { data: body("meta_ads", "Ads", { ...META, app_id: "bad-app-id" }) }),
      400,
      "Meta rejected the credentials: OAuthException (code 101): Error validating application. Invalid application ID.",
    );
    await expectError(
      await api.post("/v1/connections", { data: body("meta_ads", "Ads", { ...META, access_token: "bad_app-token" }) }),
      400,
      "Meta rejected the credentials",
      "did not match the Viewing App",
    );
    expect(await list(api)).toEqual([]);
  });

  test("a missing or unrecognised credential field is a 400 before Meta is called", async () => {
    const api = await teamApi();
    const missing = await expectError(
      await api.post("/v1/connections", {
        data: body("meta_ads", "Ads", { app_id: META.app_id, access_token: "bad-expired" }),
      }),
      400,
      "credentials.app_secret",
      "app_id, app_secret, access_token",
    );
    const unknown = await expectError(
      await api.post("/v1/connections", {
        data: body("meta_ads", "Ads", { ...META, access_token: "bad-expired", ad_account_id: "act_1" }),
      }),
      400,
      "credentials.ad_account_id",
    );
    for (const detail of [missing, unknown]) expect(detail).not.toContain("rejected the credentials");
    expect(await list(api)).toEqual([]);
  });
});

test.describe("POST /v1/connections: OAuth-only types", () => {
  for (const type of ["linkedin_ads", "tiktok_ads", "hubspot"]) {
    test(`${type} cannot be created from credentials`, async () => {
      const api = await teamApi();
      await expectError(
        await api.post("/v1/connections", { data: body(type, "X", { access_token: "tok" }) }),
        400,
        type,
        "only through OAuth",
      );
      expect(await list(api)).toEqual([]);
    });
  }
});
