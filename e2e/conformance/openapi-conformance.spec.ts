import { test, expect, anonymous } from "../fixtures";
import {
  conformanceChecker,
  readRecordings,
  type Finding,
  type RecordedResponse,
} from "../support/openapi-conformance";

// Runs after the API integration suite (a project dependency): every /v1 response any server of
// this run sent (recorded by e2e/support/record-responses.cjs) must be one GET /v1/openapi.json
// declares, so the document cannot drift from the handlers.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion

let doc: Json;
test.beforeAll(async () => {
  const res = await (await anonymous()).get("/v1/openapi.json");
  expect(res.status(), await res.text()).toBe(200);
  doc = await res.json();
});

test("every /v1 response the integration suite received is declared by the OpenAPI document, body and headers", async () => {
  const recordings = readRecordings(process.env.PATCHBAY_RECORD_RESPONSES!);
  const { check, parseHead } = conformanceChecker(doc);
  // The suite reaches every operation and the statuses the document adds to all of them.
  expect(recordings.length).toBeGreaterThan(2000);
  const seen = new Set(recordings.map((r) => `${parseHead(r.head).status}`));
  for (const status of ["200", "400", "401", "403", "404", "405", "413", "429", "502", "503"])
    expect(seen, `some response was a ${status}`).toContain(status);
  const problems = new Map<string, { count: number; example: string }>();
  for (const rec of recordings) {
    for (const { key, example } of check(rec)) {
      const p = problems.get(key) ?? { count: 0, example };
      p.count++;
      problems.set(key, p);
    }
  }
  const report = [...problems].map(([key, p]) => `${key} (×${p.count}), e.g. ${p.example}`);
  expect(report, `${recordings.length} responses checked`).toEqual([]);
});

/** A recorded response as the server would have sent it. */
function recorded(
  method: string,
  url: string,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): RecordedResponse {
  const head =
    [
      `HTTP/1.1 ${status} X`,
      ...Object.entries({ "content-type": "application/json", ...headers }).map(([k, v]) => `${k}: ${v}`),
    ].join("\r\n") + "\r\n\r\n";
  return { method, url, head, body: Buffer.from(JSON.stringify(body)).toString("base64") };
}

test("the check itself refuses what the document does not describe", async () => {
  const { check } = conformanceChecker(doc);
  const keys = (r: RecordedResponse) => check(r).map((f: Finding) => f.key);
  const log = {
    id: "log_1",
    operation_id: "op",
    status: "success",
    source: { type: "mcp", id: null, run_id: null, name: null },
    user: { id: null, email: null },
    started_at: 1,
    credits_used: 0,
    cache_hit: false,
    metadata: {},
  };
  const limited = {
    "retry-after": "3",
    "ratelimit-limit": "5",
    "ratelimit-remaining": "0",
    "ratelimit-reset": "3",
    "ratelimit-policy": "5;w=60",
  };

  expect(
    keys(recorded("GET", "/v1/logs?limit=1", 200, {}, { data: [log], has_more: false, next_cursor: null })),
  ).toEqual([]);
  expect(keys(recorded("GET", "/v1/logs/log_1", 404, {}, { detail: { message: "old", history_days: 1 } }))).toEqual([]);
  expect(keys(recorded("GET", "/v1/credits", 429, limited, { detail: "slow down" }))).toEqual([]);
  expect(keys(recorded("PUT", "/v1/logs", 405, { allow: "GET" }, { detail: "use GET" }))).toEqual([]);
  expect(keys(recorded("GET", "/v1/nothing/here", 404, {}, { detail: "no endpoint" }))).toEqual([]);

  // A Log still carrying `service` instead of `source`.
  const { source, ...withoutSource } = log;
  expect(
    keys(
      recorded(
        "GET",
        "/v1/logs",
        200,
        {},
        { data: [{ ...withoutSource, service: source }], has_more: false, next_cursor: null },
      ),
    ),
  ).toEqual([
    expect.stringContaining("body does not match the schema at /data/0: must have required property 'source'"),
  ]);
  expect(keys(recorded("GET", "/v1/credits", 429, { "retry-after": "3" }, { detail: "slow down" }))).toContainEqual(
    expect.stringContaining("required header RateLimit-Limit is missing"),
  );
  expect(keys(recorded("GET", "/v1/credits", 418, {}, { detail: "teapot" }))).toEqual([
    expect.stringContaining("status 418 is not declared"),
  ]);
  expect(keys(recorded("GET", "/v1/logs/x", 404, {}, { detail: { message: "old" } }))).toEqual([
    expect.stringContaining("body does not match the schema"),
  ]);
  expect(keys(recorded("PUT", "/v1/logs", 405, { allow: "GET, POST" }, { detail: "no" }))).toEqual([
    expect.stringContaining('Allow "GET, POST" is not the document\'s methods get'),
  ]);
  expect(keys(recorded("PUT", "/v1/logs", 404, {}, { detail: "no" }))).toEqual([
    expect.stringContaining("not the MethodNotAllowed 405"),
  ]);
  expect(keys(recorded("GET", "/v1/connections", 200, { "content-type": "text/html" }, []))).toEqual([
    expect.stringContaining("not application/json"),
  ]);
  // A stream only where the document declares one (the agent's turn, CONTRACT §11).
  const stream = { "content-type": "text/event-stream; charset=utf-8" };
  expect(keys(recorded("POST", "/v1/agent/conversations", 201, stream, "event: turn"))).toEqual([]);
  expect(keys(recorded("GET", "/v1/connections", 200, stream, "event: turn"))).toEqual([
    expect.stringContaining("not application/json"),
  ]);
});
