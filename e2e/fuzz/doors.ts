import fc from "fast-check";
import { join } from "node:path";
import { z } from "zod";
import {
  contentType,
  encodedNasty,
  jsonText,
  nastyJson,
  nastyString,
  pathSegment,
  percentEncode,
} from "../support/hostile";
import type { DoorWorld } from "./doors-world";
import type { FuzzRequest } from "./requests";
import type { Route, RouteMethod } from "./routes";

// A generator for every route the product serves (e2e/fuzz/routes.ts reads them from app/):
// the /v1 operations come from the OpenAPI document (e2e/fuzz/requests.ts); the dashboard's and
// the agent's from the zod schemas their handlers parse with (found in the handler's source, so
// a new route is fuzzed without an edit); the OAuth server, /mcp and the few other doors from
// generators of their own protocol, below. Each door also says which protocol's error shape
// its 4xx answers must have (e2e/fuzz/checks.ts).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- schemas read untyped

/** The error shape a door's 4xx must have: see checks.ts. */
export type Protocol =
  | "detail" // {detail} (spec §7): /v1, the dashboard, the app's own form posts
  | "oauth" // RFC 6749/7591: {error, error_description}
  | "jsonrpc" // /mcp: a JSON-RPC error object, or {detail} for an HTTP-level refusal
  | "any"; // pages, next-auth, the sandbox provider stand-ins, the docs: never a 5xx, no shape of ours

export type Door = {
  template: string;
  methods: string[];
  protocol: Protocol;
  /** Written out here (false: made from the handler's schemas, or a family's generic generator). */
  how: "own" | "schema" | "generic";
  arbitrary: fc.Arbitrary<FuzzRequest>;
};

const SQL = ["'", '"', ";--", "' OR '1'='1", '\'; DROP TABLE "Team"; --', "%", "_", "\\", "$1", "\u0000"];
const sqlString = fc.constantFrom(...SQL);

const oneIn = <T>(n: number, arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** A value of every wrong kind for one field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyJson,
  sqlString,
  fc.constantFrom(5, "x", [], null, {}, true, -1, 2 ** 53, 1e308, "", "x".repeat(5_000)),
);

/** Nested arrays or objects `depth` deep. */
const deep = (depth: number, kind: "array" | "object") =>
  kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

// ——— values from a JSON schema (zod's toJSONSchema of the handler's schema) ———

type Pools = { ids: (name: string) => string[] };

/** Values the schema accepts, with ids of the seeded world for fields that name one. */
function validOf(schema: Json, name: string, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives: Json[] = schema.anyOf ?? schema.oneOf ?? [];
  if (alternatives.length) return fc.oneof(...alternatives.map((s) => validOf(s, name, pools, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": {
      const ids = /(^|_)ids?$|^from$|^to$/.test(name) ? pools.ids(name) : [];
      if (ids.length) return fc.constantFrom(...ids);
      if (/email/.test(name)) return fc.nat(999).map((n) => `fuzz-${n}@example.com`);
      if (/url|uri/.test(name)) return fc.nat(999).map((n) => `https://example.com/fuzz-${n}`);
      if (schema.pattern) return fc.constantFrom("a", "a_1", "node_1", "0");
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, 40);
      return fc
        .string({ minLength: Math.max(min, 1), maxLength: Math.max(min, max, 1) })
        .map((s) => s.slice(0, schema.maxLength ?? 1e9));
    }
    case "integer":
    case "number":
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 2 ** 31) });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(validOf(schema.items ?? {}, name, pools, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, 3),
      });
    case "object": {
      const props: Record<string, Json> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      return fc.record(
        Object.fromEntries(Object.entries(props).map(([k, s]) => [k, validOf(s, k, pools, depth + 1)])),
        { requiredKeys: [...required].filter((k) => k in props) },
      );
    }
    default:
      return nastyJson;
  }
}

/** A JSON body for the schema: a valid one with fields replaced, dropped, added or repeated, or something else entirely. */
function schemaBody(schema: Json, pools: Pools): fc.Arbitrary<{ body: string; type: string }> {
  const valid = validOf(schema, "", pools) as fc.Arbitrary<Json>;
  const names = Object.keys(schema.properties ?? {});
  const edited = fc
    .record({
      base: valid,
      edits: fc.array(
        fc.tuple(fc.constantFrom(...(names.length ? names : ["x"])), fc.oneof(wrongValue, fc.constant(undefined))),
        {
          maxLength: 2,
        },
      ),
      extra: oneIn(
        4,
        fc.tuple(fc.oneof(fc.constantFrom("__proto__", "constructor", "team_id", "id"), nastyString), nastyJson),
      ),
      duplicate: fc.boolean(),
    })
    .map(({ base, edits, extra, duplicate }) => {
      const o: Json = base && typeof base === "object" && !Array.isArray(base) ? { ...base } : {};
      for (const [k, v] of edits)
        if (v === undefined) delete o[k];
        else o[k] = v;
      const entries: [string, unknown][] = Object.entries(o);
      if (extra) entries.push(extra);
      return jsonText(entries, duplicate && entries.length > 0);
    });
  const whole = fc.oneof(
    nastyJson.map((v) => JSON.stringify(v) ?? ""),
    fc.constantFrom("", "{", "null", "[]", '"x"', "5", "{]", deep(5_000, "array"), deep(2_000, "object"), "\ufeff{}"),
  );
  return fc.record({
    body: fc.oneof(
      { weight: 5, arbitrary: valid.map((v) => JSON.stringify(v)) },
      { weight: 8, arbitrary: edited },
      { weight: 2, arbitrary: whole },
    ),
    type: fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: contentType }),
  });
}

