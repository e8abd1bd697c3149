import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";
import { createLink, connect } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";
import { inDatabase } from "../support/in-database";

// Issue 5: every provider family has a real read behind /mcp. Each case connects an account
// (from credentials, or through the OAuth flow for OAuth-only types), calls the tool over the
// official SDK's client against the provider's local stand-in, and checks that the call wrote
// exactly one log and one charge, and that the same call again came from the cache without
// reaching the provider.

type Case = {
  type: string;
  /** Manual credentials, or null to connect through OAuth. */
  credentials: Record<string, string> | null;
  tool: string;
  args: Record<string, unknown>;
  /** The provider path the tool calls, as the stand-in counts it. */
  path: string;
  /** What a successful answer holds. */
  check: (result: Record<string, unknown>) => void;
};

const GOOGLE = {
  client_id: "123-abc.apps.googleusercontent.com",
  client_secret: "GOCSPX-mcp",
  refresh_token: "1//mcp-refresh",
};
const hasRows = (key: string) => (r: Record<string, unknown>) =>
  expect(Array.isArray(r[key]) && (r[key] as unknown[]).length > 0, JSON.stringify(r).slice(0, 300)).toBe(true);

const CASES: Case[] = [
  {
    type: "ga4",
    credentials: GOOGLE,
    tool: "ga4_run_report",
    args: { property_id: "123456789", metrics: ["sessions"], dimensions: ["date"] },
    path: "/v1beta/properties/123456789:runReport",
    check: hasRows("rows"),
  },
  {
    type: "gads",
    credentials: { ...GOOGLE, developer_token: "dev-token-22-characters" },
    tool: "google_ads_search",
    args: { customer_id: "1234567890", query: "SELECT campaign.name, metrics.clicks FROM campaign" },
    path: "/v18/customers/1234567890/googleAds:search",
    check: hasRows("rows"),
  },
  {
    type: "gsc",
    credentials: GOOGLE,
    tool: "search_console_query",
    args: {
      site_url: "sc-domain:example.com",
      start_date: "2026-10-01",
      end_date: "2026-10-31",
      dimensions: ["query"],
    },
    path: "/webmasters/v3/sites/sc-domain:example.com/searchAnalytics/query",
    check: hasRows("rows"),
  },
  {
    type: "meta_ads",
    credentials: { app_id: "1234567890123456", app_secret: "meta-app-secret", access_token: "EAAsystemusertoken" },
    tool: "meta_ads_insights",
    args: { ad_account_id: "1234567890" },
    path: "/v21.0/act_1234567890/insights",
    check: hasRows("rows"),
  },
  {
    type: "linkedin_ads",
    credentials: null,
    tool: "linkedin_ads_analytics",
    args: { ad_account_id: "507404993" },
    path: "/rest/adAnalytics",
    check: hasRows("rows"),
  },
  {
    type: "tiktok_ads",
    credentials: null,
    tool: "tiktok_ads_report",
    args: {},
    path: "/open_api/v1.3/report/integrated/get/",
    check: hasRows("rows"),
  },
  {
    type: "shopify",
    credentials: { shop_domain: "mcp-store.myshopify.com", access_token: "shpat_mcp" },
    tool: "shopify_list_orders",
    args: { limit: 5 },
    path: "/admin/api/2025-01/graphql.json",
    check: hasRows("orders"),
  },
  {
    type: "slack",
    credentials: { bot_token: "xoxb-mcp-token" },
    tool: "slack_list_channels",
    args: {},
    path: "/api/conversations.list",
    check: hasRows("channels"),
  },
  {
    type: "hubspot",
    credentials: null,
    tool: "hubspot_list_contacts",
    args: {},
    path: "/crm/v3/objects/contacts",
    check: hasRows("contacts"),
  },
  {
    type: "openai",
    credentials: { api_key: "sk-proj-mcp0123456789" },
    tool: "openai_list_models",
    args: {},
    path: "/v1/models",
    check: hasRows("models"),
  },
  {
    type: "stripe",
    credentials: { secret_key: "sk_test_mcp0123456789" },
    tool: "stripe_get_balance",
    args: {},
    path: "/v1/balance",
    check: (r) => expect(r).toHaveProperty("available"),
  },
];

async function connectAccount(team: SeededTeam, c: Case): Promise<string> {
  const api = await apiAs(team.users[0]);
  if (c.credentials) {
    const res = await api.post("/v1/connections", {
      data: { connection_type: c.type, name: `${c.type} account`, credentials: c.credentials },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).id;
  }
  const link = await createLink(api, { connection_type: c.type });
  await connect(link, c.type, { account: `mcp-${c.type}` });
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.status, JSON.stringify(status)).toBe("connected");
  return status.connection_id;
}

