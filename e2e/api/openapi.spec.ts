import { test, expect, anonymous, apiAs, seedTeam } from "../fixtures";
import { isPostgres } from "../support/instances";

// The interface description (spec §9.2: version 1.0.0) at GET /v1/openapi.json, public, and
// its HTML rendering at /docs/api. Checked against spec §2 (resources), §4 (endpoints and
// parameters) and §7 (errors per endpoint).

test.skip(
  isPostgres(),
  "the document is built from the code, not read from the database: this runs in the SQLite pass",
);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/** §4.1–4.11 with the error statuses §7 lists for each (401 is "all endpoints"). */
const OPERATIONS: { method: string; path: string; errors: number[]; response: { array?: true; ref: string } }[] = [
  { method: "get", path: "/v1/connections", errors: [401], response: { array: true, ref: "Connection" } },
  { method: "post", path: "/v1/connections", errors: [400, 401, 403], response: { ref: "Connection" } },
  { method: "get", path: "/v1/connections/types", errors: [401], response: { array: true, ref: "ConnectionType" } },
  {
    method: "get",
    path: "/v1/connections/{connection_id}",
    errors: [401, 404],
    response: { array: true, ref: "Connection" },
  },
  { method: "delete", path: "/v1/connections/{connection_id}", errors: [401, 404], response: { ref: "Connection" } },
  { method: "post", path: "/v1/connections/auth-link", errors: [400, 401], response: { ref: "AuthLink" } },
  {
    method: "get",
    path: "/v1/connections/auth-links/{auth_link_id}/status",
    errors: [401, 404],
    response: { ref: "AuthLinkStatus" },
  },
  { method: "get", path: "/v1/credits", errors: [401, 404], response: { ref: "CreditBalance" } },
  { method: "get", path: "/v1/credits/logs", errors: [400, 401], response: { ref: "CreditLogPage" } },
  { method: "get", path: "/v1/logs", errors: [400, 401], response: { ref: "LogPage" } },
  { method: "get", path: "/v1/logs/{log_id}", errors: [401, 404], response: { ref: "Log" } },
];

/** Spec §2: the fields marked required, per resource. */
const REQUIRED: Record<string, string[]> = {
  Connection: ["id", "type", "is_private"],
  ConnectionType: ["type", "name", "auth_methods"],
  AuthLink: ["id", "url", "expires_at"],
  AuthLinkStatus: ["id", "status", "connection_type", "expires_at", "created_at", "updated_at", "connections"],
  // §2.5's LogSource field is `source` (CONTRACT §7: "the service" is a wording slip).
  Log: ["id", "operation_id", "status", "source", "user", "started_at", "credits_used", "cache_hit", "metadata"],
  LogPage: ["data", "has_more"],
  CreditBalance: ["credits_limit", "credits_used", "credits_remaining", "tier"],
  CreditLog: ["id", "credits_used", "credits_remaining", "service", "user", "created_at"],
  CreditLogPage: ["data", "has_more"],
  LogSource: ["type"],
  CreditService: ["type"],
};

/** Spec §2: every field of each resource. */
const FIELDS: Record<string, string[]> = {
  Connection: ["id", "type", "display_name", "external_id", "is_private", "created_at", "updated_at"],
  ConnectionType: ["type", "name", "auth_methods", "credential_fields", "docs_url"],
  AuthLink: ["id", "url", "expires_at"],
  AuthLinkStatus: [
    "id",
    "status",
    "connection_type",
    "connection_id",
    "external_id",
    "expires_at",
    "consumed_at",
    "created_at",
    "updated_at",
    "connections",
  ],
  Log: [
    "id",
    "operation_id",
    "operation_version",
    "status",
    "source",
    "user",
    "started_at",
    "completed_at",
    "credits_used",
    "cache_hit",
    "input",
    "output",
    "metadata",
  ],
  LogPage: ["data", "has_more", "next_cursor"],
  CreditBalance: ["credits_limit", "credits_used", "credits_remaining", "billing_period_end", "tier"],
  CreditLog: ["id", "credits_used", "credits_remaining", "service", "user", "created_at"],
  CreditLogPage: ["data", "has_more", "next_cursor"],
  LogSource: ["type", "id", "run_id", "name"],
  LogUser: ["id", "email"],
  CreditService: ["type", "id", "name"],
  Error: ["detail"],
};

