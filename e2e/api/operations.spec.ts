import { test, expect, seedTeam, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";
import { inDatabase } from "../support/in-database";
import { startInstance, isPostgres } from "../support/instances";

// Issue 25: the operations catalogue through /mcp (discovery, run_operation, writes and their
// policies) and approvals that a person decides, over the official MCP SDK client, real HTTP,
// the CLI of CONTRACT §8 and the dashboard API.

const PASSWORD = "operations-pass-1";
type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};
const textOf = (r: Result) => r.content.map((c) => c.text).join("\n");

async function sandboxConnection(team: SeededTeam, name: string) {
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${Date.now()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string; external_id: string };
}

async function server(team: SeededTeam, connectionIds: string[], writes?: "off" | "approval" | "allowed") {
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    `ops ${writes ?? "default"}`,
    "--connections",
    connectionIds.join(","),
    ...(writes ? ["--writes", writes] : []),
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return made.json as { id: string; token: string };
}

const call = async (client: Awaited<ReturnType<typeof mcpClient>>, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

async function logsOf(team: SeededTeam, query: string) {
  const api = await apiAs(team.users[0]);
  const res = await api.get(`/v1/logs?${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
}

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

test("tools/list keeps today's tools, adds discovery, and stays within 25; discovery finds, describes and runs operations", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const conn = await sandboxConnection(team, "discover");
  const { token } = await server(team, [conn.id]);
  const client = await mcpClient(token);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(
    expect.arrayContaining([
      "list_connections",
      "sandbox_report",
      "find_operations",
      "get_operation_inputs",
      "run_operation",
      "run_write_operation",
      "get_operation_result",
    ]),
  );
  expect(names.length).toBeLessThanOrEqual(25);
  expect(names).not.toContain("sandbox.set_note");

  const all = (await call(client, "find_operations", {})).structuredContent as {
    operations: Record<string, unknown>[];
  };
  expect(all.operations.map((o) => o.id).sort()).toEqual(["sandbox.report", "sandbox.set_note"]);
  const found = (await call(client, "find_operations", { query: "save a note" })).structuredContent as {
    operations: Record<string, unknown>[];
  };
  expect(found.operations[0]).toEqual({
    id: "sandbox.set_note",
    title: expect.any(String),
    description: expect.any(String),
    kind: "write",
    requires_approval: true,
    credits: 1,
    connection_types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"],
    connection_ids: [conn.id],
  });

  const inputs = (await call(client, "get_operation_inputs", { operation_id: "sandbox.report" })).structuredContent as {
    operation_id: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
    input_schema: any;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
    example: any;
  };
  expect(inputs.operation_id).toBe("sandbox.report");
  expect(Object.keys(inputs.input_schema.properties).sort()).toEqual(["days", "end_date", "metric"]);
  expect(inputs.input_schema.properties.connection_id).toBeUndefined();
  expect(inputs.input_schema.properties.metric.enum).toEqual(["sessions", "users", "signups", "revenue"]);
  // The example round-trips: run it as given.
  const ran = await call(client, "run_operation", {
    operation_id: "sandbox.report",
    connection_id: conn.id,
    input: inputs.example,
  });
  expect(ran.isError, textOf(ran)).toBeFalsy();
  expect(ran.structuredContent).toMatchObject({ metric: inputs.example.metric, note: null });
  expect((ran.structuredContent!.rows as unknown[]).length).toBe(inputs.example.days);

  const runLogs = await logsOf(team, "operation_id=sandbox.report");
  expect(runLogs).toHaveLength(1);
  expect(runLogs[0]).toMatchObject({
    status: "success",
    credits_used: 2,
    source: { type: "mcp" },
    metadata: { tool_name: "run_operation", connection_id: conn.id },
  });
});

test("bad input never reaches a provider: unknown ids, schema failures, writes through run_operation, writes off", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const conn = await sandboxConnection(team, "badinput");
  const { token } = await server(team, [conn.id]);
  const client = await mcpClient(token);

  const unknown = await call(client, "run_operation", {
    operation_id: "sandbox.reprot",
    connection_id: conn.id,
    input: {},
  });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toContain('"sandbox.reprot"');
  expect(textOf(unknown)).toContain("sandbox.report");
  const inputsOfUnknown = await call(client, "get_operation_inputs", { operation_id: "nope.nothing" });
  expect(inputsOfUnknown.isError).toBe(true);
  expect(textOf(inputsOfUnknown)).toContain("nope.nothing");

  const bad = await call(client, "run_operation", {
    operation_id: "sandbox.report",
    connection_id: conn.id,
    input: { metric: "clicks", days: 0, colour: "red" },
  });
  expect(bad.isError).toBe(true);
  for (const fragment of ["metric", "days", "colour"]) expect(textOf(bad)).toContain(fragment);

  const outOfScope = await call(client, "run_operation", {
    operation_id: "sandbox.report",
    connection_id: "conn_elsewhere",
    input: { metric: "users" },
  });
  expect(outOfScope.isError).toBe(true);
  expect(textOf(outOfScope)).toContain("not available");

  const writeViaRun = await call(client, "run_operation", {
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    input: { note: "hi" },
  });
  expect(writeViaRun.isError).toBe(true);
  expect(textOf(writeViaRun)).toContain("run_write_operation");

  const off = await call(client, "run_write_operation", {
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    input: { note: "hi" },
  });
  expect(off.isError).toBe(true);
  expect(textOf(off)).toContain("Settings");
  expect(textOf(off)).toContain("owner");
  const tooLong = await call(client, "run_write_operation", {
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    input: { note: "x".repeat(501) },
  });
  expect(tooLong.isError).toBe(true);
  expect(textOf(tooLong)).toContain("note");

  // Nothing was written at the provider: the report still has no note.
  const report = await call(client, "sandbox_report", { connection_id: conn.id, metric: "users", days: 1 });
  expect(report.structuredContent).toMatchObject({ note: null });
  // Refused calls are logged as errors and cost nothing.
  const refused = await logsOf(team, "operation_id=sandbox.set_note");
  expect(refused.length).toBeGreaterThanOrEqual(3);
  for (const log of refused) expect(log).toMatchObject({ status: "error", credits_used: 0 });
  const approvals = await cli("approval", "list", "--team", team.id);
  expect(approvals).toEqual({ code: 0, json: { approvals: [] } });
});

test("allowed: run_write_operation writes at once, charged, and the next read sees the change (its cache dropped)", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const conn = await sandboxConnection(team, "allowed");
  const { token } = await server(team, [conn.id], "allowed");
  const client = await mcpClient(token);
  const before = await call(client, "sandbox_report", { connection_id: conn.id, metric: "sessions", days: 2 });
  expect(before.structuredContent).toMatchObject({ note: null });
  const wrote = await call(client, "run_write_operation", {
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    input: { note: "Launch on Friday" },
  });
  expect(wrote.isError, textOf(wrote)).toBeFalsy();
  expect(wrote.structuredContent).toEqual({ note: "Launch on Friday", previous_note: null });
  // The same read again, within its cache TTL: answered fresh, with the note.
  const after = await call(client, "sandbox_report", { connection_id: conn.id, metric: "sessions", days: 2 });
  expect(after.structuredContent).toMatchObject({ note: "Launch on Friday" });
  const [log] = await logsOf(team, "operation_id=sandbox.set_note");
  expect(log).toMatchObject({
    status: "success",
    credits_used: 1,
    cache_hit: false,
    metadata: { tool_name: "run_write_operation" },
  });
  const reads = await logsOf(team, "operation_id=sandbox.report");
  expect(reads.map((l) => l.cache_hit)).toEqual([false, false]);
});

test("approval: a request is filed, announced, listed, approved once from the CLI, run, logged and charged; the agent reads the result", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const hooks = await startReceiver();
  receivers.push(hooks);
  expect(
    (
      await cli(
        "webhook",
        "create",
        "--team",
        team.id,
        "--url",
        hooks.url,
        "--events",
        "approval.requested,approval.resolved",
      )
    ).code,
  ).toBe(0);
  const conn = await sandboxConnection(team, "approve");
  const mcp = await server(team, [conn.id], "approval");
  const client = await mcpClient(mcp.token);
  const balanceBefore = (await (await (await apiAs(team.users[0])).get("/v1/credits")).json()).credits_used;

  const asked = await call(client, "run_write_operation", {
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    input: { note: "Budget review" },
  });
  expect(asked.isError, textOf(asked)).toBeFalsy();
  const filed = asked.structuredContent as {
    approval_id: string;
    status: string;
    summary: string;
    approve_url: string;
    expires_at: number;
  };
  expect(filed).toMatchObject({ status: "pending", approval_id: expect.stringMatching(/^apr_/) });
  expect(filed.summary).toContain("Budget review");
  expect(filed.approve_url).toBe(`${process.env.APP_URL}/approvals/${filed.approval_id}`);
  expect(filed.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
  expect(filed.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3600);
  // Nothing ran yet.
  expect(
    (await call(client, "sandbox_report", { connection_id: conn.id, metric: "users", days: 1 })).structuredContent,
  ).toMatchObject({ note: null });
  expect((await call(client, "get_operation_result", { approval_id: filed.approval_id })).structuredContent).toEqual({
    approval_id: filed.approval_id,
    status: "pending",
  });

  const requested = await waitFor(
    () => hooks.received.find((r) => JSON.parse(r.body).type === "approval.requested"),
    10_000,
    "approval.requested",
  );
  const approval = JSON.parse(requested.body).data.approval;
  expect(approval).toEqual({
    id: filed.approval_id,
    status: "pending",
    operation_id: "sandbox.set_note",
    connection_id: conn.id,
    summary: filed.summary,
    mcp_server_id: mcp.id,
    requested_by: team.users[0].id,
    created_at: expect.any(Number),
    expires_at: filed.expires_at,
  });
  const listed = await cli("approval", "list", "--team", team.id, "--status", "pending");
  expect(listed).toEqual({ code: 0, json: { approvals: [approval] } });

  const approved = await cli("approval", "approve", "--id", filed.approval_id, "--user", team.users[0].id);
  expect(approved).toEqual({ code: 0, json: { id: filed.approval_id, status: "succeeded" } });
  const again = await cli("approval", "approve", "--id", filed.approval_id, "--user", team.users[0].id);
  expect(again.code).toBe(1);
  expect(again.json.error).toContain("already approved");
  expect((await cli("approval", "reject", "--id", filed.approval_id, "--user", team.users[0].id)).code).toBe(1);

  const result = (await call(client, "get_operation_result", { approval_id: filed.approval_id })).structuredContent;
  expect(result).toEqual({
    approval_id: filed.approval_id,
    status: "succeeded",
    result: { note: "Budget review", previous_note: null },
  });
  // The approved write dropped the server's cached read (the CLI ran it, in another process).
  expect(
    (await call(client, "sandbox_report", { connection_id: conn.id, metric: "users", days: 1 })).structuredContent,
  ).toMatchObject({ note: "Budget review" });

  const [log] = await logsOf(team, "operation_id=sandbox.set_note");
  expect(log).toMatchObject({
    status: "success",
    credits_used: 1,
    source: { type: "mcp", id: mcp.id },
    metadata: {
      tool_name: "run_write_operation",
      approval_id: filed.approval_id,
      approved_by: team.users[0].id,
      connection_id: conn.id,
    },
  });
  const ledger = (await (await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${mcp.id}`)).json())
    .data as { credits_used: number }[];
  expect(ledger.filter((e) => e.credits_used === 1)).toHaveLength(1);
  const balanceAfter = (await (await (await apiAs(team.users[0])).get("/v1/credits")).json()).credits_used;
  expect(balanceAfter - balanceBefore).toBe(1 + 2 + 2);

  const resolved = await waitFor(
    () => hooks.received.find((r) => JSON.parse(r.body).type === "approval.resolved"),
    10_000,
    "approval.resolved",
  );
  expect(JSON.parse(resolved.body).data.approval).toMatchObject({
    id: filed.approval_id,
    status: "succeeded",
    decided_by: team.users[0].id,
    decided_at: expect.any(Number),
  });
  const outsider = await seedTeam();
  const foreign = await cli("approval", "approve", "--id", filed.approval_id, "--user", outsider.users[0].id);
  expect(foreign.code).toBe(1);
});

