import { z } from "zod";
import type { Operation } from "@/lib/openapi/operations";

/**
 * The `x-codeSamples` of an operation (the Redocly extension, which the API reference shows
 * beside its own curl and Python samples): the same call through `@patchbay/client`.
 */
export type CodeSample = { lang: "TypeScript"; label: "@patchbay/client"; source: string };

type Example = {
  /** The path parameters' values, in the path's order, for a path that has them. */
  id?: string | string[];
  /** The query or body, checked against the operation's own schema at build time. */
  args?: Record<string, unknown>;
  /** The call's options (the client's last argument): only the operation's own headers, by their client name. */
  options?: Record<string, string>;
  /** What the result is called in the sample. */
  result: string;
  /** A line said before the call, when the operation has more than one example. */
  comment?: string;
  /** Lines of what a reader does next with the result (the client's helpers beside the call). */
  then?: string[];
};

// The one thing that cannot be derived from an operation: which client method calls it, and
// which example values read naturally. The sandbox types exist on every server with
// SANDBOX_PROVIDERS on, so a reader can run these samples as they are.
const CLIENT_CALLS: Record<string, { method: string; examples: Example[] }> = {
  "get /v1/connections": {
    method: "connections.list",
    examples: [{ args: { type: "sandbox_oauth", external_id: "customer-42" }, result: "connections" }],
  },
  "post /v1/connections": {
    method: "connections.create",
    examples: [
      {
        args: {
          connection_type: "sandbox_key",
          name: "Sandbox analytics (production)",
          credentials: { api_key: "demo-key-1" },
          is_private: false,
        },
        result: "connection",
      },
    ],
  },
  "get /v1/connections/types": { method: "connections.types", examples: [{ result: "types" }] },
  "get /v1/connections/{connection_id}": {
    method: "connections.get",
    examples: [
      { id: "conn_4fQ8bW2kLmN7xR1tY9sZ", result: "[connection]", comment: "By connection ID: a list of one." },
      {
        id: "customer-42",
        args: { lookup_by: "external_id" },
        result: "connections",
        comment: "By the external ID given to the auth link: every connection made with it.",
      },
    ],
  },
  "delete /v1/connections/{connection_id}": {
    method: "connections.delete",
    examples: [{ id: "conn_4fQ8bW2kLmN7xR1tY9sZ", result: "deleted" }],
  },
  "post /v1/connections/auth-link": {
    method: "authLinks.create",
    examples: [
      {
        args: {
          connection_type: "sandbox_oauth",
          redirect_url: "https://app.example.com/integrations/done",
          external_id: "customer-42",
        },
        result: "link",
      },
    ],
  },
  "get /v1/connections/auth-links/{auth_link_id}/status": {
    method: "authLinks.status",
    examples: [{ id: "al_9kT3vB7nQ2xW5mL8pR1c", result: "status" }],
  },
  "get /v1/credits": { method: "credits.get", examples: [{ result: "balance" }] },
  "get /v1/credits/logs": {
    method: "ledger.list",
    examples: [{ args: { service_type: "workflow", limit: 100 }, result: "page" }],
  },
  "get /v1/logs": { method: "logs.list", examples: [{ args: { status: "error", limit: 50 }, result: "page" }] },
  "get /v1/logs/{log_id}": { method: "logs.get", examples: [{ id: "log_2hR6sN9wK4bT1vX7mQ3d", result: "log" }] },
  "post /v1/workflows/{workflow_id}/runs": {
    method: "workflows.run",
    examples: [
      {
        id: "wf_8mK2pX7rT4nB9vL1qW3s",
        args: { input: { order_id: "ord_1042", amount: 129.5 } },
        options: { idempotencyKey: "order-ord_1042" },
        result: "started",
        comment: "The same idempotencyKey within 24 h answers the first run and starts nothing.",
        then: [
          "// Polls the run (250 ms, doubling up to 5 s) until it ends or waits for an approval.",
          'const run = await patchbay.workflows.waitForRun("wf_8mK2pX7rT4nB9vL1qW3s", started.run_id);',
          "console.log(run.status, run.credits);",
        ],
      },
    ],
  },
  "get /v1/workflows/{workflow_id}/runs/{run_id}": {
    method: "workflows.getRun",
    examples: [{ id: ["wf_8mK2pX7rT4nB9vL1qW3s", "run_5tQ9wL2mR8xK4bN7vP1c"], result: "run" }],
  },
  "get /v1/usage": {
    method: "usage.list",
    examples: [
      {
        args: { group_by: "external_id", from: 1_767_225_600, to: 1_769_904_000 },
        result: "page",
        comment: "January 2026 per client; pass next_cursor as `cursor` for the next page.",
      },
    ],
  },
  "get /v1/agent/conversations": {
    method: "agent.list",
    examples: [{ args: { q: "sessions" }, result: "conversations" }],
  },
  "post /v1/agent/conversations": {
    method: "agent.start",
    examples: [
      {
        args: { model_connection_id: "conn_7pL2mQ9xW4vB8nK1sT6r", message: "How many sessions did we have last week?" },
        result: "started",
        comment: "Answers once the turn is completed, waiting_approval, failed or refused.",
      },
    ],
  },
  "get /v1/agent/conversations/{conversation_id}": {
    method: "agent.get",
    examples: [{ id: "conv_3nW8kR5tY1mB6vQ9xL2p", result: "conversation" }],
  },
  "patch /v1/agent/conversations/{conversation_id}": {
    method: "agent.share",
    examples: [{ id: "conv_3nW8kR5tY1mB6vQ9xL2p", args: { shared: true }, result: "conversation" }],
  },
  "post /v1/agent/conversations/{conversation_id}/messages": {
    method: "agent.send",
    examples: [{ id: "conv_3nW8kR5tY1mB6vQ9xL2p", args: { message: "And the week before?" }, result: "next" }],
  },
};

