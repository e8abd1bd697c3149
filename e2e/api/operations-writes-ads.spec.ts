import { createHmac, randomBytes, randomInt } from "node:crypto";
import Ajv2020 from "ajv/dist/2020";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";
import { mcpClient } from "../support/mcp";

// Ads writes through /mcp: pausing, enabling and re-budgeting Google Ads campaigns and Meta
// campaigns and ad sets. Each test connects its own account (a fresh Google customer ID, a fresh
// Meta token and so fresh ad accounts), runs the writes through run_write_operation on an MCP
// server whose writes are allowed, and checks the exact request the provider's stand-in received
// (its journal), the answer, and that the provider's reads then show the change. Bad input is
// refused before any provider call; an unknown object is the provider's own not-found error.

type Recorded = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  json: unknown;
  text: string;
};
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

const GOOGLE_ADS = {
  client_id: "123-abc.apps.googleusercontent.com",
  client_secret: "GOCSPX-writes",
  refresh_token: "1//writes-refresh",
  developer_token: "dev-token-writes-22chr",
};
const META_APP = { app_id: "1234567890123456", app_secret: "meta-writes-secret" };

const standIn = (type: string): string => {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}")[type];
  expect(base, `a stand-in for ${type}`).toBeTruthy();
  return base;
};

/** The POSTs the type's stand-in received on `path`, oldest first. */
async function received(type: string, path: string): Promise<Recorded[]> {
  const res = await fetch(`${standIn(type)}/__stand-in/requests?${new URLSearchParams({ path, method: "POST" })}`);
  return (await res.json()).requests;
}

