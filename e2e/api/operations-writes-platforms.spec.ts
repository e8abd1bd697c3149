import { randomBytes } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";
import { createLink, connect } from "../support/oauth-flow";
import { mcpClient } from "../support/mcp";
import { klaviyoListIds } from "../support/stand-ins/api-keys";

// The provider writes of LinkedIn Ads, TikTok Ads, Slack, HubSpot and Klaviyo, run through /mcp's
// run_write_operation against each provider's local stand-in. Each case connects an account of
// its own (so parallel tests never share provider state), then:
// - get_operation_inputs describes the operation's own fields;
// - under the `approval` write policy the call files a request whose summary names the object
//   (read by the operation's `before`) and nothing reaches the provider;
// - under `allowed` it runs at once: the result is checked, and the stand-in's journal shows the
//   exact request the provider received (path, method, body, headers);
// - a provider refusal comes back as a tool error with the provider's reason;
// - bad input is a tool error naming the field, and no request reaches the provider;
// - the request filed for approval, approved from the CLI, sends the provider the same request.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Recorded = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  json: Json | null;
  text: string;
};

type Case = {
  op: string;
  type: string;
  /** Manual credentials, or null to connect through OAuth (the nonce names the account). */
  credentials: (nonce: string) => Record<string, string> | null;
  /** What the test learns before writing (IDs the provider assigned), through reads where there are some. */
  prepare: (ctx: { client: Client; connectionId: string; nonce: string }) => Promise<Json>;
  input: (p: Json) => Json;
  fields: string[];
  summary: (p: Json, connectionName: string) => string;
  /** The provider requests of this test's writes (the journal is shared by parallel tests). */
  mine: (r: Recorded, p: Json) => boolean;
  /** The result and the requests the provider received for one run of `input`. */
  check: (result: Json, requests: Recorded[], p: Json) => void | Promise<void>;
  refusal: (p: Json) => { input: Json; says: string[] };
  badInput: (p: Json) => { input: Json; field: string };
};

const baseOf = (type: string) => {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}")[type];
  expect(base, `a stand-in for ${type}`).toBeTruthy();
  return base as string;
};

async function journal(type: string): Promise<Recorded[]> {
  const res = await fetch(`${baseOf(type)}/__stand-in/requests?method=POST`);
  return ((await res.json()) as { requests: Recorded[] }).requests;
}

const errorText = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("\n");

