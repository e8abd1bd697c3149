import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, anonymous, expectError } from "../fixtures";

// The manual-credential paths of the real Shopify, Slack and five API-key types (spec §4.2,
// §4.3, §7), against the stand-ins in e2e/support/stand-ins (shopify.ts, slack.ts,
// api-keys.ts), which accept any credential except one beginning with `bad` and answer in
// each provider's own wire format. Every test makes its own team.

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

const EXPECTED_TYPES: Record<string, Omit<ConnectionType, "type" | "docs_url">> = {
  shopify: { name: "Shopify", auth_methods: ["oauth", "manual"], credential_fields: ["shop_domain", "access_token"] },
  slack: { name: "Slack", auth_methods: ["oauth", "manual"], credential_fields: ["bot_token"] },
  openai: { name: "OpenAI", auth_methods: ["manual"], credential_fields: ["api_key"] },
  anthropic: { name: "Anthropic", auth_methods: ["manual"], credential_fields: ["api_key"] },
  klaviyo: { name: "Klaviyo", auth_methods: ["manual"], credential_fields: ["private_api_key"] },
  semrush: { name: "Semrush", auth_methods: ["manual"], credential_fields: ["api_key"] },
  stripe: { name: "Stripe", auth_methods: ["manual"], credential_fields: ["secret_key"] },
};

