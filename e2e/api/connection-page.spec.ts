import { test, expect, seed, seedTeam, apiAs, cli, expectError, anonymous } from "../fixtures";
import { sessionAs } from "../support/session";
import type { APIRequestContext } from "@playwright/test";

// Issue 50: the dashboard routes behind the connection page and the Connections list: facts
// (health, last use, stale, duplicates), the page (what uses it, consent words), spend, recent
// errors, Check now, Rename, and the bulk delete's preview and run.

const PASSWORD = "correct horse battery staple";
const DAY = 86_400;

async function world(options: { members?: number } = {}) {
  const team = await seedTeam({ password: PASSWORD, members: options.members ?? 1 });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const api = await apiAs(team.users[0]);
  return { team, session, api };
}

/** A sandbox_key connection; the same `apiKey` is the same provider account. */
async function connect(api: APIRequestContext, name: string, apiKey: string, isPrivate = false) {
  const res = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: apiKey }, is_private: isPrivate },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string; display_name: string };
}

const uniqueKey = () => `key-${Math.random().toString(36).slice(2)}`;

test("requires the session; another team's connection and another member's private one are 404", async () => {
  const { team, session, api } = await world({ members: 2 });
  const mine = await connect(api, "Mine", uniqueKey(), true);
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const other = await world();
  for (const path of [
    `/api/dashboard/connections/${mine.id}`,
    `/api/dashboard/connections/${mine.id}/spend`,
    `/api/dashboard/connections/${mine.id}/errors`,
  ]) {
    expect((await session.get(path)).status(), path).toBe(200);
    await expectError(await member.get(path), 404, "No connection");
    await expectError(await other.session.get(path), 404, "No connection");
    // An API key is not a dashboard session.
    await expectError(await api.get(path), 401);
    await expectError(await (await anonymous()).get(path), 401);
  }
  await expectError(await member.post(`/api/dashboard/connections/${mine.id}/check`), 404);
  await expectError(
    await member.patch(`/api/dashboard/connections/${mine.id}`, { data: { display_name: "Taken" } }),
    404,
  );
  await expectError(
    await member.post("/api/dashboard/connections/bulk-delete/preview", { data: { connection_ids: [mine.id] } }),
    404,
    mine.id,
  );
  await expectError(
    await member.post("/api/dashboard/connections/bulk-delete", { data: { connection_ids: [mine.id] } }),
    404,
  );
  // The member's facts leave it out; the owner's list it.
  const memberFacts = await (await member.get("/api/dashboard/connections/facts")).json();
  expect(memberFacts.map((f: { id: string }) => f.id)).not.toContain(mine.id);
  const ownerFacts = await (await session.get("/api/dashboard/connections/facts")).json();
  expect(ownerFacts.map((f: { id: string }) => f.id)).toContain(mine.id);
  // Still there, with its name.
  expect((await (await api.get(`/v1/connections/${mine.id}`)).json())[0].display_name).toBe("Mine");
});

test("validates input with a detail", async () => {
  const { session, api } = await world();
  const c = await connect(api, "Valid", uniqueKey());
  const rename = (data: unknown) => session.patch(`/api/dashboard/connections/${c.id}`, { data: data as object });
  await expectError(await rename({}), 400, "display_name");
  await expectError(await rename({ display_name: "   " }), 400, "display_name", "blank");
  await expectError(await rename({ display_name: "x".repeat(101) }), 400, "display_name", "100");
  await expectError(await rename({ display_name: 5 }), 400, "display_name");
  await expectError(await rename({ display_name: "ok", extra: 1 }), 400, "extra");
  await expectError(
    await session.patch(`/api/dashboard/connections/${c.id}`, {
      data: "not an object",
      headers: { "content-type": "application/json" },
    }),
    400,
    "expected object",
  );
  await expectError(await session.get(`/api/dashboard/connections/facts?x=1`), 400, "x");
  const bulk = (data: unknown) =>
    session.post("/api/dashboard/connections/bulk-delete/preview", { data: data as object });
  await expectError(await bulk({}), 400, "connection_ids");
  await expectError(await bulk({ connection_ids: [] }), 400, "connection_ids", "at least one");
  await expectError(await bulk({ connection_ids: "conn_1" }), 400, "connection_ids");
  await expectError(await bulk({ connection_ids: [""] }), 400, "connection_id");
  await expectError(
    await bulk({ connection_ids: Array.from({ length: 101 }, (_, i) => `conn_${i}`) }),
    400,
    "more than 100",
  );
  await expectError(
    await session.post("/api/dashboard/connections/bulk-delete", { data: { connection_ids: [] } }),
    400,
    "connection_ids",
  );
  await expectError(await session.get(`/api/dashboard/connections/${c.id}/check`), 405);
  // Nothing was renamed or deleted by any of it.
  expect((await (await api.get(`/v1/connections/${c.id}`)).json())[0].display_name).toBe("Valid");
});