const ref = (name: string) => `#/components/schemas/${name}`;

/** The set of JSON types a (possibly anyOf/nullable) schema allows. */
function typesOf(schema: Json): string[] {
  if (!schema) return [];
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf);
  if (schema.oneOf) return schema.oneOf.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.$ref) return [`$ref:${String(schema.$ref).split("/").pop()}`];
  return [];
}

/** The non-null branch of a nullable schema. */
function nonNull(schema: Json): Json {
  if (schema.anyOf) return schema.anyOf.find((s: Json) => s.type !== "null") ?? schema;
  return schema;
}

let doc: Json;

test.beforeAll(async () => {
  const anon = await anonymous();
  const res = await anon.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  doc = await res.json();
});

test("GET /v1/openapi.json needs no key, and a bad key does not make it 401", async () => {
  const anon = await anonymous();
  const withBadKey = await anon.get("/v1/openapi.json", { headers: { authorization: "Bearer nonsense" } });
  expect(withBadKey.status()).toBe(200);
  const team = await seedTeam();
  const withKey = await (await apiAs(team.users[0])).get("/v1/openapi.json");
  expect(withKey.status()).toBe(200);
  expect(await withKey.json()).toEqual(doc);
});

test("it is OpenAPI 3.1.0 with info.version 1.0.0, the server's URL and bearer security", async () => {
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.info.version).toBe("1.0.0");
  expect(typeof doc.info.title).toBe("string");
  expect(doc.servers?.[0]?.url).toBe(process.env.BASE_URL);
  const schemes = Object.values<Json>(doc.components.securitySchemes ?? {});
  expect(schemes).toContainEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
  const schemeName = Object.keys(doc.components.securitySchemes).find(
    (k) => doc.components.securitySchemes[k].scheme === "bearer",
  )!;
  // Every operation is covered by the bearer requirement, globally or on the operation.
  for (const { method, path } of OPERATIONS) {
    const security = doc.paths[path]?.[method]?.security ?? doc.security;
    expect(security, `${method} ${path}`).toContainEqual({ [schemeName]: [] });
  }
});

test("the bearer scheme says who has API keys as the server decides it: the dashboard on the Team plan, the operator's CLI on any", async () => {
  const scheme = Object.values<Json>(doc.components.securitySchemes).find((s) => s.scheme === "bearer")!;
  expect(scheme.description).toContain("while the team is on the Team plan");
  expect(scheme.description).toContain("on any plan");
  // And it is so: a key the operator made for a Free team authenticates.
  const free = await seedTeam({ plan: "free" });
  const res = await (await apiAs(free.users[0])).get("/v1/credits");
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).tier).toBe("free");
});

/**
 * The extensions beyond the spec, each under its own "(extension)" tag: the agent (CONTRACT §11),
 * workflow runs (§13, the API trigger) and usage per client or connection (§12).
 */
const EXTENSION_TAGS: Record<string, string> = {
  "GET /v1/agent/conversations": "Agent (extension)",
  "POST /v1/agent/conversations": "Agent (extension)",
  "GET /v1/agent/conversations/{conversation_id}": "Agent (extension)",
  "PATCH /v1/agent/conversations/{conversation_id}": "Agent (extension)",
  "POST /v1/agent/conversations/{conversation_id}/messages": "Agent (extension)",
  "POST /v1/workflows/{workflow_id}/runs": "Workflows (extension)",
  "GET /v1/workflows/{workflow_id}/runs/{run_id}": "Workflows (extension)",
  "GET /v1/usage": "Usage (extension)",
};
const EXTENSIONS = Object.keys(EXTENSION_TAGS);