const expectUnixSeconds = (t: number) => {
  expect(Number.isInteger(t)).toBe(true);
  expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function create(api: APIRequestContext, body: object): Promise<Connection> {
  const res = await api.post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function list(api: APIRequestContext, type: string): Promise<Connection[]> {
  const res = await api.get(`/v1/connections?type=${type}`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A freshly created connection from credentials: the spec's exact shape, seconds timestamps. */
function expectCreated(c: Connection, type: string, name: string) {
  expect(c).toEqual({
    id: expect.any(String),
    type,
    display_name: name,
    external_id: null,
    is_private: false,
    created_at: expect.any(Number),
    updated_at: expect.any(Number),
  });
  expectUnixSeconds(c.created_at);
  expectUnixSeconds(c.updated_at);
}

test.describe("GET /v1/connections/types", () => {
  test("lists Shopify, Slack and the five API-key types with their auth methods, credential fields and docs page", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const res = await api.get("/v1/connections/types");
    expect(res.status()).toBe(200);
    const byType = Object.fromEntries(((await res.json()) as ConnectionType[]).map((t) => [t.type, t]));
    for (const [type, expected] of Object.entries(EXPECTED_TYPES)) {
      expect(byType[type], type).toMatchObject({ type, ...expected });
      expect(byType[type].docs_url, type).toMatch(new RegExp(`^https?://.+/docs/connections/${type}\\.md$`));
    }
  });

  test("each docs page is plain markdown that names every credential field and the rotation rule", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const types: ConnectionType[] = await (await api.get("/v1/connections/types")).json();
    const reader = await anonymous();
    const rotationText: Record<string, string> = { shopify: "whatever name you send", slack: "whatever name you send" };
    for (const t of types.filter((t) => t.type in EXPECTED_TYPES)) {
      const page = await reader.get(t.docs_url!);
      expect(page.status(), t.docs_url!).toBe(200);
      expect(page.headers()["content-type"]).toMatch(/^text\/markdown/);
      const text = await page.text();
      expect(text).toMatch(new RegExp(`^# ${t.name}\\n`));
      expect(text).not.toMatch(/<html/i);
      for (const field of t.credential_fields ?? [])
        expect(text, `${t.type} docs name ${field}`).toContain(`\`${field}\``);
      expect(text).toContain(rotationText[t.type] ?? "Every post creates a **new connection**");
    }
  });
});

test.describe("Shopify (storefront: keyed on the store)", () => {
  const shopify = (name: string, shop_domain: string, access_token: string) => ({
    connection_type: "shopify",
    name,
    credentials: { shop_domain, access_token },
  });

  test("is white-label capable, so creating it from credentials needs the Team plan", async () => {
    const api = await apiAs((await seedTeam({ plan: "free" })).users[0]);
    await expectError(
      await api.post("/v1/connections", { data: shopify("Acme", "acme.myshopify.com", "shpat_1") }),
      403,
      "Team plan",
    );
  });

  test("creates a connection for a working Admin API token: display_name = name, external_id null, timestamps in seconds", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const res = await api.post("/v1/connections", {
      data: shopify("Acme store", "acme.myshopify.com", "shpat_secret_1"),
    });
    expect(res.status(), await res.text()).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("shpat_secret_1");
    expectCreated(JSON.parse(text), "shopify", "Acme store");
  });

  test("posting the same store again replaces in place whatever name is sent", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const first = await create(api, shopify("Acme store", "acme.myshopify.com", "shpat_old"));
    await sleep(1100); // updated_at of the create response has one-second resolution
    // A new token for the same store (the domain written as pasted from a browser) and another name.
    const second = await create(api, shopify("Acme (renamed)", "https://ACME.myshopify.com/", "shpat_new"));
    expect(second.id).toBe(first.id);
    expect(second.display_name).toBe("Acme (renamed)");
    expect(second.created_at).toBe(first.created_at);
    expect(second.updated_at).toBeGreaterThan(first.updated_at);
    const listed = await list(api, "shopify");
    expect(listed.map((c) => [c.id, c.display_name])).toEqual([[first.id, "Acme (renamed)"]]);
  });

  test("another store creates a separate connection, even with the same name", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const a = await create(api, shopify("Store", "acme.myshopify.com", "shpat_a"));
    const b = await create(api, shopify("Store", "globex.myshopify.com", "shpat_b"));
    expect(b.id).not.toBe(a.id);
    expect((await list(api, "shopify")).map((c) => c.id).sort()).toEqual([a.id, b.id].sort());
  });

  test("an invalid token and a missing scope are rejected with Shopify's own, different reasons", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const invalid = await expectError(
      await api.post("/v1/connections", { data: shopify("Acme", "acme.myshopify.com", "bad_token") }),
      400,
      "Shopify rejected the credentials: [API] Invalid API key or access token (unrecognized login or wrong password)",
    );
    const scope = await expectError(
      await api.post("/v1/connections", { data: shopify("Acme", "acme.myshopify.com", "bad_scope_token") }),
      400,
      "Shopify rejected the credentials: [API] This action requires merchant approval for read_orders scope.",
    );
    expect(scope).not.toBe(invalid);
    expect(await list(api, "shopify")).toEqual([]);
  });

  test("a shop_domain that is not a myshopify.com domain is rejected with a clear reason", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    for (const domain of ["acme.com", "acme", "evil.example/x?.myshopify.com", "-acme.myshopify.com"]) {
      await expectError(
        await api.post("/v1/connections", { data: shopify("Acme", domain, "shpat_1") }),
        400,
        "is not a store's myshopify.com domain",
        "acme.myshopify.com",
      );
    }
    expect(await list(api, "shopify")).toEqual([]);
  });

  test("a missing or unrecognised credential field is a 400 before any call to Shopify", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    // `bad…` tokens would be refused by Shopify: the detail shows no call was made.
    const missing = await expectError(
      await api.post("/v1/connections", {
        data: { connection_type: "shopify", name: "Acme", credentials: { access_token: "bad_token" } },
      }),
      400,
      "credentials.shop_domain",
    );
    expect(missing).not.toContain("rejected");
    const unknown = await expectError(
      await api.post("/v1/connections", {
        data: {
          connection_type: "shopify",
          name: "Acme",
          credentials: { shop_domain: "acme.myshopify.com", access_token: "bad_token", api_key: "x" },
        },
      }),
      400,
      "credentials.api_key",
    );
    expect(unknown).not.toContain("rejected");
  });
});

