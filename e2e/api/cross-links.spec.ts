import { test, expect, seedTeam, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { waitForRun } from "../support/runs";
import { mcpClient } from "../support/mcp";

// The dashboard's cross-links lead to exactly what they name (issue 33): a ledger entry to the
// logs of the one run, the one MCP call or the one agent turn it charged; and Run now refuses, before charging, a
// workflow whose connection is known to fail.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "cross-links-1";

async function sandboxConnection(user: SeededTeam["users"][number], name: string): Promise<{ id: string }> {
  const res = await (
    await apiAs(user)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${Date.now()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

const readNodes = (connectionId: string) => [
  {
    id: "report",
    label: "Sessions",
    operation_id: "sandbox.report",
    connection_id: connectionId,
    input: { metric: "sessions", days: 7 },
  },
];

test.describe.configure({ timeout: 120_000 });

test("a workflow charge's link opens the logs of exactly that run, each run its own", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandboxConnection(team.users[0], "links");
  const made = await owner.post("/api/dashboard/workflows", { data: { name: "Two runs", nodes: readNodes(conn.id) } });
  expect(made.status(), await made.text()).toBe(200);
  const workflow: Json = await made.json();
  // Two runs of one workflow, back to back: a time window would hold both.
  const runIds: string[] = [];
  for (let i = 0; i < 2; i++) {
    const started = await owner.post(`/api/dashboard/workflows/${workflow.id}/runs`);
    expect(started.status(), await started.text()).toBe(200);
    const runId = (await started.json()).run_id as string;
    expect((await waitForRun(runId, 60_000)).status).toBe("success");
    runIds.push(runId);
  }
  const ledger = (await (await (await apiAs(team.users[0])).get("/v1/credits/logs?service_type=workflow")).json())
    .data as Json[];
  expect(ledger).toHaveLength(2);
  // Newest first: the second run's charge, then the first's.
  const targets = [];
  for (const entry of ledger) {
    const res = await owner.get(`/${team.id}/ledger/${entry.id}/logs`, { maxRedirects: 0 });
    expect(res.status(), await res.text()).toBe(307);
    targets.push(res.headers().location);
  }
  expect(targets).toEqual([
    `/${team.id}/logs?source_run_id=${runIds[1]}`,
    `/${team.id}/logs?source_run_id=${runIds[0]}`,
  ]);
  // And that filter is exactly the run's one log.
  const logs = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runIds[0]}`);
  expect(((await logs.json()).data as Json[]).map((l) => l.source.run_id)).toEqual([runIds[0]]);
});

test("an MCP call's charge links to that call's log; another team's entry, or a malformed one, is not found", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandboxConnection(team.users[0], "mcp-links");
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Links",
    "--connections",
    conn.id,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const client = await mcpClient(made.json.token);
  for (const days of [3, 4])
    await client.callTool({ name: "sandbox_report", arguments: { connection_id: conn.id, metric: "sessions", days } });
  await client.close();

  const api = await apiAs(team.users[0]);
  const logs = (await (await api.get("/v1/logs?source_type=mcp")).json()).data as Json[];
  const charged = (await (await api.get("/v1/credits/logs?service_type=mcp")).json()).data as Json[];
  expect(charged).toHaveLength(2);
  expect(logs).toHaveLength(2);
  const locations = [];
  for (const entry of charged) {
    const res = await owner.get(`/${team.id}/ledger/${entry.id}/logs`, { maxRedirects: 0 });
    expect(res.status(), await res.text()).toBe(307);
    locations.push(new URL(res.headers().location, "http://x"));
  }
  // Each entry opens its own call's log, on the logs of its MCP server.
  expect(locations.map((u) => u.searchParams.get("log")).sort()).toEqual(logs.map((l) => l.id).sort());
  for (const u of locations) {
    expect(u.pathname).toBe(`/${team.id}/logs`);
    expect(u.searchParams.get("source_id")).toBe(made.json.id);
  }

  // Someone else's ledger entry, through their own team's URL or the other team's: not found.
  const other = await seedTeam({ password: PASSWORD });
  const outsider = await sessionAs(other.users[0].email, PASSWORD, other.id);
  for (const path of [`/${team.id}/ledger/${charged[0].id}/logs`, `/${other.id}/ledger/${charged[0].id}/logs`]) {
    const res = await outsider.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
  }
  for (const bad of ["abc", "-1", "1".repeat(40)]) {
    const res = await owner.get(`/${team.id}/ledger/${bad}/logs`, { maxRedirects: 0 });
    expect(res.status(), bad).toBe(404);
  }
});

test("an agent turn's charge links to that turn's logs, or to the turn when it ran no operation", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const api = await apiAs(team.users[0]);
  await sandboxConnection(team.users[0], "agent-links");
  const model = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_model", name: "Sandbox model", credentials: {} },
  });
  expect(model.status(), await model.text()).toBe(200);
  const started = await api.post("/v1/agent/conversations", {
    data: { model_connection_id: (await model.json()).id, message: "report" },
  });
  expect(started.status(), await started.text()).toBe(201);
  const conversation: Json = await started.json();
  expect(conversation.turn.status).toBe("completed");
  for (const message of ["report", "hello"]) {
    const next = await api.post(`/v1/agent/conversations/${conversation.id}/messages`, { data: { message } });
    expect(next.status(), await next.text()).toBe(200);
  }
  const turns = ((await (await api.get(`/v1/agent/conversations/${conversation.id}`)).json()) as Json).turns as Json[];
  expect(turns.map((t) => t.steps.length)).toEqual([1, 1, 0]);
  // Newest first: the plain answer's charge, then the two reports'.
  const charged = (await (await api.get("/v1/credits/logs?service_type=agent")).json()).data as Json[];
  expect(charged).toHaveLength(3);
  // A turn that ran no operation has no logs: its link opens the turn in the conversation, for
  // those who can see the conversation (its creator until it is shared).
  const plain = await owner.get(`/${team.id}/ledger/${charged[0].id}/logs`, { maxRedirects: 0 });
  expect(plain.status(), await plain.text()).toBe(307);
  expect(plain.headers().location).toBe(`/${team.id}/agent/${conversation.id}#${turns[2].id}`);
  const teammate = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const hidden = await teammate.get(`/${team.id}/ledger/${charged[0].id}/logs`, { maxRedirects: 0 });
  expect(hidden.status(), "another member's unshared conversation").toBe(404);
  const shared = await api.patch(`/v1/agent/conversations/${conversation.id}`, { data: { shared: true } });
  expect(shared.status(), await shared.text()).toBe(200);
  const nowShared = await teammate.get(`/${team.id}/ledger/${charged[0].id}/logs`, { maxRedirects: 0 });
  expect(nowShared.status()).toBe(307);
  for (const [entry, turn] of [
    [charged[1], turns[1]],
    [charged[2], turns[0]],
  ]) {
    const res = await owner.get(`/${team.id}/ledger/${entry.id}/logs`, { maxRedirects: 0 });
    expect(res.status(), await res.text()).toBe(307);
    const target = new URL(res.headers().location, "http://x");
    expect(target.pathname).toBe(`/${team.id}/logs`);
    expect(target.searchParams.get("source_id")).toBe(conversation.id);
    // The filter it opens holds that turn's log.
    const logs = (await (await api.get(`/v1/logs${target.search}`)).json()).data as Json[];
    expect(logs.map((l) => l.id)).toContain(turn.steps[0].log_id);
  }
});

test("Run now refuses a workflow whose connection is deleted, says which node and why, and charges nothing", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandboxConnection(team.users[0], "gone");
  const made = await owner.post("/api/dashboard/workflows", { data: { name: "Orphan", nodes: readNodes(conn.id) } });
  expect(made.status(), await made.text()).toBe(200);
  const workflow: Json = await made.json();
  const api = await apiAs(team.users[0]);
  expect((await api.delete(`/v1/connections/${conn.id}`)).status()).toBe(200);

  await expectError(
    await owner.post(`/api/dashboard/workflows/${workflow.id}/runs`),
    409,
    "Not started, nothing charged",
    "Sessions: deleted",
  );
  expect((await (await api.get("/v1/credits/logs")).json()).data).toEqual([]);
  expect((await (await api.get("/v1/credits")).json()).credits_used).toBe(0);
  const runs = await owner.get(`/api/dashboard/workflows/${workflow.id}/runs`);
  expect(runs.status()).toBe(200);
  expect((await runs.json()).runs).toEqual([]);
});