/** A cursor-paginated list also gets the client's iterator: these are the page-only parameters. */
const PAGE_PARAMS = ["limit", "cursor"];

/**
 * The registered name (`Log`, `CreditLog`) of the items of a `{data, has_more, next_cursor}` page,
 * and the field a sample prints of each: its `id`, or its first field when it has none (a usage
 * row's `key`).
 */
function pageItem(schema: z.ZodType): { name: string; field: string } | undefined {
  const data: unknown = schema instanceof z.ZodObject ? schema.shape.data : undefined;
  if (!(data instanceof z.ZodArray)) return undefined;
  const name = z.globalRegistry.get(data.element as z.ZodType)?.id;
  const fields = data.element instanceof z.ZodObject ? Object.keys(data.element.shape) : [];
  return name ? { name, field: fields.includes("id") ? "id" : (fields[0] ?? "id") } : undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A TypeScript literal of plain JSON data; longer objects go one key a line (the sample column is narrow). */
function literal(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(", ")}]`;
  const entries = Object.entries(value).map(([k, v]) => [IDENTIFIER.test(k) ? k : JSON.stringify(k), v] as const);
  const flat = `{ ${entries.map(([k, v]) => `${k}: ${literal(v)}`).join(", ")} }`;
  if (flat.length <= 40) return flat;
  const inner = `${indent}  `;
  return `{\n${entries.map(([k, v]) => `${inner}${k}: ${literal(v, inner)},`).join("\n")}\n${indent}}`;
}

function fail(key: string, why: string): never {
  throw new Error(`No valid @patchbay/client sample for ${key}: ${why} (lib/openapi/code-samples.ts, CLIENT_CALLS).`);
}

/** Query values travel as strings; the schema is what the handler parses the URL with. */
const asQuery = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)]));

/**
 * The TypeScript source of an operation's call through `@patchbay/client`. Throws when the
 * operation has no entry in CLIENT_CALLS, or when an example no longer fits the operation's
 * parameters, so the document cannot be built (nor an operation ship) without a working sample.
 */
function typescriptSample(op: Operation, baseUrl: string): string {
  const key = `${op.method} ${op.path}`;
  const call = CLIENT_CALLS[key] ?? fail(key, "the operation has no client method in the table");
  const pathParams = Object.keys(op.pathParams ?? {});
  const argsSchema = op.query ?? op.body;
  // The client's name of each header the operation reads: Idempotency-Key → idempotencyKey.
  const headerOptions = Object.keys(op.headers ?? {}).map((h) =>
    h.toLowerCase().replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
  );

  const lines = [
    `import { Patchbay } from "@patchbay/client";`,
    "",
    "const patchbay = new Patchbay({",
    `  baseUrl: ${JSON.stringify(baseUrl)},`,
    "  apiKey: process.env.PATCHBAY_API_KEY!,",
    "});",
  ];
  for (const example of call.examples) {
    const ids = example.id === undefined ? [] : [example.id].flat();
    if (ids.length !== pathParams.length)
      fail(
        key,
        `the path has ${pathParams.length ? pathParams.join(", ") : "no parameter"}, the example ${ids.length} value${ids.length === 1 ? "" : "s"}`,
      );
    for (const name of Object.keys(example.options ?? {}))
      if (!headerOptions.includes(name)) fail(key, `the option ${name} is none of the operation's headers`);
    if (example.args) {
      if (!argsSchema) fail(key, "the operation takes no query or body");
      const parsed = argsSchema.safeParse(op.query ? asQuery(example.args) : example.args);
      if (!parsed.success)
        fail(
          key,
          `the example ${JSON.stringify(example.args)} does not parse: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
        );
    }
    const params = [
      ...ids.map((id) => JSON.stringify(id)),
      ...(example.args ? [literal(example.args, example.options ? "  " : "")] : example.options ? ["{}"] : []),
      ...(example.options ? [literal(example.options, "  ")] : []),
    ];
    // Beside the body, the options read best one argument a line.
    const args = example.options ? `\n${params.map((p) => `  ${p},`).join("\n")}\n` : params.join(", ");
    const comment =
      example.comment ??
      (op.query?.shape.cursor ? "One page; pass its next_cursor as `cursor` for the next." : undefined);
    lines.push(
      "",
      ...(comment ? [`// ${comment}`] : []),
      `const ${example.result} = await patchbay.${call.method}(${args});`,
      ...(example.then ?? []),
    );
  }

  if (op.query?.shape.cursor) {
    if (!call.method.endsWith(".list"))
      fail(key, "a cursor-paginated operation is called through a `.list` method (with `.iterate` beside it)");
    const item = pageItem(op.response) ?? fail(key, "a paginated response is {data, has_more, next_cursor}");
    const variable = item.name[0].toLowerCase() + item.name.slice(1);
    const filters = Object.fromEntries(
      Object.entries(call.examples[0].args ?? {}).filter(([k]) => !PAGE_PARAMS.includes(k)),
    );
    const iterator = call.method.replace(/\.list$/, ".iterate");
    lines.push(
      "",
      "// Or every page, the client following next_cursor:",
      `for await (const ${variable} of patchbay.${iterator}(${Object.keys(filters).length ? literal(filters) : ""})) {`,
      `  console.log(${variable}.${item.field});`,
      "}",
    );
  }
  return `${lines.join("\n")}\n`;
}

export function codeSamples(op: Operation, baseUrl: string): CodeSample[] {
  return [{ lang: "TypeScript", label: "@patchbay/client", source: typescriptSample(op, baseUrl) }];
}
