import http from "node:http";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { test, expect, seedTeam, apiAs, anonymous, cli, baseURL, type SeededTeam } from "../fixtures";

// No input yields a 5xx, and every 4xx carries a JSON `{detail}` (spec §7). Where the spec
// fixes the answer (§8 limits, §4.12 invalid cursor), the exact status is asserted.

type Ids = { connection: string; authLink: string; log: string };

async function describe(res: APIResponse) {
  const text = await res.text().catch(() => "<no body>");
  return `${res.url().slice(0, 200)} → ${res.status()} ${text.slice(0, 300)}`;
}

/** Any answer but a 5xx; a 4xx must be JSON with a `detail`. */
async function expectSane(res: APIResponse, what = "") {
  const info = `${what} ${await describe(res)}`;
  expect(res.status(), info).toBeLessThan(500);
  if (res.status() >= 400) {
    expect(res.headers()["content-type"] ?? "", info).toMatch(/^application\/json/);
    const body = JSON.parse(await res.text());
    expect(body, info).toHaveProperty("detail");
    expect(body.detail, info).not.toBeNull();
  } else if (res.status() === 200) {
    expect(res.headers()["content-type"] ?? "", info).toMatch(/^application\/json/);
    JSON.parse(await res.text());
  }
  return res;
}

/**
 * What is wrong with an answer (null when nothing): a 5xx, a 4xx without a JSON detail, or a
 * status outside `allowed`. Loops collect these so one run reports every offending input.
 */
async function problem(res: APIResponse, allowed: number[] | null, what: string): Promise<string | null> {
  const status = res.status();
  const text = await res.text().catch(() => "");
  const line = `${what} → ${status} ${(res.headers()["content-type"] ?? "").split(";")[0]} ${text.slice(0, 160)}`;
  if (status >= 500) return line;
  if (allowed && !allowed.includes(status)) return line;
  if (status >= 400) {
    if (!/^application\/json/.test(res.headers()["content-type"] ?? "")) return line;
    try {
      const body = JSON.parse(text);
      if (body === null || typeof body !== "object" || body.detail === undefined || body.detail === null) return line;
    } catch {
      return line;
    }
  }
  return null;
}

async function expectStatus(res: APIResponse, status: number, what = "") {
  await expectSane(res, what);
  expect(res.status(), `${what} ${await describe(res)}`).toBe(status);
  return res.json();
}

const GET_ENDPOINTS = (ids: Ids) => [
  "/v1/connections",
  "/v1/connections/types",
  `/v1/connections/${ids.connection}`,
  `/v1/connections/auth-links/${ids.authLink}/status`,
  "/v1/credits",
  "/v1/credits/logs",
  "/v1/logs",
  `/v1/logs/${ids.log}`,
];

const validConnection = (name = "robust") => ({
  connection_type: "sandbox_key",
  name,
  credentials: { api_key: "sk_robust" },
});
const validLink = () => ({ connection_type: "sandbox_oauth" });

let team: SeededTeam;
let api: APIRequestContext;
let ids: Ids;

test.beforeAll(async () => {
  team = await seedTeam();
  api = await apiAs(team.users[0]);
  // 30 MCP calls: 30 logs and 30 ledger entries, more than one default page of each.
  const sim = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "0",
    "--mcp-calls",
    "30",
    "--agent-conversations",
    "0",
    "--copilot-uses",
    "0",
    "--days",
    "2",
  );
  expect(sim.json).toEqual({ logs: 30, ledger_entries: 30 });
  const conn = await (await api.post("/v1/connections", { data: validConnection("target") })).json();
  const link = await (
    await api.post("/v1/connections/auth-link", {
      data: { connection_type: "sandbox_oauth", external_id: "robust-ext" },
    })
  ).json();
  const logs = await (await api.get("/v1/logs?limit=1")).json();
  ids = { connection: conn.id, authLink: link.id, log: logs.data[0].id };
  expect(ids.connection && ids.authLink && ids.log).toBeTruthy();
});

