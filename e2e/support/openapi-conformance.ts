import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

// Checks recorded server responses (e2e/support/record-responses.cjs) against the OpenAPI
// document the server itself serves: the status must be one the operation declares, the body
// must match that response's schema (JSON Schema 2020-12, the document's own components), and
// the headers it declares required must be there. A method a path does not list must be the
// document's MethodNotAllowed (405 with Allow naming exactly the listed methods); a path with no
// operation its UnknownPath (404).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

export type RecordedResponse = { method: string; url: string; head: string; body: string; truncated?: boolean };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Served beside the operations and described by no operation: the document itself. */
const NOT_OPERATIONS = new Set(["/v1/openapi.json"]);

export function readRecordings(dir: string): RecordedResponse[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => {
      const lines = readFileSync(join(dir, f), "utf8").split("\n");
      // A server still answering may be halfway through its last line.
      return lines.flatMap((line, i) => {
        if (!line) return [];
        try {
          return [JSON.parse(line) as RecordedResponse];
        } catch (e) {
          if (i >= lines.length - 2) return [];
          throw e;
        }
      });
    });
}

function parseHead(head: string) {
  const [statusLine, ...lines] = head.split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (!body.length) return body;
  if (encoding === "gzip") return gunzipSync(body);
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "deflate") return inflateSync(body);
  return body;
}

export type Finding = { key: string; example: string };

export function conformanceChecker(doc: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: false, strictTuples: false });
  addFormats(ajv);
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addKeyword({ keyword: "components" });
  // The document's schemas by their own $ref, "#/components/schemas/<name>".
  ajv.addSchema({ $id: "openapi", components: { schemas: doc.components.schemas } }, undefined, undefined, false);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorFor = (schema: Json) => {
    const key = JSON.stringify(schema);
    let v = validators.get(key);
    if (!v) {
      const rebased = JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/'));
      v = ajv.compile(rebased);
      validators.set(key, v);
    }
    return v;
  };
  // Literal paths before templated ones: /v1/connections/types is not /v1/connections/{connection_id}.
  const templates = Object.keys(doc.paths)
    .sort((a, b) => a.split("{").length - b.split("{").length)
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }));
  const resolveResponse = (r: Json): Json => (r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r);

  /** Problems with one recorded response; none when the document describes it. */
  function check(rec: RecordedResponse): Finding[] {
    const url = new URL(rec.url, "http://x");
    const { status, headers } = parseHead(rec.head);
    const method = rec.method.toLowerCase();
    // Dot segments that climb out of /v1 name another part of the site (the URL parser has
    // resolved them, as every client does before sending).
    if (NOT_OPERATIONS.has(url.pathname) || !/^\/v1(\/|$)/.test(url.pathname)) return [];
    // The framework's redirect, as the document's description says: towards the path without a
    // trailing or doubled slash, backslash or dot segment, in at most two steps (`/v1//` →
    // `/v1/` → `/v1`), each one to another path with the same plain form.
    const plain = (path: string) => path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    const canonical = plain(url.pathname);
    const rawPath = rec.url.split("?")[0];
    const target = headers.location ? new URL(headers.location, "http://x").pathname : null;
    if (status === 308 && target !== null && target !== rawPath && plain(target) === canonical) return [];
    const match = templates.find((t) => t.pattern.test(url.pathname));
    const example = `${rec.method} ${rec.url.slice(0, 160)} → ${status}`;
    const found = (key: string): Finding[] => [{ key, example }];
    const problems: Finding[] = [];
    let expected: Json;
    let label: string;
    if (!match) {
      label = "(unknown path)";
      if (status !== 404) return found(`${rec.method} ${label}: ${status}, not the UnknownPath 404`);
      expected = resolveResponse({ $ref: "#/components/responses/UnknownPath" });
    } else {
      const item = doc.paths[match.template] as Json;
      const listed = METHODS.filter((m) => item[m]);
      const operation = item[method] ?? (method === "head" ? item.get : undefined);
      label = match.template;
      if (!operation) {
        if (status !== 405) return found(`${rec.method} ${label}: ${status}, not the MethodNotAllowed 405`);
        const allow = (headers.allow ?? "")
          .split(",")
          .map((m) => m.trim().toLowerCase())
          .filter(Boolean)
          .sort();
        if (JSON.stringify(allow) !== JSON.stringify([...listed].sort()))
          problems.push({
            key: `${rec.method} ${label} 405: Allow "${headers.allow}" is not the document's methods ${listed.join(", ")}`,
            example,
          });
        expected = resolveResponse({ $ref: "#/components/responses/MethodNotAllowed" });
      } else {
        label = `${rec.method} ${match.template}`;
        const declared = operation.responses[String(status)];
        if (!declared)
          return found(
            `${label}: status ${status} is not declared (declared: ${Object.keys(operation.responses).join(", ")})`,
          );
        expected = resolveResponse(declared);
      }
    }
    for (const [name, h] of Object.entries((expected.headers ?? {}) as Json)) {
      const spec = h.$ref ? { ...doc.components.headers[h.$ref.split("/").pop()], ...h } : h;
      if (spec.required && headers[name.toLowerCase()] === undefined)
        problems.push({ key: `${label} ${status}: required header ${name} is missing`, example });
    }
    if (rec.method === "HEAD" || rec.truncated) return problems;
    // A declared stream (the agent's `text/event-stream` answer) is a sequence of events, not one body.
    const mediaType = (headers["content-type"] ?? "").split(";")[0].trim();
    if (mediaType === "text/event-stream" && expected.content?.[mediaType]) return problems;
    const schema = expected.content?.["application/json"]?.schema;
    if (!schema) return problems;
    if (!/^application\/json\b/.test(headers["content-type"] ?? ""))
      return [
        ...problems,
        { key: `${label} ${status}: content-type ${headers["content-type"]}, not application/json`, example },
      ];
    let body: unknown;
    try {
      body = JSON.parse(decode(Buffer.from(rec.body, "base64"), headers["content-encoding"]).toString("utf8"));
    } catch (e) {
      return [...problems, { key: `${label} ${status}: the body is not JSON (${(e as Error).message})`, example }];
    }
    const validate = validatorFor(schema);
    if (!validate(body)) {
      const first = validate.errors?.[0];
      problems.push({
        key: `${label} ${status}: body does not match the schema at ${first?.instancePath || "/"}: ${first?.message}`,
        example: `${example} ${JSON.stringify(body).slice(0, 300)}`,
      });
    }
    return problems;
  }

  /** Problems with a webhook body the server sent: it must be the document's `webhooks[type]` body. */
  function checkWebhook(body: Json): string[] {
    const item = doc.webhooks?.[body?.type];
    if (!item) return [`webhook type ${JSON.stringify(body?.type)} is not in the document's webhooks`];
    const validate = validatorFor(item.post.requestBody.content["application/json"].schema);
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${body.type}: ${e.instancePath || "/"} ${e.message}`);
  }
  return { check, checkWebhook, parseHead };
}