async function providerCalls(type: string, path: string): Promise<number> {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}")[type];
  expect(base, `a stand-in for ${type}`).toBeTruthy();
  return (await (await fetch(`${base}/__stand-in/calls?${new URLSearchParams({ path })}`)).json()).count;
}

for (const c of CASES) {
  test(`${c.type}: ${c.tool} reads through the stand-in, one log and one charge per call, then a cache hit`, async () => {
    const team = await seedTeam({ name: `MCP ${c.type}` });
    const connectionId = await connectAccount(team, c);
    const made = await cli(
      "mcp",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      `${c.type} agent`,
      "--connections",
      connectionId,
    );
    expect(made.code, JSON.stringify(made.json)).toBe(0);
    const client = await mcpClient(made.json.token);
    const offered = (await client.listTools()).tools;
    const tool = offered.find((t) => t.name === c.tool);
    expect(tool, `${c.tool} is offered for a ${c.type} connection`).toBeTruthy();
    expect(tool!.inputSchema.required).toContain("connection_id");
    // A provider read: the client may run it without asking, and it reaches outside Patchbay.
    expect(tool!.title).toBeTruthy();
    expect(tool!.annotations).toEqual({
      title: tool!.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });

    const before = await providerCalls(c.type, c.path);
    const first = await client.callTool({ name: c.tool, arguments: { connection_id: connectionId, ...c.args } });
    expect(first.isError, JSON.stringify(first.content).slice(0, 500)).toBeFalsy();
    c.check(first.structuredContent as Record<string, unknown>);
    expect(await providerCalls(c.type, c.path)).toBe(before + 1);

    const again = await client.callTool({ name: c.tool, arguments: { connection_id: connectionId, ...c.args } });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await providerCalls(c.type, c.path), "the cached answer did not reach the provider").toBe(before + 1);

    const api = await apiAs(team.users[0]);
    const logs = (await (await api.get(`/v1/logs?source_id=${made.json.id}`)).json()).data;
    expect(logs).toHaveLength(2);
    const [hit, miss] = [
      logs.find((l: { cache_hit: boolean }) => l.cache_hit),
      logs.find((l: { cache_hit: boolean }) => !l.cache_hit),
    ];
    expect(miss).toMatchObject({
      status: "success",
      credits_used: expect.any(Number),
      metadata: { tool_name: c.tool, connection_id: connectionId },
      source: { type: "mcp", id: made.json.id },
    });
    expect(miss.credits_used).toBeGreaterThan(0);
    expect(hit).toMatchObject({ status: "success", credits_used: 0, operation_id: miss.operation_id });
    const ledger = (await (await api.get(`/v1/credits/logs?service_id=${made.json.id}`)).json()).data;
    expect(ledger.map((e: { credits_used: number }) => e.credits_used).sort((x: number, y: number) => x - y)).toEqual([
      0,
      miss.credits_used,
    ]);
  });
}

// Issue 35, item 6: what a client reads before it calls a tool. Every tool has a title and all
// four hints, derived from the catalogue operations it may run; the tools whose answer has one
// shape declare it (outputSchema) and answer with it as structuredContent.

type Fact = {
  id: string;
  kind: "read" | "write";
  tool_name: string | null;
  idempotent: boolean;
  additive: boolean;
  requires_approval: boolean;
  types: string[];
  output_schema: Record<string, unknown> | null;
};
type Listed = Pick<Tool, "name" | "title" | "annotations" | "outputSchema">;

/**
 * The catalogue as the server holds it, and what a server with one connection of every type
 * lists (built in a process of the product's modules: twenty types would need twenty OAuth flows).
 */
async function catalogueAndEveryTool() {
  return inDatabase<{ facts: Fact[]; tools: Listed[] }>(`
    const OPERATIONS = pick(await import("./lib/operations/registry.ts"), "OPERATIONS");
    const outputJsonSchema = pick(await import("./lib/operations/operation-json.ts"), "outputJsonSchema");
    const buildMcpServer = pick(await import("./lib/mcp/build-server.ts"), "buildMcpServer");
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const types = [...new Set(OPERATIONS.flatMap((op) => op.types))];
    const scope = types.map((type, i) => ({
      id: "conn_" + i, type, name: type, externalId: null, isPrivate: false, readsVersion: 0,
    }));
    const mcpServer = { id: "mcp_x", name: "x", teamId: "team_x", ownerUserId: null, writePolicy: "approval" };
    const server = buildMcpServer({ principal: { tokenId: "t", server: mcpServer, user: null }, scope });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "hints", version: "1" });
    await client.connect(b);
    const tools = (await client.listTools()).tools.map(({ name, title, annotations, outputSchema }) => ({
      name, title, annotations, outputSchema,
    }));
    await client.close();
    const facts = OPERATIONS.map((op) => ({
      id: op.id,
      kind: op.kind,
      tool_name: op.toolName ?? null,
      idempotent: op.idempotent === true,
      additive: op.additive === true,
      requires_approval: op.requiresApproval,
      types: op.types,
      output_schema: outputJsonSchema(op),
    }));
    return { facts, tools };
  `);
}

