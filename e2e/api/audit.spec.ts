import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, apiAs, anonymous, cli, seedTeam, expectError } from "../fixtures";
import { sessionAs } from "../support/session";
import { createLink, connect } from "../support/oauth-flow";

// The audit log (GET /api/dashboard/audit): the sensitive actions of a team, each with who
// did it and to what, readable by the team's owners only, and never holding a secret.

const PASSWORD = "correct horse battery staple";
const unique = () => randomBytes(4).toString("hex");

type AuditEvent = {
  id: string;
  action: string;
  actor: { kind: string; user_id: string | null; email: string | null; api_key_id: string | null };
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
  ip: string | null;
  request_id: string | null;
  created_at: number;
};

async function allEvents(api: APIRequestContext, query = "", limit = 7): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const res = await api.get(
      `/api/dashboard/audit?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(res.status(), await res.text()).toBe(200);
    const page: { data: AuditEvent[]; has_more: boolean; next_cursor: string | null } = await res.json();
    out.push(...page.data);
    if (!page.has_more) return out;
    cursor = page.next_cursor;
  }
  throw new Error("too many pages");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
async function ok<T = any>(res: Awaited<ReturnType<APIRequestContext["get"]>>, status = 200): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

test.describe("audit log", () => {
  test("requires an owner's session: members get 403, an API key (even an owner's) 401, no session 401", async () => {
    const team = await seedTeam({ members: 2, password: PASSWORD });
    const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
    await expectError(await member.get("/api/dashboard/audit"), 403, "owners");
    await expectError(await (await apiAs(team.users[0])).get("/api/dashboard/audit"), 401, "session");
    await expectError(await (await anonymous()).get("/api/dashboard/audit"), 401);
  });

  test("validates its query", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    await expectError(await owner.get("/api/dashboard/audit?action=nope"), 400, "action");
    await expectError(await owner.get("/api/dashboard/audit?limit=0"), 400, "limit");
    await expectError(await owner.get("/api/dashboard/audit?cursor=forged.cursor"), 400, "cursor");
    await expectError(await owner.get("/api/dashboard/audit?colour=red"), 400);
  });

  test("every sensitive action leaves one event with its actor and target, and no secret", async () => {
    test.setTimeout(120_000);
    const team = await seedTeam({ members: 2, password: PASSWORD, name: `Audit ${unique()}` });
    const [ownerUser, memberUser] = team.users;
    const owner = await sessionAs(ownerUser.email, PASSWORD, team.id);
    const api = await apiAs(ownerUser);
    const secrets: string[] = [];

    // API keys: created and revoked in the dashboard; one created by the operator's CLI.
    const key = await ok(await owner.post("/api/dashboard/api-keys", { data: { name: "Audit key" } }));
    secrets.push(key.key);
    await ok(await owner.delete(`/api/dashboard/api-keys/${key.id}`));
    const cliKey = (await cli("apikey", "create", "--team", team.id, "--user", ownerUser.id)).json;
    secrets.push(cliKey.key);

    // Connections through the API key: create, replace (a white-label post of the same name), delete.
    const apiKeyValue = `sk-audit-${unique()}${unique()}`;
    const wl = {
      client_id: `client-${unique()}`,
      client_secret: `secret-${unique()}${unique()}`,
      refresh_token: `refresh-${unique()}${unique()}`,
    };
    secrets.push(apiKeyValue, wl.client_id, wl.client_secret, wl.refresh_token);
    const keyConn = await ok(
      await api.post("/v1/connections", {
        data: { connection_type: "sandbox_key", name: "Audit key conn", credentials: { api_key: apiKeyValue } },
      }),
    );
    const wl1 = await ok(
      await api.post("/v1/connections", {
        data: { connection_type: "sandbox_whitelabel", name: "Audit WL", credentials: wl },
      }),
    );
    const wl2 = await ok(
      await api.post("/v1/connections", {
        data: {
          connection_type: "sandbox_whitelabel",
          name: "Audit WL",
          credentials: { ...wl, refresh_token: `${wl.refresh_token}-2` },
        },
      }),
    );
    expect(wl2.id).toBe(wl1.id);
    await ok(await api.delete(`/v1/connections/${keyConn.id}`));

    // An auth link, and the connection its OAuth flow creates.
    const link = await createLink(api, { connection_type: "sandbox_oauth" });
    secrets.push(new URL(link.url).pathname.split("/").pop()!);
    const done = new URL(await connect(link, "sandbox_oauth"));
    expect(done.searchParams.get("status")).toBe("success");

    // Members: invite and withdraw, invite and accept (a new account), change the role, remove; a member leaves.
    const withdrawn = await ok(
      await owner.post("/api/dashboard/invites", {
        data: { email: `gone-${unique()}@test.patchbay.dev`, role: "member" },
      }),
      201,
    );
    await ok(await owner.delete(`/api/dashboard/invites/${withdrawn.id}`));
    const joinerEmail = `joiner-${unique()}@test.patchbay.dev`;
    const invite = await ok(
      await owner.post("/api/dashboard/invites", { data: { email: joinerEmail, role: "member" } }),
      201,
    );
    secrets.push(new URL(invite.url).pathname.split("/").pop()!, new URL(withdrawn.url).pathname.split("/").pop()!);
    const joinerPassword = `pw-${unique()}${unique()}`;
    secrets.push(joinerPassword);
    const joined = await ok(
      await (await anonymous()).post(`${new URL(invite.url).pathname}/accept`, { data: { password: joinerPassword } }),
      201,
    );
    expect(joined.team_id).toBe(team.id);
    const members: { data: { user_id: string; email: string }[] } = await ok(await owner.get("/api/dashboard/members"));
    const joiner = members.data.find((m) => m.email === joinerEmail)!;
    await ok(await owner.patch(`/api/dashboard/members/${joiner.user_id}`, { data: { role: "owner" } }));
    await ok(await owner.delete(`/api/dashboard/members/${joiner.user_id}`));
    const member = await sessionAs(memberUser.email, PASSWORD, team.id);
    await ok(await member.delete(`/api/dashboard/members/${memberUser.id}`));

    // MCP: a server created, changed and deleted; a token created and revoked.
    const server = await ok(
      await owner.post("/api/dashboard/mcp-servers", { data: { name: "Audit MCP", connection_ids: [wl1.id] } }),
    );
    await ok(
      await owner.patch(`/api/dashboard/mcp-servers/${server.id}`, {
        data: { name: "Audit MCP renamed", connection_ids: [] },
      }),
    );
    const token = await ok(
      await owner.post(`/api/dashboard/mcp-servers/${server.id}/tokens`, { data: { name: "Agent" } }),
    );
    secrets.push(token.token);
    await ok(await owner.delete(`/api/dashboard/mcp-servers/${server.id}/tokens/${token.id}`));
    await ok(await owner.delete(`/api/dashboard/mcp-servers/${server.id}`));

    const events = await allEvents(owner);
    const one = (action: string, targetId?: string) => {
      const found = events.filter((e) => e.action === action && (targetId === undefined || e.target.id === targetId));
      expect(
        found,
        `${action} ${targetId ?? ""}: ${JSON.stringify(events.map((e) => [e.action, e.target.id]))}`,
      ).toHaveLength(1);
      return found[0];
    };
    const bySession = { kind: "session", user_id: ownerUser.id, email: ownerUser.email, api_key_id: null };
    const byKey = { kind: "api_key", user_id: ownerUser.id, email: ownerUser.email, api_key_id: ownerUser.keyId };

    const created = one("api_key.create", key.id);
    expect(created.actor).toEqual(bySession);
    expect(created.target).toEqual({ type: "api_key", id: key.id });
    expect(created.details).toMatchObject({ name: "Audit key", prefix: key.key.slice(0, 12) });
    expect(created.request_id).toMatch(/^req_/);
    expect(one("api_key.revoke", key.id).actor).toEqual(bySession);
    expect(one("api_key.create", cliKey.id).actor).toMatchObject({ kind: "cli", user_id: null });

    expect(one("connection.create", keyConn.id)).toMatchObject({
      actor: byKey,
      target: { type: "connection", id: keyConn.id },
      details: { type: "sandbox_key", via: "credentials" },
    });
    expect(one("connection.create", wl1.id).actor).toEqual(byKey);
    expect(one("connection.replace", wl1.id)).toMatchObject({
      actor: byKey,
      details: { name: "Audit WL", type: "sandbox_whitelabel" },
    });
    expect(one("connection.delete", keyConn.id)).toMatchObject({
      actor: byKey,
      details: { type: "sandbox_key", name: "Audit key conn" },
    });
    expect(one("auth_link.create", link.id)).toMatchObject({
      actor: byKey,
      details: { connection_type: "sandbox_oauth" },
    });
    const viaLink = events.find((e) => e.action === "connection.create" && e.details.auth_link_id === link.id)!;
    expect(viaLink.actor).toMatchObject({ kind: "auth_link", user_id: ownerUser.id, email: ownerUser.email });

    expect(one("invite.create", withdrawn.id).details).toMatchObject({ email: withdrawn.email, role: "member" });
    expect(one("invite.revoke", withdrawn.id).actor).toEqual(bySession);
    expect(one("invite.create", invite.id).actor).toEqual(bySession);
    expect(one("invite.accept", invite.id).actor).toMatchObject({
      kind: "invite_link",
      user_id: joiner.user_id,
      email: joinerEmail,
    });
    expect(one("member.role_change", joiner.user_id)).toMatchObject({
      actor: bySession,
      details: { from: "member", to: "owner" },
    });
    expect(one("member.remove", joiner.user_id)).toMatchObject({
      actor: bySession,
      target: { type: "user", id: joiner.user_id },
    });
    expect(one("member.leave", memberUser.id).actor).toMatchObject({ kind: "session", user_id: memberUser.id });

    expect(one("mcp_server.create", server.id)).toMatchObject({
      actor: bySession,
      details: { name: "Audit MCP", connection_ids: [wl1.id] },
    });
    expect(one("mcp_server.update", server.id).details).toMatchObject({
      name: "Audit MCP renamed",
      renamed_from: "Audit MCP",
      connection_ids: [],
    });
    expect(one("mcp_token.create", token.id)).toMatchObject({
      actor: bySession,
      details: { mcp_server_id: server.id, prefix: token.prefix },
    });
    expect(one("mcp_token.revoke", token.id).actor).toEqual(bySession);
    expect(one("mcp_server.delete", server.id).actor).toEqual(bySession);

    // Newest first, without gaps or repeats across pages.
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.map((e) => e.created_at)).toEqual([...events.map((e) => e.created_at)].sort((a, b) => b - a));
    expect(await allEvents(owner, "", 100)).toEqual(events);

    // No secret anywhere in the log: keys, tokens, credential values, link and invite tokens, passwords.
    const text = JSON.stringify(events);
    for (const secret of secrets)
      expect(text.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the audit log`).toBe(false);

    // The filter: exactly one action.
    const onlyRevokes = await allEvents(owner, "&action=mcp_token.revoke");
    expect(onlyRevokes.map((e) => e.id)).toEqual([one("mcp_token.revoke", token.id).id]);

    // Another team's owner sees none of this.
    const other = await seedTeam({ password: PASSWORD });
    const otherOwner = await sessionAs(other.users[0].email, PASSWORD, other.id);
    const theirs = await allEvents(otherOwner, "", 100);
    const ours = new Set(events.map((e) => e.id));
    expect(theirs.filter((e) => ours.has(e.id))).toEqual([]);
    // Naming our team from their session is refused (not a member), so it cannot be read either.
    const crossTeam = await sessionAs(other.users[0].email, PASSWORD, team.id);
    await expectError(await crossTeam.get("/api/dashboard/audit"), 404, "not a member");
  });
});