test("reject and expiry run nothing and charge nothing; the dashboard answers 409 with the reason", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const hooks = await startReceiver();
  receivers.push(hooks);
  expect(
    (await cli("webhook", "create", "--team", team.id, "--url", hooks.url, "--events", "approval.resolved")).code,
  ).toBe(0);
  const conn = await sandboxConnection(team, "reject");
  const mcp = await server(team, [conn.id], "approval");
  const client = await mcpClient(mcp.token);
  const ask = async (note: string) =>
    (
      (
        await call(client, "run_write_operation", {
          operation_id: "sandbox.set_note",
          connection_id: conn.id,
          input: { note },
        })
      ).structuredContent as { approval_id: string }
    ).approval_id;
  const first = await ask("rejected note");
  const second = await ask("expired note");

  // A member (not an owner) decides in the dashboard.
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const page = await (await member.get("/api/dashboard/approvals?status=pending")).json();
  expect(page.pending).toBe(2);
  expect(page.data.map((a: { id: string }) => a.id)).toEqual([second, first]);
  expect(page.data[1]).toMatchObject({
    input: { note: "rejected note" },
    before: { note: null },
    connection: { id: conn.id, type: "sandbox_key" },
  });
  const rejected = await member.post(`/api/dashboard/approvals/${first}/reject`, { data: { note: "not this week" } });
  expect(rejected.status(), await rejected.text()).toBe(200);
  expect(await rejected.json()).toMatchObject({
    status: "rejected",
    note: "not this week",
    decided_by: team.users[1].id,
  });
  await expectError(await member.post(`/api/dashboard/approvals/${first}/approve`, { data: {} }), 409, "rejected");
  expect((await call(client, "get_operation_result", { approval_id: first })).structuredContent).toMatchObject({
    status: "rejected",
    error: expect.stringContaining("not this week"),
  });

  // Expiry: the request's time runs out (moved into the past in the database); the sweeper acts within 15 s.
  await inDatabase(
    `await db.approval.update({ where: { id: args.id }, data: { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) } });`,
    { id: second },
  );
  expect((await call(client, "get_operation_result", { approval_id: second })).structuredContent).toMatchObject({
    status: "expired",
  });
  await expectError(await member.post(`/api/dashboard/approvals/${second}/approve`, { data: {} }), 409, "expired");
  const expiredHook = await waitFor(
    () => hooks.received.find((r) => JSON.parse(r.body).data.approval.id === second),
    15_000,
    "approval.resolved for the expiry",
  );
  expect(JSON.parse(expiredHook.body).data.approval.status).toBe("expired");
  expect(
    JSON.parse(hooks.received.find((r) => JSON.parse(r.body).data.approval.id === first)!.body).data.approval.status,
  ).toBe("rejected");
  const cliExpired = await cli("approval", "approve", "--id", second, "--user", team.users[0].id);
  expect(cliExpired.code).toBe(1);
  expect(cliExpired.json.error).toContain("expired");

  expect(await logsOf(team, "operation_id=sandbox.set_note")).toEqual([]);
  const ledger = (await (await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${mcp.id}`)).json())
    .data as { credits_used: number }[];
  expect(ledger.every((e) => e.credits_used === 0)).toBe(true);
  expect(
    (await call(client, "sandbox_report", { connection_id: conn.id, metric: "users", days: 1 })).structuredContent,
  ).toMatchObject({ note: null });
  const audit = await (
    await sessionAs(team.users[0].email, PASSWORD, team.id)
  ).get("/api/dashboard/audit?action=approval.reject");
  expect((await audit.json()).data).toHaveLength(1);
});

test("write policy: off by default; a member without rights cannot change it; only a team owner may allow writes without approval", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const created = await owner.post("/api/dashboard/mcp-servers", { data: { name: "Owner's server" } });
  const ownersServer = await created.json();
  expect(ownersServer.write_policy).toBe("off");
  await expectError(
    await member.patch(`/api/dashboard/mcp-servers/${ownersServer.id}`, { data: { write_policy: "approval" } }),
    403,
    "owner",
  );
  const mine = await (await member.post("/api/dashboard/mcp-servers", { data: { name: "Member's server" } })).json();
  const asked = await member.patch(`/api/dashboard/mcp-servers/${mine.id}`, { data: { write_policy: "approval" } });
  expect(asked.status(), await asked.text()).toBe(200);
  expect((await asked.json()).write_policy).toBe("approval");
  await expectError(
    await member.patch(`/api/dashboard/mcp-servers/${mine.id}`, { data: { write_policy: "allowed" } }),
    403,
    "team owner",
  );
  await expectError(
    await member.post("/api/dashboard/mcp-servers", { data: { name: "x", write_policy: "allowed" } }),
    403,
    "team owner",
  );
  await expectError(
    await owner.patch(`/api/dashboard/mcp-servers/${mine.id}`, { data: { write_policy: "sometimes" } }),
    400,
    "write_policy",
  );
  const allowed = await owner.patch(`/api/dashboard/mcp-servers/${mine.id}`, { data: { write_policy: "allowed" } });
  expect((await allowed.json()).write_policy).toBe("allowed");
  const audit = await (await owner.get("/api/dashboard/audit?action=mcp_server.write_policy_change")).json();
  expect(audit.data.map((e: { details: Record<string, unknown> }) => e.details)).toEqual([
    expect.objectContaining({ from: "approval", to: "allowed" }),
    expect.objectContaining({ from: "off", to: "approval" }),
  ]);
  expect(
    (await cli("mcp", "create", "--team", team.id, "--user", team.users[0].id, "--name", "n", "--writes", "sometimes"))
      .code,
  ).toBe(1);
});

test("20 concurrent approvals of one request across two instances make exactly one provider call", async () => {
  test.skip(!isPostgres(), "two instances on one database: the PostgreSQL run (SQLite serializes every writer anyway)");
  const team = await seedTeam({ password: PASSWORD });
  const api = await apiAs(team.users[0]);
  const made = await api.post("/v1/connections", {
    data: {
      connection_type: "slack",
      name: "Race workspace",
      credentials: { bot_token: `xoxb-7-8-race${Date.now()}` },
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const conn = (await made.json()) as { id: string };
  const mcp = await server(team, [conn.id], "approval");
  const client = await mcpClient(mcp.token);
  const text = `exactly once ${Date.now()}`;
  const asked = await call(client, "run_write_operation", {
    operation_id: "slack.post_message",
    connection_id: conn.id,
    input: { channel: "#general", text },
  });
  expect(asked.isError, textOf(asked)).toBeFalsy();
  const id = (asked.structuredContent as { approval_id: string }).approval_id;
  const second = await startInstance();
  try {
    const sessions = [
      await sessionAs(team.users[0].email, PASSWORD, team.id),
      await sessionAs(team.users[0].email, PASSWORD, team.id, second.baseUrl),
    ];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sessions[i % 2].post(`/api/dashboard/approvals/${id}/approve`, { data: {} }),
      ),
    );
    const statuses = answers.map((a) => a.status()).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  } finally {
    await second.stop();
  }
  const slack = JSON.parse(process.env.PROVIDER_BASE_URLS!).slack as string;
  const posted = (
    await (await fetch(`${slack}/__stand-in/requests?path=/api/chat.postMessage&method=POST`)).json()
  ).requests.filter((r: { json: { text?: string } | null }) => r.json?.text === text);
  expect(posted).toHaveLength(1);
  expect(await logsOf(team, "operation_id=slack.post_message")).toHaveLength(1);
  expect((await call(client, "get_operation_result", { approval_id: id })).structuredContent).toMatchObject({
    status: "succeeded",
  });
});

test("tools/list holds at most 25 tools whatever the scope: one connection of every type at once, under every write policy", async () => {
  const listed = await inDatabase<Record<string, string[]>>(`
    const buildMcpServer = pick(await import("./lib/mcp/build-server.ts"), "buildMcpServer");
    const { OPERATIONS } = await import("./lib/operations/registry.ts").then((m) => ({ OPERATIONS: pick(m, "OPERATIONS") }));
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const types = [...new Set(OPERATIONS.flatMap((op) => op.types))];
    const scope = types.map((type, i) => ({ id: "conn_" + i, type, name: type, externalId: null, isPrivate: false, readsVersion: 0 }));
    const out = {};
    for (const writePolicy of ["off", "approval", "allowed"]) {
      const server = buildMcpServer({ principal: { tokenId: "t", server: { id: "mcp_x", name: "x", teamId: "team_x", ownerUserId: null, writePolicy }, user: null }, scope });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const client = new Client({ name: "count", version: "1" });
      await client.connect(b);
      out[writePolicy] = (await client.listTools()).tools.map((t) => t.name);
      await client.close();
    }
    out.types = types;
    return out;
  `);
  expect(listed.types.length).toBeGreaterThanOrEqual(15);
  for (const policy of ["off", "approval", "allowed"]) {
    expect(listed[policy].length, listed[policy].join(", ")).toBeLessThanOrEqual(25);
    expect(listed[policy]).toEqual(
      expect.arrayContaining([
        "list_connections",
        "find_operations",
        "get_operation_inputs",
        "run_operation",
        "run_write_operation",
        "get_operation_result",
        "ga4_run_report",
        "stripe_get_balance",
      ]),
    );
  }
});
