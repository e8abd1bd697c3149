import fc from "fast-check";
import {
  contentType,
  encodedNasty,
  jsonText,
  nastyJson,
  nastyString,
  pathSegment,
  percentEncode,
} from "../support/hostile";
import type { Protocol } from "./doors";

// Requests generated from the served OpenAPI document: every operation with its path
// parameters, query parameters and request body, each value either one the seeded server
// really holds (so requests get past validation and reach the database) or a hostile one.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/** One request as it goes on the wire (the path raw, escapes and all), and the operation it aims at. */
export type FuzzRequest = {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** It names something of another team or another user's private connection: it must find nothing. */
  foreign: boolean;
  /** The error shape its 4xx must have (e2e/fuzz/doors.ts); the /v1 operations' is the OpenAPI document's. */
  protocol?: Protocol;
  /** Sent with a session signed in for this one request (a sign-out everywhere must not end the fuzzer's own). */
  as?: "victim";
};

/** A next_cursor the server issued, with the list path and the filters of the page it came from. */
export type Cursor = { path: string; query: [string, string][]; cursor: string };

/** What the seeded server holds, by the name of the parameter or body field that takes it. */
export type World = {
  key: string;
  values: Record<string, string[]>;
  /** Values only another team (or another user, privately) has. */
  foreign: Record<string, string[]>;
  /** Connections DELETE may remove, so the rest of the data stays for the other operations. */
  disposable: string[];
  cursors: Cursor[];
  /** Bodies the server accepted while seeding, by operation ("POST /v1/connections"). */
  bodies: Record<string, Json[]>;
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** SQL metacharacters and the classic injections, alone and run together. */
const SQL_META = [
  "'",
  '"',
  ";",
  "--",
  "/*",
  "*/",
  "\\",
  "%",
  "_",
  ") OR 1=1",
  "' OR '1'='1",
  '" OR ""="',
  "') OR ('1'='1",
  '\'; DROP TABLE "OperationLog"; --',
  '1 UNION SELECT * FROM "ApiKey" --',
  "%' --",
  "\\'",
  "$1",
  "?",
  "::text",
  "' || '",
  "`",
  "\u0000",
];
const sqlString = fc.oneof(
  fc.constantFrom(...SQL_META),
  fc.array(fc.constantFrom(...SQL_META), { minLength: 2, maxLength: 5 }).map((parts) => parts.join("")),
);

/** Numbers a strict parser must refuse or clamp: huge, negative, fractional, other scripts, not numbers at all. */
const NUMBERISH = [
  "-1",
  "0",
  "-0",
  "1.5",
  "1e3",
  "1e309",
  "-1e309",
  "NaN",
  "Infinity",
  "0x10",
  "+1",
  " 1",
  "1 ",
  "١٢",
  "１",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "99999999999999999999999",
  "1".repeat(400),
  "",
  "true",
  "null",
  "[]",
  "1,2",
];
const numberish = fc.oneof(
  fc.constantFrom(...NUMBERISH),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.double().map(String),
);

/** A raw value as a client puts it in a URL: fully percent-encoded, or only what the request line cannot carry. */
const onTheWire = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(value, fc.boolean())
    .map(([v, full]) => (full ? percentEncode(v) : v.replace(/[^\x21-\x7e]|[&#+]/gu, (c) => percentEncode(c))));

const pick = <T>(values: T[]) => (values.length ? fc.constantFrom(...values) : null);
/** A value one time in `n`, otherwise null (fc.option's `freq` is the other way round: null one time in `freq`). */
const oneIn = <T>(n: number, arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
const oneofPresent = (...arbs: { weight: number; arbitrary: fc.Arbitrary<string> | null }[]) =>
  fc.oneof(
    ...arbs.filter(
      (a): a is { weight: number; arbitrary: fc.Arbitrary<string> } => a.arbitrary !== null && a.weight > 0,
    ),
  );

const b64urlChar = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
const b64url = (maxLength: number) => fc.string({ unit: b64urlChar, minLength: 1, maxLength });

/** Cursors a client could forge: real ones edited or spliced together, a chosen position under a real signature, or made up. */
function forgedCursor(cursors: Cursor[]): fc.Arbitrary<string> {
  const real = cursors.map((c) => c.cursor);
  const forged: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [
    { weight: 2, arbitrary: fc.tuple(b64url(120), b64url(30)).map(([p, m]) => `${p}.${m}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('[1,0,"x",""]', "{}", "null", "[2]", '[1,"0",1]'), b64url(22))
        .map(([p, m]) => `${Buffer.from(p).toString("base64url")}.${m}`),
    },
    { weight: 1, arbitrary: nastyString },
  ];
  if (real.length) {
    const realOne = fc.constantFrom(...real);
    forged.push(
      // One character of the payload or the signature changed.
      {
        weight: 3,
        arbitrary: fc.tuple(realOne, fc.nat(), b64urlChar).map(([c, at, ch]) => {
          const i = at % c.length;
          return c.slice(0, i) + (c[i] === ch ? (ch === "A" ? "B" : "A") : ch) + c.slice(i + 1);
        }),
      },
      // One cursor's payload with another's signature.
      { weight: 2, arbitrary: fc.tuple(realOne, realOne).map(([a, b]) => `${a.split(".")[0]}.${b.split(".")[1]}`) },
      // A position of the attacker's choosing, with a real signature.
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 64)),
            fc.oneof(nastyString, fc.integer()),
            realOne,
          )
          .map(
            ([at, id, c]) =>
              `${Buffer.from(JSON.stringify([1, at, id, "0000000000000000"])).toString("base64url")}.${c.split(".")[1]}`,
          ),
      },
      {
        weight: 1,
        arbitrary: realOne.chain((c) =>
          fc.constantFrom(c.split(".")[0], `${c}.x`, `${c}${c}`, c.slice(0, -1), c.toLowerCase(), `${c}=`, ` ${c}`),
        ),
      },
    );
  }
  return fc.oneof(...forged);
}

/** Values a parameter (or body field) of this name and schema takes on the seeded server. */
function validValue(name: string, schema: Json, world: World, method: string): fc.Arbitrary<string> | null {
  // Any real cursor: one issued for other filters or by the other list endpoint looks just as valid.
  if (name === "cursor") return pick(world.cursors.map((c) => c.cursor));
  if (method === "DELETE" && name === "connection_id") return pick(world.disposable);
  const values = world.values[name] ?? [];
  const enums = enumOf(schema);
  if (enums.length || values.length) return fc.constantFrom(...enums, ...values);
  if (schema.type === "integer")
    return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 2 ** 31, 2 ** 31) }).map(String);
  return null;
}

const enumOf = (schema: Json): string[] => schema.enum ?? (schema.anyOf ?? schema.oneOf ?? []).flatMap(enumOf);

/**
 * A query or path value as sent: real, real with SQL appended, SQL, numberish, hostile, or a
 * forged cursor. `validWeight` is weighed against the hostile kinds' 11: a query is refused
 * (400) at its first bad parameter, so for a hostile value to reach the database the others
 * must be valid.
 */
function wireValue(
  name: string,
  schema: Json,
  world: World,
  method: string,
  validWeight: number,
): fc.Arbitrary<string> {
  const valid = validValue(name, schema, world, method);
  const anyReal = pick(Object.values(world.values).flat());
  return oneofPresent(
    { weight: validWeight, arbitrary: valid && onTheWire(valid) },
    {
      weight: 2,
      arbitrary:
        valid && onTheWire(fc.tuple(valid, sqlString, fc.boolean()).map(([v, s, after]) => (after ? v + s : s + v))),
    },
    { weight: 3, arbitrary: onTheWire(sqlString) },
    { weight: 2, arbitrary: onTheWire(numberish) },
    { weight: 2, arbitrary: encodedNasty },
    { weight: name === "cursor" ? 6 : 1, arbitrary: onTheWire(forgedCursor(world.cursors)) },
    // A real value meant for another parameter.
    { weight: 1, arbitrary: anyReal && onTheWire(anyReal) },
  );
}

const foreignValue = (name: string, world: World) => pick(world.foreign[name] ?? []);

/**
 * One hostile parameter and the others valid (or left out): the query passes validation up to
 * that value, so a metacharacter in a filter reaches the database.
 */
function focusedQueryArb(
  params: Json[],
  world: World,
  method: string,
): fc.Arbitrary<{ query: string; foreign: boolean }> {
  return fc.constantFrom(...params).chain((target) => {
    const others = params
      .filter((p) => p !== target)
      .flatMap((p) => {
        const valid = validValue(p.name, p.schema ?? {}, world, method);
        return valid
          ? [
              oneIn(
                2,
                onTheWire(valid).map((v) => `${p.name}=${v}`),
              ),
            ]
          : [];
      });
    return fc
      .tuple(wireValue(target.name, target.schema ?? {}, world, method, 0), fc.tuple(...others))
      .map(([hostile, rest]) => {
        const pairs = [...rest.filter((pair): pair is string => pair !== null), `${target.name}=${hostile}`];
        return { query: `?${pairs.join("&")}`, foreign: false };
      });
  });
}

/** A query string over the operation's parameters: some left out, some repeated, unknown names now and then. */
function queryArb(params: Json[], world: World, method: string): fc.Arbitrary<{ query: string; foreign: boolean }> {
  const entry = (p: Json) => {
    const foreign = foreignValue(p.name, world);
    const own = wireValue(p.name, p.schema ?? {}, world, method, 24).map((v) => ({ v, foreign: false }));
    const value = foreign
      ? fc.oneof(
          { weight: 12, arbitrary: own },
          { weight: 1, arbitrary: onTheWire(foreign).map((v) => ({ v, foreign: true })) },
        )
      : own;
    return oneIn(
      2,
      value.map(({ v, foreign }) => ({ pair: `${p.name}=${v}`, foreign })),
    );
  };
  const unknown = fc.tuple(
    fc.oneof(
      encodedNasty,
      fc.constantFrom("x", "LIMIT", "Cursor", "limit[]", "team_id", "__proto__", "order_by", "sort"),
    ),
    onTheWire(fc.oneof(sqlString, numberish)),
  );
  return fc
    .record({ entries: fc.tuple(...params.map(entry)), unknown: oneIn(8, unknown), repeat: oneIn(8, fc.nat()) })
    .map(({ entries, unknown, repeat }) => {
      const present = entries.filter((e): e is { pair: string; foreign: boolean } => e !== null);
      const pairs = present.map((e) => e.pair);
      if (unknown) pairs.push(`${unknown[0]}=${unknown[1]}`);
      if (repeat !== null && pairs.length) pairs.push(pairs[repeat % pairs.length]);
      return { query: pairs.length ? `?${pairs.join("&")}` : "", foreign: present.some((e) => e.foreign) };
    });
}

/**
 * Paging on: a real cursor with the filters it was issued for (a valid next page), then the same
 * cursor with one filter changed, dropped or added, on this endpoint or the other list endpoint.
 */
function continuationArb(params: Json[], world: World, method: string): fc.Arbitrary<string> | null {
  if (!world.cursors.length) return null;
  type Change = { name: string; value: string | null };
  const change = fc
    .tuple(fc.constantFrom(...params), fc.boolean())
    .chain<Change>(([p, drop]) =>
      drop
        ? fc.constant({ name: p.name, value: null })
        : wireValue(p.name, p.schema ?? {}, world, method, 6).map((value) => ({ name: p.name, value })),
    );
  const edit = oneIn(2, change);
  return fc.tuple(fc.constantFrom(...world.cursors), edit).map(([c, e]) => {
    let pairs = c.query.filter(([k]) => k !== "cursor").map(([k, v]) => [k, percentEncode(v)]);
    if (e?.value === null) pairs = pairs.filter(([k]) => k !== e.name);
    else if (e) pairs = [...pairs.filter(([k]) => k !== e.name), [e.name, e.value]];
    return `?${[...pairs, ["cursor", c.cursor]].map(([k, v]) => `${k}=${v}`).join("&")}`;
  });
}

/** A JSON body from the operation's schema: an accepted body with fields kept, replaced or dropped, keys added, or nothing like it. */
function bodyArb(
  schema: Json,
  accepted: Json[],
  world: World,
  doc: Json,
): fc.Arbitrary<{ body: string; type: string }> {
  const resolved = schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
  const properties: Record<string, Json> = resolved.properties ?? {};
  const names = [...new Set([...Object.keys(properties), ...accepted.flatMap(Object.keys)])];
  const replacement = (name: string) => {
    const s = properties[name] ?? {};
    const valid = validValue(name, s, world, "POST");
    const keys = [
      ...new Set(accepted.flatMap((b) => (b[name] && typeof b[name] === "object" ? Object.keys(b[name]) : []))),
    ];
    return fc.oneof(
      nastyJson,
      sqlString,
      fc.constantFrom(
        true,
        false,
        null,
        -1,
        2 ** 53,
        -(2 ** 63),
        1e308,
        "",
        "x".repeat((s.maxLength ?? 100) + 1),
        "x".repeat(s.maxLength ?? 100),
      ),
      ...(valid ? [valid, fc.tuple(valid, sqlString).map(([v, q]) => v + q)] : []),
      // An object field (credentials) with the known keys and SQL or hostile values.
      ...(keys.length
        ? [
            fc.dictionary(fc.oneof(fc.constantFrom(...keys), sqlString), fc.oneof(sqlString, nastyString), {
              maxKeys: 4,
            }),
          ]
        : []),
    );
  };
  return fc
    .record({
      base: fc.constantFrom(...(accepted.length ? accepted : [{}])),
      fields: fc.tuple(
        ...names.map((name) =>
          fc.tuple(fc.constantFrom("keep", "keep", "keep", "replace", "replace", "drop"), replacement(name)),
        ),
      ),
      extra: fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom("__proto__", "constructor", "team_id", "id"), sqlString, nastyString),
          nastyJson,
        ),
        { maxLength: 2 },
      ),
      duplicate: fc.boolean(),
      type: fc.oneof({ weight: 6, arbitrary: fc.constant("application/json") }, { weight: 1, arbitrary: contentType }),
      whole: oneIn(8, nastyJson),
    })
    .map(({ base, fields, extra, duplicate, type, whole }) => {
      if (whole !== null) return { body: JSON.stringify(whole) ?? "", type };
      const entries: [string, unknown][] = [];
      names.forEach((name, i) => {
        const [how, other] = fields[i];
        if (how === "replace") entries.push([name, other]);
        else if (how === "keep" && base[name] !== undefined) entries.push([name, base[name]]);
      });
      return { body: jsonText([...entries, ...extra], duplicate), type };
    });
}

/** The Authorization header: mostly the seeded key, sometimes none, another scheme or a forged key. */
const authArb = (key: string) =>
  fc.oneof(
    { weight: 30, arbitrary: fc.constant<string | null>(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constant<string | null>(null) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        encodedNasty.map((s) => `Bearer ${s}`),
        onTheWire(sqlString).map((s) => `Bearer ${key}${s}`),
        fc.constantFrom(`Bearer ${key.slice(0, -1)}`, `Basic ${key}`, `bearer ${key}`, "Bearer "),
      ),
    },
  );

/** X-Request-Id is echoed when sane: hostile ones now and then. */
const requestIdArb = oneIn(
  10,
  fc.oneof(encodedNasty, onTheWire(sqlString)).filter((s) => s.length <= 2_000),
);

function headersOf(authorization: string | null, requestId: string | null, type?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (requestId !== null) headers["x-request-id"] = requestId;
  if (type) headers["content-type"] = type;
  return headers;
}

/** Node's HTTP parser answers a request line and headers over 16 KB itself (see below): generated requests stay under it. */
export const fits = (r: FuzzRequest) => r.path.length + Object.values(r.headers).join("").length <= 14_000;

/** Every operation of the document, each as likely as the others; plus methods a path does not list, and paths it does not have. */
export function requestArb(doc: Json, world: World): { arbitrary: fc.Arbitrary<FuzzRequest>; operations: string[] } {
  const operations: string[] = [];
  const arbs: { weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const listed = METHODS.filter((m) => item[m.toLowerCase()]);
    for (const method of listed) {
      const op = item[method.toLowerCase()];
      const operation = `${method} ${template}`;
      operations.push(operation);
      const params: Json[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const pathParams = params.filter((p) => p.in === "path");
      const queryParams = params.filter((p) => p.in === "query");
      const segments = pathParams.map((p) => {
        const foreign = foreignValue(p.name, world);
        const own = oneofPresent(
          { weight: 8, arbitrary: wireValue(p.name, p.schema ?? {}, world, method, 8) },
          { weight: 3, arbitrary: pathSegment },
        ).map((v) => ({ v, foreign: false }));
        return foreign
          ? fc.oneof(
              { weight: 8, arbitrary: own },
              { weight: 1, arbitrary: onTheWire(foreign).map((v) => ({ v, foreign: true })) },
            )
          : own;
      });
      const continuation = queryParams.some((p) => p.name === "cursor")
        ? continuationArb(queryParams, world, method)
        : null;
      const query = fc.oneof(
        { weight: 3, arbitrary: queryArb(queryParams, world, method) },
        // A collection's query is its filters: aim at them one by one.
        ...(queryParams.length && !pathParams.length
          ? [{ weight: 3, arbitrary: focusedQueryArb(queryParams, world, method) }]
          : []),
        ...(continuation ? [{ weight: 2, arbitrary: continuation.map((q) => ({ query: q, foreign: false })) }] : []),
      );
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      const body = schema ? bodyArb(schema, world.bodies[operation] ?? [], world, doc) : fc.constant(null);
      // An operation that streams its answer as Server-Sent Events when asked (the agent's turns).
      const streams = Object.values(op.responses ?? {}).some((r) => (r as Json).content?.["text/event-stream"]);
      const accept = streams
        ? oneIn(2, fc.constantFrom("text/event-stream", "text/event-stream, application/json", "*/*", "text/html"))
        : fc.constant(null);
      arbs.push({
        weight: 10,
        arbitrary: fc
          .record({
            segments: fc.tuple(...segments),
            query,
            body,
            auth: authArb(world.key),
            requestId: requestIdArb,
            accept,
          })
          .map(({ segments, query, body, auth, requestId, accept }) => {
            let i = 0;
            const path = template.replace(/\{[^}]+\}/g, () => segments[i++].v) + query.query;
            return {
              operation,
              method,
              path,
              headers: { ...headersOf(auth, requestId, body?.type), ...(accept && { accept }) },
              body: body?.body,
              foreign: query.foreign || segments.some((s) => s.foreign),
            };
          }),
      });
    }
    // Methods the path does not take: the document's 405.
    const unlisted = METHODS.filter((m) => !listed.includes(m));
    if (unlisted.length) {
      const concrete = template.replace(/\{([^}]+)\}/g, (_, name: string) => world.values[name]?.[0] ?? "x");
      arbs.push({
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...unlisted), oneIn(2, nastyJson)).map(([method, body]) => ({
          operation: "(a method the path does not list)",
          method,
          path: concrete,
          headers: headersOf(`Bearer ${world.key}`, null, body === null ? undefined : "application/json"),
          body: body === null ? undefined : (JSON.stringify(body) ?? ""),
          foreign: false,
        })),
      });
    }
  }
  // Paths no operation has (two segments, so no one-parameter template matches): the document's UnknownPath 404.
  const known = Object.keys(doc.paths).filter((t) => !t.includes("{"));
  arbs.push({
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom("/v1", ...known), pathSegment, fc.constantFrom("GET", "POST", "DELETE"))
      .map(([prefix, segment, method]) => ({
        operation: "(a path with no operation)",
        method,
        path: `${prefix}/${segment}/${segment}`,
        headers: headersOf(`Bearer ${world.key}`, null),
        foreign: false,
      })),
  });
  // Node's HTTP parser answers a request line and headers over 16 KB itself, with a bare 431
  // before the app runs (hostile-input.spec.ts tests that once): generated requests stay under it.
  return { arbitrary: fc.oneof(...arbs).filter(fits), operations };
}