/** A query over the schema's parameters: valid values, hostile ones, unknown names, repeats. */
function schemaQuery(schema: Json | null, pools: Pools): fc.Arbitrary<string> {
  const props: Record<string, Json> = schema?.properties ?? {};
  const pair = ([k, s]: [string, Json]) =>
    oneIn(
      2,
      fc
        .oneof(
          { weight: 3, arbitrary: validOf(s, k, pools).map((v) => percentEncode(String(v))) },
          { weight: 2, arbitrary: encodedNasty },
          { weight: 1, arbitrary: sqlString.map(percentEncode) },
        )
        .map((v) => `${k}=${v}`),
    );
  return fc
    .record({
      pairs: fc.tuple(...Object.entries(props).map(pair)),
      unknown: oneIn(
        6,
        fc.tuple(fc.oneof(encodedNasty, fc.constantFrom("x", "team_id", "__proto__", "limit[]")), encodedNasty),
      ),
      repeat: fc.boolean(),
    })
    .map(({ pairs, unknown, repeat }) => {
      const present = pairs.filter((p): p is string => p !== null);
      if (unknown) present.push(`${unknown[0]}=${unknown[1]}`);
      if (repeat && present.length) present.push(present[0]);
      return present.length ? `?${present.join("&")}` : "";
    });
}

// ——— the schemas a handler parses with, found in its source ———

const schemaCache = new Map<string, Json | null>();

/** The JSON schema of `name` as the route file imports it from lib/schemas (null when it cannot be found). */
function jsonSchemaOf(root: string, route: Route, name: string): Json | null {
  const from = new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from "@/([^"]+)"`).exec(route.text)?.[1];
  if (!from) return null;
  const key = `${from}#${name}`;
  if (schemaCache.has(key)) return schemaCache.get(key)!;
  let out: Json | null = null;
  try {
    // require, not import(): both tsx (npm run fuzz) and Playwright's loader (the unit test) run
    // this file as CommonJS, and only require goes through their TypeScript transform in both.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module named at run time, from a route's source
    const mod = require(join(root, from)) as Record<string, unknown>;
    const schema = mod[name];
    if (schema instanceof z.ZodType) out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  } catch (e) {
    console.log(`[fuzz] ${name} of ${from}: ${(e as Error).message}`);
    out = null;
  }
  schemaCache.set(key, out);
  return out;
}