test("facts: duplicates across two external ids and names, last use, stale", async () => {
  const { team, session, api } = await world();
  const shared = uniqueKey();
  const a = await connect(api, "Acme reporting", shared);
  const b = await connect(api, "Globex key", shared);
  const lone = await connect(api, "Lone", uniqueKey());
  await seed("connectionState", { connection: a.id, externalId: "acme" });
  await seed("connectionState", { connection: b.id, externalId: "globex" });
  // Lone: made 40 days ago and never used since → stale; a was used just now.
  await seed("connectionState", { connection: lone.id, createdAgo: 40 * DAY });
  await seed("logs", { team: team.id, connectionId: a.id, startedAgo: [5], operationId: "sandbox.report" });

  const facts: { id: string; [k: string]: unknown }[] = await (
    await session.get("/api/dashboard/connections/facts")
  ).json();
  const byId = Object.fromEntries(facts.map((f) => [f.id, f]));
  expect(byId[a.id]).toMatchObject({ external_id: "acme", duplicate_of: [b.id], health: "healthy", stale: false });
  expect(byId[b.id]).toMatchObject({ external_id: "globex", duplicate_of: [a.id], last_used_at: null });
  expect(byId[lone.id]).toMatchObject({ duplicate_of: [], stale: true, last_used_at: null });
  expect(Math.abs((byId[a.id].last_used_at as number) - (Math.floor(Date.now() / 1000) - 5))).toBeLessThan(5);

  // The page names the duplicate.
  const page = await (await session.get(`/api/dashboard/connections/${a.id}`)).json();
  expect(page.duplicates).toEqual([
    { id: b.id, type: "sandbox_key", display_name: "Globex key", external_id: "globex" },
  ]);
  expect(page).toMatchObject({ type_name: expect.any(String), stale_after_days: 30 });
});

test("the page lists what uses it (workflows, MCP servers, readable agent conversations) and its consent words", async () => {
  const { team, session, api } = await world({ members: 2 });
  const c = await connect(api, "Used", uniqueKey());
  const active = await seed("workflow", { team: team.id, name: "Nightly", connections: [c.id] });
  const inactive = await seed("workflow", { team: team.id, name: "Old", connections: [c.id], active: false });
  await seed("workflow", { team: team.id, name: "Unrelated" });
  const server = await seed("mcpServer", { team: team.id, name: "Claude desktop" });
  const hidden = await seed("mcpServer", {
    team: team.id,
    name: "Member's own",
    owner: team.users[1].id,
    isPrivate: true,
  });
  await seed("mcpServerConnections", { server: server.id, connections: [c.id] });
  await seed("mcpServerConnections", { server: hidden.id, connections: [c.id] });
  const mine = await seed("agentConversation", { team: team.id, user: team.users[0].id, title: "Weekly numbers" });
  const theirs = await seed("agentConversation", { team: team.id, user: team.users[1].id, title: "Private chat" });
  const shared = await seed("agentConversation", {
    team: team.id,
    user: team.users[1].id,
    title: "Shared chat",
    shared: true,
  });
  for (const [conv, ago] of [
    [mine.id, 100],
    [theirs.id, 50],
    [shared.id, 10],
  ] as const)
    await seed("logs", { team: team.id, connectionId: c.id, sourceType: "agent", sourceId: conv, startedAgo: [ago] });

  const page = await (await session.get(`/api/dashboard/connections/${c.id}`)).json();
  expect(page.uses.workflows).toEqual([
    { id: active.id, name: "Nightly", active: true },
    { id: inactive.id, name: "Old", active: false },
  ]);
  expect(page.uses.mcp_servers).toEqual([{ id: server.id, name: "Claude desktop", is_private: false }]);
  expect(page.uses.conversations.map((v: { title: string }) => v.title)).toEqual(["Shared chat", "Weekly numbers"]);
  // The consent words the connect page uses for the type (its catalogue's read phrases).
  expect(page.consent.reads.length).toBeGreaterThan(0);
  expect(page.consent).toMatchObject({ scopes: [], scopes_set_on_app: false });
});