test.describe("Slack (team messaging: keyed on workspace and app)", () => {
  const slack = (name: string, bot_token: string) => ({ connection_type: "slack", name, credentials: { bot_token } });

  test("is white-label capable, so creating it from credentials needs the Team plan", async () => {
    const api = await apiAs((await seedTeam({ plan: "free" })).users[0]);
    await expectError(await api.post("/v1/connections", { data: slack("Acme", "xoxb-1-2-a") }), 403, "Team plan");
  });

  test("creates a connection for a working bot token: display_name = name, external_id null, timestamps in seconds", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const res = await api.post("/v1/connections", { data: slack("Acme workspace", "xoxb-1001-2002-secret") });
    expect(res.status(), await res.text()).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("xoxb-1001-2002-secret");
    expectCreated(JSON.parse(text), "slack", "Acme workspace");
  });

  test("posting the same workspace and app again replaces in place whatever name is sent", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    // The stand-in reads `xoxb-<workspace>-<app>-…`: a reinstall gives a new token for the same pair.
    const first = await create(api, slack("Acme", "xoxb-1001-2002-first"));
    await sleep(1100);
    const second = await create(api, slack("Acme (reinstalled)", "xoxb-1001-2002-second"));
    expect(second.id).toBe(first.id);
    expect(second.display_name).toBe("Acme (reinstalled)");
    expect(second.created_at).toBe(first.created_at);
    expect(second.updated_at).toBeGreaterThan(first.updated_at);
    expect((await list(api, "slack")).map((c) => [c.id, c.display_name])).toEqual([[first.id, "Acme (reinstalled)"]]);
  });

  test("another app in the same workspace, or another workspace, creates a separate connection", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const a = await create(api, slack("Bot", "xoxb-1001-2002-a"));
    const otherApp = await create(api, slack("Bot", "xoxb-1001-3003-b"));
    const otherWorkspace = await create(api, slack("Bot", "xoxb-4004-2002-c"));
    expect(new Set([a.id, otherApp.id, otherWorkspace.id]).size).toBe(3);
    expect(await list(api, "slack")).toHaveLength(3);
  });

  test("Slack's refusals reach the caller with Slack's error codes; an expired token and a missing scope differ", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    await expectError(
      await api.post("/v1/connections", { data: slack("Acme", "bad_token") }),
      400,
      "Slack rejected the credentials: invalid_auth",
    );
    await expectError(
      await api.post("/v1/connections", { data: slack("Acme", "bad_revoked_token") }),
      400,
      "Slack rejected the credentials: token_revoked",
    );
    const expired = await expectError(
      await api.post("/v1/connections", { data: slack("Acme", "bad_expired_token") }),
      400,
      "Slack rejected the credentials: token_expired",
    );
    const scope = await expectError(
      await api.post("/v1/connections", { data: slack("Acme", "bad_scope_token") }),
      400,
      "Slack rejected the credentials: missing_scope: needed users:read (token has chat:write)",
    );
    expect(scope).not.toBe(expired);
    expect(await list(api, "slack")).toEqual([]);
  });

  test("a missing or unrecognised credential field is a 400 before any call to Slack", async () => {
    const api = await apiAs((await seedTeam()).users[0]);
    const missing = await expectError(
      await api.post("/v1/connections", { data: { connection_type: "slack", name: "Acme", credentials: {} } }),
      400,
      "credentials.bot_token",
    );
    expect(missing).not.toContain("rejected");
    const unknown = await expectError(
      await api.post("/v1/connections", {
        data: { connection_type: "slack", name: "Acme", credentials: { token: "bad_token" } },
      }),
      400,
      "credentials.token",
      "credentials.bot_token",
    );
    expect(unknown).not.toContain("rejected");
  });
});

