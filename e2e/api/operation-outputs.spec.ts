import { randomBytes } from "node:crypto";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { test, expect, seedTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { inDatabase } from "../support/in-database";
import { PLATFORM_CASES } from "./platforms";
import { connectAccount, mcpServer, type Connectable } from "./platforms/connect";
import type { Json, RunContext } from "./platforms/case";

// Issue 48: every operation of the catalogue declares the shape of what it returns (the workflow
// editor's field picker and the direct MCP tools' outputSchema read it), and the shape is true.
// Each operation runs on its provider's stand-in with its catalogue example and with the inputs the
// platform suite (e2e/api/platforms) runs it with; an operation whose example names objects the
// stand-in does not hold runs on objects its own platform's reads found (MORE_INPUTS), as an
// agent would. Every result must fit the operation's output_schema exactly: a key the schema does
// not name fails, as it fails an MCP client that validates.

const PASSWORD = "operation-outputs-1";

type Catalogued = {
  id: string;
  kind: "read" | "write";
  connection_types: { type: string }[];
  example: Json;
  output_schema: Json | null;
};

/** The types the platform suite has no case for, and how to connect one (their stand-ins take any such credentials). */
const OTHER_TYPES: Connectable[] = [
  { type: "sandbox_key", manual: { good: (account) => ({ api_key: `sk-${account}` }) } },
  { type: "tiktok_ads", oauth: {} },
  { type: "slack", manual: { good: (account) => ({ bot_token: `xoxb-${account}` }) } },
  { type: "openai", manual: { good: (account) => ({ api_key: `sk-proj-${account}` }) } },
  { type: "anthropic", manual: { good: (account) => ({ api_key: `sk-ant-api03-${account}` }) } },
  { type: "semrush", manual: { good: () => ({ api_key: randomBytes(16).toString("hex") }) } },
  { type: "stripe", manual: { good: (account) => ({ secret_key: `sk_test_${account.replace(/-/g, "")}` }) } },
];

/** The first successful result of an operation earlier in the same test. */
type Found = (operationId: string) => Json | undefined;

/**
 * Further runs, on objects the platform's reads found, as an agent would: for the operations whose
 * example names objects the stand-in does not hold (and which the platform suite does not run), and
 * for the parts of a result the other runs leave empty (every list of objects in a schema must
 * hold an item in some result, so its items' shape is checked too).
 */
const MORE_INPUTS: Record<string, (found: Found) => Json | undefined> = {
  "dv360.campaigns.list": (found) => ({
    advertiser_id: found("dv360.advertisers.list")?.advertisers[0]?.advertiser_id,
  }),
  ...Object.fromEntries(
    ["google_ads.campaign.pause", "google_ads.campaign.enable", "google_ads.campaign_budget.update"].map((id) => [
      id,
      (found: Found) => {
        const searched = found("google_ads.search");
        const campaign = searched?.rows.find((r: Json) => r["campaign.id"]);
        return (
          campaign && {
            customer_id: searched!.customer_id,
            campaign_id: campaign["campaign.id"],
            ...(id.endsWith("budget.update") && { daily_budget: 42 }),
          }
        );
      },
    ]),
  ),
  "klaviyo.list.add_profile": (found) => {
    const list = found("klaviyo.lists.list")?.lists[0];
    return list && { list_id: list.id, email: `outputs-${randomBytes(3).toString("hex")}@example.com` };
  },
  ...Object.fromEntries(
    ["pause", "enable"].flatMap((verb) => [
      [
        `meta_ads.campaign.${verb}`,
        (found: Found) => ({ campaign_id: found("meta_ads.ads.list")?.ads[0]?.campaign_id }),
      ],
      [`meta_ads.adset.${verb}`, (found: Found) => ({ adset_id: found("meta_ads.ads.list")?.ads[0]?.adset_id })],
      [`meta_ads.ad.${verb}`, (found: Found) => ({ ad_id: found("meta_ads.ads.list")?.ads[0]?.ad_id })],
    ]),
  ),
  // A campaign budget (Advantage campaign budget) for the campaign write; an ad set of a campaign
  // without one carries its own budget.
  "meta_ads.campaign.update_budget": (found) => {
    const campaign = found("meta_ads.campaigns.list")?.campaigns.find((c: Json) => c.daily_budget !== null);
    return campaign && { campaign_id: campaign.campaign_id, daily_budget: 60 };
  },
  "meta_ads.adset.update_budget": (found) => {
    const own = found("meta_ads.campaigns.list")?.campaigns.filter((c: Json) => c.daily_budget === null);
    const ad = found("meta_ads.ads.list")?.ads.find((a: Json) =>
      own?.some((c: Json) => c.campaign_id === a.campaign_id),
    );
    return ad && { adset_id: ad.adset_id, daily_budget: 30 };
  },
  "tiktok_ads.campaign.set_status": (found) => {
    const row = found("tiktok_ads.report")?.rows[0];
    return row && { campaign_id: row.campaign_id, operation_status: "DISABLE" };
  },
  // The example's search finds no contact; without one, the portal's contacts are listed.
  "hubspot.list_contacts": () => ({ limit: 5 }),
  // The example's search leaves no dimension.
  "ga4.metadata": () => ({ property_id: "123456789" }),
  "instagram.insights": (found) => {
    const account = found("instagram.accounts.list")?.accounts[0];
    return account && { ig_user_id: account.ig_user_id, metrics: ["reach"], metric_type: "time_series" };
  },
  // With skip_invalid_rows, the rows BigQuery refused come back as errors.
  "bigquery.rows.insert": (found) => {
    const listed = found("bigquery.tables.list");
    return (
      listed?.tables[0] && {
        project_id: listed.project_id,
        dataset_id: listed.dataset_id,
        table_id: listed.tables[0].table_id,
        rows: [{ country: "DE", sessions: 1 }, { no_such_column: 1 }],
        skip_invalid_rows: true,
      }
    );
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

const describeError = (e: ErrorObject) =>
  `${e.instancePath || "(result)"} ${e.message}${e.keyword === "additionalProperties" ? `: ${String(e.params.additionalProperty)}` : ""}`;

/** "" when `result` fits the operation's output_schema, else each mismatch. */
function mismatch(op: Catalogued, result: unknown): string {
  if (!validators.has(op.id)) validators.set(op.id, ajv.compile(op.output_schema!));
  const validate = validators.get(op.id)!;
  return validate(result) ? "" : (validate.errors ?? []).map(describeError).join("; ");
}

/** The catalogue as the workflow editor reads it; one per worker (every test only reads it). */
let catalogued: Promise<Catalogued[]> | undefined;
function catalogue(): Promise<Catalogued[]> {
  catalogued ??= (async () => {
    const team = await seedTeam({ name: "Output schemas", password: PASSWORD });
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const res = await session.get("/api/dashboard/operations");
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as Catalogued[];
  })();
  return catalogued;
}

/** Each field of a JSON Schema without a description, as a path. */
function undescribed(schema: Json, path = ""): string[] {
  const own = Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([name, field]) => [
    ...(field.description ? [] : [`${path}${name}`]),
    ...undescribed(field, `${path}${name}.`),
  ]);
  const items = schema.items ? undescribed(schema.items, `${path}[].`) : [];
  const branches = ((schema.anyOf ?? []) as Json[]).flatMap((branch) => undescribed(branch, path));
  return [...own, ...items, ...branches];
}

/** The paths of the lists of objects in a JSON Schema, e.g. "rows[]", "customers[].accounts[]". */
function listsOf(schema: Json, path = ""): string[] {
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([name, field]) => {
    const own = ((field.anyOf ?? [field]) as Json[]).find((s) => s.type === "array" || s.type === "object");
    if (own?.type === "object") return listsOf(own, `${path}${name}.`);
    if (own?.type !== "array" || own.items?.type !== "object") return [];
    return [`${path}${name}[]`, ...listsOf(own.items, `${path}${name}[].`)];
  });
}

/** The items a result holds at such a path. */
function itemsAt(value: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split(".");
  if (!value || typeof value !== "object") return [];
  const list = (value as Json)[head.replace(/\[\]$/, "")];
  if (!head.endsWith("[]")) return rest.length ? itemsAt(list, rest.join(".")) : [];
  const items = Array.isArray(list) ? list : [];
  return rest.length ? items.flatMap((item) => itemsAt(item, rest.join("."))) : items;
}

const textOf = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? "").join("\n");

