import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { test, expect } from "../fixtures";
import { mcpClient } from "../support/mcp";
import { bigqueryBehindMcpServer, textOf } from "../support/bigquery";

// Issue 45, finding 1: a BigQuery "read" could delete. bigquery.query is a read (no approval, allowed
// on writes-off MCP servers), and its read-only gate lexed differently from GoogleSQL: a `--` comment
// ends at \r in GoogleSQL but not in the gate, and a quoted identifier takes escapes. Both payloads
// below reached jobs.query through run_operation on a writes-off server. Now the gate lexes as
// GoogleSQL does, and — what actually holds — every query is first dry-run as a query job
// (jobs.insert, dryRun) and run only when BigQuery itself reports statementType SELECT. Real HTTP
// against the run's server and the Google stand-in, whose journal shows what reached "BigQuery".

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Recorded = { method: string; path: string; json: Json | null; status: number | null };

const REVIEWER_PAYLOADS = [
  "SELECT 1 --x\r; DELETE FROM `p.d.t` WHERE true",
  "SELECT 1 AS `a\\``; DROP TABLE `p.d.t`; SELECT 1 AS `b`",
];

const standIn = () => {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").bigquery as string | undefined;
  expect(base, "a stand-in for bigquery").toBeTruthy();
  return base!;
};

/** What the stand-in received for `account`, oldest first. */
async function journal(account: string): Promise<Recorded[]> {
  const res = await fetch(`${standIn()}/__stand-in/requests?${new URLSearchParams({ account })}`);
  return ((await res.json()) as { requests: Recorded[] }).requests;
}
const queryJobs = (requests: Recorded[]) => requests.filter((r) => r.method === "POST" && r.path.endsWith("/queries"));
const dryRuns = (requests: Recorded[]) => requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"));

/** A BigQuery connection behind a writes-off MCP server, and its query tool. */
async function writesOffServer() {
  const { account, project, api, connectionId, server } = await bigqueryBehindMcpServer({
    prefix: "bq-ro",
    name: "Read-only analyst",
    writes: "off",
  });
  const client = await mcpClient(server.token);
  const query = (sql: string, extra: Json = {}) =>
    client.callTool({
      name: "run_operation",
      arguments: {
        operation_id: "bigquery.query",
        connection_id: connectionId,
        input: { project_id: project, query: sql, maximum_bytes_billed: 100_000_000, ...extra },
      },
    }) as Promise<CallToolResult>;
  return { account, project, query, api, serverId: server.id };
}