/** What a handler reads: its body and query schemas, and whether it reads a body some other way (then only a generic generator fits). */
async function handlerSchemas(root: string, route: Route, m: RouteMethod) {
  const bodyName = /parseJsonBody\((\w+)/.exec(m.source)?.[1];
  const queryName = /parseQuery\((\w+)/.exec(m.source)?.[1];
  const body = bodyName ? jsonSchemaOf(root, route, bodyName) : null;
  const query = queryName ? jsonSchemaOf(root, route, queryName) : null;
  const unknownBody = (bodyName && !body) || /req\.(json|text|formData|arrayBuffer)\(/.test(m.source);
  const unknownQuery = Boolean(queryName && !query);
  return { body, query, generic: Boolean(unknownBody || unknownQuery) };
}

// ——— path parameters ———

/** A value for `{param}` after `segment`: a real id of that kind, another kind's, another team's, or a hostile segment. */
function paramValue(segment: string, w: DoorWorld): fc.Arbitrary<string> {
  const own = w.ids[segment] ?? [];
  return fc.oneof(
    ...(own.length ? [{ weight: 8, arbitrary: fc.constantFrom(...own) }] : []),
    { weight: 2, arbitrary: w.anyIds.length ? fc.constantFrom(...w.anyIds) : fc.constant("x") },
    { weight: 3, arbitrary: pathSegment },
    { weight: 1, arbitrary: sqlString.map(percentEncode) },
  );
}

function pathArb(template: string, w: DoorWorld): fc.Arbitrary<string> {
  const segments = template.split("/");
  return fc
    .tuple(
      ...segments.map((s, i) =>
        s.startsWith("{...")
          ? fc.array(pathSegment, { minLength: 1, maxLength: 3 }).map((p) => p.join("/"))
          : s.startsWith("{")
            ? paramValue(segments[i - 1], w)
            : fc.constant(s),
      ),
    )
    .map((parts) => parts.join("/"));
}

// ——— headers ———

const appOrigin = () => new URL(process.env.BASE_URL!).origin;

/** A dashboard caller: mostly the owner's session from the app's own origin; sometimes a member, no session, another team, another site. */
function sessionHeaders(w: DoorWorld): fc.Arbitrary<{ headers: Record<string, string>; as?: "victim" }> {
  return fc
    .record({
      cookie: fc.oneof(
        { weight: 20, arbitrary: fc.constant<string | null>(w.ownerCookie) },
        { weight: 3, arbitrary: fc.constant<string | null>(w.memberCookie) },
        { weight: 1, arbitrary: fc.constant<string | null>(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(`${w.ownerCookie}x`, "next-auth.session-token=%00", "next-auth.session-token="),
        },
      ),
      team: fc.oneof(
        { weight: 20, arbitrary: fc.constant<string | null>(w.teamId) },
        { weight: 1, arbitrary: fc.constant<string | null>(w.otherTeamId) },
        { weight: 1, arbitrary: fc.constant<string | null>(null) },
        { weight: 1, arbitrary: encodedNasty.filter((s) => s.length < 2000) },
      ),
      origin: fc.oneof(
        { weight: 12, arbitrary: fc.constant<string | null>(appOrigin()) },
        { weight: 4, arbitrary: fc.constant<string | null>(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom("http://evil.example", "null", appOrigin().replace("127.0.0.1", "localhost")),
        },
      ),
      site: fc.oneof(
        { weight: 8, arbitrary: fc.constant<string | null>("same-origin") },
        { weight: 4, arbitrary: fc.constant<string | null>(null) },
        { weight: 1, arbitrary: fc.constantFrom("cross-site", "same-site", "none") },
      ),
    })
    .map(({ cookie, team, origin, site }) => {
      const headers: Record<string, string> = {};
      if (cookie) headers.cookie = cookie;
      if (team) headers["x-patchbay-team"] = team;
      if (origin) headers.origin = origin;
      if (site) headers["sec-fetch-site"] = site;
      return { headers };
    });
}

/** A /v1 caller: the owner's key mostly. */
const bearerArb = (key: string) =>
  fc.oneof(
    { weight: 20, arbitrary: fc.constant<string | null>(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constant<string | null>(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(`Bearer ${key}x`, `Basic ${key}`, "Bearer ", `Bearer ${"a".repeat(5000)}`),
    },
  );

const req = (
  template: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  extra: Partial<FuzzRequest> = {},
): FuzzRequest => ({ operation: `${method} ${template}`, method, path, headers, body, foreign: false, ...extra });

// ——— the schema-driven doors (the dashboard, the agent) ———

function schemaDoor(
  route: Route,
  m: RouteMethod,
  schemas: { body: Json | null; query: Json | null; generic: boolean },
  w: DoorWorld,
  caller: "session" | "bearer",
): Door {
  const pools: Pools = {
    ids: (name) => {
      const byName: Record<string, string> = {
        model_connection_id: "model",
        connection_ids: "connections",
        connection_id: "connections",
        from: "connections",
        to: "connections",
        mcp_server_id: "mcp-servers",
        workflow_id: "workflows",
      };
      if (byName[name] === "model") return [w.modelConnectionId];
      return w.ids[byName[name] ?? ""] ?? w.anyIds;
    },
  };
  const body =
    schemas.body !== null
      ? oneIn(12, fc.constant(null)).chain(() => schemaBody(schemas.body!, pools))
      : fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: schemaBody({ type: "object", properties: {} }, pools) },
        );
  const headers =
    caller === "session"
      ? sessionHeaders(w)
      : bearerArb(w.key).map((a): { headers: Record<string, string> } => ({ headers: a ? { authorization: a } : {} }));
  // The agent's turns stream as Server-Sent Events when asked.
  const accept = oneIn(
    3,
    fc.constantFrom("text/event-stream", "text/event-stream, application/json", "*/*", "text/html"),
  );
  const arbitrary = fc
    .record({ path: pathArb(route.template, w), query: schemaQuery(schemas.query, pools), body, headers, accept })
    .map(({ path, query, body, headers, accept }) => {
      const h: Record<string, string> = { ...headers.headers };
      if (body) h["content-type"] = body.type;
      if (accept) h.accept = accept;
      // Sign out everywhere: as a member signed in for this one request, so the fuzzer's own sessions live on.
      const victim = m.method === "DELETE" && route.template === "/api/dashboard/sessions";
      return req(route.template, m.method, path + query, h, body?.body, victim ? { as: "victim" } : {});
    });
  return {
    template: route.template,
    methods: [m.method],
    protocol: "detail",
    how: schemas.generic ? "generic" : "schema",
    arbitrary,
  };
}

/** The methods a route answers with the shared 405: any path, body and caller. */
function notAllowedDoor(route: Route, methods: string[], w: DoorWorld): Door {
  const arbitrary = fc
    .record({
      method: fc.constantFrom(...methods),
      path: pathArb(route.template, w),
      body: oneIn(2, nastyJson),
      headers: sessionHeaders(w),
      bearer: bearerArb(w.key),
    })
    .map(({ method, path, body, headers, bearer }) => {
      const h: Record<string, string> = { ...headers.headers, ...(bearer && { authorization: bearer }) };
      if (body !== null) h["content-type"] = "application/json";
      return req(route.template, method, path, h, body === null ? undefined : (JSON.stringify(body) ?? ""));
    });
  return { template: route.template, methods, protocol: "detail", how: "own", arbitrary };
}

// ——— /mcp ———

function mcpDoor(w: DoorWorld): Door {
  const token = w.mcpToken;
  const tool = fc.constantFrom(...w.tools);
  /** Hostile `arguments`: the wrong type, huge, deeply nested, or the tool's own schema with wrong values. */
  const args: fc.Arbitrary<string> = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("5", '"x"', "[]", "null", "true", "-1", "1e309") },
    { weight: 3, arbitrary: nastyJson.map((v) => JSON.stringify(v) ?? "null") },
    { weight: 1, arbitrary: fc.constantFrom(deep(3_000, "object"), deep(3_000, "array"), deep(100, "object")) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        JSON.stringify({ operation_id: "x".repeat(200_000) }),
        JSON.stringify({ query: "é".repeat(100_000), input: { a: "😀".repeat(50_000) } }),
        JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
        JSON.stringify({ input: Array.from({ length: 50_000 }, () => 1) }),
      ),
    },
    {
      weight: 6,
      arbitrary: fc
        .constant(null)
        .chain(() => tool)
        .chain((t) => schemaBody(t.inputSchema, { ids: () => w.anyIds }).map((b) => b.body || "{}")),
    },
  );
  const id = fc.oneof(
    fc.nat().map(String),
    fc.constantFrom('"a"', "null", "{}", "[]", "1.5", '""', '"' + "x".repeat(5000) + '"'),
  );
  const call = fc
    .record({ id, tool, args, wrap: fc.nat(9) })
    .map(({ id, tool, args, wrap }) =>
      wrap === 0
        ? `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${args}}`
        : `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(wrap === 1 ? "no_such_tool" : tool.name)},"arguments":${args}}}`,
    );
  const other = fc.oneof(
    fc.constantFrom(
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"%00"}}',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":5}',
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":1,"method":"resources/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"x"}}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such"}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":5}',
      '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      "[]",
      "{}",
      "null",
      '"x"',
      "5",
      "",
      "{",
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
      deep(10_000, "array"),
    ),
    nastyJson.map((v) => JSON.stringify(v) ?? ""),
  );
  const envelope: fc.Arbitrary<string> = fc.oneof(
    { weight: 6, arbitrary: call },
    { weight: 3, arbitrary: other },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(call, other), { minLength: 1, maxLength: 4 }).map((parts) => `[${parts.join(",")}]`),
    },
  );
  const arbitrary = fc
    .record({
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant("POST") },
        { weight: 1, arbitrary: fc.constantFrom("GET", "DELETE", "PUT", "PATCH") },
      ),
      body: envelope,
      auth: fc.oneof(
        { weight: 25, arbitrary: fc.constant<string | null>(`Bearer ${token}`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | null>(null, `Bearer ${token}x`, "Bearer pbm_", `Basic ${token}`),
        },
      ),
      accept: fc.oneof(
        { weight: 12, arbitrary: fc.constant<string | null>("application/json, text/event-stream") },
        {
          weight: 1,
          arbitrary: fc.constantFrom<string | null>(null, "application/json", "text/event-stream", "*/*", "text/html"),
        },
      ),
      type: fc.oneof({ weight: 12, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: contentType }),
      origin: oneIn(12, fc.constantFrom(appOrigin(), "http://evil.example", "null")),
      version: oneIn(12, fc.constantFrom("2025-11-25", "2025-06-18", "1999-01-01", "x", "%00")),
      query: oneIn(
        8,
        fc.oneof(
          encodedNasty.map((v) => `?connections=${v}`),
          fc.constant("?connections="),
          encodedNasty.map((v) => `?${v}=${v}`),
        ),
      ),
    })
    .map(({ method, body, auth, accept, type, origin, version, query }) => {
      const h: Record<string, string> = { "content-type": type };
      if (auth) h.authorization = auth;
      if (accept) h.accept = accept;
      if (origin) h.origin = origin;
      if (version) h["mcp-protocol-version"] = version;
      return req("/mcp", method, `/mcp${query ?? ""}`, h, method === "GET" ? undefined : body);
    });
  return {
    template: "/mcp",
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    protocol: "jsonrpc",
    how: "own",
    arbitrary,
  };
}