async function connect(team: SeededTeam, type: string, credentials: Record<string, string>): Promise<string> {
  const api = await apiAs(team.users[0]);
  const res = await api.post("/v1/connections", {
    data: { connection_type: type, name: `${type} writes`, credentials },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}

async function mcpServer(
  team: SeededTeam,
  connectionId: string,
  writes: "allowed" | "approval" = "allowed",
): Promise<Client> {
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "w",
    "--connections",
    connectionId,
    "--writes",
    writes,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return mcpClient(made.json.token);
}

const textOf = (r: Json) => (r.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");

async function call(client: Client, name: string, args: Json): Promise<Json> {
  const r = (await client.callTool({ name, arguments: args })) as Json;
  expect(r.isError, `${name}: ${textOf(r).slice(0, 500)}`).toBeFalsy();
  return r.structuredContent as Json;
}

async function refused(client: Client, name: string, args: Json): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as Json;
  expect(r.isError, JSON.stringify(r.structuredContent ?? null)).toBe(true);
  return textOf(r);
}

const write = (client: Client, connectionId: string, operationId: string, input: Json) =>
  call(client, "run_write_operation", { operation_id: operationId, connection_id: connectionId, input });

/** find_operations' answer for `query`: the entry of each id, which must be there as an approval-needing write runnable on the connection. */
async function expectFound(client: Client, connectionId: string, query: string, ids: string[]) {
  const found = (await call(client, "find_operations", { query })).operations as Json[];
  for (const id of ids) {
    const entry = found.find((o) => o.id === id);
    expect(entry, `find_operations("${query}") finds ${id}: ${found.map((o) => o.id).join(", ")}`).toBeTruthy();
    expect(entry).toMatchObject({ kind: "write", requires_approval: true, credits: 1, connection_ids: [connectionId] });
  }
}

/** get_operation_inputs: a JSON Schema with exactly these properties (connection_id not among them), which its example satisfies. */
async function expectInputs(client: Client, operationId: string, properties: string[], required: string[]) {
  const answer = await call(client, "get_operation_inputs", { operation_id: operationId });
  expect(answer.operation_id).toBe(operationId);
  const schema = answer.input_schema as Json;
  expect(Object.keys(schema.properties).sort()).toEqual([...properties].sort());
  expect([...(schema.required ?? [])].sort()).toEqual([...required].sort());
  for (const p of properties) expect(schema.properties[p].description, `${operationId}.${p} is described`).toBeTruthy();
  const validate = new Ajv2020({ strict: false }).compile(schema);
  expect(validate(answer.example), JSON.stringify(validate.errors)).toBe(true);
}

// ---- Google Ads ----

/** A customer ID no other test uses (never 999…, which the stand-in reserves for manager-only access). */
const freshCustomer = () => `${randomInt(1, 9)}${String(randomInt(0, 1e9)).padStart(9, "0")}`;
const dashed = (id: string) => `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}`;

async function campaigns(client: Client, connectionId: string, customerId: string): Promise<Json[]> {
  const answer = await call(client, "google_ads_search", {
    connection_id: connectionId,
    customer_id: customerId,
    query:
      "SELECT campaign.id, campaign.name, campaign.status, campaign.campaign_budget, campaign_budget.amount_micros FROM campaign",
  });
  return answer.rows;
}

test.describe("Google Ads writes", () => {
  test("find_operations and get_operation_inputs describe the three writes", async () => {
    const team = await seedTeam({ name: "Ads writes: Google catalogue" });
    const connectionId = await connect(team, "gads", GOOGLE_ADS);
    const client = await mcpServer(team, connectionId);
    await expectFound(client, connectionId, "pause campaign", ["google_ads.campaign.pause"]);
    await expectFound(client, connectionId, "turn off google ads campaign", ["google_ads.campaign.pause"]);
    await expectFound(client, connectionId, "resume campaign", ["google_ads.campaign.enable"]);
    await expectFound(client, connectionId, "budget", ["google_ads.campaign_budget.update"]);
    await expectFound(client, connectionId, "change daily spend limit", ["google_ads.campaign_budget.update"]);
    for (const id of ["google_ads.campaign.pause", "google_ads.campaign.enable"]) {
      await expectInputs(
        client,
        id,
        ["customer_id", "campaign_id", "login_customer_id"],
        ["customer_id", "campaign_id"],
      );
    }
    await expectInputs(
      client,
      "google_ads.campaign_budget.update",
      ["customer_id", "campaign_id", "login_customer_id", "daily_budget"],
      ["customer_id", "campaign_id", "daily_budget"],
    );
  });

  test("pause and enable: one status mutate each, exactly as the Ads API takes it, and the search shows the new status", async () => {
    const team = await seedTeam({ name: "Ads writes: Google status" });
    const connectionId = await connect(team, "gads", GOOGLE_ADS);
    const client = await mcpServer(team, connectionId);
    const customerId = freshCustomer();
    const path = `/v18/customers/${customerId}/campaigns:mutate`;
    const brand = (await campaigns(client, connectionId, customerId)).find((r) => r["campaign.name"] === "Brand — US")!;
    expect(brand).toMatchObject({ "campaign.status": "ENABLED" });
    const campaignId = String(brand["campaign.id"]);

    const paused = await write(client, connectionId, "google_ads.campaign.pause", {
      customer_id: dashed(customerId),
      campaign_id: campaignId,
      login_customer_id: "111-222-3333",
    });
    expect(paused).toEqual({
      customer_id: customerId,
      campaign_id: campaignId,
      resource_name: `customers/${customerId}/campaigns/${campaignId}`,
      name: "Brand — US",
      status: "PAUSED",
    });
    const [pause, ...others] = await received("gads", path);
    expect(others).toEqual([]);
    expect(pause).toMatchObject({ method: "POST", path, query: {} });
    expect(pause.json).toEqual({
      operations: [
        {
          updateMask: "status",
          update: { resourceName: `customers/${customerId}/campaigns/${campaignId}`, status: "PAUSED" },
        },
      ],
      responseContentType: "MUTABLE_RESOURCE",
    });
    expect(pause.headers).toMatchObject({
      "developer-token": GOOGLE_ADS.developer_token,
      "login-customer-id": "1112223333",
      "content-type": "application/json",
    });
    expect(pause.headers.authorization).toMatch(/^Bearer at_/);
    // The write dropped the connection's cached reads: the same search now shows the change.
    expect(
      (await campaigns(client, connectionId, customerId)).find((r) => r["campaign.id"] === campaignId),
    ).toMatchObject({ "campaign.status": "PAUSED" });

    const enabled = await write(client, connectionId, "google_ads.campaign.enable", {
      customer_id: customerId,
      campaign_id: campaignId,
    });
    expect(enabled).toMatchObject({ campaign_id: campaignId, status: "ENABLED" });
    const requests = await received("gads", path);
    expect(requests).toHaveLength(2);
    expect(requests[1].json).toEqual({
      operations: [
        {
          updateMask: "status",
          update: { resourceName: `customers/${customerId}/campaigns/${campaignId}`, status: "ENABLED" },
        },
      ],
      responseContentType: "MUTABLE_RESOURCE",
    });
    expect(requests[1].headers["login-customer-id"], "no manager given, no login-customer-id").toBeUndefined();
    expect(
      (await campaigns(client, connectionId, customerId)).find((r) => r["campaign.id"] === campaignId),
    ).toMatchObject({ "campaign.status": "ENABLED" });
  });

  test("campaign_budget.update: finds the campaign's budget, mutates its amount in micros, and the search shows the new amount", async () => {
    const team = await seedTeam({ name: "Ads writes: Google budget" });
    const connectionId = await connect(team, "gads", GOOGLE_ADS);
    const client = await mcpServer(team, connectionId);
    const customerId = freshCustomer();
    const path = `/v18/customers/${customerId}/campaignBudgets:mutate`;
    const brand = (await campaigns(client, connectionId, customerId)).find((r) => r["campaign.name"] === "Brand — US")!;
    expect(brand).toMatchObject({ "campaignBudget.amountMicros": "50000000" });
    const campaignId = String(brand["campaign.id"]);
    const budget = String(brand["campaign.campaignBudget"]);
    expect(budget).toMatch(new RegExp(`^customers/${customerId}/campaignBudgets/\\d+$`));

    const changed = await write(client, connectionId, "google_ads.campaign_budget.update", {
      customer_id: customerId,
      campaign_id: campaignId,
      daily_budget: 75.5,
    });
    expect(changed).toEqual({
      customer_id: customerId,
      campaign_id: campaignId,
      name: "Brand — US",
      budget_resource_name: budget,
      currency: "USD",
      previous_daily_budget: 50,
      daily_budget: 75.5,
      shared_budget: false,
    });
    const requests = await received("gads", path);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "POST", path, query: {} });
    expect(requests[0].json).toEqual({
      operations: [{ updateMask: "amount_micros", update: { resourceName: budget, amountMicros: "75500000" } }],
      responseContentType: "MUTABLE_RESOURCE",
    });
    expect(requests[0].headers).toMatchObject({
      "developer-token": GOOGLE_ADS.developer_token,
      "content-type": "application/json",
    });
    expect(
      (await campaigns(client, connectionId, customerId)).find((r) => r["campaign.id"] === campaignId),
    ).toMatchObject({ "campaignBudget.amountMicros": "75500000" });
  });

  test("bad input is refused before any provider call; an unknown campaign is the Ads API's RESOURCE_NOT_FOUND", async () => {
    const team = await seedTeam({ name: "Ads writes: Google refusals" });
    const connectionId = await connect(team, "gads", GOOGLE_ADS);
    const client = await mcpServer(team, connectionId);
    const customerId = freshCustomer();
    const run = (operationId: string, input: Json) =>
      refused(client, "run_write_operation", { operation_id: operationId, connection_id: connectionId, input });

    expect(await run("google_ads.campaign.pause", { customer_id: "12", campaign_id: "123" })).toContain("customer_id");
    expect(await run("google_ads.campaign.enable", { customer_id: customerId, campaign_id: "12a" })).toContain(
      "campaign_id",
    );
    expect(
      await run("google_ads.campaign_budget.update", { customer_id: customerId, campaign_id: "123", daily_budget: -5 }),
    ).toContain("daily_budget");
    expect(
      await run("google_ads.campaign_budget.update", {
        customer_id: customerId,
        campaign_id: "123",
        daily_budget: 10.001,
      }),
    ).toContain("daily_budget");
    expect(await run("google_ads.campaign.pause", { customer_id: customerId })).toContain("campaign_id");
    expect(await received("gads", `/v18/customers/${customerId}/campaigns:mutate`)).toEqual([]);
    expect(await received("gads", `/v18/customers/${customerId}/campaignBudgets:mutate`)).toEqual([]);
    expect(await received("gads", "/v18/customers/12/campaigns:mutate")).toEqual([]);

    const notFound = await run("google_ads.campaign.pause", { customer_id: customerId, campaign_id: "4242" });
    expect(notFound).toContain("RESOURCE_NOT_FOUND");
    expect(notFound).toContain("Resource was not found.");
    expect(await received("gads", `/v18/customers/${customerId}/campaigns:mutate`)).toHaveLength(1);
    // The budget write looks the campaign up first: nothing to mutate, no mutate sent.
    expect(
      await run("google_ads.campaign_budget.update", {
        customer_id: customerId,
        campaign_id: "4242",
        daily_budget: 10,
      }),
    ).toContain("has no campaign 4242");
    expect(await received("gads", `/v18/customers/${customerId}/campaignBudgets:mutate`)).toEqual([]);
  });

  test("under the approval policy, the request names the campaign from its current state and nothing is sent", async () => {
    const team = await seedTeam({ name: "Ads writes: Google approval" });
    const connectionId = await connect(team, "gads", GOOGLE_ADS);
    const client = await mcpServer(team, connectionId, "approval");
    const customerId = freshCustomer();
    const generic = (await campaigns(client, connectionId, customerId)).find(
      (r) => r["campaign.name"] === "Generic — EU",
    )!;
    const campaignId = String(generic["campaign.id"]);

    const paused = await write(client, connectionId, "google_ads.campaign.pause", {
      customer_id: customerId,
      campaign_id: campaignId,
    });
    expect(paused).toMatchObject({
      status: "pending",
      summary: `Pause Google Ads campaign ${campaignId} 'Generic — EU' in account ${dashed(customerId)} (now ENABLED)`,
    });
    const budget = await write(client, connectionId, "google_ads.campaign_budget.update", {
      customer_id: customerId,
      campaign_id: campaignId,
      daily_budget: 30,
    });
    expect(budget).toMatchObject({
      status: "pending",
      summary: `Change the daily budget of Google Ads campaign ${campaignId} 'Generic — EU' in account ${dashed(customerId)} from 25.00 USD to 30.00 USD (a shared budget: every campaign that uses it changes too)`,
    });
    expect(await received("gads", `/v18/customers/${customerId}/campaigns:mutate`)).toEqual([]);
    expect(await received("gads", `/v18/customers/${customerId}/campaignBudgets:mutate`)).toEqual([]);
  });
});