/**
 * The operations a tool may run: a direct tool its own; run_operation the reads and the writes
 * nobody approves; run_write_operation every write; the others none (they read Patchbay's own data).
 */
function operationsOf(tool: string, facts: Fact[]): Fact[] {
  if (tool === "run_operation") return facts.filter((f) => f.kind === "read" || !f.requires_approval);
  if (tool === "run_write_operation") return facts.filter((f) => f.kind === "write");
  const direct = facts.find((f) => f.tool_name === tool);
  if (direct) return [direct];
  expect(DISCOVERY, `${tool} is a direct tool of the catalogue or a discovery tool`).toContain(tool);
  return [];
}

/** The spec's meaning of each hint, for a tool that may run any of `ops`: the least safe one decides. */
const hintsFor = (ops: Fact[]) => ({
  readOnlyHint: ops.every((f) => f.kind === "read"),
  destructiveHint: ops.some((f) => f.kind === "write" && !f.additive),
  idempotentHint: ops.every((f) => f.kind === "read" || f.idempotent),
  openWorldHint: ops.some((f) => f.types.length > 0),
});

const DISCOVERY = [
  "list_connections",
  "find_operations",
  "get_operation_inputs",
  "run_operation",
  "run_write_operation",
  "get_operation_result",
];
const FIXED_SHAPE = ["list_connections", "find_operations", "get_operation_inputs", "get_operation_result"];
const ON_PATCHBAY_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

function expectTitleAndHints(tool: Listed, facts: Fact[]) {
  expect(tool.title, tool.name).toBeTruthy();
  expect(tool.annotations, tool.name).toEqual({ title: tool.title, ...hintsFor(operationsOf(tool.name, facts)) });
}