test("spend: the attribution rows of this period, in total and per day; errors: the connection's failed logs, latest first", async () => {
  const { team, session, api } = await world();
  const c = await connect(api, "Spender", uniqueKey());
  const other = await connect(api, "Other", uniqueKey());
  await seed("billingPeriod", { team: team.id, startedDaysAgo: 5 });
  await seed("charges", {
    team: team.id,
    charges: [
      {
        credits: 10,
        type: "workflow",
        ago: 60,
        attribution: [
          { connectionId: c.id, credits: 7 },
          { connectionId: other.id, credits: 3 },
        ],
      },
      { credits: 4, type: "mcp", ago: 2 * DAY + 60, attribution: [{ connectionId: c.id, credits: 4 }] },
      // Before the period: not counted.
      { credits: 9, type: "mcp", ago: 8 * DAY, attribution: [{ connectionId: c.id, credits: 9 }] },
      { credits: 5, type: "agent", ago: 30, attribution: [{ connectionId: other.id, credits: 5 }] },
    ],
  });
  const spend = await (await session.get(`/api/dashboard/connections/${c.id}/spend`)).json();
  expect(spend.credits).toBe(11);
  expect(spend.days.reduce((s: number, d: { credits: number }) => s + d.credits, 0)).toBe(11);
  const now = Math.floor(Date.now() / 1000);
  const dayOf = (t: number) => Math.floor(t / DAY) * DAY;
  const byDay = Object.fromEntries(spend.days.map((d: { day: number; credits: number }) => [d.day, d.credits]));
  expect(byDay[dayOf(now - 60)]).toBe(7);
  expect(byDay[dayOf(now - 2 * DAY - 60)]).toBe(4);
  expect(spend.period_start).toBeLessThanOrEqual(now - 5 * DAY + 5);

  const failed = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    connectionId: c.id,
    status: "error",
    operationId: "sandbox.report",
    sourceType: "workflow",
    startedAgo: [300, 30],
    output: { error: { message: "The provider answered HTTP 500" } },
  });
  await seed("logs", { team: team.id, connectionId: c.id, status: "success", startedAgo: [10] });
  await seed("logs", { team: team.id, connectionId: other.id, status: "error", startedAgo: [20] });
  const errors = await (await session.get(`/api/dashboard/connections/${c.id}/errors`)).json();
  expect(errors.data.map((l: { id: string }) => l.id)).toEqual([failed.ids[1], failed.ids[0]]);
  expect(errors.data[0]).toMatchObject({ status: "error", operation_id: "sandbox.report" });
});