async function structured(client: Client, name: string, args: Json): Promise<Json> {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${errorText(r).slice(0, 500)}`).toBeFalsy();
  return r.structuredContent as Json;
}

const CASES: Case[] = [
  {
    op: "linkedin_ads.campaign.set_status",
    type: "linkedin_ads",
    credentials: () => null,
    // Any ad account works at the stand-in; a fresh one per run keeps the campaign paths apart.
    prepare: async ({ nonce }) => {
      const account = `5${parseInt(nonce, 16).toString().padStart(8, "0").slice(0, 8)}`;
      return { account, campaign: `${account.slice(0, 4)}1` };
    },
    input: (p) => ({ ad_account_id: p.account, campaign_id: p.campaign, status: "PAUSED" }),
    fields: ["ad_account_id", "campaign_id", "status"],
    summary: (p) => `Pause LinkedIn campaign ${p.campaign} 'Brand awareness' (now ACTIVE) in ad account ${p.account}.`,
    mine: (r, p) => r.path === `/rest/adAccounts/${p.account}/adCampaigns/${p.campaign}`,
    check(result, requests, p) {
      expect(result).toEqual({
        ad_account_id: p.account,
        campaign_id: p.campaign,
        name: "Brand awareness",
        previous_status: "ACTIVE",
        status: "PAUSED",
      });
      expect(requests).toHaveLength(1);
      const [r] = requests;
      expect(r.method).toBe("POST");
      expect(r.query).toEqual({});
      expect(r.json).toEqual({ patch: { $set: { status: "PAUSED" } } });
      expect(r.headers["x-restli-method"]).toBe("PARTIAL_UPDATE");
      expect(r.headers["x-restli-protocol-version"]).toBe("2.0.0");
      expect(r.headers["linkedin-version"]).toMatch(/^\d{6}$/);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers.authorization).toMatch(/^Bearer at_[0-9a-f]+$/);
    },
    refusal: (p) => ({
      input: { ad_account_id: p.account, campaign_id: "77", status: "ACTIVE" },
      says: ["LinkedIn refused the call", "NOT_FOUND", "urn:li:sponsoredCampaign:77"],
    }),
    badInput: (p) => ({
      input: { ad_account_id: p.account, campaign_id: "brand-campaign", status: "PAUSED" },
      field: "campaign_id",
    }),
  },
  {
    op: "tiktok_ads.campaign.set_status",
    type: "tiktok_ads",
    credentials: () => null,
    // The campaign comes from the campaign report, as an agent would find it.
    prepare: async ({ client, connectionId }) => {
      const report = await structured(client, "tiktok_ads_report", {
        connection_id: connectionId,
        data_level: "AUCTION_CAMPAIGN",
      });
      const row = report.rows.find((r: Json) => r.campaign_name === "campaign 1");
      expect(row, JSON.stringify(report).slice(0, 300)).toBeTruthy();
      return { advertiser: report.advertiser_id, campaign: row.campaign_id };
    },
    input: (p) => ({ campaign_id: p.campaign, operation_status: "DISABLE" }),
    fields: ["advertiser_id", "campaign_id", "operation_status"],
    summary: (p) =>
      `Pause (disable) TikTok campaign ${p.campaign} 'campaign 1' (now ENABLE) of advertiser ${p.advertiser}.`,
    mine: (r, p) => r.path === "/open_api/v1.3/campaign/status/update/" && r.json?.advertiser_id === p.advertiser,
    check(result, requests, p) {
      expect(result).toEqual({
        advertiser_id: p.advertiser,
        campaign_id: p.campaign,
        name: "campaign 1",
        previous_operation_status: "ENABLE",
        operation_status: "DISABLE",
        updated_campaign_ids: [p.campaign],
      });
      expect(requests).toHaveLength(1);
      const [r] = requests;
      expect(r.method).toBe("POST");
      expect(r.json).toEqual({ advertiser_id: p.advertiser, campaign_ids: [p.campaign], operation_status: "DISABLE" });
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["access-token"]).toMatch(/^at_[0-9a-f]+$/);
      expect(r.headers.authorization).toBeUndefined();
    },
    refusal: () => ({
      input: { campaign_id: "1234567", operation_status: "ENABLE" },
      says: ["TikTok refused the call", "40002", "Campaign 1234567 does not exist"],
    }),
    badInput: (p) => ({ input: { campaign_id: p.campaign, operation_status: "PAUSE" }, field: "operation_status" }),
  },
  {
    op: "slack.post_message",
    type: "slack",
    // Its own workspace per run: xoxb-<team>-<app>-… at the stand-in.
    credentials: (nonce) => ({ bot_token: `xoxb-${parseInt(nonce, 16)}-77-writes` }),
    prepare: async ({ nonce }) => ({
      token: `xoxb-${parseInt(nonce, 16)}-77-writes`,
      text: `Weekly traffic is up 12% on last week (${nonce}). *Details* in <https://example.com|the report>.`,
    }),
    input: (p) => ({ channel: "#general", text: p.text }),
    fields: ["channel", "text", "thread_ts"],
    summary: (p, name) => `Post a message to Slack channel #general in workspace ${name}: “${p.text}”`,
    mine: (r, p) => r.path === "/api/chat.postMessage" && r.headers.authorization === `Bearer ${p.token}`,
    check(result, requests, p) {
      expect(result).toMatchObject({
        ok: true,
        channel: expect.stringMatching(/^C[0-9A-F]+$/),
        ts: expect.stringMatching(/^\d{10}\.\d{6}$/),
      });
      expect(result.message).toMatchObject({
        text: p.text,
        ts: result.ts,
        thread_ts: null,
        bot_id: expect.stringMatching(/^B/),
      });
      expect(requests).toHaveLength(1);
      const [r] = requests;
      expect(r.method).toBe("POST");
      expect(r.json).toEqual({ channel: "#general", text: p.text });
      expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    },
    refusal: () => ({
      input: { channel: "#random", text: "Hello" },
      says: ["Slack refused the call", "not_in_channel", "#random"],
    }),
    badInput: () => ({ input: { channel: "#general", text: "   " }, field: "text" }),
  },
  {
    op: "hubspot.contact.upsert",
    type: "hubspot",
    credentials: () => null,
    prepare: async ({ nonce }) => ({ email: `jane.${nonce}@example.com` }),
    input: (p) => ({
      email: p.email.toUpperCase(),
      properties: { firstname: "Jane", lastname: "Doe", lifecyclestage: "lead" },
    }),
    fields: ["email", "properties"],
    summary: (p, name) =>
      `Create HubSpot contact ${p.email} with firstname=Jane, lastname=Doe, lifecyclestage=lead in portal ${name}.`,
    mine: (r, p) =>
      r.path === "/crm/v3/objects/contacts/batch/upsert" && JSON.stringify(r.json).includes(p.email.split("@")[0]),
    check(result, requests, p) {
      expect(result).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        new: true,
        email: p.email,
        properties: { email: p.email, firstname: "Jane", lastname: "Doe", lifecyclestage: "lead" },
      });
      expect(requests).toHaveLength(1);
      const [r] = requests;
      expect(r.method).toBe("POST");
      expect(r.json).toEqual({
        inputs: [
          {
            id: p.email,
            idProperty: "email",
            properties: { email: p.email, firstname: "Jane", lastname: "Doe", lifecyclestage: "lead" },
          },
        ],
      });
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers.authorization).toMatch(/^Bearer at_[0-9a-f]+$/);
    },
    refusal: (p) => ({
      input: { email: p.email, properties: { favourite_colour: "blue" } },
      says: ["HubSpot refused the call", "VALIDATION_ERROR", "PROPERTY_DOESNT_EXIST", "favourite_colour"],
    }),
    badInput: () => ({
      input: { email: "jane.doe-at-example.com", properties: { firstname: "Jane" } },
      field: "email",
    }),
  },
  {
    op: "klaviyo.list.add_profile",
    type: "klaviyo",
    credentials: (nonce) => ({ private_api_key: `pk_writes_${nonce}` }),
    prepare: async ({ nonce }) => ({
      key: `pk_writes_${nonce}`,
      list: klaviyoListIds(`pk_writes_${nonce}`)[0],
      email: `sam.${nonce}@example.com`,
    }),
    input: (p) => ({ list_id: p.list, email: p.email, first_name: "Sam" }),
    fields: ["list_id", "email", "first_name", "last_name"],
    summary: (p, name) => `Add ${p.email} to Klaviyo list ${p.list} 'Newsletter' in account ${name}.`,
    mine: (r, p) =>
      (r.path === "/api/profile-import" || r.path.startsWith("/api/lists/")) &&
      r.headers.authorization === `Klaviyo-API-Key ${p.key}`,
    async check(result, requests, p) {
      expect(result).toEqual({
        list_id: p.list,
        list_name: "Newsletter",
        profile_id: expect.stringMatching(/^[A-Z0-9]{26}$/),
        email: p.email,
        profile_created: true,
      });
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /api/profile-import",
        `POST /api/lists/${p.list}/relationships/profiles`,
      ]);
      const [created, added] = requests;
      expect(created.json).toEqual({ data: { type: "profile", attributes: { email: p.email, first_name: "Sam" } } });
      expect(added.json).toEqual({ data: [{ type: "profile", id: result.profile_id }] });
      for (const r of requests) {
        expect(r.headers["content-type"]).toBe("application/vnd.api+json");
        expect(r.headers.revision).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      // The list's members (Klaviyo's relationships read) now hold the profile.
      const members = await fetch(`${baseOf("klaviyo")}/api/lists/${p.list}/relationships/profiles`, {
        headers: { authorization: `Klaviyo-API-Key ${p.key}`, revision: "2024-10-15" },
      });
      expect((await members.json()).data).toEqual([{ type: "profile", id: result.profile_id }]);
    },
    refusal: (p) => ({
      input: { list_id: "NoSuchList", email: p.email },
      says: ["Klaviyo refused the call", "not_found", "A list with id NoSuchList does not exist."],
    }),
    badInput: (p) => ({ input: { list_id: "list/../1", email: p.email }, field: "list_id" }),
  },
];