type Ran = { result: Json; error?: undefined } | { error: string; result?: undefined };

/** One run through /mcp (run_operation for a read, run_write_operation for a write): its result, or the tool error. */
async function run(client: Client, op: Catalogued, connectionId: string, input: Json): Promise<Ran> {
  const r = await client.callTool({
    name: op.kind === "write" ? "run_write_operation" : "run_operation",
    arguments: { operation_id: op.id, connection_id: connectionId, input },
  });
  return r.isError ? { error: textOf(r) } : { result: JSON.parse(textOf(r)) };
}

test("every operation of the catalogue declares its output: an object schema whose every field is described", async () => {
  const ops = await catalogue();
  expect(ops.length).toBeGreaterThanOrEqual(130);
  for (const op of ops) {
    expect(op.output_schema, `${op.id} declares output_schema`).toMatchObject({ type: "object" });
    expect(Object.keys(op.output_schema!.properties ?? {}).length, `${op.id} names its fields`).toBeGreaterThan(0);
    expect(undescribed(op.output_schema!), `${op.id}: fields without a description`).toEqual([]);
  }
});

test("the built-in utilities' results, run with their examples, fit their output_schema", async () => {
  const ops = (await catalogue()).filter((op) => op.connection_types.length === 0);
  expect(ops.map((op) => op.id).sort()).toEqual([
    "flow.stop",
    "patchbay.create_auth_link",
    "utility.filter_rows",
    "utility.format_text",
    "utility.pick_fields",
  ]);
  // No connection, no provider: run in a process of the product's modules, as a workflow node runs
  // them, in a run's scope (patchbay.* act on the team).
  const team = await seedTeam({ name: "Built-ins" });
  const scope = JSON.stringify({ teamId: team.id, userId: team.users[0].id });
  const results = await inDatabase<Record<string, unknown>>(`
    const OPERATIONS = pick(await import("./lib/operations/registry.ts"), "OPERATIONS");
    pick(await import("./lib/auth-links/provide-builtins.ts"), "provideWorkflowBuiltins")();
    const out = {};
    for (const op of OPERATIONS.filter((o) => o.types.length === 0)) out[op.id] = await op.run(${scope}, op.example);
    return out;
  `);
  for (const op of ops) expect(mismatch(op, results[op.id]), `${op.id}: ${JSON.stringify(results[op.id])}`).toBe("");
});