/** The stand-in's own dry run of `sql` (jobs.insert), as BigQuery would answer Patchbay's check. */
async function standInDryRun(account: string, project: string, sql: string): Promise<Json> {
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
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await fetch(`${standIn()}/bigquery/v2/projects/${project}/jobs`, {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json" },
    body: JSON.stringify({
      jobReference: { projectId: project },
      configuration: { dryRun: true, query: { query: sql, useLegacySql: false } },
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Json;
}

test("the reviewer's two payloads are refused through run_operation on a writes-off server, and no query job reaches BigQuery", async () => {
  const { account, project, query } = await writesOffServer();
  for (const sql of REVIEWER_PAYLOADS) {
    const result = await query(sql);
    expect(result.isError, JSON.stringify(result).slice(0, 500)).toBe(true);
    expect(textOf(result)).toContain("bigquery.query runs one statement");
  }
  const seen = await journal(account);
  expect(queryJobs(seen), "no jobs.query call").toEqual([]);
  for (const job of dryRuns(seen)) expect(job.json?.configuration?.dryRun).toBe(true);

  // Had the text check let them through, BigQuery's dry run reads both as scripts: they would still not run.
  for (const sql of REVIEWER_PAYLOADS) {
    const job = await standInDryRun(account, project, sql);
    expect(job.statistics.query.statementType, sql).toBe("SCRIPT");
    expect(job.status).toEqual({ state: "DONE" });
  }
  expect((await standInDryRun(account, project, "DELETE FROM `p.d.t` WHERE true")).statistics.query.statementType).toBe(
    "DELETE",
  );
  expect(queryJobs(await journal(account))).toEqual([]);
});

test("a query the text check passes but BigQuery reads as a DELETE or a script is refused by the dry run, which is all that reached BigQuery", async () => {
  const { account, project, query, api, serverId } = await writesOffServer();
  // The stand-in reports the statement type the comment names: a lexer rule the text check does not know.
  const looksLikeSelect = (kind: string) =>
    `/* stand-in statementType: ${kind} */ SELECT country FROM \`${project}.analytics.events\``;

  const asDelete = await query(looksLikeSelect("DELETE"));
  expect(asDelete.isError, JSON.stringify(asDelete).slice(0, 500)).toBe(true);
  expect(textOf(asDelete)).toBe(
    "bigquery.query runs read-only queries: BigQuery reads this statement as DELETE, not SELECT, so nothing was run.",
  );
  const asScript = await query(looksLikeSelect("SCRIPT"), { dry_run: true });
  expect(asScript.isError).toBe(true);
  expect(textOf(asScript)).toBe(
    "bigquery.query runs one read-only query: BigQuery reads this text as a script (several statements, or a procedural one), so nothing was run.",
  );

  const seen = await journal(account);
  expect(queryJobs(seen), "no jobs.query call").toEqual([]);
  const checks = dryRuns(seen);
  expect(checks.map((r) => [r.json?.configuration?.query?.query, r.json?.configuration?.dryRun, r.status])).toEqual([
    [looksLikeSelect("DELETE"), true, 200],
    [looksLikeSelect("SCRIPT"), true, 200],
  ]);

  // Both refusals are the tool's errors in the log, under the operation, with nothing charged.
  const logs = (await (await api.get(`/v1/logs?source_id=${serverId}`)).json()).data as Json[];
  const mine = logs.filter((l) => l.operation_id === "bigquery.query");
  expect(mine.map((l) => l.status)).toEqual(["error", "error"]);
  expect(mine.map((l) => l.credits_used)).toEqual([0, 0]);
});

test("a plain SELECT still runs and returns rows, after BigQuery's dry run read it as one SELECT; dry_run stops there", async () => {
  const { account, project, query } = await writesOffServer();
  const sql = `SELECT country, sessions FROM \`${project}.analytics.events\` WHERE country = 'DE'`;
  const result = await query(sql);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    project_id: project,
    dry_run: false,
    job_complete: true,
    total_rows: 2,
    schema: [
      { name: "country", type: "STRING", mode: "NULLABLE" },
      { name: "sessions", type: "INTEGER", mode: "NULLABLE" },
    ],
    rows: [
      { country: "DE", sessions: 120 },
      { country: "DE", sessions: 131 },
    ],
  });
  const planned = await query(`${sql} LIMIT 1`, { dry_run: true });
  expect(planned.isError, textOf(planned)).toBeFalsy();
  expect(planned.structuredContent).toEqual({
    project_id: project,
    dry_run: true,
    job_complete: true,
    job_id: null,
    location: "US",
    total_bytes_processed: 6_000_000,
    cache_hit: false,
    total_rows: null,
    schema: [
      { name: "country", type: "STRING", mode: "NULLABLE" },
      { name: "sessions", type: "INTEGER", mode: "NULLABLE" },
    ],
    rows: [],
    more_rows: false,
  });

  const seen = (await journal(account)).filter((r) => r.method === "POST");
  expect(seen.map((r) => r.path)).toEqual([
    `/bigquery/v2/projects/${project}/jobs`,
    `/bigquery/v2/projects/${project}/queries`,
    `/bigquery/v2/projects/${project}/jobs`,
  ]);
  expect(seen.map((r) => r.json?.configuration?.dryRun ?? r.json?.dryRun)).toEqual([true, false, true]);
});