async function connectAccount(team: SeededTeam, c: Case, nonce: string): Promise<string> {
  const api = await apiAs(team.users[0]);
  const credentials = c.credentials(nonce);
  if (credentials) {
    const res = await api.post("/v1/connections", {
      data: { connection_type: c.type, name: `${c.type} ${nonce}`, credentials },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).id;
  }
  const link = await createLink(api, { connection_type: c.type });
  await connect(link, c.type, { account: `writes-${c.type}-${nonce}` });
  const status = await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json();
  expect(status.status, JSON.stringify(status)).toBe("connected");
  return status.connection_id;
}

async function mcpServer(team: SeededTeam, name: string, connectionIds: string[], writes: "allowed" | "approval") {
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    name,
    "--connections",
    connectionIds.join(","),
    "--writes",
    writes,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return { id: made.json.id as string, client: await mcpClient(made.json.token) };
}

for (const c of CASES) {
  test(`${c.op}: described, summarized for approval, written to the provider exactly, refusals as tool errors`, async () => {
    const nonce = randomBytes(4).toString("hex");
    const team = await seedTeam({ name: `Writes ${c.type}` });
    const connectionId = await connectAccount(team, c, nonce);
    const allowed = await mcpServer(team, `${c.type} writer`, [connectionId], "allowed");
    const approval = await mcpServer(team, `${c.type} approvals`, [connectionId], "approval");
    const p = await c.prepare({ client: allowed.client, connectionId, nonce });
    const mine = async () => (await journal(c.type)).filter((r) => c.mine(r, p));
    const listed = (await structured(allowed.client, "list_connections", {})).connections.find(
      (x: Json) => x.id === connectionId,
    );
    const connectionName = listed.display_name ?? listed.external_id ?? connectionId;

    await test.step("get_operation_inputs: the operation's own fields as JSON Schema", async () => {
      const described = await structured(allowed.client, "get_operation_inputs", { operation_id: c.op });
      expect(described.operation_id).toBe(c.op);
      expect(described.input_schema.type).toBe("object");
      expect(Object.keys(described.input_schema.properties).sort()).toEqual([...c.fields].sort());
      expect(described.input_schema.properties).not.toHaveProperty("connection_id");
      for (const field of c.fields)
        expect(described.input_schema.properties[field].description, `${field} is described`).toBeTruthy();
      expect(described.example).toBeTruthy();
    });

    let approvalId = "";
    await test.step("approval policy: a request whose summary names the object; nothing is written", async () => {
      const filed = await structured(approval.client, "run_write_operation", {
        operation_id: c.op,
        connection_id: connectionId,
        input: c.input(p),
      });
      expect(filed).toMatchObject({ approval_id: expect.any(String), status: "pending" });
      expect(filed.summary).toBe(c.summary(p, connectionName));
      expect(await mine(), "a request filed for approval reaches no provider").toEqual([]);
      approvalId = filed.approval_id;
    });

    let written: Recorded[] = [];
    await test.step("allowed policy: the result, and the exact request the provider received", async () => {
      const result = await structured(allowed.client, "run_write_operation", {
        operation_id: c.op,
        connection_id: connectionId,
        input: c.input(p),
      });
      written = await mine();
      await c.check(result, written, p);
      const api = await apiAs(team.users[0]);
      const logs = (await (await api.get(`/v1/logs?source_id=${allowed.id}`)).json()).data;
      expect(
        logs.filter((l: Json) => l.operation_id === c.op && l.status === "success").map((l: Json) => l.credits_used),
      ).toEqual([1]);
    });

    await test.step("a provider refusal is a tool error with the provider's reason", async () => {
      const { input, says } = c.refusal(p);
      const refused = await allowed.client.callTool({
        name: "run_write_operation",
        arguments: { operation_id: c.op, connection_id: connectionId, input },
      });
      expect(refused.isError, JSON.stringify(refused.structuredContent ?? null)).toBe(true);
      for (const s of says) expect(errorText(refused)).toContain(s);
    });

    await test.step("bad input is a tool error naming the field, and reaches no provider", async () => {
      const before = (await mine()).length;
      const { input, field } = c.badInput(p);
      const refused = await allowed.client.callTool({
        name: "run_write_operation",
        arguments: { operation_id: c.op, connection_id: connectionId, input },
      });
      expect(refused.isError).toBe(true);
      expect(errorText(refused)).toContain(field);
      expect((await mine()).length).toBe(before);
    });

    await test.step("the request filed for approval, once approved, sends the provider the same request", async () => {
      const before = (await mine()).length;
      const approved = await cli("approval", "approve", "--id", approvalId, "--user", team.users[0].id);
      expect(approved.code, JSON.stringify(approved.json)).toBe(0);
      expect(approved.json).toEqual({ id: approvalId, status: "succeeded" });
      const outcome = await structured(approval.client, "get_operation_result", { approval_id: approvalId });
      expect(outcome).toMatchObject({ approval_id: approvalId, status: "succeeded", result: expect.any(Object) });
      const shape = (r: Recorded) => ({ method: r.method, path: r.path, json: r.json });
      expect((await mine()).slice(before).map(shape)).toEqual(written.map(shape));
    });
  });
}

test("find_operations finds each platform write by what a person would ask for", async () => {
  const nonce = randomBytes(4).toString("hex");
  const team = await seedTeam({ name: "Writes discovery" });
  const ids: Record<string, string> = {};
  for (const c of CASES) ids[c.type] = await connectAccount(team, c, nonce);
  const { client } = await mcpServer(team, "all platforms", Object.values(ids), "approval");
  const asks: [string, string, string][] = [
    ["send a slack message", "slack.post_message", "slack"],
    ["notify the team on slack", "slack.post_message", "slack"],
    ["add subscriber to klaviyo list", "klaviyo.list.add_profile", "klaviyo"],
    ["pause linkedin campaign", "linkedin_ads.campaign.set_status", "linkedin_ads"],
    ["resume tiktok campaign", "tiktok_ads.campaign.set_status", "tiktok_ads"],
    ["stop tiktok ads", "tiktok_ads.campaign.set_status", "tiktok_ads"],
    ["create or update hubspot contact", "hubspot.contact.upsert", "hubspot"],
  ];
  for (const [query, op, type] of asks) {
    const found = (await structured(client, "find_operations", { query })).operations as Json[];
    expect(found[0]?.id, `"${query}" finds ${op} first: ${found.map((o) => o.id).join(", ")}`).toBe(op);
    expect(found[0]).toMatchObject({
      kind: "write",
      requires_approval: true,
      credits: 1,
      connection_types: [type],
      connection_ids: [ids[type]],
    });
  }
});