async function sandboxServer(team: SeededTeam, writes: "off" | "approval" | "allowed") {
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: "shapes", credentials: { api_key: `sk-shapes-${Date.now()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const conn = (await res.json()) as { id: string; external_id: string | null };
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    `shapes ${writes}`,
    "--connections",
    conn.id,
    "--writes",
    writes,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return { conn, token: made.json.token as string };
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

test("tools/list gives every tool a title and the four hints, as the catalogue's operations have them", async () => {
  const { facts, tools: everyTool } = await catalogueAndEveryTool();
  // The facts the hints come from, where the catalogue states them.
  const fact = (id: string) => facts.find((f) => f.id === id);
  expect(fact("slack.post_message")).toMatchObject({ kind: "write", idempotent: false, additive: true });
  expect(fact("google_ads.campaign_budget.update")).toMatchObject({ kind: "write", idempotent: true, additive: false });
  expect(facts.filter((f) => f.kind === "read").every((f) => !f.additive)).toBe(true);

  const team = await seedTeam({ name: "MCP hints" });
  for (const writes of ["off", "approval", "allowed"] as const) {
    const client = await mcpClient((await sandboxServer(team, writes)).token);
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name).sort()).toEqual([...DISCOVERY, "sandbox_report"].sort());
    for (const tool of listed) expectTitleAndHints(tool, facts);
    await client.close();
  }

  // Every direct tool of the catalogue (all but the sandbox's fit under the cap of 25).
  const direct = facts.filter((f) => f.tool_name).map((f) => f.tool_name!);
  expect(everyTool.map((t) => t.name)).toEqual(expect.arrayContaining(direct.filter((n) => n !== "sandbox_report")));
  for (const tool of everyTool) {
    expectTitleAndHints(tool, facts);
    // Every direct tool is a provider read: safe to repeat, reaching outside Patchbay. Its
    // outputSchema is its operation's output_schema in the catalogue (the SDK names the draft).
    if (direct.includes(tool.name)) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: true });
      const { $schema: _, ...declared } = (tool.outputSchema ?? {}) as Record<string, unknown>;
      expect(declared, tool.name).toEqual(facts.find((f) => f.tool_name === tool.name)!.output_schema);
    }
  }
  const byName = new Map(everyTool.map((t) => [t.name, t.annotations]));
  for (const name of FIXED_SHAPE) expect(byName.get(name)).toMatchObject(ON_PATCHBAY_ONLY);
  // Writes overwrite (budgets, statuses) and add (messages, posts); a repeated post posts twice.
  expect(byName.get("run_write_operation")).toMatchObject({
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
  // Every write of the catalogue needs approval, so run_operation only ever runs reads.
  expect(facts.filter((f) => f.kind === "write").every((f) => f.requires_approval)).toBe(true);
  expect(byName.get("run_operation")).toMatchObject({ readOnlyHint: true, openWorldHint: true });
});

test("fixed-shape tools declare an outputSchema and their structuredContent fits it; errors carry none", async () => {
  const team = await seedTeam({ name: "MCP shapes" });
  const { conn, token } = await sandboxServer(team, "approval");
  const client = await mcpClient(token);
  // Listed first: the client checks a tool's structuredContent only once it has seen its outputSchema.
  const tools = (await client.listTools()).tools;
  const schemaOf = new Map(tools.map((t) => [t.name, t.outputSchema]));
  for (const name of FIXED_SHAPE) expect(schemaOf.get(name), name).toMatchObject({ type: "object" });
  // A direct read answers its operation's result, whose shape the catalogue declares (issue 48).
  expect(schemaOf.get("sandbox_report")).toMatchObject({
    type: "object",
    required: expect.arrayContaining(["metric", "unit", "total", "rows", "note"]),
  });
  // What a run answers depends on the operation (run_write_operation: its result, or a filed request).
  for (const name of ["run_operation", "run_write_operation"]) expect(schemaOf.get(name), name).toBeUndefined();

  const validator = new AjvJsonSchemaValidator();
  const structured = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const check = validator.getValidator(schemaOf.get(name)!)(result.structuredContent);
    expect(check.valid, `${name}: ${check.errorMessage}`).toBe(true);
    // The same JSON as text, for a client that reads only text.
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    return result.structuredContent;
  };

  expect(await structured("list_connections", {})).toEqual({
    connections: [
      {
        id: conn.id,
        type: "sandbox_key",
        type_name: expect.any(String),
        display_name: "shapes",
        external_id: conn.external_id,
        is_private: false,
        tools: ["sandbox_report"],
      },
    ],
  });
  const found = (await structured("find_operations", { query: "save a note" })) as { operations: unknown[] };
  expect(found.operations[0]).toEqual({
    id: "sandbox.set_note",
    title: "Set the sandbox account's note",
    description: expect.any(String),
    kind: "write",
    requires_approval: true,
    credits: 1,
    connection_types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"],
    connection_ids: [conn.id],
  });
  expect(await structured("get_operation_inputs", { operation_id: "sandbox.set_note" })).toEqual({
    operation_id: "sandbox.set_note",
    input_schema: expect.objectContaining({ type: "object", required: ["note"] }),
    example: { note: "Campaign review on Monday" },
  });

  const file = async (note: string) => {
    const asked = (await client.callTool({
      name: "run_write_operation",
      arguments: { operation_id: "sandbox.set_note", connection_id: conn.id, input: { note } },
    })) as CallToolResult;
    expect(asked.isError, textOf(asked)).toBeFalsy();
    return (asked.structuredContent as { approval_id: string }).approval_id;
  };
  const approved = await file("Shapes");
  expect(await structured("get_operation_result", { approval_id: approved })).toEqual({
    approval_id: approved,
    status: "pending",
  });
  expect((await cli("approval", "approve", "--id", approved, "--user", team.users[0].id)).code).toBe(0);
  expect(await structured("get_operation_result", { approval_id: approved })).toEqual({
    approval_id: approved,
    status: "succeeded",
    result: { note: "Shapes", previous_note: null },
  });
  expect(await structured("sandbox_report", { connection_id: conn.id, metric: "signups", days: 2 })).toEqual({
    metric: "signups",
    unit: "count",
    total: expect.any(Number),
    rows: [
      { date: expect.any(String), value: expect.any(Number) },
      { date: expect.any(String), value: expect.any(Number) },
    ],
    note: "Shapes",
  });
  const rejected = await file("Never");
  const no = await cli("approval", "reject", "--id", rejected, "--user", team.users[0].id, "--note", "not now");
  expect(no.code, JSON.stringify(no.json)).toBe(0);
  expect(await structured("get_operation_result", { approval_id: rejected })).toEqual({
    approval_id: rejected,
    status: "rejected",
    error: expect.stringContaining("not now"),
  });

  // A failed call is an error result without structuredContent: the client accepts it as such.
  for (const [name, args, says] of [
    ["get_operation_inputs", { operation_id: "sandbox.nothing" }, "There is no operation"],
    ["get_operation_result", { approval_id: "apr_unknown" }, "There is no approval request"],
    ["find_operations", { connection_id: "conn_elsewhere" }, "is not among the connections"],
  ] as const) {
    const failed = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(failed.isError, name).toBe(true);
    expect(failed.structuredContent, name).toBeUndefined();
    expect(textOf(failed)).toContain(says);
  }
  await client.close();
});
