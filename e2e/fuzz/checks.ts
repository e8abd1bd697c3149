import { problem, type RawResponse } from "../support/hostile";
import { conformanceChecker, type Finding } from "../support/openapi-conformance";
import type { FuzzRequest } from "./requests";

// What every fuzzed answer must satisfy: the hostile-input property (never a 5xx, every error
// JSON with a detail), the OpenAPI document's description of it, no database error text in
// it, list filters that match exactly (a metacharacter is not a wildcard), and nothing of
// another team.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

/** Text only a database driver, an ORM or a stack trace writes. */
const LEAKS = [
  /SQLITE_\w*/,
  /syntax error/i,
  /near "/,
  /relation "/,
  /column "?[\w.]+"? does not exist/i,
  /unrecognized token/i,
  /unterminated quoted/i,
  /invalid input syntax/i,
  /duplicate key value/i,
  /violates [\w ]*constraint/i,
  /prisma/i,
  /Invalid `[\w.]+\(\)` invocation/,
  /better-sqlite3/i,
  /node_modules/,
  /\n\s+at .+:\d+:\d+/,
  /\bINSERT INTO\b/i,
];

/** For each list path, how a row must answer to each exact-match or range filter (the spec's parameter descriptions). */
const FILTERS: Record<string, Record<string, (row: Json, value: string) => boolean>> = {
  "/v1/logs": {
    source_type: (r, v) => r.source.type === v,
    status: (r, v) => r.status === v,
    operation_id: (r, v) => r.operation_id === v,
    source_id: (r, v) => r.source.id === v,
    source_run_id: (r, v) => r.source.run_id === v,
    started_after: (r, v) => r.started_at >= Number(v),
    started_before: (r, v) => r.started_at <= Number(v),
  },
  "/v1/credits/logs": {
    service_type: (r, v) => r.service.type === v,
    service_id: (r, v) => r.service.id === v,
    user_id: (r, v) => r.user.id === v,
    created_after: (r, v) => r.created_at >= Number(v),
    created_before: (r, v) => r.created_at <= Number(v),
  },
  "/v1/connections": {
    external_id: (r, v) => r.external_id === v,
    type: (r, v) => r.type === v,
  },
};

/** Every string in a JSON value, however deep (a fuzzed body nests thousands of levels). */
function strings(v: unknown): string[] {
  const out: string[] = [];
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === "string") out.push(x);
    else if (x && typeof x === "object") stack.push(...Object.values(x));
  }
  return out;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The response as the recorder (e2e/support/record-responses.cjs) would have kept it, for the conformance check. */
function recorded(req: FuzzRequest, res: RawResponse) {
  const lines = Object.entries(res.headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
  );
  const head = [`HTTP/1.1 ${res.status} -`, ...lines].join("\r\n") + "\r\n\r\n";
  return { method: req.method, url: req.path, head, body: Buffer.from(res.text).toString("base64") };
}

/** A JSON body, or undefined. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The JSON-RPC answers of a /mcp response with something wrong: an error without a message, or
 * −32603 (Internal error: the JSON-RPC form of a 5xx; a bad argument is −32602 with a sentence).
 */
function jsonRpcProblems(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const error = (m as Json | null)?.error;
    if (error === undefined) return [];
    if (!error || typeof error.message !== "string" || !error.message) return ["a JSON-RPC error without a message"];
    // Kept apart by the start of the message, so a second cause is not counted under the first.
    const cause = error.message.replace(/\s+/g, " ").slice(0, 60);
    return error.code === -32603 ? [`JSON-RPC −32603 (internal error): "${cause}…"`] : [];
  });
}

/** Whether the server refused the request (so it must have stored nothing): a 4xx, or a JSON-RPC error in every answer. */
export function refused(req: FuzzRequest, res: RawResponse): boolean {
  if (res.status >= 400 && res.status < 500) return true;
  if (req.protocol !== "jsonrpc" || res.status !== 200) return false;
  const body = parsed(res.text);
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => (m as Json | null)?.error !== undefined);
}

