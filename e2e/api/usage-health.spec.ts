import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, cli, seed, expectError, type SeededTeam } from "../fixtures";
import { createLink, connect } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";
import { connection, lastTurn, unique } from "../support/agent-api";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";

// Issue 50 / CONTRACT §12: usage per client and per connection, exact to the ledger whatever
// charged it (MCP calls, a workflow whose loop runs on another connection, an approved write, an
// agent turn, concurrent calls, a replay); health from the identity check, its event, the
// scheduler's check; refresh ahead of expiry, one refresh per connection.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies read untyped
type UsageRow = { key: string | null; credits: number; operations: number; errors: number };

const PASSWORD = "correct horse battery staple";
const now = () => Math.floor(Date.now() / 1000);

test.describe.configure({ timeout: 120_000 });

async function oauthConnection(api: APIRequestContext, externalId: string, type = "sandbox_oauth") {
  const link = await createLink(api, { connection_type: type, external_id: externalId });
  await connect(link, type, { account: `acct-${unique()}` });
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.status).toBe("connected");
  return status.connection_id as string;
}

/** Every page of GET /v1/usage, walked with `limit`. */
async function usage(api: APIRequestContext, query: Record<string, string | number>, limit = 1000) {
  const rows: UsageRow[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
    q.set("limit", String(limit));
    if (cursor) q.set("cursor", cursor);
    const res = await api.get(`/v1/usage?${q}`);
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as { data: UsageRow[]; has_more: boolean; next_cursor: string | null };
    expect(page.data.length).toBeLessThanOrEqual(limit);
    rows.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return rows;
}

async function ledgerTotal(api: APIRequestContext, from: number, to: number) {
  let total = 0;
  let cursor: string | null = null;
  do {
    const res: Awaited<ReturnType<APIRequestContext["get"]>> = await api.get(
      `/v1/credits/logs?limit=1000&created_after=${from}&created_before=${to - 1}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    const page = (await res.json()) as Json;
    for (const e of page.data) total += e.credits_used;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return total;
}

const sum = (rows: UsageRow[], f: keyof Omit<UsageRow, "key">) => rows.reduce((a, r) => a + r[f], 0);
const byKey = (rows: UsageRow[]) => Object.fromEntries(rows.map((r) => [String(r.key), r]));

const report = (id: string, connectionId: string, extra: Json = {}) => ({
  id,
  label: id,
  operation_id: "sandbox.report",
  connection_id: connectionId,
  input: { metric: "sessions", days: 3, end_date: "2026-11-30" },
  ...extra,
});

let day = 0;
const mcpReport = (connectionId: string) => ({
  name: "sandbox_report",
  arguments: {
    connection_id: connectionId,
    metric: "users",
    days: 1,
    end_date: `2026-0${1 + (day % 9)}-${10 + (++day % 18)}`,
  },
});

async function setup(team: SeededTeam) {
  const api = await apiAs(team.users[0]);
  const acme = await oauthConnection(api, "acme");
  const globex = await oauthConnection(api, "globex");
  const loose = await connection(api, "sandbox_key", { api_key: `sk-${unique()}` });
  return { api, acme, globex, loose };
}

test("usage per client and per connection adds up to the ledger and to the plain SQL of the same rows, across every kind of charge, concurrent calls and a replay", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const from = now() - 1;
  const { api, acme, globex, loose } = await setup(team);
  const owner = team.users[0];

  // MCP calls on each connection, ten of them at once on acme's.
  const made = await cli("mcp", "create", "--team", team.id, "--user", owner.id, "--name", "Usage", "--connections", `${acme},${globex},${loose}`, "--writes", "approval"); // prettier-ignore
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const mcp = await mcpClient(made.json.token);
  for (const id of [acme, globex, loose]) expect((await mcp.callTool(mcpReport(id))).isError).toBeFalsy();
  const concurrent = await Promise.all(Array.from({ length: 10 }, () => mcp.callTool(mcpReport(acme))));
  expect(concurrent.every((r) => !r.isError)).toBe(true);

  // An approved write through MCP: charged when it runs, to its connection.
  const asked = await mcp.callTool({
    name: "run_write_operation",
    arguments: { operation_id: "sandbox.set_note", connection_id: globex, input: { note: "hello" } },
  });
  const approvalId = (asked.structuredContent as { approval_id: string }).approval_id;
  expect((await cli("approval", "approve", "--id", approvalId, "--user", owner.id)).code).toBe(0);

  // A workflow: a report on globex, then a loop over its rows on acme: each iteration is acme's.
  const nodes = [
    report("rows", globex),
    report("each", acme, { input: { metric: "users", days: 1, end_date: "{{item.date}}" }, for_each: "{{nodes.rows.output.rows}}" }), // prettier-ignore
  ];
  const wf = await cli("workflow", "create", "--team", team.id, "--user", owner.id, "--name", "Loop", "--nodes", JSON.stringify(nodes)); // prettier-ignore
  expect(wf.code, JSON.stringify(wf.json)).toBe(0);
  const run = await cli("workflow", "run", "--id", wf.json.id, "--wait");
  expect(run.json.status, JSON.stringify(run.json)).toBe("success");
  const logsOfRun = (await (await api.get(`/v1/logs?source_run_id=${run.json.run_id}&limit=100`)).json()).data;
  expect(logsOfRun.length).toBe(4); // the report and three iterations

  // A failing run replayed: its nodes' credits go to their connections again, the replay's own credit too.
  // Its second node loops over what is not a list, so it fails before calling anything.
  const failing = [report("ok", loose), report("bad", acme, { for_each: "{{nodes.ok.output.account}}" })];
  const wf2 = await cli("workflow", "create", "--team", team.id, "--user", owner.id, "--name", "Fails", "--nodes", JSON.stringify(failing)); // prettier-ignore
  const failed = await cli("workflow", "run", "--id", wf2.json.id, "--wait");
  expect(failed.json.status).toBe("error");
  const replay = await cli("workflow", "replay", "--run", failed.json.run_id, "--wait");
  expect(replay.code, JSON.stringify(replay.json)).toBe(0);
  expect(replay.json).toMatchObject({ replay_of: failed.json.run_id, status: "error" });

  // An agent turn: its own credit and its report's to the report's connection.
  const model = await connection(api, "sandbox_model", {});
  const turn = await api.post("/v1/agent/conversations", {
    data: { model_connection_id: model, message: "the sessions report please" },
  });
  expect(turn.status(), await turn.text()).toBe(201);
  const conv = (await turn.json()) as { id: string };
  const done = await lastTurn(api, conv.id, "completed");
  expect(done.steps.length).toBe(1);
  const agentConnection = done.steps[0].connection_id;

  const to = now() + 1;
  const total = await ledgerTotal(api, from, to);
  expect(total).toBeGreaterThan(20);
  const perConnection = await usage(api, { group_by: "connection_id", from, to });
  const perClient = await usage(api, { group_by: "external_id", from, to }, 1);
  expect(sum(perConnection, "credits")).toBe(total);
  expect(sum(perClient, "credits")).toBe(total);
  expect(sum(perClient, "operations")).toBe(sum(perConnection, "operations"));

  // Against the plain SQL aggregation of the same rows.
  const sql: Record<string, UsageRow> = await seed("usageByConnectionSql", { team: team.id, from, to });
  expect(Object.fromEntries(Object.entries(byKey(perConnection)).map(([k, r]) => [k, { credits: r.credits, operations: r.operations, errors: r.errors }]))).toEqual(sql); // prettier-ignore

  // And against what each charge ran, from the logs: every log's credits to its connection, a
  // run's own credit to its first node's connection, the agent turn's to its report's connection.
  const logs: Json[] = [];
  let cursor: string | null = null;
  do {
    const page = await (await api.get(`/v1/logs?limit=100${cursor ? `&cursor=${cursor}` : ""}`)).json();
    logs.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  const expected: Record<string, number> = {};
  const add = (k: string | null, n: number) => (expected[String(k)] = (expected[String(k)] ?? 0) + n);
  for (const log of logs) add(log.metadata?.connection_id ?? null, log.credits_used);
  add(globex, 1); // the loop workflow's run: its first node is globex's
  add(loose, 2); // the failing run and its replay: their first node is the loose key's
  add(agentConnection, 1);
  const got = Object.fromEntries(perConnection.filter((r) => r.credits).map((r) => [String(r.key), r.credits]));
  expect(got).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n)));

  // Clients: acme, globex, and null (the key without external_id, the model).
  const clients = byKey(perClient);
  expect(Object.keys(clients).sort()).toEqual(["acme", "globex", "null"]);
  expect(clients.acme.credits).toBe(byKey(perConnection)[acme].credits);
  expect(clients.acme.errors).toBe(2); // the failed run's node and its replay's
  expect(clients.globex.operations).toBe(byKey(perConnection)[globex].operations);

  // Paging with limit 1 walks the same groups, in order, null first.
  expect(perClient.map((r) => r.key)).toEqual([null, "acme", "globex"]);
});

test("GET /v1/usage: a member does not see another's private connection's usage (left out, not moved to null); bad queries are 400 with detail", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = team.users;
  const ownerApi = await apiAs(owner);
  const memberApi = await apiAs(member);
  const from = now() - 1;
  const mine = await connection(ownerApi, "sandbox_key", { api_key: `sk-${unique()}` }, { is_private: true });
  const made = await cli("mcp", "create", "--team", team.id, "--user", owner.id, "--name", "Private", "--connections", mine, "--private"); // prettier-ignore
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const mcp = await mcpClient(made.json.token);
  expect((await mcp.callTool(mcpReport(mine))).isError).toBeFalsy();
  const to = now() + 1;

  const ownerView = await usage(ownerApi, { group_by: "connection_id", from, to });
  expect(ownerView.map((r) => r.key)).toEqual([mine]);
  expect(ownerView[0].credits).toBeGreaterThan(0);
  expect(await usage(memberApi, { group_by: "connection_id", from, to })).toEqual([]);
  expect(await usage(memberApi, { group_by: "external_id", from, to })).toEqual([]);

  const bad = async (query: string, ...fragments: string[]) =>
    expectError(await ownerApi.get(`/v1/usage?${query}`), 400, ...fragments);
  await bad(`group_by=team&from=${from}&to=${to}`, "group_by", "external_id, connection_id");
  await bad(`group_by=external_id&from=${to}&to=${from}`, "from", "after to");
  await bad(`group_by=external_id&from=0&to=${401 * 86400}`, "400 days");
  await bad(`group_by=external_id&to=${to}`, "from");
  await bad(`group_by=external_id&from=x&to=${to}`, "from");
  await bad(`group_by=external_id&from=${from}&to=${to}&limit=0`, "limit");
  await bad(`group_by=external_id&from=${from}&to=${to}&cursor=abc`, "cursor");
  await bad(`group_by=external_id&from=${from}&to=${to}&q=1`, "q");
  // A cursor is bound to its query.
  await connection(ownerApi, "sandbox_key", { api_key: `sk-${unique()}` });
  const page = await (await ownerApi.get(`/v1/usage?group_by=connection_id&from=0&to=${to}&limit=1`)).json();
  if (page.next_cursor) await bad(`group_by=external_id&from=0&to=${to}&cursor=${page.next_cursor}`, "other filters");
});

async function receiverFor(team: SeededTeam): Promise<Receiver> {
  const r = await startReceiver();
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const res = await session.post("/api/dashboard/webhooks", {
    data: { url: r.url, events: ["connection.health_changed", "connection.needs_reauth"] },
  });
  expect(res.status(), await res.text()).toBe(200);
  return r;
}

const events = (r: Receiver) => r.received.map((x) => JSON.parse(x.body) as Json);

test("health: a check finds a revoked grant needs_reauth (one needs_reauth event, one health_changed), an outage unreachable and back", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const receiver = await receiverFor(team);
  try {
    const api = await apiAs(team.users[0]);
    const granted = await oauthConnection(api, "initech");
    const key = await connection(api, "sandbox_key", { api_key: `sk-${unique()}` });

    const ok = await cli("connection", "check", "--id", granted);
    expect(ok.code, JSON.stringify(ok.json)).toBe(0);
    expect(ok.json).toEqual({ id: granted, health: "healthy", checked_at: expect.any(Number), error: null });
    expect(Math.abs(ok.json.checked_at - now())).toBeLessThan(5);

    expect((await cli("sandbox", "revoke", "--connection", granted)).json).toEqual({ revoked: true });
    const refused = await cli("connection", "check", "--id", granted);
    expect(refused.json).toMatchObject({ id: granted, health: "needs_reauth" });
    expect(refused.json.error).toContain("revoked");
    // Checked again: still refused, nothing more sent.
    expect((await cli("connection", "check", "--id", granted)).json.health).toBe("needs_reauth");

    // An outage: unreachable with the sentence, then healthy once it ends.
    expect((await cli("sandbox", "outage", "--connection", key)).json).toMatchObject({ connection_id: key, down: true }); // prettier-ignore
    const down = await cli("connection", "check", "--id", key);
    expect(down.json).toMatchObject({ id: key, health: "unreachable" });
    expect(down.json.error).toMatch(/503|temporarily_unavailable|down/);
    expect((await cli("sandbox", "outage", "--connection", key, "--end")).json.down).toBe(false);
    expect((await cli("connection", "check", "--id", key)).json).toMatchObject({ health: "healthy", error: null });

    await waitFor(() => receiver.received.length >= 4, 15_000, "four events");
    await new Promise((r) => setTimeout(r, 1500)); // nothing more comes
    // Deliveries run concurrently, so the order they arrive in is not the order they were written in.
    const got = events(receiver)
      .map((e) => JSON.stringify([e.type, e.data.connection.id, e.data.health ?? null, e.data.previous ?? null]))
      .sort();
    expect(got).toEqual(
      [
        ["connection.needs_reauth", granted, null, null],
        ["connection.health_changed", granted, "needs_reauth", "healthy"],
        ["connection.health_changed", key, "unreachable", "healthy"],
        ["connection.health_changed", key, "healthy", "unreachable"],
      ]
        .map((e) => JSON.stringify(e))
        .sort(),
    );
    const changed = events(receiver).find((e) => e.data.health === "unreachable")!;
    expect(changed.data.error).toBe(down.json.error);
    // Spec §4.3 answers a list (one connection by id).
    expect([changed.data.connection]).toEqual(await (await api.get(`/v1/connections/${key}`)).json());

    // Bad input: a clear error, exit 1.
    const missing = await cli("connection", "check", "--id", "conn_nope");
    expect(missing.code).toBe(1);
    expect(missing.json.error).toContain("conn_nope");
  } finally {
    await receiver.stop();
  }
});

test("the scheduler checks a due connection once, and moves its next check an interval ahead", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const key = await connection(api, "sandbox_key", { api_key: `sk-${unique()}` });
  const fresh = await seed("connectionHealth", { id: key });
  expect(fresh.health).toBe("healthy");
  // The next check is about CONNECTION_CHECK_INTERVAL_HOURS (24) away, jittered by at most 10 %.
  const day = 86_400_000;
  expect(fresh.nextCheckAt - Date.now()).toBeGreaterThan(0.89 * day);
  expect(fresh.nextCheckAt - Date.now()).toBeLessThan(1.11 * day);

  await cli("sandbox", "outage", "--connection", key);
  await seed("checkDueNow", { id: key });
  await expect
    .poll(async () => (await seed("connectionHealth", { id: key })).health, { timeout: 15_000 })
    .toBe("unreachable");
  const after = await seed("connectionHealth", { id: key });
  expect(after.nextCheckAt - Date.now()).toBeGreaterThan(0.85 * day);
  expect(after.healthError).toBeTruthy();
  await cli("sandbox", "outage", "--connection", key, "--end");
});

test("refresh ahead of expiry: the job refreshes a token about to expire, and twenty calls during a refresh cause one refresh", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const first = await oauthConnection(api, "hooli");
  const second = await oauthConnection(api, "hooli");

  // The job: a token 60 s from expiry (TOKEN_REFRESH_AHEAD_SECONDS is 600) is refreshed on its own.
  const before = await seed("oauthTokens", { id: first, expiresInMs: 60_000 });
  const refreshes = (await seed("sandboxRefreshes", { id: first })).count;
  await expect
    .poll(async () => (await seed("oauthTokens", { id: first })).expiresAt, { timeout: 15_000 })
    .toBeGreaterThan(Date.now() + 30 * 60_000);
  expect((await seed("sandboxRefreshes", { id: first })).count).toBe(refreshes + 1);
  expect(before.expiresAt).toBeLessThan(Date.now() + 60_000);
  const health = await seed("connectionHealth", { id: first });
  expect(health.tokenExpiresAt).toBeGreaterThan(Date.now() + 30 * 60_000);

  // Twenty calls at once on a token about to expire: one refresh, every call succeeds.
  const made = await cli("mcp", "create", "--team", team.id, "--user", team.users[0].id, "--name", "Race", "--connections", second); // prettier-ignore
  const mcp = await mcpClient(made.json.token);
  const counted = (await seed("sandboxRefreshes", { id: second })).count;
  await seed("oauthTokens", { id: second, expiresInMs: 30_000 });
  const results = await Promise.all(Array.from({ length: 20 }, () => mcp.callTool(mcpReport(second))));
  expect(results.filter((r) => r.isError)).toEqual([]);
  await new Promise((r) => setTimeout(r, 1500)); // the job, too, finds nothing left to refresh
  expect((await seed("sandboxRefreshes", { id: second })).count).toBe(counted + 1);
});
