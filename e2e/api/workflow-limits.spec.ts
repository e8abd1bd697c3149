import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, cli, hostWith, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { startExtraServer, type ExtraServer } from "../support/extra-server";

// Each test waits for runs of the niced workflow worker (see runNow).
test.describe.configure({ timeout: 240_000 });

// Finding 5 of "Consent that holds": bounded work per request. A 70 KB workflow whose
// utility.format_text template repeated a 30,000-character value 13,333 times stored a 400 MB log
// row on one Run now. Now a node's filled-in input, a utility's output and a stored log body each
// have a cap (README "Limits"), and saving refuses too many nodes or active schedules. Real HTTP
// against the run's server and database; settings the shared server must not have go to an extra
// server or to the CLI's own environment.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "workflow-limits-1";
const MIB = 1024 * 1024;
const fmt = (id: string, input: Json) => ({ id, label: `Node ${id}`, operation_id: "utility.format_text", input });

async function saveWorkflow(session: APIRequestContext, name: string, nodes: Json[]): Promise<string> {
  const res = await session.post("/api/dashboard/workflows", { data: { name, nodes } });
  expect(res.status(), (await res.text()).slice(0, 500)).toBe(200);
  return (await res.json()).id;
}

/**
 * The dashboard's Run now, then the run once it has ended. The wait is a safety net: the run is
 * the niced workflow worker's, which beside a CPU burner gets a small share of the machine.
 */
async function runNow(session: APIRequestContext, workflowId: string): Promise<Json> {
  const res = await session.post(`/api/dashboard/workflows/${workflowId}/runs`);
  expect(res.status(), await res.text()).toBe(200);
  const { run_id } = await res.json();
  let run: Json = {};
  await expect
    .poll(async () => (run = await (await session.get(`/api/dashboard/workflow-runs/${run_id}`)).json()).status, {
      timeout: 120_000,
    })
    .toMatch(/^(success|error)$/);
  return run;
}

async function logsOfRun(team: SeededTeam, runId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runId}&limit=100`);
  expect(res.status(), (await res.text()).slice(0, 500)).toBe(200);
  return ((await res.json()).data as Json[]).sort((a, b) => a.started_at - b.started_at || a.id.localeCompare(b.id));
}

/** GET /v1/logs/{id}: the log and the size of its answer. */
async function readLog(team: SeededTeam, id: string) {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs/${id}`);
  const text = await res.text();
  expect(res.status(), text.slice(0, 500)).toBe(200);
  return { log: JSON.parse(text) as Json, bytes: Buffer.byteLength(text) };
}