/** The error shape of a door other than the /v1 operations (its protocol's, doors.ts). */
function protocolFindings(req: FuzzRequest, res: RawResponse, what: string): Finding[] {
  const line = `${what} → ${res.status} ${(res.headers["content-type"] ?? "").split(";")[0]} ${res.text.slice(0, 300)}`;
  const finding = (kind: string) => [{ key: `${req.operation}: ${kind}`, example: line }];
  if (res.status === 0) return finding("no answer the client could read");
  if (res.status >= 500) return finding(`a ${res.status}`);
  const body = /^application\/json/.test(res.headers["content-type"] ?? "") ? parsed(res.text) : undefined;
  const o = (body && typeof body === "object" ? body : {}) as Json;
  if (res.status >= 400) {
    if (req.protocol === "any") return [];
    if (body === undefined) return finding(`a ${res.status} that is not JSON`);
    if (req.protocol === "oauth" && (typeof o.error !== "string" || !o.error))
      return finding(`a ${res.status} without OAuth's error`);
    if (req.protocol !== "oauth" && (o.detail === undefined || o.detail === null))
      return finding(`a ${res.status} without a detail`);
  }
  if (req.protocol === "jsonrpc" && res.status === 200) return jsonRpcProblems(parsed(res.text)).flatMap(finding);
  return [];
}

export function responseChecker(doc: Json) {
  const { check } = conformanceChecker(doc);
  return function findings(req: FuzzRequest, res: RawResponse): Finding[] {
    const what = `${req.method} ${req.path.slice(0, 300)}${req.body === undefined ? "" : ` ${req.body.slice(0, 200)}`}`;
    const answer = `${res.status} ${res.text.slice(0, 300)}`;
    if (req.protocol) {
      const found = protocolFindings(req, res, what);
      const body = parsed(res.text);
      if (res.status >= 400 || (req.protocol === "jsonrpc" && refused(req, res)))
        found.push(...leaks(req, body, what, answer));
      return found;
    }
    const hostile = problem(res, what);
    if (hostile)
      return [
        {
          key: `${req.operation}: ${res.status === 0 ? "no answer the client could read" : res.status >= 500 ? `a ${res.status}` : "an error that is not JSON with a detail"}`,
          example: hostile,
        },
      ];
    const found: Finding[] = check(recorded(req, res)).map((f) => ({ key: f.key, example: `${what} → ${answer}` }));
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return found;
    }
    if (res.status >= 400) found.push(...leaks(req, body, what, answer));
    if (res.status >= 200 && res.status < 300) {
      const url = new URL(req.path, "http://x");
      const rows: unknown = Array.isArray(body) ? body : (body as Json | null)?.data;
      if (req.foreign && !(Array.isArray(rows) && rows.length === 0))
        found.push({
          key: `${req.operation}: another team's or user's data answered ${res.status}`,
          example: `${what} → ${answer}`,
        });
      const unmet = Array.isArray(rows) && rows.length ? unmetFilter(url, rows) : null;
      if (unmet)
        found.push({
          key: `${req.operation}: a row does not match the filter ${unmet.name}`,
          example: `${what} → ${unmet.name}=${JSON.stringify(unmet.value)}, row ${JSON.stringify(unmet.row).slice(0, 300)}`,
        });
    }
    return found;
  };
}

/** Database or internal error text in an error body that the request did not itself send. */
function leaks(req: FuzzRequest, body: unknown, what: string, answer: string): Finding[] {
  const sent = [req.path, decoded(req.path), req.body ?? "", ...strings(safeJson(req.body))].join("\n");
  const found: Finding[] = [];
  for (const text of strings(body)) {
    const leak = LEAKS.map((re) => text.match(re)?.[0]).find((m) => m !== undefined && !sent.includes(m));
    if (leak)
      found.push({
        key: `${req.operation}: database or internal error text in the body ("${leak}")`,
        example: `${what} → ${answer}`,
      });
  }
  return found;
}

function safeJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The first filter of a 200 list some returned row does not meet, when the query is unambiguous (each name once, every escape valid). */
function unmetFilter(url: URL, rows: Json[]): { name: string; value: string; row: Json } | null {
  const filters = FILTERS[url.pathname];
  if (!filters) return null;
  const raw = url.search.slice(1).split("&").filter(Boolean);
  const names = raw.map((pair) => pair.split("=")[0]);
  if (
    new Set(names).size !== names.length ||
    /%(?![0-9a-f]{2})/i.test(url.search) ||
    url.searchParams.toString().includes("%EF%BF%BD")
  )
    return null;
  for (const [name, value] of url.searchParams) {
    // Own names only: a query may well be named "constructor".
    const meets = Object.hasOwn(filters, name) ? filters[name] : undefined;
    const row = meets && rows.find((r) => !meets(r, value));
    if (row) return { name, value, row };
  }
  return null;
}