/** A query as a client puts it on the request line: what the line cannot carry percent-encoded. */
const onTheWire = (query: string) => query.replace(/[^\x21-\x7e]|#/gu, (c) => percentEncode(c));

// ——— the OAuth server ———

/** A form body: the given pairs (some dropped, some hostile, some repeated), form- or JSON-encoded, or something else. */
function formBody(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<{ body: string; type: string | null }> {
  const value = (arb: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 8, arbitrary: arb }, { weight: 2, arbitrary: nastyString }, { weight: 1, arbitrary: sqlString });
  return fc
    .record({
      pairs: fc.tuple(
        ...Object.entries(fields).map(([k, arb]) =>
          oneIn(8, fc.constant(true)).chain((drop) =>
            drop ? fc.constant(null) : value(arb).map((v): [string, string] => [k, v]),
          ),
        ),
      ),
      repeat: oneIn(5, fc.nat()),
      unknown: oneIn(6, fc.tuple(nastyString, nastyString)),
      encoding: fc.oneof(
        { weight: 10, arbitrary: fc.constant("form") },
        { weight: 2, arbitrary: fc.constant("json") },
        { weight: 1, arbitrary: fc.constant("other") },
      ),
      type: contentType,
      whole: oneIn(10, fc.oneof(nastyString, fc.constantFrom("%", "a=%zz&b", "&&&", "=", "x=" + "y".repeat(70_000)))),
    })
    .map(({ pairs, repeat, unknown, encoding, type, whole }) => {
      const list = pairs.filter((p): p is [string, string] => p !== null);
      if (repeat !== null && list.length) list.push([list[repeat % list.length][0], "repeated"]);
      if (unknown) list.push(unknown);
      if (whole !== null) return { body: whole, type: "application/x-www-form-urlencoded" };
      if (encoding === "json") return { body: JSON.stringify(Object.fromEntries(list)), type: "application/json" };
      const form = list.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join("&");
      return { body: form, type: encoding === "other" ? type : "application/x-www-form-urlencoded" };
    });
}

const challenge = fc.constantFrom("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "x", "A".repeat(43), "");

function oauthDoors(w: DoorWorld): Door[] {
  const client = fc.constantFrom(
    w.oauth.clientId,
    "https://example.com/client.json",
    "http://127.0.0.1:9/cimd",
    "unknown-client",
  );
  const redirect = fc.constantFrom(w.oauth.redirectUri, "https://evil.example/cb", "http://127.0.0.1:9/other");
  const resource = fc.constantFrom(`${appOrigin()}/mcp`, "https://evil.example/mcp", "");
  const token = fc.oneof(fc.constantFrom("pbo_x", "pbr_x", "x"), fc.string({ maxLength: 60 }));
  const doors: Door[] = [];
  const post = (template: string, fields: Record<string, fc.Arbitrary<string>>, protocol: Protocol, session = false) =>
    doors.push({
      template,
      methods: ["POST"],
      protocol,
      how: "own",
      arbitrary: fc
        .record({
          form: formBody(fields),
          basic: oneIn(
            10,
            fc.constantFrom(`Basic ${Buffer.from(`${w.oauth.clientId}:`).toString("base64")}`, "Basic %%%", "Basic "),
          ),
          session: session ? sessionHeaders(w) : fc.constant({ headers: {} }),
          query: oneIn(
            10,
            encodedNasty.map((v) => `?${v}=${v}`),
          ),
        })
        .map(({ form, basic, session, query }) => {
          const h: Record<string, string> = { ...session.headers };
          if (form.type) h["content-type"] = form.type;
          if (basic) h.authorization = basic;
          return req(template, "POST", template + (query ?? ""), h, form.body);
        }),
    });
  post(
    "/oauth/token",
    {
      grant_type: fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password", ""),
      code: token,
      client_id: client,
      redirect_uri: redirect,
      code_verifier: fc.constantFrom("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "x", "a".repeat(200)),
      refresh_token: token,
      resource,
      scope: fc.constantFrom("mcp", "", "openid"),
    },
    "oauth",
  );
  post(
    "/oauth/revoke",
    { token, token_type_hint: fc.constantFrom("access_token", "refresh_token", "x"), client_id: client },
    "oauth",
  );
  post(
    "/oauth/consent",
    {
      client_id: client,
      redirect_uri: redirect,
      response_type: fc.constantFrom("code", "token", ""),
      code_challenge: challenge,
      code_challenge_method: fc.constantFrom("S256", "plain", ""),
      state: fc.string({ maxLength: 40 }),
      resource,
      decision: fc.constantFrom("allow", "deny", "maybe"),
      team_id: fc.constantFrom(w.teamId, w.otherTeamId, ""),
      server: fc.constantFrom("new", ...(w.ids["mcp-servers"] ?? []).slice(0, 3), "mcp_nope"),
      name: fc.string({ maxLength: 30 }),
      connection_ids: fc.constantFrom(...(w.ids.connections?.length ? w.ids.connections : ["x"])),
      write_policy: fc.constantFrom("off", "approval", "allowed", "on"),
    },
    "detail",
    true,
  );
  // Registration is JSON (RFC 7591): a valid document with fields replaced, or not JSON at all.
  const registration = {
    type: "object",
    properties: {
      redirect_uris: {
        type: "array",
        minItems: 1,
        items: {
          type: "string",
          enum: ["http://127.0.0.1:9/cb", "https://example.com/cb", "javascript:alert(1)", "http://evil.example/cb"],
        },
      },
      client_name: { type: "string", maxLength: 40 },
      token_endpoint_auth_method: { type: "string", enum: ["none", "client_secret_basic", "private_key_jwt"] },
      grant_types: {
        type: "array",
        items: { type: "string", enum: ["authorization_code", "refresh_token", "implicit"] },
      },
      response_types: { type: "array", items: { type: "string", enum: ["code", "token"] } },
      client_uri: { type: "string", enum: ["https://example.com", "javascript:x"] },
      logo_uri: { type: "string", enum: ["https://example.com/logo.png", "data:x"] },
      scope: { type: "string", enum: ["mcp", ""] },
    },
    required: ["redirect_uris"],
  };
  doors.push({
    template: "/oauth/register",
    methods: ["POST"],
    protocol: "oauth",
    how: "own",
    arbitrary: fc
      .record({
        json: schemaBody(registration, { ids: () => [] }),
        form: oneIn(6, formBody({ redirect_uris: fc.constant("http://127.0.0.1:9/cb"), client_name: fc.string() })),
        huge: oneIn(
          30,
          fc.constantFrom(
            JSON.stringify({ redirect_uris: Array.from({ length: 5000 }, (_, i) => `http://127.0.0.1:9/${i}`) }),
            JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], client_name: "x".repeat(300_000) }),
          ),
        ),
      })
      .map(({ json, form, huge }) => {
        const b = huge !== null ? { body: huge, type: "application/json" } : (form ?? json);
        return req("/oauth/register", "POST", "/oauth/register", b.type ? { "content-type": b.type } : {}, b.body);
      }),
  });
  // The provider callback of the connect flow, and the authorization page (a page, not a route: no shape of ours).
  const queryDoor = (
    template: string,
    names: Record<string, fc.Arbitrary<string>>,
    protocol: Protocol,
    headers: fc.Arbitrary<Record<string, string>>,
  ) =>
    doors.push({
      template,
      methods: ["GET"],
      protocol,
      how: "own",
      arbitrary: fc
        .record({ form: formBody(names), headers })
        .map(({ form, headers }) =>
          req(template, "GET", `${template}?${onTheWire(form.body.slice(0, 8_000))}`, headers),
        ),
    });
  queryDoor(
    "/oauth/callback",
    {
      code: token,
      state: fc.constantFrom(...w.linkTokens, "x"),
      error: fc.constantFrom("access_denied", ""),
      error_description: fc.string(),
      shop: fc.constantFrom("x.myshopify.com", "evil.example"),
    },
    "any",
    fc.constantFrom<Record<string, string>>({}, { cookie: "pb_connect=x" }),
  );
  queryDoor(
    "/oauth/authorize",
    {
      client_id: client,
      redirect_uri: redirect,
      response_type: fc.constantFrom("code", "token"),
      code_challenge: challenge,
      code_challenge_method: fc.constantFrom("S256", "plain"),
      state: fc.string({ maxLength: 40 }),
      resource,
      consent_error: fc.constant("<script>alert(1)</script>"),
    },
    "any",
    fc.constantFrom<Record<string, string>>({}, { cookie: w.ownerCookie }),
  );
  return doors;
}