test.describe("query strings", () => {
  test("unknown query parameters are 400 on every GET and DELETE endpoint", async () => {
    const problems: string[] = [];
    for (const path of GET_ENDPOINTS(ids)) {
      for (const q of ["foo=1", "LIMIT=5", "limit[]=5", "%00=1", "=x", "x"]) {
        const p = await problem(await api.get(`${path}?${q}`), [400], `GET ${path}?${q}`);
        if (p) problems.push(p);
      }
    }
    const p = await problem(await api.delete(`/v1/connections/${ids.connection}?foo=1`), [400], "DELETE ?foo=1");
    if (p) problems.push(p);
    expect(problems).toEqual([]);
    await expectStatus(await api.get(`/v1/connections/${ids.connection}`), 200);
  });

  test("unknown query parameters are 400 on the POST endpoints too", async () => {
    const before = await expectStatus(await api.get("/v1/connections"), 200);
    const problems: string[] = [];
    for (const [path, data] of [
      ["/v1/connections", validConnection("with unknown param")],
      ["/v1/connections/auth-link", validLink()],
    ] as const) {
      const p = await problem(await api.post(`${path}?foo=1`, { data }), [400], `POST ${path}?foo=1`);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
    expect(await expectStatus(await api.get("/v1/connections"), 200)).toEqual(before);
  });

  test("repeated query parameters are 400", async () => {
    const problems: string[] = [];
    for (const q of [
      "/v1/logs?limit=1&limit=2",
      "/v1/logs?limit=1&limit=1",
      "/v1/logs?status=success&status=error",
      "/v1/credits/logs?limit=1&limit=2",
      "/v1/credits/logs?service_type=mcp&service_type=mcp",
      "/v1/connections?type=a&type=b",
      `/v1/connections/${ids.connection}?lookup_by=id&lookup_by=id`,
      "/v1/credits?x=1&x=1",
    ]) {
      const p = await problem(await api.get(q), [400], q);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
  });

  /** GETs each path?name=value; 200 must be an empty result (nothing matches such values). */
  async function sweep(params: Record<string, string[]>, values: string[], mustBe400: string[]) {
    const problems: string[] = [];
    for (const [path, names] of Object.entries(params)) {
      for (const name of names) {
        for (const value of values) {
          const what = `GET ${path}?${name}=${value.slice(0, 30)}`;
          const res = await api.get(`${path}?${name}=${value}`);
          const p = await problem(res, mustBe400.includes(name) ? [400] : [200, 400], what);
          if (p) problems.push(p);
          else if (res.status() === 200) {
            const body = await res.json();
            const items = Array.isArray(body) ? body.filter((c: { id: string }) => !path.includes(c.id)) : body.data;
            if (items.length) problems.push(`${what} → 200 with ${items.length} items`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }

  test("10k-character query values never give a 5xx", async () => {
    await sweep(
      {
        "/v1/connections": ["external_id", "type"],
        [`/v1/connections/${ids.connection}`]: ["lookup_by"],
        "/v1/logs": [
          "source_type",
          "status",
          "operation_id",
          "source_id",
          "source_run_id",
          "started_after",
          "started_before",
          "limit",
          "cursor",
        ],
        "/v1/credits/logs": [
          "service_type",
          "service_id",
          "user_id",
          "created_after",
          "created_before",
          "limit",
          "cursor",
        ],
      },
      [
        "x".repeat(10_000),
        "9".repeat(10_000),
        encodeURIComponent("💥".repeat(800)) /* 9,600 characters once encoded */,
      ],
      [
        "limit",
        "cursor",
        "started_after",
        "started_before",
        "created_after",
        "created_before",
        "lookup_by",
        "source_type",
        "status",
        "service_type",
      ],
    );
  });

  test("unicode, emoji, NUL and invalid percent-escapes in query values never give a 5xx", async () => {
    // Raw query text: percent-escapes are sent as written.
    const values = [
      encodeURIComponent("💥"),
      encodeURIComponent("ünïcödé"),
      "%00",
      "a%00b",
      "%FF",
      "%C0%AF",
      "%ED%A0%80",
      "%",
      "%zz",
      "'%20OR%201=1%20--",
      "%0A%0D",
      "%E2%80%AE",
      "%2525",
      "a+b",
    ];
    await sweep(
      {
        "/v1/connections": ["external_id", "type"],
        [`/v1/connections/${ids.connection}`]: ["lookup_by"],
        "/v1/logs": [
          "source_type",
          "status",
          "operation_id",
          "source_id",
          "source_run_id",
          "cursor",
          "limit",
          "started_after",
        ],
        "/v1/credits/logs": ["service_type", "service_id", "user_id", "cursor", "limit", "created_after"],
      },
      values,
      ["limit", "cursor", "started_after", "created_after", "lookup_by", "source_type", "status", "service_type"],
    );
  });

  test("limit and time parameters accept only whole numbers in range (spec §8)", async () => {
    const bad = [
      "1e3",
      "-0",
      "-1",
      "99999999999999999999",
      "1.5",
      "1.0",
      "",
      " 1",
      "1 ",
      "+1",
      "0x10",
      "NaN",
      "Infinity",
      "１",
      "1_0",
      "true",
      "null",
      "[1]",
    ];
    const problems: string[] = [];
    for (const path of ["/v1/logs", "/v1/credits/logs"]) {
      const timeParams =
        path === "/v1/logs" ? ["started_after", "started_before"] : ["created_after", "created_before"];
      for (const name of ["limit", ...timeParams]) {
        for (const v of bad) {
          const p = await problem(
            await api.get(`${path}?${name}=${encodeURIComponent(v)}`),
            [400],
            `${path}?${name}=${JSON.stringify(v)}`,
          );
          if (p) problems.push(p);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("GET /v1/logs limit is 1 to 100, default 25", async () => {
    expect((await expectStatus(await api.get("/v1/logs"), 200)).data).toHaveLength(25);
    expect((await expectStatus(await api.get("/v1/logs?limit=1"), 200)).data).toHaveLength(1);
    expect((await expectStatus(await api.get("/v1/logs?limit=100"), 200)).data).toHaveLength(30);
    expect((await expectStatus(await api.get("/v1/logs?limit=030"), 200)).data).toHaveLength(30);
    for (const v of ["0", "101", "1000"]) await expectStatus(await api.get(`/v1/logs?limit=${v}`), 400, `limit=${v}`);
  });

  test("GET /v1/credits/logs limit is 1 to 1000, default 25", async () => {
    expect((await expectStatus(await api.get("/v1/credits/logs"), 200)).data).toHaveLength(25);
    expect((await expectStatus(await api.get("/v1/credits/logs?limit=1"), 200)).data).toHaveLength(1);
    expect((await expectStatus(await api.get("/v1/credits/logs?limit=101"), 200)).data).toHaveLength(30);
    expect((await expectStatus(await api.get("/v1/credits/logs?limit=1000"), 200)).data).toHaveLength(30);
    for (const v of ["0", "1001", "100000"])
      await expectStatus(await api.get(`/v1/credits/logs?limit=${v}`), 400, `limit=${v}`);
  });

  test("time parameters have minimum 0", async () => {
    for (const q of [
      "/v1/logs?started_after=0",
      "/v1/logs?started_before=0",
      "/v1/credits/logs?created_after=0",
      "/v1/credits/logs?created_before=0",
    ]) {
      await expectStatus(await api.get(q), 200, q);
    }
    expect((await expectStatus(await api.get("/v1/logs?started_after=0&limit=100"), 200)).data).toHaveLength(30);
    expect((await expectStatus(await api.get("/v1/logs?started_before=0"), 200)).data).toEqual([]);
    expect((await expectStatus(await api.get("/v1/credits/logs?created_after=0&limit=100"), 200)).data).toHaveLength(
      30,
    );
    expect((await expectStatus(await api.get("/v1/credits/logs?created_before=0"), 200)).data).toEqual([]);
    for (const q of [
      "/v1/logs?started_after=-1",
      "/v1/logs?started_before=-1",
      "/v1/credits/logs?created_after=-1",
      "/v1/credits/logs?created_before=-1",
    ]) {
      await expectStatus(await api.get(q), 400, q);
    }
  });

  test("time parameters accept the whole int64 range", async () => {
    // §4.9/§4.10: integer (int64), minimum 0 — the largest int64 is a valid value.
    const max = "9223372036854775807";
    expect(
      (await expectStatus(await api.get(`/v1/logs?started_before=${max}&limit=100`), 200, "started_before=int64 max"))
        .data,
    ).toHaveLength(30);
    expect(
      (await expectStatus(await api.get(`/v1/logs?started_after=${max}`), 200, "started_after=int64 max")).data,
    ).toEqual([]);
    expect(
      (
        await expectStatus(
          await api.get(`/v1/credits/logs?created_before=${max}&limit=100`),
          200,
          "created_before=int64 max",
        )
      ).data,
    ).toHaveLength(30);
    expect(
      (await expectStatus(await api.get(`/v1/credits/logs?created_after=${max}`), 200, "created_after=int64 max")).data,
    ).toEqual([]);
    // One past int64 is not an int64.
    await expectStatus(await api.get("/v1/logs?started_before=9223372036854775808"), 400);
  });

  test("invalid, foreign and edited cursors are 400 (spec §4.12)", async () => {
    const logsPage = await expectStatus(await api.get("/v1/logs?limit=5"), 200);
    const creditsPage = await expectStatus(await api.get("/v1/credits/logs?limit=5"), 200);
    expect(logsPage.next_cursor).toEqual(expect.any(String));
    expect(creditsPage.next_cursor).toEqual(expect.any(String));
    const lc: string = logsPage.next_cursor;
    const cc: string = creditsPage.next_cursor;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const broken = [
      "x",
      "abc.def",
      "...",
      "null",
      "0",
      "💥",
      "%00",
      lc + "x",
      lc.slice(0, -1),
      flip(lc, 2),
      `${lc}.${lc}`,
      "x".repeat(1_000),
      "x".repeat(10_000),
    ];
    for (const c of broken) {
      await expectStatus(
        await api.get(`/v1/logs?limit=5&cursor=${encodeURIComponent(c)}`),
        400,
        `logs cursor ${c.slice(0, 40)}`,
      );
      await expectStatus(
        await api.get(`/v1/credits/logs?limit=5&cursor=${encodeURIComponent(c.replace(lc, cc))}`),
        400,
        `credits cursor ${c.slice(0, 40)}`,
      );
    }
    // A cursor of the other list, or made for other filters.
    await expectStatus(
      await api.get(`/v1/logs?limit=5&cursor=${encodeURIComponent(cc)}`),
      400,
      "credits cursor on logs",
    );
    await expectStatus(
      await api.get(`/v1/credits/logs?limit=5&cursor=${encodeURIComponent(lc)}`),
      400,
      "logs cursor on credits",
    );
    await expectStatus(
      await api.get(`/v1/logs?limit=5&status=error&cursor=${encodeURIComponent(lc)}`),
      400,
      "changed filter",
    );
    await expectStatus(await api.get(`/v1/logs?limit=5&cursor=`), 400, "empty cursor");
    // The untouched cursors work.
    await expectStatus(await api.get(`/v1/logs?limit=5&cursor=${encodeURIComponent(lc)}`), 200);
    await expectStatus(await api.get(`/v1/credits/logs?limit=5&cursor=${encodeURIComponent(cc)}`), 200);
  });

  test("enum parameters reject unknown values", async () => {
    for (const q of [
      "/v1/logs?source_type=robot",
      "/v1/logs?status=done",
      "/v1/logs?status=SUCCESS",
      "/v1/credits/logs?service_type=human",
      `/v1/connections/${ids.connection}?lookup_by=name`,
    ]) {
      await expectStatus(await api.get(q), 400, q);
    }
  });
});

test.describe("path ids", () => {
  // Raw, already percent-encoded path segments holding valid UTF-8.
  const WEIRD = [
    encodeURIComponent("💥"),
    encodeURIComponent("ünïcödé"),
    encodeURIComponent("\u202e\u0000"),
    "%00",
    "conn_%00",
    "a%00b",
    "%25",
    "%2F",
    "a%2Fb",
    "%5C",
    "%0A",
    encodeURIComponent("' OR 1=1 --"),
    encodeURIComponent("{}"),
    encodeURIComponent("[object Object]"),
    "null",
    "0",
    "-1",
    "x".repeat(10_000),
    encodeURIComponent("é".repeat(1_600)), // 9,600 characters once encoded
  ];
  // Percent-escapes that do not decode to valid UTF-8.
  const INVALID_ESCAPES = ["%FF", "%C0%AF", "%ED%A0%80", "%E0%A4%A", "%", "%zz", "abc%"];

  const byIdCalls = (id: string) =>
    [
      ["GET", `/v1/connections/${id}`],
      ["GET", `/v1/connections/${id}?lookup_by=id`],
      ["GET", `/v1/connections/${id}?lookup_by=external_id`],
      ["DELETE", `/v1/connections/${id}`],
      ["GET", `/v1/connections/auth-links/${id}/status`],
      ["GET", `/v1/logs/${id}`],
    ] as const;

  for (const [title, list] of [
    ["unicode, emoji, NUL, slashes and 10k-character ids", WEIRD],
    ["percent-escapes that are not valid UTF-8", INVALID_ESCAPES],
  ] as const) {
    test(`by-id endpoints with ${title}: 404 or 400 with a JSON detail, never 5xx`, async () => {
      const problems: string[] = [];
      for (const id of list) {
        for (const [method, path] of byIdCalls(id)) {
          const res = method === "GET" ? await api.get(path) : await api.delete(path);
          const p = await problem(res, [400, 404], `${method} ${path.slice(0, 80)}`);
          if (p) problems.push(p);
        }
      }
      expect(problems).toEqual([]);
      // Nothing was deleted by any of it.
      await expectStatus(await api.get(`/v1/connections/${ids.connection}`), 200);
    });
  }

  test("an external_id with unicode and reserved characters round-trips through lookup_by=external_id", async () => {
    // Only the status endpoint can echo an auth link's external_id before OAuth completes.
    const externalId = "kunde/ü 💥?&#=%";
    const link = await expectStatus(
      await api.post("/v1/connections/auth-link", {
        data: { connection_type: "sandbox_oauth", external_id: externalId },
      }),
      200,
    );
    const status = await expectStatus(await api.get(`/v1/connections/auth-links/${link.id}/status`), 200);
    expect(status.external_id).toBe(externalId);
    // No connection carries it yet: a clean 404 (not a routing error).
    await expectStatus(await api.get(`/v1/connections/${encodeURIComponent(externalId)}?lookup_by=external_id`), 404);
    expect(
      await expectStatus(await api.get(`/v1/connections?external_id=${encodeURIComponent(externalId)}`), 200),
    ).toEqual([]);
  });
});

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One raw HTTP request (optionally on a given keep-alive agent); a chunked body of `chunkedBytes` when given. */
function rawRequest(options: {
  method: string;
  path: string;
  key: string;
  chunkedBytes?: number;
  agent?: http.Agent | false;
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(options.path, baseURL());
    const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
    if (options.chunkedBytes !== undefined)
      Object.assign(headers, { "content-type": "application/json", "transfer-encoding": "chunked" });
    const req = http.request({
      agent: options.agent ?? false,
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: options.method,
      headers,
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    if (options.chunkedBytes === undefined) return void req.end();
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const pump = () => {
      while (sent < options.chunkedBytes!) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

test.describe("request bodies", () => {
  const POSTS = ["/v1/connections", "/v1/connections/auth-link"];

  test("bodies that are not a JSON object are 400", async () => {
    const nested = "[".repeat(10_000) + "]".repeat(10_000);
    const nestedObject = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    const raw = [
      "",
      " ",
      "null",
      "[]",
      "123",
      '"str"',
      "true",
      "{",
      "{]",
      '{"connection_type":',
      "{'a':1}",
      "\u0000",
      "\ufeff{}",
      nested,
      nestedObject,
    ];
    const problems: string[] = [];
    const check = async (res: APIResponse, what: string) => {
      const p = await problem(res, [400], what);
      if (p) problems.push(p);
    };
    for (const path of POSTS) {
      for (const body of raw) {
        await check(
          await api.post(path, { headers: { "content-type": "application/json" }, data: body }),
          `${path} body ${JSON.stringify(body.slice(0, 20))}`,
        );
      }
      await check(await api.post(path), `${path} no body`);
      await check(await api.post(path, { form: { connection_type: "sandbox_key" } }), `${path} form body`);
      await check(
        await api.post(path, {
          headers: { "content-type": "application/json" },
          data: Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
        }),
        `${path} binary body`,
      );
    }
    expect(problems).toEqual([]);
  });

  test("deep nesting inside a field is 400", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const deepObj = '{"a":'.repeat(10_000) + '"x"' + "}".repeat(10_000);
    const bodies = [
      `{"connection_type":"sandbox_key","name":"n","credentials":{"api_key":${deep}}}`,
      `{"connection_type":"sandbox_key","name":"n","credentials":${deepObj}}`,
      `{"connection_type":"sandbox_key","name":${deep},"credentials":{"api_key":"k"}}`,
    ];
    for (const body of bodies)
      await expectStatus(
        await api.post("/v1/connections", { headers: { "content-type": "application/json" }, data: body }),
        400,
      );
    await expectStatus(
      await api.post("/v1/connections/auth-link", {
        headers: { "content-type": "application/json" },
        data: `{"connection_type":"sandbox_oauth","external_id":${deepObj}}`,
      }),
      400,
    );
  });

  test("a 2 MB body is 413 with a JSON detail", async () => {
    const big = JSON.stringify({ ...validConnection("big"), credentials: { api_key: "k".repeat(2 * 1024 * 1024) } });
    await expectStatus(
      await api.post("/v1/connections", { headers: { "content-type": "application/json" }, data: big }),
      413,
      "connections 2MB",
    );
    const bigLink = JSON.stringify({ connection_type: "sandbox_oauth", external_id: "e".repeat(2 * 1024 * 1024) });
    await expectStatus(
      await api.post("/v1/connections/auth-link", { headers: { "content-type": "application/json" }, data: bigLink }),
      413,
      "auth-link 2MB",
    );
  });

  test("a 2 MB body sent chunked (no Content-Length) is 413 too", async () => {
    for (const path of POSTS) {
      const res = await rawRequest({ method: "POST", path, key: team.users[0].key, chunkedBytes: 2 * 1024 * 1024 });
      expect(res.status, `${path}: ${res.body.slice(0, 200)}`).toBe(413);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toHaveProperty("detail");
    }
  });

  test("after a 413 on a kept-alive connection, the next request on it still gets an answer", async () => {
    // Either the server drains the body, or it says `Connection: close` and closes; it must not
    // announce keep-alive and then reset the next request on that connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await rawRequest({
        method: "POST",
        path: "/v1/connections/auth-link",
        key: team.users[0].key,
        chunkedBytes: 2 * 1024 * 1024,
        agent,
      });
      expect(big.status).toBe(413);
      // A body this size is read to its end and dropped, so the connection stays usable (and the
      // client, still sending, reads the 413 rather than a reset).
      expect(big.headers.connection).toBe("keep-alive");
      const next = await rawRequest({ method: "GET", path: "/v1/credits", key: team.users[0].key, agent }).catch(
        (e: Error) => ({
          status: 0,
          headers: {},
          body: `${e.message} (the 413 said connection: ${big.headers.connection})`,
        }),
      );
      expect(next.status, next.body).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  test("wrong field types on POST /v1/connections are 400 and store nothing", async () => {
    const before = await expectStatus(await api.get("/v1/connections"), 200);
    const base = validConnection("typed");
    const variants: [string, unknown][] = [
      ["name: 5", { ...base, name: 5 }],
      ["name: null", { ...base, name: null }],
      ["name: []", { ...base, name: [] }],
      ["name: {}", { ...base, name: {} }],
      ["name: true", { ...base, name: true }],
      ["name missing", { connection_type: base.connection_type, credentials: base.credentials }],
      ["name empty", { ...base, name: "" }],
      ['credentials: "x"', { ...base, credentials: "x" }],
      ["credentials: null", { ...base, credentials: null }],
      ["credentials: []", { ...base, credentials: [] }],
      ['credentials: ["k"]', { ...base, credentials: ["k"] }],
      ["credentials: 5", { ...base, credentials: 5 }],
      ["credentials missing", { connection_type: base.connection_type, name: base.name }],
      ["credentials {}", { ...base, credentials: {} }],
      ["credential value number", { ...base, credentials: { api_key: 5 } }],
      ["credential value null", { ...base, credentials: { api_key: null } }],
      ["credential value true", { ...base, credentials: { api_key: true } }],
      ["credential value object", { ...base, credentials: { api_key: { v: "k" } } }],
      ["credential value array", { ...base, credentials: { api_key: ["k"] } }],
      ["credential value empty", { ...base, credentials: { api_key: "" } }],
      ["credential missing field", { ...base, credentials: { token: "k" } }],
      ["credential extra field", { ...base, credentials: { api_key: "k", extra: "x" } }],
      ['is_private: "yes"', { ...base, is_private: "yes" }],
      ['is_private: "true"', { ...base, is_private: "true" }],
      ["is_private: 1", { ...base, is_private: 1 }],
      ["is_private: null", { ...base, is_private: null }],
      ["connection_type: 5", { ...base, connection_type: 5 }],
      ["connection_type: null", { ...base, connection_type: null }],
      ["connection_type empty", { ...base, connection_type: "" }],
      ["connection_type unknown", { ...base, connection_type: "no_such_type" }],
      ["connection_type 10k", { ...base, connection_type: "t".repeat(10_000) }],
      ["connection_type with NUL", { ...base, connection_type: "sandbox_key\u0000" }],
      ["connection_type missing", { name: base.name, credentials: base.credentials }],
      ["OAuth-only type", { ...base, connection_type: "sandbox_oauth", credentials: {} }],
      ["unknown top-level field", { ...base, colour: "red" }],
      [
        "__proto__ field",
        JSON.parse(
          `{"connection_type":"sandbox_key","name":"p","credentials":{"api_key":"k"},"__proto__":{"is_private":true}}`,
        ),
      ],
    ];
    const problems: string[] = [];
    for (const [label, data] of variants) {
      const p = await problem(await api.post("/v1/connections", { data: data as object }), [400], label);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
    expect(await expectStatus(await api.get("/v1/connections"), 200)).toEqual(before);
  });

  test("credential values the provider call cannot carry are 400, not 5xx", async () => {
    // Valid JSON strings that an HTTP header cannot hold (sandbox_key sends api_key as a header).
    const problems: string[] = [];
    for (const value of ["🔑", "ключ", "line\nbreak", "cr\rlf", "nul\u0000byte", "x".repeat(8192)]) {
      const res = await api.post("/v1/connections", {
        data: { ...validConnection("header-hostile"), credentials: { api_key: value } },
      });
      const p = await problem(res, [200, 400], `api_key ${JSON.stringify(value.slice(0, 20))}`);
      if (p) problems.push(p);
    }
    for (const field of ["client_id", "client_secret", "refresh_token"]) {
      const credentials = { client_id: "cid", client_secret: "cs", refresh_token: "rt", [field]: "🔑\u0000" };
      const res = await api.post("/v1/connections", {
        data: { connection_type: "sandbox_whitelabel", name: `hostile ${field}`, credentials },
      });
      const p = await problem(res, [200, 400], `sandbox_whitelabel ${field}`);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
  });

  test("a provider rejection is 400 with the provider's reason", async () => {
    const rejected = await expectStatus(
      await api.post("/v1/connections", { data: { ...validConnection("bad"), credentials: { api_key: "bad_key" } } }),
      400,
    );
    expect(String(rejected.detail)).toMatch(/api_key/);
    const expired = await expectStatus(
      await api.post("/v1/connections", {
        data: {
          connection_type: "sandbox_whitelabel",
          name: "expired",
          credentials: { client_id: "c", client_secret: "s", refresh_token: "bad_rt" },
        },
      }),
      400,
    );
    expect(String(expired.detail)).toMatch(/refresh_token/);
  });

  test("wrong field types on POST /v1/connections/auth-link are 400", async () => {
    const variants: [string, unknown][] = [
      ["connection_type: 5", { connection_type: 5 }],
      ["connection_type: null", { connection_type: null }],
      ["connection_type empty", { connection_type: "" }],
      ["connection_type unknown", { connection_type: "no_such_type" }],
      ["connection_type manual-only", { connection_type: "sandbox_key" }],
      ["connection_type missing", {}],
      ["redirect_url http", { ...validLink(), redirect_url: "http://example.com/done" }],
      ["redirect_url relative", { ...validLink(), redirect_url: "/done" }],
      ["redirect_url not a url", { ...validLink(), redirect_url: "not a url" }],
      ["redirect_url javascript", { ...validLink(), redirect_url: "javascript:alert(1)" }],
      ["redirect_url 5", { ...validLink(), redirect_url: 5 }],
      ["redirect_url null", { ...validLink(), redirect_url: null }],
      ["external_id 5", { ...validLink(), external_id: 5 }],
      ["external_id object", { ...validLink(), external_id: { a: 1 } }],
      ["external_id 256", { ...validLink(), external_id: "e".repeat(256) }],
      ['is_private "yes"', { ...validLink(), is_private: "yes" }],
      ["is_private 0", { ...validLink(), is_private: 0 }],
      ["unknown field", { ...validLink(), colour: "red" }],
    ];
    const problems: string[] = [];
    for (const [label, data] of variants) {
      const p = await problem(await api.post("/v1/connections/auth-link", { data: data as object }), [400], label);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
  });
});

test.describe("spec §8 limits on bodies", () => {
  test("connection name: 100 characters ok, 101 is 400", async () => {
    const ok = await expectStatus(await api.post("/v1/connections", { data: validConnection("n".repeat(100)) }), 200);
    expect(ok.display_name).toBe("n".repeat(100));
    await expectStatus(await api.post("/v1/connections", { data: validConnection("n".repeat(101)) }), 400);
    const accented = await expectStatus(
      await api.post("/v1/connections", { data: validConnection("é".repeat(100)) }),
      200,
    );
    expect(accented.display_name).toBe("é".repeat(100));
    await expectStatus(await api.post("/v1/connections", { data: validConnection("é".repeat(101)) }), 400);
  });

  test("connection name limit counts characters, not UTF-16 units", async () => {
    // 100 emoji are 100 characters (200 UTF-16 code units).
    const emoji = "😀".repeat(100);
    const ok = await expectStatus(
      await api.post("/v1/connections", { data: validConnection(emoji) }),
      200,
      "100 emoji",
    );
    expect(ok.display_name).toBe(emoji);
    await expectStatus(
      await api.post("/v1/connections", { data: validConnection("😀".repeat(101)) }),
      400,
      "101 emoji",
    );
  });

  test("external_id: 255 characters ok, 256 is 400", async () => {
    const id255 = "e".repeat(255);
    const link = await expectStatus(
      await api.post("/v1/connections/auth-link", { data: { ...validLink(), external_id: id255 } }),
      200,
    );
    expect((await expectStatus(await api.get(`/v1/connections/auth-links/${link.id}/status`), 200)).external_id).toBe(
      id255,
    );
    await expectStatus(
      await api.post("/v1/connections/auth-link", { data: { ...validLink(), external_id: "e".repeat(256) } }),
      400,
    );
    // The lookup side takes a 255-character external_id too.
    expect(await expectStatus(await api.get(`/v1/connections?external_id=${id255}`), 200)).toEqual([]);
    await expectStatus(await api.get(`/v1/connections/${id255}?lookup_by=external_id`), 404);
  });
});

test.describe("unknown paths and methods", () => {
  test("unknown /v1 paths are 404 with a JSON detail, with or without a key", async () => {
    const anon = await anonymous();
    const paths = [
      "/v1/nope",
      "/v1/connection",
      "/v1/Connections",
      "/v1/connections/x/y",
      "/v1/connections/auth-links/x",
      "/v1/connections/auth-links/x/status/y",
      "/v1/logs/x/y",
      "/v1/credits/x",
      "/v1/credits/logs/x",
      "/v1/v1/logs",
      "/v1/openapi.yaml",
      `/v1/${encodeURIComponent("💥")}`,
      `/v1/${"p".repeat(5_000)}`,
    ];
    const problems: string[] = [];
    for (const [who, client] of [
      ["key", api],
      ["anonymous", anon],
    ] as const) {
      for (const path of paths) {
        for (const method of ["GET", "POST", "DELETE", "PUT", "PATCH"]) {
          const res = await client.fetch(path, {
            method,
            data: method === "GET" || method === "DELETE" ? undefined : {},
          });
          const p = await problem(res, [404], `${who} ${method} ${path.slice(0, 60)}`);
          if (p) problems.push(p);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("the bare /v1 prefix is 404 with a JSON detail", async () => {
    const problems: string[] = [];
    for (const method of ["GET", "POST", "DELETE"]) {
      const p = await problem(await api.fetch("/v1", { method, maxRedirects: 0 }), [404], `${method} /v1`);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
  });

  test("methods an endpoint does not have give a 4xx JSON detail", async () => {
    const calls: [string, string][] = [
      ["PUT", "/v1/connections"],
      ["PATCH", "/v1/connections"],
      ["DELETE", "/v1/connections"],
      ["POST", "/v1/connections/types"],
      ["PUT", `/v1/connections/${ids.connection}`],
      ["PATCH", `/v1/connections/${ids.connection}`],
      ["POST", `/v1/connections/${ids.connection}`],
      ["GET", "/v1/connections/auth-link"],
      ["DELETE", `/v1/connections/auth-links/${ids.authLink}/status`],
      ["POST", "/v1/credits"],
      ["DELETE", "/v1/credits/logs"],
      ["POST", "/v1/logs"],
      ["DELETE", `/v1/logs/${ids.log}`],
    ];
    const problems: string[] = [];
    for (const [method, path] of calls) {
      const res = await api.fetch(path, { method, data: method === "GET" || method === "DELETE" ? undefined : {} });
      const p = await problem(res, [404, 405], `${method} ${path}`);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
    // Still there.
    await expectStatus(await api.get(`/v1/connections/${ids.connection}`), 200);
    await expectStatus(await api.get(`/v1/logs/${ids.log}`), 200);
  });
});