test("Run now on a template that repeats a large value: the node fails naming the cap, its log stays small, later nodes are skipped and the run costs 1 credit", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  // The finding scaled down: 400 references to a 30,000-character text would be 12 MB.
  const blowUp = { template: "{{nodes.big.output.text}}".repeat(400) };
  const id = await saveWorkflow(session, "Blow up", [
    fmt("big", { template: "x".repeat(30_000) }),
    fmt("blow", blowUp),
    fmt("after", { template: "done" }),
  ]);

  const run = await runNow(session, id);
  expect(run.status).toBe("error");
  expect(run.credits).toBe(1);
  const logs = await logsOfRun(team, run.id);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["big", "success"],
    ["blow", "error"],
    ["after", "skipped"],
  ]);
  const { log, bytes } = await readLog(team, logs[1].id);
  expect(log.output.error).toMatch(
    /^The input could not be filled in: input\.template: filling in its references makes the input larger than 1,048,576 bytes \(1 MiB\), the limit of a node's filled-in input \(WORKFLOW_TEMPLATE_MAX_BYTES\); it had reached 1,0\d\d,\d\d\d bytes at reference 35 of its 400 when it was stopped\.$/,
  );
  // What was stored is the node's input as saved, not its expansion: a few kilobytes.
  expect(log.input).toEqual(blowUp);
  expect(bytes).toBeLessThan(20_000);
  expect(run.error).toBe(log.output.error);

  const ledger = await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${id}`);
  expect((await ledger.json()).data.map((e: Json) => e.credits_used)).toEqual([1]);
});

test("a utility whose output would pass UTILITY_MAX_OUTPUT_BYTES fails while it builds, and says how far it got", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  // 5,000 placeholders of a 30,000-character value: 150 MB if it were built.
  const id = await saveWorkflow(session, "Placeholders", [
    fmt("big", { template: "y".repeat(30_000) }),
    fmt("many", { template: "{v}".repeat(5_000), values: { v: "{{nodes.big.output.text}}" } }),
  ]);
  const run = await runNow(session, id);
  expect(run.status).toBe("error");
  const logs = await logsOfRun(team, run.id);
  expect(logs[1].status).toBe("error");
  expect(logs[1].output.error).toMatch(
    /^utility\.format_text's output would be larger than 1,048,576 bytes \(1 MiB\), the limit of a utility's output \(UTILITY_MAX_OUTPUT_BYTES\); it had reached 1,0\d\d,\d\d\d bytes when it was stopped$/,
  );
  expect(run.credits).toBe(1);
});

test("too many nodes is refused when saved, naming WORKFLOW_MAX_NODES, on the dashboard and the CLI", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const nodes = (n: number) => Array.from({ length: n }, (_, i) => fmt(`n${i}`, { template: `step ${i}` }));
  await expectError(
    await session.post("/api/dashboard/workflows", { data: { name: "Too long", nodes: nodes(51) } }),
    400,
    "nodes: the workflow has 51 nodes; the limit is 50 per workflow (WORKFLOW_MAX_NODES)",
  );
  const ok = await session.post("/api/dashboard/workflows", { data: { name: "Just right", nodes: nodes(50) } });
  expect(ok.status(), await ok.text()).toBe(200);
  // Adding one more by an edit is refused the same way.
  await expectError(
    await session.patch(`/api/dashboard/workflows/${(await ok.json()).id}`, { data: { nodes: nodes(51) } }),
    400,
    "the workflow has 51 nodes; the limit is 50",
  );

  // The run's own settings in this worker, and a CLI process with a limit of 3.
  const small = hostWith({ ...process.env, WORKFLOW_MAX_NODES: "3" });
  const create = (run: typeof cli, n: number) =>
    run(
      "workflow",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      `CLI ${n}`,
      "--nodes",
      JSON.stringify(nodes(n)),
    );
  expect(await create(cli, 51)).toEqual({
    code: 1,
    json: { error: "nodes: the workflow has 51 nodes; the limit is 50 per workflow (WORKFLOW_MAX_NODES)" },
  });
  expect(await create(small.cli, 4)).toEqual({
    code: 1,
    json: { error: "nodes: the workflow has 4 nodes; the limit is 3 per workflow (WORKFLOW_MAX_NODES)" },
  });
  const three = await create(small.cli, 3);
  expect(three.code, JSON.stringify(three.json)).toBe(0);
  await small.close();
});

test("active scheduled workflows per team stop at WORKFLOW_MAX_ACTIVE_SCHEDULES: the CLI", async () => {
  const team = await seedTeam();
  // One CLI process with the limit, for all of the test's commands.
  const limited = hostWith({ ...process.env, WORKFLOW_MAX_ACTIVE_SCHEDULES: "2" });
  const create = (name: string, ...extra: string[]) =>
    limited.cli(
      "workflow",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      name,
      "--nodes",
      JSON.stringify([fmt("a", { template: "hi" })]),
      ...extra,
    );
  // A slot once a year: nothing here runs while the test does.
  const yearly = ["--schedule", "0 0 1 1 *", "--timezone", "UTC"];
  for (const name of ["One", "Two"]) expect((await create(name, ...yearly)).code).toBe(0);
  expect(await create("Three", ...yearly)).toEqual({
    code: 1,
    json: {
      error: expect.stringMatching(
        /^This team already has 2 active workflows with a schedule; the limit is 2 per team \(WORKFLOW_MAX_ACTIVE_SCHEDULES\)\./,
      ),
    },
  });
  // Inactive, or without a schedule, it is not counted.
  expect((await create("Three, inactive", ...yearly, "--inactive")).json).toMatchObject({
    active: false,
    next_run_at: null,
  });
  expect((await create("Manual", "--inactive")).code).toBe(0);
  expect((await create("Manual, active")).json).toMatchObject({ active: true, next_run_at: null });
  // Another team has its own count.
  const other = await seedTeam();
  const elsewhere = await limited.cli(
    "workflow",
    "create",
    "--team",
    other.id,
    "--user",
    other.users[0].id,
    "--name",
    "Other",
    "--nodes",
    JSON.stringify([fmt("a", { template: "hi" })]),
    ...yearly,
  );
  expect(elsewhere.code, JSON.stringify(elsewhere.json)).toBe(0);
  await limited.close();
});

test.describe("with small limits on another server", () => {
  let server: ExtraServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // Settings of saving only: this server's runner may run other tests' workflows, unchanged.
    server = await startExtraServer({ WORKFLOW_MAX_ACTIVE_SCHEDULES: "2", WORKFLOW_MAX_NODES: "3" });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("the dashboard refuses a third active schedule on create, activation and a new schedule (409), and names the setting", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id, server.baseUrl);
    const node = [fmt("a", { template: "hi" })];
    const scheduled = { schedule: "0 0 1 1 *", timezone: "UTC" };
    const make = (name: string, extra: Json = {}) =>
      session.post("/api/dashboard/workflows", { data: { name, nodes: node, ...extra } });
    const ids: string[] = [];
    for (const name of ["One", "Two"]) {
      const res = await make(name, scheduled);
      expect(res.status(), await res.text()).toBe(200);
      ids.push((await res.json()).id);
    }
    const setting = "the limit is 2 per team (WORKFLOW_MAX_ACTIVE_SCHEDULES)";
    await expectError(
      await make("Three", scheduled),
      409,
      "This team already has 2 active workflows with a schedule",
      setting,
    );
    const inactive = await make("Three, inactive", { ...scheduled, active: false });
    expect(inactive.status()).toBe(200);
    await expectError(
      await session.patch(`/api/dashboard/workflows/${(await inactive.json()).id}`, { data: { active: true } }),
      409,
      setting,
    );
    const manual = await make("Manual");
    expect(manual.status()).toBe(200);
    const manualId = (await manual.json()).id;
    await expectError(await session.patch(`/api/dashboard/workflows/${manualId}`, { data: scheduled }), 409, setting);
    // Editing one that is already running on a schedule is not a new one.
    const moved = await session.patch(`/api/dashboard/workflows/${ids[0]}`, { data: { schedule: "0 0 2 1 *" } });
    expect(moved.status(), await moved.text()).toBe(200);
    // Once one stops, another may start.
    expect((await session.patch(`/api/dashboard/workflows/${ids[1]}`, { data: { active: false } })).status()).toBe(200);
    const started = await session.patch(`/api/dashboard/workflows/${manualId}`, { data: scheduled });
    expect(started.status(), await started.text()).toBe(200);
    expect((await started.json()).next_run_at).toBeGreaterThan(Date.now() / 1000);
    // The nodes limit is this server's setting.
    await expectError(
      await make("Four nodes", { nodes: [0, 1, 2, 3].map((i) => fmt(`n${i}`, { template: "x" })) }),
      400,
      "the workflow has 4 nodes; the limit is 3 per workflow (WORKFLOW_MAX_NODES)",
    );
  });
});

test.describe("stored bodies", () => {
  test.describe.configure({ mode: "serial" });

  test("a node input stored over LOG_BODY_MAX_BYTES (1 MiB) is kept as a marker with its original size and its beginning", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
    // 900,000 characters saved as they are, plus 7 × 30,000 filled in (under the 1 MiB expansion cap): over 1 MiB stored.
    const pad = "p".repeat(900_000);
    const more = Array.from({ length: 7 }, () => "{{nodes.big.output.text}}");
    const id = await saveWorkflow(session, "Large input", [
      fmt("big", { template: "z".repeat(30_000) }),
      fmt("large", { template: "ok", values: { pad, more } }),
    ]);
    const run = await runNow(session, id);
    expect(run.status).toBe("success");
    const logs = await logsOfRun(team, run.id);
    const { log, bytes } = await readLog(team, logs[1].id);
    const original = Buffer.byteLength(
      JSON.stringify({ template: "ok", values: { pad, more: more.map(() => "z".repeat(30_000)) } }),
    );
    expect(original).toBeGreaterThan(MIB);
    expect(log.input).toEqual({
      truncated: true,
      original_bytes: original,
      limit_bytes: MIB,
      preview: expect.any(String),
    });
    // The beginning of the input's JSON (PostgreSQL's jsonb may have put the keys in another order).
    expect(log.input.preview.length).toBeGreaterThan(MIB - 200);
    expect(log.input.preview).toMatch(/^\{"(template|values)":/);
    expect(log.input.preview).toContain("p".repeat(100_000));
    expect(bytes).toBeLessThan(MIB + 4096);
    // The output was small: stored as it is.
    expect(log.output).toEqual({ text: "ok" });
  });

  test("an MCP call's input over LOG_BODY_MAX_BYTES is stored truncated, with its original size, and read back whole through GET /v1/logs/{id}", async () => {
    test.setTimeout(180_000);
    // Its own server, up only for this call: its runner could take other tests' runs meanwhile, and
    // 64 KiB is more than any of theirs stores (this group runs serially, so not the 1 MiB one above).
    const server = await startExtraServer({ LOG_BODY_MAX_BYTES: "65536" });
    const team = await seedTeam();
    const made = await cli("mcp", "create", "--team", team.id, "--user", team.users[0].id, "--name", "Limits agent");
    expect(made.code, JSON.stringify(made.json)).toBe(0);
    const client = new Client({ name: "patchbay-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", server.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${made.json.token}` } },
      }),
    );
    // Refused (this server has no connections), and logged like any MCP call, with its arguments as input.
    const args = { operation_id: "sandbox.report", connection_id: "conn_none", input: { note: "é".repeat(40_000) } };
    const result = await client.callTool({ name: "run_operation", arguments: args });
    expect(result.isError).toBe(true);
    await client.close();
    await server.stop();

    // Read back through the run's server: the same database.
    const list = await (await apiAs(team.users[0])).get("/v1/logs?source_type=mcp");
    const [entry] = (await list.json()).data as Json[];
    expect(entry.metadata.tool_name).toBe("run_operation");
    const { log, bytes } = await readLog(team, entry.id);
    const original = Buffer.byteLength(JSON.stringify(args));
    expect(log.input).toEqual({
      truncated: true,
      original_bytes: original,
      limit_bytes: 65536,
      preview: expect.stringMatching(/^\{"/),
    });
    expect(log.input.preview).toContain('"input":{"note":"éééé');
    expect(Buffer.byteLength(JSON.stringify(log.input))).toBeLessThanOrEqual(65536);
    expect(bytes).toBeLessThan(65536 + 4096);
  });
});