// ——— the few other doors ———

function plainDoors(w: DoorWorld): Door[] {
  const get = (template: string, protocol: Protocol, path: fc.Arbitrary<string> = fc.constant(template)) => ({
    template,
    methods: ["GET"],
    protocol,
    how: "own" as const,
    arbitrary: fc
      .record({
        path,
        query: oneIn(
          2,
          fc.tuple(encodedNasty, encodedNasty).map(([k, v]) => `?${k}=${v}`),
        ),
        headers: fc.constantFrom<Record<string, string>>(
          {},
          { authorization: `Bearer ${w.key}` },
          { accept: "text/html" },
        ),
      })
      .map(({ path, query, headers }) => req(template, "GET", path + (query ?? ""), headers)),
  });
  const doors: Door[] = [
    get("/healthz", "detail"),
    get("/readyz", "detail"),
    get("/v1/openapi.json", "detail"),
    get("/.well-known/oauth-authorization-server", "oauth"),
    get("/.well-known/oauth-protected-resource", "oauth"),
    get("/.well-known/oauth-protected-resource/mcp", "oauth"),
    get("/.well-known/openid-configuration", "oauth"),
    get(
      "/docs/connections/{file}",
      "any",
      fc
        .oneof(fc.constantFrom("sandbox_key.md", "shopify.md", "x.md", "..%2F..%2Fpackage.json"), pathSegment)
        .map((f) => `/docs/connections/${f}`),
    ),
  ];
  // Unknown paths under the API prefixes answer the API's own 404.
  for (const template of ["/v1", "/v1/{...path}", "/api/dashboard/{...path}"])
    doors.push({
      template,
      methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      protocol: "detail",
      how: "own",
      arbitrary: fc
        .record({
          method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
          path: pathArb(template, w),
          headers: sessionHeaders(w),
          bearer: bearerArb(w.key),
        })
        .map(({ method, path, headers, bearer }) => {
          const at = path.startsWith("/api") ? "/api/dashboard/zz-" : "/v1/zz-";
          const concrete = template.includes("{") ? path.replace(/^\/(v1|api\/dashboard)\//, at) : path;
          return req(template, method, concrete, { ...headers.headers, ...(bearer && { authorization: bearer }) });
        }),
    });
  // The app's own form posts: the connect page's Continue, the invite page's Accept.
  doors.push({
    template: "/connect/{token}/start",
    methods: ["POST"],
    protocol: "detail",
    how: "own",
    arbitrary: fc
      .record({
        token: fc.oneof(fc.constantFrom(...w.linkTokens, "x"), pathSegment),
        form: formBody({ shop: fc.constantFrom("fuzz.myshopify.com", "evil.example", "") }),
      })
      .map(({ token, form }) =>
        req(
          "/connect/{token}/start",
          "POST",
          `/connect/${token}/start`,
          form.type ? { "content-type": form.type, origin: appOrigin() } : {},
          form.body,
        ),
      ),
  });
  doors.push({
    template: "/invite/{token}/accept",
    methods: ["POST"],
    protocol: "detail",
    how: "own",
    arbitrary: fc
      .record({
        token: fc.oneof(fc.constantFrom(...w.inviteTokens, "x"), pathSegment),
        body: schemaBody(
          {
            type: "object",
            properties: {
              password: { type: "string", minLength: 8, maxLength: 200 },
              name: { type: "string", maxLength: 100 },
            },
          },
          { ids: () => [] },
        ),
        headers: sessionHeaders(w),
      })
      .map(({ token, body, headers }) =>
        req(
          "/invite/{token}/accept",
          "POST",
          `/invite/${token}/accept`,
          { ...headers.headers, "content-type": body.type },
          body.body,
        ),
      ),
  });
  // A workflow's webhook trigger (CONTRACT §13): any token, body, content type and Idempotency-Key.
  doors.push({
    template: "/hooks/workflows/{token}",
    methods: ["POST"],
    protocol: "detail",
    how: "own",
    arbitrary: fc
      .record({
        token: fc.oneof(fc.constantFrom(...(w.hookTokens ?? []), "pbwh_x"), pathSegment),
        body: fc.oneof(
          nastyJson.map((v) => JSON.stringify(v) ?? ""),
          fc.string({ maxLength: 50 }),
        ),
        type: fc.constantFrom("application/json", "text/plain", ""),
        key: fc.option(
          fc.string({ maxLength: 300 }).map((k) => k.replace(/[^\x20-\x7e]/g, "?")),
          { freq: 2 },
        ),
      })
      .map(({ token, body, type, key }) =>
        req(
          "/hooks/workflows/{token}",
          "POST",
          `/hooks/workflows/${token}`,
          { ...(type && { "content-type": type }), ...(key !== null && { "idempotency-key": key }) },
          body,
        ),
      ),
  });
  // next-auth's own endpoints (its protocol, not ours): sign-in forms with hostile fields, unknown actions.
  doors.push({
    template: "/api/auth/{...nextauth}",
    methods: ["GET", "POST"],
    protocol: "any",
    how: "own",
    arbitrary: fc
      .record({
        method: fc.constantFrom("GET", "POST"),
        action: fc.oneof(
          fc.constantFrom(
            "csrf",
            "session",
            "providers",
            "signin",
            "signout",
            "callback/credentials",
            "callback/google",
            "error",
            "_log",
          ),
          pathSegment,
        ),
        form: formBody({
          csrfToken: fc.constant("x"),
          email: fc.constantFrom("nobody@example.com", "x"),
          password: fc.string(),
          callbackUrl: fc.constantFrom("https://evil.example", "/", "javascript:x"),
          json: fc.constant("true"),
        }),
      })
      .map(({ method, action, form }) =>
        req(
          "/api/auth/{...nextauth}",
          method,
          `/api/auth/${action}`,
          method === "POST" && form.type ? { "content-type": form.type } : {},
          method === "POST" ? form.body : undefined,
        ),
      ),
  });
  // The sandbox provider and model (SANDBOX_PROVIDERS=1): stand-ins for a provider's own API, in its own shapes.
  const sandbox = (template: string, methods: string[], fields: Record<string, fc.Arbitrary<string>>) =>
    doors.push({
      template,
      methods,
      protocol: "any",
      how: "own",
      arbitrary: fc
        .record({
          method: fc.constantFrom(...methods),
          form: formBody(fields),
          json: nastyJson,
          auth: fc.constantFrom<Record<string, string>>(
            {},
            { authorization: "Bearer sk_fuzz_0" },
            { authorization: "Bearer x" },
          ),
        })
        .map(({ method, form, json, auth }) =>
          method === "GET"
            ? req(template, method, `${template}?${onTheWire(form.body.slice(0, 4_000))}`, auth)
            : req(
                template,
                method,
                template,
                { ...auth, "content-type": form.type ?? "application/json" },
                form.type === "application/json" ? (JSON.stringify(json) ?? "") : form.body,
              ),
        ),
    });
  sandbox("/sandbox/api/me", ["GET"], { x: fc.string() });
  sandbox("/sandbox/api/note", ["POST"], { note: fc.string() });
  sandbox("/sandbox/api/report", ["GET"], {
    metric: fc.constantFrom("sessions", "x"),
    days: fc.constantFrom("7", "-1", "1e9"),
  });
  sandbox("/sandbox/model/v1/chat/completions", ["POST"], {
    model: fc.string(),
    messages: fc.string(),
    stream: fc.constantFrom("true", "false"),
  });
  sandbox("/sandbox/oauth/authorize", ["GET", "POST"], {
    client_id: fc.string(),
    redirect_uri: fc.constantFrom("http://127.0.0.1:9/cb", "https://evil.example"),
    state: fc.string(),
    decision: fc.constantFrom("allow", "deny"),
  });
  sandbox("/sandbox/oauth/token", ["POST"], {
    grant_type: fc.constantFrom("authorization_code", "refresh_token"),
    code: fc.string(),
    refresh_token: fc.string(),
  });
  return doors;
}

/** Doors that are not route.ts files but are served all the same: the OAuth authorization page. */
const PAGE_DOORS = ["/oauth/authorize"];

type Coverage = {
  route: string;
  method: string;
  problem: "no generator" | "only a generic generator" | "a generator for a route that does not exist";
};

/**
 * Every door of the enumerated routes: the /v1 operations the OpenAPI document describes are left
 * to requests.ts (`v1Operations`); each other (route, method) gets its door, and the ones none
 * fits (or only a family's generic one) are returned as coverage problems, which fail the run.
 */
export async function buildDoors(
  root: string,
  routes: Route[],
  w: DoorWorld,
  v1Operations: string[],
): Promise<{ doors: Door[]; coverage: Coverage[] }> {
  const own = [mcpDoor(w), ...oauthDoors(w), ...plainDoors(w)];
  const doors: Door[] = [...own];
  const coverage: Coverage[] = [];
  for (const route of routes) {
    const fivers = route.methods.filter((m) => m.kind === "405").map((m) => m.method);
    const handlers = route.methods.filter((m) => m.kind === "handler");
    if (fivers.length) doors.push(notAllowedDoor(route, fivers, w));
    for (const m of handlers) {
      if (v1Operations.includes(`${m.method} ${route.template.replace(/\{\.\.\./g, "{")}`)) continue;
      if (own.some((d) => d.template === route.template && d.methods.includes(m.method))) continue;
      // The dashboard and the agent: doors made from the handler's own schemas.
      const family = route.template.startsWith("/api/dashboard/")
        ? "session"
        : route.template.startsWith("/v1/")
          ? "bearer"
          : null;
      if (!family) {
        coverage.push({ route: route.template, method: m.method, problem: "no generator" });
        continue;
      }
      const door = schemaDoor(route, m, await handlerSchemas(root, route, m), w, family);
      if (door.how === "generic")
        coverage.push({ route: route.template, method: m.method, problem: "only a generic generator" });
      doors.push(door);
    }
  }
  // A door written here for a route that no longer exists is stale.
  for (const d of own)
    if (!PAGE_DOORS.includes(d.template) && !routes.some((r) => r.template === d.template))
      coverage.push({
        route: d.template,
        method: d.methods.join(","),
        problem: "a generator for a route that does not exist",
      });
  return { doors, coverage };
}
