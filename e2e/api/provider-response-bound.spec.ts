import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { test, expect } from "../fixtures";
import { startExtraServer } from "../support/extra-server";
import { bigqueryBehindMcpServer, textOf } from "../support/bigquery";

// Issue 45: providerFetch read a provider's whole answer into memory, however large. It now reads
// the body as a stream and gives up past PROVIDER_MAX_RESPONSE_BYTES (default 10 MiB), or before
// reading when the content-length says it would be larger; the run fails with a sentence naming the
// setting, as the tool's error, and nothing of the answer is kept. Against a server of its own with
// a 64 KiB bound, up only for this test (its workflow runner could take other tests' runs), and the
// Google stand-in's jobs.query over a table filled with long rows: a short query, a long answer.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Recorded = { method: string; path: string; status: number | null };

const LIMIT = 65_536;
const standIn = () => JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").bigquery as string;

/** Appends `rows` rows whose country is `country` to the account's analytics.events, at the stand-in itself. */
async function fillTable(account: string, project: string, rows: number, country: string) {
  const token = await fetch(`${standIn()}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: `rt_${account}`,
      client_id: "wl-client.apps.googleusercontent.com",
      client_secret: "GOCSPX-white-label",
    }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await fetch(`${standIn()}/bigquery/v2/projects/${project}/datasets/analytics/tables/events/insertAll`, {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    body: JSON.stringify({
      rows: Array.from({ length: rows }, (_, i) => ({ insertId: `fill-${i}`, json: { country, sessions: i } })),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ kind: "bigquery#tableDataInsertAllResponse" });
}

test("an answer past PROVIDER_MAX_RESPONSE_BYTES is the tool's error naming the setting, announced or streamed; a small one still runs", async () => {
  test.setTimeout(240_000);
  const {
    account,
    project,
    api,
    connectionId,
    server: mcp,
  } = await bigqueryBehindMcpServer({
    prefix: "bq-big",
    name: "Big answers",
  });

  // 400 rows of 250-character countries, streamed into the account's table at the stand-in: a
  // short query whose answer is about 110 KB.
  await fillTable(account, project, 400, "x".repeat(250));

  const server = await startExtraServer({ PROVIDER_MAX_RESPONSE_BYTES: String(LIMIT) });
  try {
    const client = new Client({ name: "patchbay-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", server.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${mcp.token}` } },
      }),
    );
    // Each call is a POST /mcp: a 5xx there would make the SDK throw instead of returning a result.
    const query = (sql: string) =>
      client.callTool({
        name: "run_operation",
        arguments: {
          operation_id: "bigquery.query",
          connection_id: connectionId,
          input: { project_id: project, query: sql, maximum_bytes_billed: 1_000_000_000, max_results: 1000 },
        },
      }) as Promise<CallToolResult>;
    const bound = `Google's answer was larger than 65,536 bytes (64 KiB), the limit of a provider's answer (PROVIDER_MAX_RESPONSE_BYTES)`;
    const events = `\`${project}.analytics.events\``;

    // The stand-in sends this one with its content-length: refused before the body is read.
    const announced = await query(`SELECT country FROM ${events}`);
    expect(announced.isError, JSON.stringify(announced).slice(0, 300)).toBe(true);
    expect(textOf(announced)).toMatch(
      new RegExp(
        `^${bound.replace(/[()]/g, "\\$&")}: it announced 1\\d\\d,\\d{3} bytes; it was not read further and nothing of it was stored\\.$`,
      ),
    );
    // This one in 16 KiB chunks without a length: refused once the bytes read pass the bound.
    const streamed = await query(`/* chunked */ SELECT country FROM ${events}`);
    expect(streamed.isError, JSON.stringify(streamed).slice(0, 300)).toBe(true);
    expect(textOf(streamed)).toBe(`${bound}; it was not read further and nothing of it was stored.`);

    const small = await query(`SELECT country FROM ${events} LIMIT 2`);
    expect(small.isError, textOf(small)).toBeFalsy();
    expect((small.structuredContent as Json).rows).toEqual([{ country: "DE" }, { country: "US" }]);
    await client.close();
  } finally {
    await server.stop();
  }

  // The stand-in answered both large queries in full (200): the bound is Patchbay's, not the provider's.
  const seen = (
    (await (await fetch(`${standIn()}/__stand-in/requests?${new URLSearchParams({ account })}`)).json()) as {
      requests: Recorded[];
    }
  ).requests.filter((r) => r.method === "POST" && r.path.endsWith("/queries"));
  expect(seen.map((r) => r.status)).toEqual([200, 200, 200]);

  // The runs are logged as errors with that sentence; nothing of the answer is stored, nothing charged.
  const logs = ((await (await api.get(`/v1/logs?source_id=${mcp.id}`)).json()).data as Json[]).filter(
    (l) => l.operation_id === "bigquery.query",
  );
  expect(logs.map((l) => l.status).sort()).toEqual(["error", "error", "success"]);
  for (const log of logs.filter((l) => l.status === "error")) {
    expect(JSON.stringify(log.output)).toContain("(PROVIDER_MAX_RESPONSE_BYTES)");
    expect(JSON.stringify(log.output)).not.toContain("x".repeat(250));
    expect(log.credits_used).toBe(0);
  }
});