test("it has exactly the operations of spec §4.1–4.11, and the extensions tagged as such", async () => {
  const listed = Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.keys(methods as Json)
      .filter((m) => ["get", "post", "put", "patch", "delete", "head", "options"].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(listed.filter((o) => !EXTENSIONS.includes(o)).sort()).toEqual(
    OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort(),
  );
  expect(listed.filter((o) => EXTENSIONS.includes(o)).sort()).toEqual([...EXTENSIONS].sort());
  for (const op of EXTENSIONS) {
    const [method, path] = op.split(" ");
    expect(doc.paths[path][method.toLowerCase()].tags, op).toEqual([EXTENSION_TAGS[op]]);
  }
  const start = doc.paths["/v1/agent/conversations"].post.responses["201"].content;
  expect(Object.keys(start).sort()).toEqual(["application/json", "text/event-stream"]);
  // Starting a run: an optional body and an optional Idempotency-Key header.
  const runs = doc.paths["/v1/workflows/{workflow_id}/runs"].post;
  expect(runs.requestBody.required).toBe(false);
  expect(runs.parameters).toContainEqual(
    expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false, schema: expect.anything() }),
  );
  expect(Object.keys(runs.responses)).toEqual(expect.arrayContaining(["201", "403", "404", "409", "413"]));
  // Usage: its range and grouping are required, and it pages like the other lists.
  const usage = doc.paths["/v1/usage"].get;
  expect(Object.fromEntries(usage.parameters.map((p: Json) => [p.name, p.required]))).toEqual({
    group_by: true,
    from: true,
    to: true,
    limit: false,
    cursor: false,
  });
  expect(usage.responses["200"].content["application/json"].schema).toEqual({ $ref: ref("UsagePage") });
  expect(Object.keys(usage.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "429"]));
});