test("Check now runs the identity call: healthy, unreachable during an outage with the sentence, healthy again", async () => {
  const { session, api } = await world();
  const c = await connect(api, "Checked", uniqueKey());
  const check = async () => {
    const res = await session.post(`/api/dashboard/connections/${c.id}/check`);
    expect(res.status(), await res.text()).toBe(200);
    return res.json();
  };
  const before = Math.floor(Date.now() / 1000);
  expect(await check()).toMatchObject({ id: c.id, health: "healthy", error: null });
  expect((await cli("sandbox", "outage", "--connection", c.id)).json).toMatchObject({ down: true });
  const down = await check();
  expect(down).toMatchObject({ health: "unreachable" });
  expect(typeof down.error).toBe("string");
  expect(down.checked_at).toBeGreaterThanOrEqual(before);
  const page = await (await session.get(`/api/dashboard/connections/${c.id}`)).json();
  expect(page).toMatchObject({ health: "unreachable", health_error: down.error, checked_at: down.checked_at });
  await cli("sandbox", "outage", "--connection", c.id, "--end");
  expect(await check()).toMatchObject({ health: "healthy", error: null });
});

test("Rename changes the display name only, trimmed, and is in the audit log", async () => {
  const { session, api } = await world();
  const c = await connect(api, "Before", uniqueKey());
  const res = await session.patch(`/api/dashboard/connections/${c.id}`, { data: { display_name: "  After  " } });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toMatchObject({ id: c.id, display_name: "After" });
  expect((await (await api.get(`/v1/connections/${c.id}`)).json())[0]).toMatchObject({
    display_name: "After",
    type: "sandbox_key",
  });
  const audit = await (await session.get(`/api/dashboard/audit?action=connection.rename`)).json();
  expect(audit.data[0]).toMatchObject({ action: "connection.rename", target: { type: "connection", id: c.id } });
});

test("bulk delete: the preview names the active workflows per connection and deletes nothing; the run deletes all or none", async () => {
  const { team, session, api } = await world({ members: 2 });
  const a = await connect(api, "A", uniqueKey());
  const b = await connect(api, "B", uniqueKey());
  const keep = await connect(api, "Keep", uniqueKey());
  const both = await seed("workflow", { team: team.id, name: "Both", connections: [a.id, b.id] });
  const onlyB = await seed("workflow", { team: team.id, name: "Only B", connections: [b.id] });
  await seed("workflow", { team: team.id, name: "Inactive", connections: [a.id], active: false });
  const kept = await seed("workflow", { team: team.id, name: "Kept", connections: [keep.id] });

  const preview = await session.post("/api/dashboard/connections/bulk-delete/preview", {
    data: { connection_ids: [a.id, b.id, a.id] },
  });
  expect(preview.status(), await preview.text()).toBe(200);
  expect(await preview.json()).toEqual({
    connections: [
      { id: a.id, type: "sandbox_key", display_name: "A", external_id: null },
      { id: b.id, type: "sandbox_key", display_name: "B", external_id: null },
    ],
    workflows: [
      { id: both.id, name: "Both", connection_ids: [a.id, b.id] },
      { id: onlyB.id, name: "Only B", connection_ids: [b.id] },
    ],
  });
  expect((await api.get(`/v1/connections/${a.id}`)).status()).toBe(200);

  // One the caller cannot see (another member's private connection): nothing is deleted.
  const memberApi = await apiAs(team.users[1]);
  const theirs = await connect(memberApi, "Theirs", uniqueKey(), true);
  await expectError(
    await session.post("/api/dashboard/connections/bulk-delete", { data: { connection_ids: [a.id, theirs.id] } }),
    404,
    theirs.id,
  );
  expect((await api.get(`/v1/connections/${a.id}`)).status()).toBe(200);

  const run = await session.post("/api/dashboard/connections/bulk-delete", { data: { connection_ids: [a.id, b.id] } });
  expect(run.status(), await run.text()).toBe(200);
  expect(await run.json()).toEqual({ deleted: [a.id, b.id], deactivated_workflow_ids: [both.id, onlyB.id].sort() });
  for (const id of [a.id, b.id]) expect((await api.get(`/v1/connections/${id}`)).status()).toBe(404);
  expect((await seed("workflowState", { id: both.id })).active).toBe(false);
  expect((await seed("workflowState", { id: onlyB.id })).active).toBe(false);
  expect((await seed("workflowState", { id: kept.id })).active).toBe(true);
  // Deleted: the page is gone too.
  await expectError(await session.get(`/api/dashboard/connections/${a.id}`), 404);
});
