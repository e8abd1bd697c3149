import { test, expect, seedTeam, expectError } from "../fixtures";
import { startExtraServer, withoutOAuthApps, type ExtraServer } from "../support/extra-server";
import { sessionAs } from "../support/session";
import { requestContext } from "../support/request-context";

// Spec §2.2 and CONTRACT §7: GET /v1/connections/types lists only what can be connected on this
// server, each type with a non-empty auth_methods. A type whose only way in is an OAuth app the
// server lacks is left out of the API, and shown to owners in the dashboard with the settings
// that would enable it.

type ConnectionType = { type: string; auth_methods: string[]; credential_fields: string[] | null };
type DashboardType = ConnectionType & { logo: string | null; missing_settings: string[] };

const PASSWORD = "correct horse battery staple";
let server: ExtraServer;

test.beforeAll(async () => {
  // The run's provider stand-ins, less the LinkedIn, TikTok, HubSpot and Google OAuth apps.
  server = await startExtraServer(withoutOAuthApps("LINKEDIN", "TIKTOK", "HUBSPOT", "GOOGLE"));
});
test.afterAll(async () => server?.stop());

const keyed = (key: string) =>
  requestContext({ baseURL: server.baseUrl, extraHTTPHeaders: { authorization: `Bearer ${key}` } });

test("types that cannot be connected here are not listed; white-label types without their OAuth app offer manual only", async () => {
  const team = await seedTeam();
  const res = await (await keyed(team.users[0].key)).get("/v1/connections/types");
  expect(res.status()).toBe(200);
  const types: ConnectionType[] = await res.json();
  const byType = Object.fromEntries(types.map((t) => [t.type, t]));
  for (const t of types) expect(t.auth_methods.length, `${t.type} auth_methods`).toBeGreaterThan(0);
  for (const gone of ["linkedin_ads", "tiktok_ads", "hubspot"]) expect(byType[gone], gone).toBeUndefined();
  for (const google of ["ga4", "gads", "gsc"])
    expect(byType[google], google).toMatchObject({ auth_methods: ["manual"] });
  // Configured apps and built-in providers are still offered both ways.
  expect(byType.meta_ads).toMatchObject({ auth_methods: ["oauth", "manual"] });
  expect(byType.sandbox_oauth).toMatchObject({ auth_methods: ["oauth"] });
  expect(byType.openai).toMatchObject({ auth_methods: ["manual"] });
});

test("an auth link for a type that is not set up is a 400 naming the settings", async () => {
  const team = await seedTeam();
  const res = await (
    await keyed(team.users[0].key)
  ).post("/v1/connections/auth-link", { data: { connection_type: "linkedin_ads" } });
  await expectError(res, 400, "OAUTH_LINKEDIN_CLIENT_ID", "OAUTH_LINKEDIN_CLIENT_SECRET");
});

test("the dashboard shows an owner each type that is not set up with the exact settings; a member sees only what can be connected", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id, server.baseUrl);
  const ownerTypes: DashboardType[] = await (await owner.get("/api/dashboard/connection-types")).json();
  const byType = Object.fromEntries(ownerTypes.map((t) => [t.type, t]));
  expect(byType.linkedin_ads).toMatchObject({
    auth_methods: [],
    missing_settings: ["OAUTH_LINKEDIN_CLIENT_ID", "OAUTH_LINKEDIN_CLIENT_SECRET"],
  });
  expect(byType.tiktok_ads).toMatchObject({
    auth_methods: [],
    missing_settings: ["OAUTH_TIKTOK_CLIENT_ID", "OAUTH_TIKTOK_CLIENT_SECRET"],
  });
  expect(byType.hubspot).toMatchObject({
    auth_methods: [],
    missing_settings: ["OAUTH_HUBSPOT_CLIENT_ID", "OAUTH_HUBSPOT_CLIENT_SECRET"],
  });
  // A white-label type says what would add auth links to it.
  expect(byType.ga4).toMatchObject({
    auth_methods: ["manual"],
    missing_settings: ["OAUTH_GOOGLE_CLIENT_ID", "OAUTH_GOOGLE_CLIENT_SECRET"],
  });
  expect(byType.meta_ads).toMatchObject({ auth_methods: ["oauth", "manual"], missing_settings: [] });

  const member = await sessionAs(team.users[1].email, PASSWORD, team.id, server.baseUrl);
  const memberTypes: DashboardType[] = await (await member.get("/api/dashboard/connection-types")).json();
  for (const t of memberTypes) {
    expect(t.auth_methods.length, t.type).toBeGreaterThan(0);
    expect(t.missing_settings, t.type).toEqual([]);
  }
  expect(memberTypes.map((t) => t.type).sort()).toEqual(
    ownerTypes
      .filter((t) => t.auth_methods.length > 0)
      .map((t) => t.type)
      .sort(),
  );
});