// Per API-key type: its field, a working key, and the provider's reason for an invalid key and
// for a key without the permission the identity call needs.
const API_KEY_TYPES = [
  {
    type: "openai",
    field: "api_key",
    good: "sk-proj-good-key-0001",
    invalid: ["bad_key_0123456789", "OpenAI rejected the credentials: invalid_api_key: Incorrect API key provided"],
    scope: [
      "bad_scope_0123456789",
      "OpenAI rejected the credentials: invalid_request_error: You have insufficient permissions for this operation. Missing scopes: api.model.read",
    ],
  },
  {
    type: "anthropic",
    field: "api_key",
    good: "sk-ant-api03-good-0001",
    invalid: ["bad_key_0123456789", "Anthropic rejected the credentials: authentication_error: invalid x-api-key"],
    scope: ["bad_scope_0123456789", "Anthropic rejected the credentials: permission_error:"],
  },
  {
    type: "klaviyo",
    field: "private_api_key",
    good: "pk_good_0001",
    invalid: [
      "bad_key_0123456789",
      "Klaviyo rejected the credentials: not_authenticated: Missing or invalid private key.",
    ],
    scope: [
      "bad_scope_0123456789",
      "Klaviyo rejected the credentials: permission_denied: Your API key is missing required scopes: accounts:read",
    ],
  },
  {
    type: "semrush",
    field: "api_key",
    good: "0123456789abcdef0123456789abcdef",
    invalid: ["bad_key_0123456789", "Semrush rejected the credentials: ERROR 120 :: WRONG KEY - ID PAIR"],
    scope: ["bad_scope_0123456789", "Semrush rejected the credentials: ERROR 130 :: API DISABLED"],
  },
  {
    type: "stripe",
    field: "secret_key",
    good: "sk_test_good0001",
    invalid: [
      "bad_key_0123456789",
      "Stripe rejected the credentials: invalid_request_error: Invalid API Key provided:",
    ],
    scope: [
      "bad_scope_0123456789",
      "Having the 'rak_accounts_kyc_basic_read' permission would allow this request to continue.",
    ],
  },
] as const;

for (const k of API_KEY_TYPES) {
  test.describe(`${k.type} (API key: every post creates a new connection)`, () => {
    const body = (name: string, value: string) => ({
      connection_type: k.type,
      name,
      credentials: { [k.field]: value },
    });

    test("creates a connection on any plan: display_name = name, external_id null, timestamps in seconds", async () => {
      const api = await apiAs((await seedTeam({ plan: "free" })).users[0]);
      const res = await api.post("/v1/connections", { data: body("Production key", k.good) });
      expect(res.status(), await res.text()).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(k.good);
      expectCreated(JSON.parse(text), k.type, "Production key");
    });

    test("posting the same key and name again creates a new connection", async () => {
      const api = await apiAs((await seedTeam()).users[0]);
      const first = await create(api, body("Same", k.good));
      const second = await create(api, body("Same", k.good));
      expect(second.id).not.toBe(first.id);
      expect((await list(api, k.type)).map((c) => c.id).sort()).toEqual([first.id, second.id].sort());
    });

    test("an invalid key and a key lacking permission are rejected with the provider's own, different reasons", async () => {
      const api = await apiAs((await seedTeam()).users[0]);
      const invalid = await expectError(
        await api.post("/v1/connections", { data: body("Key", k.invalid[0]) }),
        400,
        k.invalid[1],
      );
      const scope = await expectError(
        await api.post("/v1/connections", { data: body("Key", k.scope[0]) }),
        400,
        k.scope[1],
      );
      expect(scope).not.toBe(invalid);
      // Providers echo a masked key at most.
      expect(invalid).not.toContain(k.invalid[0]);
      expect(scope).not.toContain(k.scope[0]);
      expect(await list(api, k.type)).toEqual([]);
    });

    test("a missing or unrecognised credential field is a 400 before any call to the provider", async () => {
      const api = await apiAs((await seedTeam()).users[0]);
      const missing = await expectError(
        await api.post("/v1/connections", { data: { connection_type: k.type, name: "Key", credentials: {} } }),
        400,
        `credentials.${k.field}`,
      );
      expect(missing).not.toContain("rejected");
      const wrongName = k.field === "api_key" ? "key" : "api_key";
      const unknown = await expectError(
        await api.post("/v1/connections", {
          data: { connection_type: k.type, name: "Key", credentials: { [wrongName]: "bad_key_0123456789" } },
        }),
        400,
        `credentials.${wrongName}`,
        `credentials.${k.field}`,
      );
      expect(unknown).not.toContain("rejected");
    });
  });
}

test("Stripe tells an expired key from an invalid one", async () => {
  const api = await apiAs((await seedTeam()).users[0]);
  const expired = await expectError(
    await api.post("/v1/connections", {
      data: { connection_type: "stripe", name: "Key", credentials: { secret_key: "bad_expired_0123456789" } },
    }),
    400,
    "Stripe rejected the credentials: api_key_expired: Expired API Key provided:",
  );
  expect(expired).not.toContain("Invalid API Key");
});
