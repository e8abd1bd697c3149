import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";
import { createLink, connect } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";

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