// ---- Meta Ads ----

/** A Meta connection of its own: a fresh system-user token is a fresh user with fresh ad accounts at the stand-in. */
async function metaAccount(team: SeededTeam) {
  const token = `EAAwrites${randomBytes(8).toString("hex")}`;
  const connectionId = await connect(team, "meta_ads", { ...META_APP, access_token: token });
  const graph = async (path: string, fields: string) => {
    const res = await fetch(`${standIn("meta_ads")}/v21.0/${path}?${new URLSearchParams({ fields })}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Json;
  };
  const [usd, jpy] = ((await graph("me/adaccounts", "account_id,currency")).data as Json[]).map(
    (a) => a.account_id as string,
  );
  return {
    token,
    connectionId,
    graph,
    usd,
    jpy,
    proof: createHmac("sha256", META_APP.app_secret).update(token).digest("hex"),
    campaigns: async (account: string) =>
      (await graph(`act_${account}/campaigns`, "id,name,status,effective_status,daily_budget")).data as Json[],
    adsets: async (account: string) =>
      (await graph(`act_${account}/adsets`, "id,name,status,effective_status,daily_budget,campaign_id")).data as Json[],
  };
}

/** The one update Graph received for node `id`: POST /v21.0/{id}, form-encoded, token in the header and appsecret_proof in the query. */
async function expectUpdate(meta: Awaited<ReturnType<typeof metaAccount>>, id: string, body: string, count = 1) {
  const requests = await received("meta_ads", `/v21.0/${id}`);
  expect(requests).toHaveLength(count);
  const last = requests[count - 1];
  expect(last).toMatchObject({ method: "POST", path: `/v21.0/${id}`, text: body });
  expect(last.query).toEqual({ appsecret_proof: meta.proof });
  expect(last.headers).toMatchObject({
    authorization: `Bearer ${meta.token}`,
    "content-type": "application/x-www-form-urlencoded",
  });
}

const META_WRITES = [
  "meta_ads.campaign.pause",
  "meta_ads.campaign.enable",
  "meta_ads.adset.pause",
  "meta_ads.adset.enable",
  "meta_ads.ad.pause",
  "meta_ads.ad.enable",
  "meta_ads.campaign.update_budget",
  "meta_ads.adset.update_budget",
];

test.describe("Meta Ads writes", () => {
  test("find_operations and get_operation_inputs describe the eight writes", async () => {
    const team = await seedTeam({ name: "Ads writes: Meta catalogue" });
    const meta = await metaAccount(team);
    const client = await mcpServer(team, meta.connectionId);
    await expectFound(client, meta.connectionId, "pause campaign", ["meta_ads.campaign.pause", "meta_ads.adset.pause"]);
    await expectFound(client, meta.connectionId, "stop facebook ad set", ["meta_ads.adset.pause"]);
    await expectFound(client, meta.connectionId, "turn on campaign", ["meta_ads.campaign.enable"]);
    await expectFound(client, meta.connectionId, "budget", [
      "meta_ads.campaign.update_budget",
      "meta_ads.adset.update_budget",
    ]);
    await expectFound(client, meta.connectionId, "increase daily budget", [
      "meta_ads.campaign.update_budget",
      "meta_ads.adset.update_budget",
    ]);
    const all = (await call(client, "find_operations", {})).operations as Json[];
    expect(
      all
        .filter((o) => o.kind === "write")
        .map((o) => o.id)
        .sort(),
    ).toEqual([...META_WRITES].sort());
    for (const id of META_WRITES) {
      const field = id.startsWith("meta_ads.campaign.")
        ? "campaign_id"
        : id.startsWith("meta_ads.ad.")
          ? "ad_id"
          : "adset_id";
      const budget = id.endsWith("update_budget");
      await expectInputs(
        client,
        id,
        budget ? [field, "daily_budget"] : [field],
        budget ? [field, "daily_budget"] : [field],
      );
    }
  });

  test("campaign and ad set pause and enable: one POST /{id} status=… each, and Graph then reports the status", async () => {
    const team = await seedTeam({ name: "Ads writes: Meta status" });
    const meta = await metaAccount(team);
    const client = await mcpServer(team, meta.connectionId);
    const brand = (await meta.campaigns(meta.usd)).find((c) => c.name === "Brand — US")!;
    const broad = (await meta.adsets(meta.usd)).find((a) => a.name === "Brand — US — Broad")!;
    expect(brand).toMatchObject({ status: "ACTIVE" });

    const paused = await write(client, meta.connectionId, "meta_ads.campaign.pause", { campaign_id: brand.id });
    expect(paused).toEqual({
      campaign_id: brand.id,
      name: "Brand — US",
      previous_status: "ACTIVE",
      status: "PAUSED",
      success: true,
    });
    await expectUpdate(meta, brand.id, "status=PAUSED");
    expect(await meta.graph(brand.id, "status,effective_status")).toMatchObject({
      status: "PAUSED",
      effective_status: "PAUSED",
    });
    expect(await meta.graph(broad.id, "effective_status")).toMatchObject({ effective_status: "CAMPAIGN_PAUSED" });

    expect(await write(client, meta.connectionId, "meta_ads.campaign.enable", { campaign_id: brand.id })).toMatchObject(
      { previous_status: "PAUSED", status: "ACTIVE" },
    );
    await expectUpdate(meta, brand.id, "status=ACTIVE", 2);
    expect(await meta.graph(brand.id, "status")).toMatchObject({ status: "ACTIVE" });

    expect(await write(client, meta.connectionId, "meta_ads.adset.pause", { adset_id: broad.id })).toEqual({
      adset_id: broad.id,
      name: "Brand — US — Broad",
      previous_status: "ACTIVE",
      status: "PAUSED",
      success: true,
    });
    await expectUpdate(meta, broad.id, "status=PAUSED");
    expect(await meta.graph(broad.id, "status")).toMatchObject({ status: "PAUSED" });
    expect(await write(client, meta.connectionId, "meta_ads.adset.enable", { adset_id: broad.id })).toMatchObject({
      status: "ACTIVE",
    });
    await expectUpdate(meta, broad.id, "status=ACTIVE", 2);
    expect(await meta.graph(broad.id, "status")).toMatchObject({ status: "ACTIVE" });
  });

  test("update_budget: the amount goes to Graph in the currency's minor units (cents for USD, yen for JPY), and Graph then reports it", async () => {
    const team = await seedTeam({ name: "Ads writes: Meta budgets" });
    const meta = await metaAccount(team);
    const client = await mcpServer(team, meta.connectionId);
    const brand = (await meta.campaigns(meta.usd)).find((c) => c.name === "Brand — US")!;
    expect(brand.daily_budget).toBe("5000");

    const campaign = await write(client, meta.connectionId, "meta_ads.campaign.update_budget", {
      campaign_id: brand.id,
      daily_budget: 75.25,
    });
    expect(campaign).toEqual({
      campaign_id: brand.id,
      name: "Brand — US",
      currency: "USD",
      previous_daily_budget: 50,
      daily_budget: 75.25,
      success: true,
    });
    await expectUpdate(meta, brand.id, "daily_budget=7525");
    expect(await meta.graph(brand.id, "daily_budget")).toMatchObject({ daily_budget: "7525" });

    const lookalike = (await meta.adsets(meta.jpy)).find((a) => a.name === "Prospecting — EU — Lookalike")!;
    expect(lookalike.daily_budget).toBe("2500");
    const adset = await write(client, meta.connectionId, "meta_ads.adset.update_budget", {
      adset_id: lookalike.id,
      daily_budget: 3000,
    });
    expect(adset).toEqual({
      adset_id: lookalike.id,
      name: "Prospecting — EU — Lookalike",
      currency: "JPY",
      previous_daily_budget: 2500,
      daily_budget: 3000,
      success: true,
    });
    await expectUpdate(meta, lookalike.id, "daily_budget=3000");
    expect(await meta.graph(lookalike.id, "daily_budget")).toMatchObject({ daily_budget: "3000" });
  });

  test("refusals: bad input, the wrong kind of object, a budget at the other level and an unknown id never reach a write", async () => {
    const team = await seedTeam({ name: "Ads writes: Meta refusals" });
    const meta = await metaAccount(team);
    const client = await mcpServer(team, meta.connectionId);
    const run = (operationId: string, input: Json) =>
      refused(client, "run_write_operation", { operation_id: operationId, connection_id: meta.connectionId, input });
    const [brand, prospecting] = await meta.campaigns(meta.usd);
    const lookalike = (await meta.adsets(meta.jpy)).find((a) => a.name === "Prospecting — EU — Lookalike")!;
    const broad = (await meta.adsets(meta.usd)).find((a) => a.name === "Brand — US — Broad")!;

    expect(await run("meta_ads.campaign.pause", { campaign_id: "act_12; DROP" })).toContain("campaign_id");
    expect(await run("meta_ads.adset.enable", { campaign_id: brand.id })).toContain("adset_id");
    expect(await run("meta_ads.campaign.update_budget", { campaign_id: brand.id, daily_budget: 0 })).toContain(
      "daily_budget",
    );
    expect(await run("meta_ads.campaign.update_budget", { campaign_id: brand.id, daily_budget: "50" })).toContain(
      "daily_budget",
    );
    // An ad set's id given to a campaign write (and the reverse) is refused after Graph named its type.
    expect(await run("meta_ads.campaign.pause", { campaign_id: broad.id })).toContain("is not a Meta campaign ID");
    expect(await run("meta_ads.adset.pause", { adset_id: brand.id })).toContain("is not a Meta ad set ID");
    // Budgets live at one level: the campaign's ad sets carry them, or the campaign does.
    expect(await run("meta_ads.campaign.update_budget", { campaign_id: prospecting.id, daily_budget: 20 })).toContain(
      "meta_ads.adset.update_budget",
    );
    expect(await run("meta_ads.adset.update_budget", { adset_id: broad.id, daily_budget: 20 })).toContain(
      "meta_ads.campaign.update_budget",
    );
    expect(await run("meta_ads.adset.update_budget", { adset_id: lookalike.id, daily_budget: 30.5 })).toContain(
      "JPY amounts have no cents",
    );
    for (const id of [brand.id, prospecting.id, broad.id, lookalike.id])
      expect(await received("meta_ads", `/v21.0/${id}`), id).toEqual([]);

    const unknown = await run("meta_ads.campaign.pause", { campaign_id: "123456789" });
    expect(unknown).toContain("GraphMethodException (code 100, subcode 33)");
    expect(unknown).toContain("Object with ID '123456789' does not exist");
    expect(await received("meta_ads", "/v21.0/123456789")).toEqual([]);
  });

  test("under the approval policy, the request names the campaign and its budget in the account's currency, and nothing is sent", async () => {
    const team = await seedTeam({ name: "Ads writes: Meta approval" });
    const meta = await metaAccount(team);
    const client = await mcpServer(team, meta.connectionId, "approval");
    const brand = (await meta.campaigns(meta.usd)).find((c) => c.name === "Brand — US")!;
    const lookalike = (await meta.adsets(meta.jpy)).find((a) => a.name === "Prospecting — EU — Lookalike")!;

    expect(await write(client, meta.connectionId, "meta_ads.campaign.pause", { campaign_id: brand.id })).toMatchObject({
      status: "pending",
      summary: `Pause Meta campaign ${brand.id} 'Brand — US' in ad account ${meta.usd} (now ACTIVE)`,
    });
    expect(
      await write(client, meta.connectionId, "meta_ads.campaign.update_budget", {
        campaign_id: brand.id,
        daily_budget: 75.25,
      }),
    ).toMatchObject({
      status: "pending",
      summary: `Change the daily budget of Meta campaign ${brand.id} 'Brand — US' in ad account ${meta.usd} from 50.00 USD to 75.25 USD`,
    });
    expect(
      await write(client, meta.connectionId, "meta_ads.adset.update_budget", {
        adset_id: lookalike.id,
        daily_budget: 3000,
      }),
    ).toMatchObject({
      status: "pending",
      summary: `Change the daily budget of Meta ad set ${lookalike.id} 'Prospecting — EU — Lookalike' in ad account ${meta.jpy} from 2500 JPY to 3000 JPY`,
    });
    expect(await received("meta_ads", `/v21.0/${brand.id}`)).toEqual([]);
    expect(await received("meta_ads", `/v21.0/${lookalike.id}`)).toEqual([]);
  });
});