for (const op of OPERATIONS) {
  test(`${op.method.toUpperCase()} ${op.path}: 200 response and the §7 errors`, async () => {
    const operation = doc.paths[op.path][op.method];
    expect(operation.operationId).toEqual(expect.any(String));
    const responses = operation.responses;
    const ok = responses["200"];
    expect(ok?.content?.["application/json"]?.schema, "200 application/json").toBeTruthy();
    const schema = ok.content["application/json"].schema;
    if (op.response.array) {
      expect(schema.type).toBe("array");
      expect(schema.items).toEqual({ $ref: ref(op.response.ref) });
    } else {
      expect(schema).toEqual({ $ref: ref(op.response.ref) });
    }
    for (const status of op.errors) {
      const r = responses[String(status)];
      expect(r, `${status} listed`).toBeTruthy();
      expect(typeof r.description).toBe("string");
      expect(r.content?.["application/json"]?.schema).toEqual({
        $ref: ref(op.path === "/v1/logs/{log_id}" && status === 404 ? "LogNotFoundError" : "Error"),
      });
    }
    // Every listed response has a description; every error body is the Error shape (the aged-out
    // log's 404 is its own: detail is a string or {message, history_days}).
    for (const [status, r] of Object.entries(responses as Json)) {
      expect(typeof r.description, `${status} description`).toBe("string");
      const errorShape = op.path === "/v1/logs/{log_id}" && status === "404" ? "LogNotFoundError" : "Error";
      if (Number(status) >= 400)
        expect(r.content?.["application/json"]?.schema, `${status} schema`).toEqual({ $ref: ref(errorShape) });
    }
    // What any operation can answer besides its own errors, with the headers that come with it.
    for (const status of ["400", "401", "429", "500", "503"])
      expect(responses[status], `${status} declared`).toBeTruthy();
    expect(responses["429"].headers["Retry-After"]).toMatchObject({ required: true });
    expect(responses["429"].headers["RateLimit-Remaining"]).toMatchObject({ required: true });
    expect(responses["503"].headers["Retry-After"]).toMatchObject({ required: true });
    expect(responses["401"].headers["WWW-Authenticate"]).toMatchObject({ required: true });
    expect(Object.keys(responses["200"].headers)).toEqual(
      expect.arrayContaining(["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
    );
    if (op.method === "post") expect(responses["413"], "413 declared on a body-taking operation").toBeTruthy();
    // Path parameters: each {name} in the path is declared, required, in: path.
    const declared = (operation.parameters ?? doc.paths[op.path].parameters ?? []) as Json[];
    for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
      expect(
        declared.find((p) => p.name === name && p.in === "path"),
        `path parameter ${name}`,
      ).toMatchObject({ required: true, schema: { type: "string" } });
    }
  });
}

test("a method a path does not take (405 with Allow) and an unknown path (404) are described; headers are components", async () => {
  expect(doc.components.responses.MethodNotAllowed).toMatchObject({
    headers: { Allow: { required: true } },
    content: { "application/json": { schema: { $ref: ref("Error") } } },
  });
  expect(doc.components.responses.UnknownPath).toMatchObject({
    content: { "application/json": { schema: { $ref: ref("Error") } } },
  });
  for (const name of [
    "X-Request-Id",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
    "Retry-After",
    "WWW-Authenticate",
    "Allow",
  ]) {
    expect(doc.components.headers[name]?.schema, name).toBeTruthy();
  }
  expect(doc.components.schemas.LogNotFoundError.properties.detail.anyOf).toEqual([
    { type: "string" },
    { $ref: ref("AgedOutDetail") },
  ]);
  expect(doc.components.schemas.AgedOutDetail.required.sort()).toEqual(["history_days", "message"]);
  // Spec §2.2 / CONTRACT §7: a listed type always has an auth method.
  expect(doc.components.schemas.ConnectionType.properties.auth_methods.minItems).toBe(1);
});

test("request bodies of the two POSTs follow spec §4.2 and §4.6", async () => {
  const conn = doc.paths["/v1/connections"].post.requestBody;
  expect(conn.required).toBe(true);
  const c = conn.content["application/json"].schema;
  expect(c.type).toBe("object");
  expect([...c.required].sort()).toEqual(["connection_type", "credentials", "name"]);
  expect(Object.keys(c.properties).sort()).toEqual(["connection_type", "credentials", "is_private", "name"]);
  expect(c.properties.name).toMatchObject({ type: "string", maxLength: 100 });
  expect(c.properties.credentials.type).toBe("object");
  expect(c.properties.credentials.additionalProperties).toMatchObject({ type: "string" });
  expect(c.properties.is_private.type).toBe("boolean");

  const link = doc.paths["/v1/connections/auth-link"].post.requestBody;
  expect(link.required).toBe(true);
  const l = link.content["application/json"].schema;
  expect(l.required).toEqual(["connection_type"]);
  expect(Object.keys(l.properties).sort()).toEqual(["connection_type", "external_id", "is_private", "redirect_url"]);
  expect(l.properties.external_id).toMatchObject({ type: "string", maxLength: 255 });
  expect(l.properties.redirect_url.type).toBe("string");
  expect(l.properties.is_private.type).toBe("boolean");
});

test("components.schemas hold every resource of spec §2 with its fields and required fields", async () => {
  const schemas = doc.components.schemas as Json;
  for (const [name, fields] of Object.entries(FIELDS)) {
    expect(schemas[name], name).toBeTruthy();
    expect(Object.keys(schemas[name].properties ?? {}), `${name} fields`).toEqual(expect.arrayContaining(fields));
  }
  for (const [name, required] of Object.entries(REQUIRED)) {
    expect(schemas[name].required ?? [], `${name} required`).toEqual(expect.arrayContaining(required));
    // The §2 tables mark some fields "Required: no"; those must not be required here (page
    // objects may require next_cursor, which is always present and null on the last page).
    if (["LogSource", "CreditService"].includes(name)) continue;
    const extra = (schemas[name].required ?? []).filter((f: string) => !required.includes(f) && f !== "next_cursor");
    expect(extra, `${name}: required beyond the spec`).toEqual([]);
  }
  // §2.8: Error is an object whose one field `detail` is optional and of any type.
  expect(schemas.Error.type).toBe("object");
  expect(schemas.Error.required ?? []).toEqual([]);
  // §2.5: the Log carries its LogSource as `source` (never `service`, the ledger's name) and LogUser.
  expect(schemas.Log.properties.source).toEqual({ $ref: ref("LogSource") });
  expect(schemas.Log.properties.service).toBeUndefined();
  expect(schemas.Log.properties.user).toEqual({ $ref: ref("LogUser") });
  expect(schemas.CreditLog.properties.service).toEqual({ $ref: ref("CreditService") });
  expect(schemas.CreditLog.properties.user).toEqual({ $ref: ref("LogUser") });
  expect(schemas.LogPage.properties.data).toEqual({ type: "array", items: { $ref: ref("Log") } });
  expect(schemas.CreditLogPage.properties.data).toEqual({ type: "array", items: { $ref: ref("CreditLog") } });
  expect(schemas.AuthLinkStatus.properties.connections).toMatchObject({
    type: "array",
    items: { $ref: ref("Connection") },
  });
});

test("field types, nullability and enums follow spec §2", async () => {
  const s = doc.components.schemas as Json;
  const t = (schema: string, field: string) => typesOf(s[schema].properties[field]).sort();
  expect(t("Connection", "id")).toEqual(["null", "string"]);
  expect(t("Connection", "is_private")).toEqual(["boolean"]);
  expect(t("Connection", "created_at")).toEqual(["integer", "null"]);
  expect(nonNull(s.ConnectionType.properties.auth_methods).items.enum.sort()).toEqual(["manual", "oauth"]);
  expect(t("ConnectionType", "credential_fields")).toEqual(["array", "null"]);
  expect(t("ConnectionType", "docs_url")).toEqual(["null", "string"]);
  expect(t("AuthLink", "expires_at")).toEqual(["integer"]);
  expect(s.AuthLinkStatus.properties.status.enum.sort()).toEqual(["connected", "expired", "pending"]);
  expect(t("AuthLinkStatus", "consumed_at")).toEqual(["integer", "null"]);
  expect(s.Log.properties.status.enum.sort()).toEqual(["error", "skipped", "start", "stop", "success"]);
  expect(t("Log", "operation_version")).toEqual(["integer", "null"]);
  expect(t("Log", "completed_at")).toEqual(["integer", "null"]);
  expect(t("Log", "credits_used")).toEqual(["integer"]);
  expect(t("Log", "cache_hit")).toEqual(["boolean"]);
  expect(t("Log", "metadata")).toEqual(["object"]);
  expect(s.LogSource.properties.type.enum.sort()).toEqual(["agent", "mcp", "workflow"]);
  expect(t("LogSource", "run_id")).toEqual(["null", "string"]);
  expect(t("LogUser", "id")).toEqual(["null", "string"]);
  expect(t("LogUser", "email")).toEqual(["null", "string"]);
  expect(t("CreditBalance", "credits_remaining")).toEqual(["integer"]);
  expect(t("CreditBalance", "billing_period_end")).toEqual(["integer", "null"]);
  expect(t("CreditBalance", "tier")).toEqual(["string"]);
  expect(t("CreditLog", "id")).toEqual(["integer"]);
  expect(s.CreditService.properties.type.enum.sort()).toEqual(["agent", "copilot", "mcp", "workflow"]);
  expect(t("LogPage", "next_cursor")).toEqual(["null", "string"]);
  expect(t("LogPage", "has_more")).toEqual(["boolean"]);
});

test("int64 and uri fields carry their formats (spec §2 'integer (int64)', 'string (uri)')", async () => {
  const s = doc.components.schemas as Json;
  const problems: string[] = [];
  const int64: [string, string][] = [
    ["Connection", "created_at"],
    ["Connection", "updated_at"],
    ["AuthLink", "expires_at"],
    ["AuthLinkStatus", "expires_at"],
    ["AuthLinkStatus", "consumed_at"],
    ["AuthLinkStatus", "created_at"],
    ["AuthLinkStatus", "updated_at"],
    ["Log", "started_at"],
    ["Log", "completed_at"],
    ["CreditBalance", "billing_period_end"],
    ["CreditLog", "created_at"],
  ];
  for (const [schema, field] of int64) {
    const f = nonNull(s[schema].properties[field]);
    if (f.format !== "int64") problems.push(`${schema}.${field}: ${JSON.stringify(f)}`);
  }
  for (const [schema, field] of [
    ["AuthLink", "url"],
    ["ConnectionType", "docs_url"],
  ]) {
    const f = nonNull(s[schema].properties[field]);
    if (f.format !== "uri") problems.push(`${schema}.${field}: ${JSON.stringify(f)}`);
  }
  const redirect =
    doc.paths["/v1/connections/auth-link"].post.requestBody.content["application/json"].schema.properties.redirect_url;
  if (redirect.format !== "uri") problems.push(`auth-link redirect_url: ${JSON.stringify(redirect)}`);
  expect(problems).toEqual([]);
});

test("query parameters of /v1/logs and /v1/credits/logs are those of spec §4.10 and §4.9", async () => {
  const query = (path: string) => ((doc.paths[path].get.parameters ?? []) as Json[]).filter((p) => p.in === "query");
  const logs = query("/v1/logs");
  expect(logs.map((p) => p.name).sort()).toEqual([
    "cursor",
    "limit",
    "operation_id",
    // CONTRACT §12's search, an extension of §4.10.
    "q",
    "source_id",
    "source_run_id",
    "source_type",
    "started_after",
    "started_before",
    "status",
  ]);
  const credits = query("/v1/credits/logs");
  expect(credits.map((p) => p.name).sort()).toEqual([
    "created_after",
    "created_before",
    "cursor",
    "limit",
    "service_id",
    "service_type",
    "user_id",
  ]);
  for (const p of [...logs, ...credits]) expect(p.required ?? false, p.name).toBe(false);

  const byName = (list: Json[], name: string) => list.find((p) => p.name === name)!.schema;
  expect(byName(logs, "source_type").enum.sort()).toEqual(["agent", "mcp", "workflow"]);
  expect(byName(logs, "status").enum.sort()).toEqual(["error", "skipped", "start", "stop", "success"]);
  expect(byName(credits, "service_type").enum.sort()).toEqual(["agent", "copilot", "mcp", "workflow"]);
  for (const name of ["operation_id", "source_id", "source_run_id", "cursor", "q"])
    expect(typesOf(byName(logs, name)), name).toEqual(["string"]);
  const q = logs.find((p) => p.name === "q")!;
  expect(byName(logs, "q").maxLength).toBe(200);
  expect(q.description).toContain("extension");
  expect(q.description).toContain("cursor is bound to q");
  for (const name of ["service_id", "user_id", "cursor"])
    expect(typesOf(byName(credits, name)), name).toEqual(["string"]);

  const lookup = (doc.paths["/v1/connections/{connection_id}"].get.parameters as Json[]).find(
    (p) => p.name === "lookup_by",
  );
  expect(lookup).toMatchObject({ in: "query", schema: { enum: ["id", "external_id"], default: "id" } });
  const listQuery = query("/v1/connections")
    .map((p) => p.name)
    .sort();
  expect(listQuery).toEqual(["external_id", "type"]);
});

test("numeric query parameters are documented as integers with the §8 bounds", async () => {
  const param = (path: string, name: string) =>
    ((doc.paths[path].get.parameters ?? []) as Json[]).find((p) => p.name === name)!.schema;
  const problems: string[] = [];
  const expectInt = (path: string, name: string, min: number, max?: number, dflt?: number) => {
    const s = param(path, name);
    const okType = typesOf(s).includes("integer");
    const okMin = s.minimum === min;
    const okMax = max === undefined || s.maximum === max;
    const okDefault = dflt === undefined || s.default === dflt;
    if (!(okType && okMin && okMax && okDefault)) problems.push(`${path} ${name}: ${JSON.stringify(s)}`);
  };
  expectInt("/v1/logs", "limit", 1, 100, 25);
  expectInt("/v1/logs", "started_after", 0);
  expectInt("/v1/logs", "started_before", 0);
  expectInt("/v1/credits/logs", "limit", 1, 1000, 25);
  expectInt("/v1/credits/logs", "created_after", 0);
  expectInt("/v1/credits/logs", "created_before", 0);
  expect(problems).toEqual([]);
});

test("the document is self-consistent: every $ref resolves, operationIds are unique, schemas carry no fragment $id", async () => {
  const refs: string[] = [];
  const ids: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") refs.push(v);
        else if (k === "$id" && typeof v === "string") ids.push(v);
        else walk(v);
      }
    }
  };
  walk(doc);
  for (const r of new Set(refs)) {
    const [, kind, name] = /^#\/components\/(schemas|headers|responses)\/([A-Za-z0-9_.-]+)$/.exec(r) ?? [];
    expect(kind, `${r} is a local component ref`).toBeTruthy();
    expect(doc.components[kind][name], r).toBeTruthy();
  }
  // JSON Schema 2020-12 (the OpenAPI 3.1 dialect): "$id" MUST NOT contain a non-empty fragment.
  expect(ids.filter((id) => /#./.test(id))).toEqual([]);
  const opIds = Object.values(doc.paths as Json).flatMap((m) =>
    Object.values(m as Json).map((o) => (o as Json).operationId),
  );
  expect(new Set(opIds).size).toBe(opIds.length);
});

test("GET /docs/api is an HTML page naming every path and method", async () => {
  const anon = await anonymous();
  const res = await anon.get("/docs/api");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/html/);
  const html = await res.text();
  const text = html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
  for (const { method, path } of OPERATIONS) {
    expect(text, path).toContain(path);
    expect(text.toLowerCase(), method).toContain(method);
  }
  for (const name of Object.keys(FIELDS)) expect(text, name).toContain(name);
  expect(text).toContain("1.0.0");
  expect(html).toContain('href="/v1/openapi.json"');
});
