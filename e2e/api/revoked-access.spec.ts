import { test, expect, seedTeam, apiAs, cli, seed, type SeededTeam } from "../fixtures";
import { createLink, connect } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";

// Issue 11 §5: access revoked at the provider while the stored access token is unexpired. The
// provider's 401 / invalid_token on use leads to one refresh attempt; if that is refused too,
// the connection needs re-authorization (state, badge source and 409) exactly as when a
// scheduled refresh is refused. `sandbox revoke` (CONTRACT §4) is the user revoking access at
// the sandbox provider.

const PASSWORD = "correct horse battery staple";

async function oauthConnection(
  team: SeededTeam,
  type = "sandbox_oauth",
  account = `acct-${Math.random().toString(36).slice(2, 8)}`,
) {
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: type, external_id: `client-${account}` });
  await connect(link, type, { account });
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.status).toBe("connected");
  return { id: status.connection_id as string, account };
}

async function agentFor(team: SeededTeam, connectionId: string) {
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Revocation agent",
    "--connections",
    connectionId,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return mcpClient(made.json.token);
}

// Each call asks something new, so no answer comes from the response cache.
let day = 0;
const report = (connectionId: string) => ({
  name: "sandbox_report",
  arguments: {
    connection_id: connectionId,
    metric: "sessions",
    days: 1,
    end_date: `2026-01-${String(++day).padStart(2, "0")}`,
  },
});
const text = (result: Record<string, unknown>) =>
  ((result.content as { text: string }[] | undefined) ?? []).map((c) => c.text).join("\n");

test("revoked at the provider: the next use marks the connection for re-authorization, and a new auth link for the account restores it", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const { id, account } = await oauthConnection(team);
  const client = await agentFor(team, id);
  const ok = await client.callTool(report(id));
  expect(ok.isError, text(ok)).toBeFalsy();
  const before = await seed("oauthTokens", { id });
  expect(before.expiresAt).toBeGreaterThan(Date.now() + 30 * 60_000); // the token is far from expiry

  const revoked = await cli("sandbox", "revoke", "--connection", id);
  expect(revoked).toEqual({ code: 0, json: { revoked: true } });

  const refused = await client.callTool(report(id));
  expect(refused.isError).toBe(true);
  expect(text(refused)).toContain("needs to be re-authorized");
  expect(text(refused)).toContain("revoked");
  expect((await seed("oauthTokens", { id })).needsReauthAt).toBeTruthy();
  // The dashboard's badge and re-authorize link read this list.
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const flagged: { id: string }[] = await (await owner.get("/api/dashboard/connections/needs-reauth")).json();
  expect(flagged.map((c) => c.id)).toEqual([id]);
  // Until it is re-authorized, uses fail at once with the same answer.
  expect(text(await client.callTool(report(id)))).toContain("needs to be re-authorized");

  // The re-authorize link: the same type and external_id, the same account; replaced in place.
  await connect(
    await createLink(await apiAs(team.users[0]), {
      connection_type: "sandbox_oauth",
      external_id: `client-${account}`,
    }),
    "sandbox_oauth",
    { account },
  );
  expect((await seed("oauthTokens", { id })).needsReauthAt).toBeNull();
  const back = await client.callTool(report(id));
  expect(back.isError, text(back)).toBeFalsy();
  expect(await (await owner.get("/api/dashboard/connections/needs-reauth")).json()).toEqual([]);
});

test("an access token refused while its grant still stands is refreshed once, the call succeeds and nothing is marked", async () => {
  const team = await seedTeam();
  const { id } = await oauthConnection(team);
  const client = await agentFor(team, id);
  // A token the provider never issued (as after a password change that kills access tokens only).
  await seed("oauthTokens", { id, accessToken: "sbx_at.not-a-token" });
  const result = await client.callTool(report(id));
  expect(result.isError, text(result)).toBeFalsy();
  const after = await seed("oauthTokens", { id });
  expect(after.accessToken).not.toBe("sbx_at.not-a-token");
  expect(after.needsReauthAt).toBeNull();
});

test("a white-label connection made through OAuth is revoked the same way", async () => {
  const team = await seedTeam();
  const { id } = await oauthConnection(team, "sandbox_whitelabel");
  const client = await agentFor(team, id);
  expect((await client.callTool(report(id))).isError).toBeFalsy();
  expect((await cli("sandbox", "revoke", "--connection", id)).json).toEqual({ revoked: true });
  expect(text(await client.callTool(report(id)))).toContain("needs to be re-authorized");
  expect((await seed("oauthTokens", { id })).needsReauthAt).toBeTruthy();
});

test("a white-label connection from credentials: its refresh token revoked, a use is refused with the provider's reason", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: {
      connection_type: "sandbox_whitelabel",
      name: "Own app",
      credentials: { client_id: "cid", client_secret: "cs", refresh_token: `rt-${Date.now()}` },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { id } = await res.json();
  const client = await agentFor(team, id);
  expect((await client.callTool(report(id))).isError).toBeFalsy();
  expect((await cli("sandbox", "revoke", "--connection", id)).json).toEqual({ revoked: true });
  const refused = await client.callTool(report(id));
  expect(refused.isError).toBe(true);
  expect(text(refused)).toContain("invalid_grant");
});

test("sandbox revoke refuses what has no grant and what does not exist", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const key = await (
    await api.post("/v1/connections", {
      data: { connection_type: "sandbox_key", name: "Key", credentials: { api_key: "k-1" } },
    })
  ).json();
  const onKey = await cli("sandbox", "revoke", "--connection", key.id);
  expect(onKey.code).toBe(1);
  expect(onKey.json.error).toContain("sandbox_key");
  const missing = await cli("sandbox", "revoke", "--connection", "conn_doesnotexist000000");
  expect(missing.code).toBe(1);
  expect(missing.json.error).toContain("conn_doesnotexist000000");
  const noFlag = await cli("sandbox", "revoke");
  expect(noFlag.code).toBe(1);
  expect(noFlag.json.error).toContain("connection");
});

test("a real provider type (GA4 against Google's stand-in): a refused access token is refreshed once; a refused refresh then marks the connection", async () => {
  const team = await seedTeam();
  const { id } = await oauthConnection(team, "ga4", `ga4-${Math.random().toString(36).slice(2, 8)}`);
  const client = await agentFor(team, id);
  const ga4 = (n: number) => ({
    name: "ga4_run_report",
    arguments: {
      connection_id: id,
      property_id: "123456789",
      metrics: ["sessions"],
      dimensions: ["date"],
      start_date: `2026-02-0${n}`,
      end_date: `2026-02-0${n}`,
    },
  });

  // Google answers an access token it does not know with 401 and WWW-Authenticate: Bearer error="invalid_token".
  await seed("oauthTokens", { id, accessToken: "ya29.revoked-at-google" });
  const refreshed = await client.callTool(ga4(1));
  expect(refreshed.isError, text(refreshed)).toBeFalsy();
  expect((await seed("oauthTokens", { id })).accessToken).not.toBe("ya29.revoked-at-google");

  // The user removed the app at myaccount.google.com: the access token and the refresh token die.
  await seed("oauthTokens", { id, accessToken: "ya29.revoked-at-google", refreshToken: "bad_revoked" });
  const refused = await client.callTool(ga4(2));
  expect(refused.isError).toBe(true);
  expect(text(refused)).toContain("invalid_grant");
  expect(text(refused)).toContain("needs to be re-authorized");
  expect((await seed("oauthTokens", { id })).needsReauthAt).toBeTruthy();
});