for (const c of [...PLATFORM_CASES, ...OTHER_TYPES]) {
  test(`${c.type}: each operation's result fits its output_schema (its example, the platform suite's inputs, objects its reads found)`, async () => {
    const ops = (await catalogue()).filter((op) => op.connection_types.some((t) => t.type === c.type));
    expect(ops.length, `operations on ${c.type}`).toBeGreaterThan(0);
    const nonce = randomBytes(4).toString("hex");
    const team = await seedTeam({ name: `Outputs ${c.type}`, plan: "team", creditsLimit: 100_000 });
    const account = `outputs-${c.type}-${nonce}`;
    const connectionId = await connectAccount(team, c, account);
    const { client } = await mcpServer(team, `${c.type} outputs`, [connectionId], "allowed");
    const platform = PLATFORM_CASES.find((p) => p.type === c.type);
    const base = { client, connectionId, account, nonce };
    const ctx: RunContext = { ...base, p: platform?.prepare ? await platform.prepare(base) : {} };

    const results = new Map<string, Json[]>();
    const refused: string[] = [];
    const check = async (op: Catalogued, input: Json, what: string) => {
      const ran = await run(client, op, connectionId, input);
      if (ran.error !== undefined) return void refused.push(`${op.id} (${what}): ${ran.error.slice(0, 300)}`);
      expect(mismatch(op, ran.result), `${op.id} (${what}): ${JSON.stringify(ran.result).slice(0, 2000)}`).toBe("");
      results.set(op.id, [...(results.get(op.id) ?? []), ran.result]);
    };
    for (const step of [...(platform?.reads ?? []), ...(platform?.writes ?? [])]) {
      const op = ops.find((o) => o.id === step.op);
      if (op) await check(op, step.input(ctx), "the platform suite's input");
    }
    for (const op of ops) await check(op, op.example, "its example");
    for (const op of ops.filter((o) => MORE_INPUTS[o.id])) {
      const input = MORE_INPUTS[op.id]((id) => results.get(id)?.[0]);
      if (input) await check(op, input, `objects its reads found: ${JSON.stringify(input)}`);
    }
    expect(
      ops.filter((op) => !results.has(op.id)).map((op) => op.id),
      `operations of ${c.type} that no run answered:\n${refused.join("\n")}`,
    ).toEqual([]);
    expect(
      ops.flatMap((op) =>
        listsOf(op.output_schema!)
          .filter((path) => !results.get(op.id)!.some((r) => itemsAt(r, path).length))
          .map((path) => `${op.id}: ${path}`),
      ),
      "lists of objects that no result held an item of",
    ).toEqual([]);
  });
}
