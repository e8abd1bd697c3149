import { test, expect, seedTeam, seed, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { waitForRun } from "../support/runs";
import { inDatabase } from "../support/in-database";

// Issue 48: workflows that decide (CONTRACT §13, rows conditions, stop, loops, errors, credits and
// approval step), through the dashboard API and the CLI, on the run's database (SQLite, and
// PostgreSQL in CI), against the sandbox provider: what each run logs, outputs, is charged and
// ends as.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "decisions-pass-1";
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

async function sandbox(user: SeededTeam["users"][number], name: string, extra: Json = {}): Promise<string> {
  const res = await (
    await apiAs(user)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${unique()}` }, ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}

type Session = Awaited<ReturnType<typeof sessionAs>>;

async function save(session: Session, body: Json): Promise<Json> {
  const res = await session.post("/api/dashboard/workflows", { data: { active: true, ...body } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function runNow(session: Session, id: string): Promise<string> {
  const res = await session.post(`/api/dashboard/workflows/${id}/runs`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).run_id;
}

/** Polls a run until it ends or parks at an approval. */
async function settled(runId: string, timeoutMs = 30_000): Promise<Json> {
  for (const until = Date.now() + timeoutMs; ;) {
    const run = await seed<Json | null>("workflowRun", { id: runId });
    if (run && ["success", "error", "refused", "stopped", "waiting_approval"].includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`run ${runId} did not settle: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function logsOfRun(team: SeededTeam, runId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runId}&limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  // Log ids are ordered by creation, and a run creates each step's log as it reaches it.
  return ((await res.json()).data as Json[]).sort((a, b) => a.id.localeCompare(b.id));
}

async function ledgerOfRun(team: SeededTeam, workflowId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${workflowId}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data;
}

const report = (connectionId: string, days = 3, extra: Json = {}) => ({
  id: "report",
  label: "Sessions",
  operation_id: "sandbox.report",
  connection_id: connectionId,
  input: { metric: "sessions", days, end_date: "2026-11-30" },
  ...extra,
});

test.describe.configure({ timeout: 120_000 });

test("conditions: a node runs only when its condition holds; a skipped node logs why, costs nothing, reads null, and later nodes run", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "cond");
  const wf = await save(owner, {
    name: "Only when sessions are high",
    nodes: [
      report(s),
      {
        id: "never",
        label: "Never runs",
        operation_id: "sandbox.report",
        connection_id: s,
        input: { metric: "users", days: 1 },
        when: { left: "{{nodes.report.output.total}}", op: "lt", right: 0 },
      },
      {
        id: "always",
        label: "Runs",
        operation_id: "utility.format_text",
        input: { template: "Total {{nodes.report.output.total}}; skipped node said {{nodes.never.output}}" },
        when: {
          all: [
            { left: "{{nodes.report.output.total}}", op: "gte", right: " 1 " },
            { left: "{{nodes.report.output.missing.field}}", op: "not_exists" },
            {
              any: [
                { left: "{{nodes.report.output.unit}}", op: "eq", right: "count" },
                { left: 1, op: "eq", right: "1" },
              ],
            },
            { not: { left: "{{nodes.report.output.rows}}", op: "contains", right: { date: "1999-01-01" } } },
          ],
        },
      },
      {
        id: "nested",
        label: "Reads a skipped node",
        operation_id: "utility.format_text",
        input: { template: "Value: {{nodes.never.output.rows.0.value}}; body {{trigger.body.amount}}" },
        when: { left: "{{nodes.never.output.total}}", op: "not_exists" },
      },
    ],
  });
  const runId = await runNow(owner, wf.id);
  const run = await waitForRun(runId);
  expect(run.status, run.error).toBe("success");
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["report", "success"],
    ["never", "skipped"],
    ["always", "success"],
    ["nested", "success"],
  ]);
  expect(logs[1]).toMatchObject({ output: { reason: "condition" }, credits_used: 0 });
  const total = logs[0].output.total;
  expect(logs[2].output).toEqual({ text: `Total ${total}; skipped node said null` });
  // A manual run has no trigger body: {{trigger.body…}} reads null.
  expect(logs[3].output).toEqual({ text: "Value: null; body null" });
  // 1 for the run + the one report that ran.
  expect(run.credits).toBe(1 + logs[0].credits_used);
  expect((await ledgerOfRun(team, wf.id)).map((e) => e.credits_used)).toEqual([run.credits]);
});

test("conditions are checked when saved: depth, a missing right, a later node, {{item}} outside a loop, approval on a read", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "checks");
  const deep = { not: { not: { not: { not: { not: { not: { left: 1, op: "eq", right: 1 } } } } } } };
  const res = await owner.post("/api/dashboard/workflows", {
    data: {
      name: "Bad",
      active: false,
      nodes: [
        { ...report(s), when: deep },
        {
          id: "b",
          label: "b",
          operation_id: "utility.format_text",
          input: { template: "{{item.value}}" },
          when: { left: "{{nodes.c.output.text}}", op: "gt" },
        },
        {
          id: "c",
          label: "c",
          operation_id: "sandbox.report",
          connection_id: s,
          input: { metric: "users", days: 1 },
          approval: "required",
          for_each: "rows: {{nodes.report.output.rows}}",
        },
      ],
    },
  });
  await expectError(
    res,
    400,
    "nodes[0].when.not.not.not.not.not: nests all/any/not more than 5 levels",
    'nodes[1].when.right: gt compares with a value; give "right"',
    "nodes[1].when.left: refers to node c, which runs after this one",
    "nodes[1].input.template: {{item.value}} stands only in the input or condition of a node with for_each",
    "nodes[2].approval: only a write waits for a person's approval; sandbox.report reads",
    "nodes[2].for_each: must be exactly one {{…}} reference to a list",
  );
  // A malformed condition's shape is refused by the schema, naming the field.
  await expectError(
    await owner.post("/api/dashboard/workflows", {
      data: { name: "Bad op", nodes: [{ ...report(s), when: { left: 1, op: "between", right: 2 } }] },
    }),
    400,
    "when",
  );
  // The CLI refuses the same.
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Bad",
    "--nodes",
    JSON.stringify([{ ...report(s), for_each: "{{item}}" }]),
  );
  expect(made.code).toBe(1);
  expect(made.json.error).toContain("nodes[0].for_each: {{item}} stands only in the input or condition");
});

test("loops: one log per item in order with iteration metadata, {{item}} values typed, filtered items skipped, the output a list with null for them; an empty list; too long or not a list fails before any item", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "loop");
  const wf = await save(owner, {
    name: "Each day",
    nodes: [
      report(s, 4),
      {
        id: "each",
        label: "Each day",
        operation_id: "utility.format_text",
        for_each: "{{nodes.report.output.rows}}",
        when: { left: "{{item_index}}", op: "ne", right: 1 },
        input: { template: "Day {{item_index}}: {{item.date}} had {{item.value}}", values: { v: "{{item.value}}" } },
      },
      {
        id: "after",
        label: "After",
        operation_id: "utility.format_text",
        input: { template: "Output: {{nodes.each.output}}" },
      },
      {
        id: "none",
        label: "Empty",
        operation_id: "utility.format_text",
        for_each: "{{nodes.report.output.rows.99}}",
        input: { template: "never" },
        continue_on_error: true,
      },
    ],
  });
  const runId = await runNow(owner, wf.id);
  const run = await waitForRun(runId);
  const logs = await logsOfRun(team, runId);
  const rows = logs[0].output.rows as Json[];
  const each = logs.filter((l) => l.metadata.node_id === "each");
  expect(each.map((l) => [l.metadata.iteration, l.metadata.iterations, l.status])).toEqual([
    [0, 4, "success"],
    [1, 4, "skipped"],
    [2, 4, "success"],
    [3, 4, "success"],
  ]);
  expect(each[1].output).toEqual({ reason: "condition" });
  expect(each[0].input).toEqual({
    template: `Day 0: ${rows[0].date} had ${rows[0].value}`,
    values: { v: rows[0].value },
  });
  expect(typeof each[0].input.values.v).toBe("number");
  const after = logs.find((l) => l.metadata.node_id === "after")!;
  expect(JSON.parse(after.output.text.replace("Output: ", ""))).toEqual([
    { text: `Day 0: ${rows[0].date} had ${rows[0].value}` },
    null,
    { text: `Day 2: ${rows[2].date} had ${rows[2].value}` },
    { text: `Day 3: ${rows[3].date} had ${rows[3].value}` },
  ]);
  // rows.99 is missing: a reference that is not a list fails the node before any item, without
  // an iteration; continue_on_error lets the run end well.
  const none = logs.filter((l) => l.metadata.node_id === "none");
  expect(none).toHaveLength(1);
  expect(none[0].status).toBe("error");
  expect(none[0].metadata.iteration).toBeUndefined();
  expect(run.status).toBe("success");

  // An empty list: one skipped log {reason: empty}, output [].
  const empty = await save(owner, {
    name: "Empty",
    nodes: [
      {
        id: "rows",
        label: "No rows",
        operation_id: "utility.filter_rows",
        input: { rows: [{ a: 1 }], field: "a", equals: 2 },
      },
      {
        id: "each",
        label: "Each",
        operation_id: "utility.format_text",
        for_each: "{{nodes.rows.output.rows}}",
        input: { template: "{{item.a}}" },
      },
      {
        id: "after",
        label: "After",
        operation_id: "utility.format_text",
        input: { template: "Output: {{nodes.each.output}}" },
      },
    ],
  });
  const emptyRun = await runNow(owner, empty.id);
  expect((await waitForRun(emptyRun)).status).toBe("success");
  const emptyLogs = await logsOfRun(team, emptyRun);
  expect(emptyLogs.map((l) => [l.metadata.node_id, l.status, l.output])).toEqual([
    ["rows", "success", { rows: [] }],
    ["each", "skipped", { reason: "empty" }],
    ["after", "success", { text: "Output: []" }],
  ]);

  // A reference that is not a list fails the node before any item, naming the value's type; with
  // continue_on_error the run goes on, and the next loop reads {"error"} as that node's output.
  const bad = await save(owner, {
    name: "Not a list",
    nodes: [
      report(s, 2),
      {
        id: "notlist",
        label: "Not a list",
        operation_id: "utility.format_text",
        for_each: "{{nodes.report.output.total}}",
        input: { template: "x" },
        continue_on_error: true,
      },
      {
        id: "after",
        label: "After",
        operation_id: "utility.format_text",
        input: { template: "It said {{nodes.notlist.output.error}}" },
      },
    ],
  });
  const badRun = await runNow(owner, bad.id);
  expect((await waitForRun(badRun)).status).toBe("success");
  const badLogs = await logsOfRun(team, badRun);
  expect(badLogs.map((l) => [l.metadata.node_id, l.metadata.iteration ?? null, l.status])).toEqual([
    ["report", null, "success"],
    ["notlist", null, "error"],
    ["after", null, "success"],
  ]);
  expect(badLogs[1].output.error).toContain("is a number, not a list");
  expect(badLogs[2].output.text).toContain("is a number, not a list");
});

test("a loop over more than WORKFLOW_MAX_ITERATIONS items fails before any item runs, naming the setting and the length", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "long");
  // A report has at most 366 rows: the 501 items are a literal list passed through filter_rows.
  const rows = Array.from({ length: 501 }, (_, i) => ({ i, keep: true }));
  const wf = await save(owner, {
    name: "Too long",
    nodes: [
      report(s, 1),
      { id: "rows", label: "Rows", operation_id: "utility.filter_rows", input: { rows, field: "keep", equals: true } },
      {
        id: "each",
        label: "Each",
        operation_id: "sandbox.report",
        connection_id: s,
        for_each: "{{nodes.rows.output.rows}}",
        input: { metric: "users", days: 1 },
      },
      { id: "after", label: "After", operation_id: "utility.format_text", input: { template: "after" } },
    ],
  });
  const runId = await runNow(owner, wf.id);
  const run = await waitForRun(runId);
  expect(run.status).toBe("error");
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["report", "success"],
    ["rows", "success"],
    ["each", "error"],
    ["after", "skipped"],
  ]);
  expect(logs[2].output.error).toContain("holds 501 items, more than the 500 a loop may run (WORKFLOW_MAX_ITERATIONS)");
  expect(logs[2].metadata.iteration).toBeUndefined();
  expect(logs[3].output).toBeNull();
  expect(run.credits).toBe(1 + logs[0].credits_used);
});

test("stop: flow.stop with a condition ends the run stopped, later nodes skipped with output null, charged 1 + what succeeded, no run_failed; in a loop it ends the run at that item", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "stop");
  const wf = await save(owner, {
    name: "Stop when quiet",
    nodes: [
      report(s, 3),
      {
        id: "quiet",
        label: "Nothing to report",
        operation_id: "flow.stop",
        input: { reason: "Sessions were {{nodes.report.output.total}}: nothing to report." },
        when: { left: "{{nodes.report.output.total}}", op: "gt", right: 0 },
      },
      {
        id: "post",
        label: "Post",
        operation_id: "sandbox.report",
        connection_id: s,
        input: { metric: "users", days: 1 },
      },
    ],
  });
  const runId = await runNow(owner, wf.id);
  const run = await waitForRun(runId).catch(async () => settled(runId));
  expect(run.status).toBe("stopped");
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.status, l.credits_used])).toEqual([
    ["report", "success", logs[0].credits_used],
    ["quiet", "stop", 0],
    ["post", "skipped", 0],
  ]);
  expect(logs[1].output).toEqual({ reason: `Sessions were ${logs[0].output.total}: nothing to report.` });
  expect(logs[2].output).toBeNull();
  expect(run.credits).toBe(1 + logs[0].credits_used);
  expect(run.failedNodeId).toBeNull();

  // In a loop: the stop at item 1 ends the run; items 2.. write nothing.
  const loop = await save(owner, {
    name: "Stop in a loop",
    nodes: [
      report(s, 4),
      {
        id: "each",
        label: "Each",
        operation_id: "flow.stop",
        for_each: "{{nodes.report.output.rows}}",
        when: { left: "{{item_index}}", op: "eq", right: 1 },
        input: { reason: "Stopped at {{item.date}}" },
      },
      { id: "after", label: "After", operation_id: "utility.format_text", input: { template: "x" } },
    ],
  });
  const loopRun = await runNow(owner, loop.id);
  expect((await settled(loopRun)).status).toBe("stopped");
  const loopLogs = await logsOfRun(team, loopRun);
  expect(loopLogs.map((l) => [l.metadata.node_id, l.metadata.iteration, l.status])).toEqual([
    ["report", undefined, "success"],
    ["each", 0, "skipped"],
    ["each", 1, "stop"],
    ["after", undefined, "skipped"],
  ]);

  // The CLI's --wait reports stopped.
  const waited = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(waited.code, JSON.stringify(waited.json)).toBe(0);
  expect(waited.json).toMatchObject({ status: "stopped", logs: 3 });
});

test("errors: continue_on_error keeps the run and the loop going with {error} as the output; without it a failed item ends the loop and the run", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "errors");
  // sandbox.report refuses days 0 (its stand-in answers 400): the item whose value is 0 fails.
  const items = [{ days: 1 }, { days: 0 }, { days: 2 }];
  const nodes = (flag: boolean) => [
    { id: "rows", label: "Items", operation_id: "utility.pick_fields", input: { rows: items, fields: ["days"] } },
    {
      id: "each",
      label: "Each",
      operation_id: "sandbox.report",
      connection_id: s,
      for_each: "{{nodes.rows.output.rows}}",
      input: { metric: "users", days: "{{item.days}}", end_date: "2026-11-30" },
      ...(flag && { continue_on_error: true }),
    },
    {
      id: "after",
      label: "After",
      operation_id: "utility.format_text",
      input: { template: "Second: {{nodes.each.output.1}}" },
    },
  ];
  const going = await save(owner, { name: "Keeps going", nodes: nodes(true) });
  const goingRun = await runNow(owner, going.id);
  const run1 = await waitForRun(goingRun);
  expect(run1.status, run1.error).toBe("success");
  const logs1 = await logsOfRun(team, goingRun);
  expect(logs1.map((l) => [l.metadata.node_id, l.metadata.iteration, l.status])).toEqual([
    ["rows", undefined, "success"],
    ["each", 0, "success"],
    ["each", 1, "error"],
    ["each", 2, "success"],
    ["after", undefined, "success"],
  ]);
  const failedSentence = logs1[2].output.error;
  expect(JSON.parse(logs1[4].output.text.replace("Second: ", ""))).toEqual({ error: expect.any(String) });
  expect(typeof failedSentence === "string" || typeof failedSentence === "object").toBe(true);
  expect(run1.credits).toBe(1 + logs1[1].credits_used + logs1[3].credits_used);

  const ends = await save(owner, { name: "Ends", nodes: nodes(false) });
  const endsRun = await runNow(owner, ends.id);
  const run2 = await waitForRun(endsRun);
  expect(run2.status).toBe("error");
  expect(run2.failedNodeId).toBe("each");
  const logs2 = await logsOfRun(team, endsRun);
  expect(logs2.map((l) => [l.metadata.node_id, l.metadata.iteration, l.status])).toEqual([
    ["rows", undefined, "success"],
    ["each", 0, "success"],
    ["each", 1, "error"],
    ["after", undefined, "skipped"],
  ]);
  expect(logs2[3].output).toBeNull();
});

test("credits: a run holds 1 + what it spent; before each costly item it stops with out of credits once the balance less every hold is used up, whatever continue_on_error says", async () => {
  const team = await seedTeam({ password: PASSWORD, creditsLimit: 4 });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "credits");
  const wf = await save(owner, {
    name: "Spends",
    nodes: [
      {
        id: "rows",
        label: "Items",
        operation_id: "utility.pick_fields",
        input: { rows: Array.from({ length: 8 }, (_, i) => ({ d: i + 1 })), fields: ["d"] },
      },
      {
        id: "each",
        label: "Each",
        operation_id: "sandbox.report",
        connection_id: s,
        for_each: "{{nodes.rows.output.rows}}",
        input: { metric: "users", days: "{{item.d}}", end_date: "2026-11-29" },
        continue_on_error: true,
      },
    ],
  });
  const runId = await runNow(owner, wf.id);
  const run = await waitForRun(runId);
  expect(run.status).toBe("error");
  const logs = await logsOfRun(team, runId);
  const each = logs.filter((l) => l.metadata.node_id === "each");
  // 4 credits, a report costs 2: the run holds 1; the first report leaves 4 - 3 = 1 > 0, so the
  // second runs (holding 5); the third finds nothing left: the team ends one report below zero.
  expect(each.map((l) => l.status)).toEqual(["success", "success", "error"]);
  expect(each.map((l) => l.credits_used)).toEqual([2, 2, 0]);
  expect(each[2].output.error).toContain("Out of credits");
  expect(run.credits).toBe(5);
  const balance = await (await apiAs(team.users[0])).get("/v1/credits");
  expect((await balance.json()).credits_remaining).toBe(-1);
});

test("approval step: a member activates and runs a workflow whose every write needs approval; each item files its own request after the previous one's decision; approve runs the write, reject stops the run", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = [
    await sessionAs(team.users[0].email, PASSWORD, team.id),
    await sessionAs(team.users[1].email, PASSWORD, team.id),
  ];
  const s = await sandbox(team.users[0], "approval");
  const nodes = (approval: boolean) => [
    report(s, 3),
    {
      id: "note",
      label: "Note each day",
      operation_id: "sandbox.set_note",
      connection_id: s,
      for_each: "{{nodes.report.output.rows}}",
      when: { left: "{{item_index}}", op: "ne", right: 1 },
      input: { note: "Day {{item.date}}: {{item.value}} sessions" },
      ...(approval && { approval: "required" }),
    },
    { id: "after", label: "After", operation_id: "utility.format_text", input: { template: "{{nodes.note.output}}" } },
  ];
  // Without approval a member may not activate it; with it on every write, they may.
  await expectError(
    await member.post("/api/dashboard/workflows", { data: { name: "No", active: true, nodes: nodes(false) } }),
    403,
    "Only a team owner can activate",
  );
  const wf = await save(member, { name: "Notes with approval", nodes: nodes(true) });
  expect(wf.active).toBe(true);
  const runId = await runNow(member, wf.id);
  let run = await settled(runId);
  expect(run.status).toBe("waiting_approval");
  expect(run.leaseUntil).toBeNull();

  const list = async () => (await cli("approval", "list", "--team", team.id)).json.approvals as Json[];
  let approvals = (await list()).filter((a) => a.run_id === runId);
  expect(approvals).toHaveLength(1);
  expect(approvals[0]).toMatchObject({
    status: "pending",
    operation_id: "sandbox.set_note",
    connection_id: s,
    mcp_server_id: null,
    workflow_id: wf.id,
    run_id: runId,
    requested_by: team.users[1].id,
  });
  // The approver sees which item the write is for.
  const detail = await (await owner.get(`/api/dashboard/approvals/${approvals[0].id}`)).json();
  expect(detail.workflow).toMatchObject({ id: wf.id, run_id: runId, node_id: "note", item: { index: 0, count: 3 } });
  expect(detail.workflow.item.value).toHaveProperty("date");

  const approved = await cli("approval", "approve", "--id", approvals[0].id, "--user", team.users[0].id);
  expect(approved.code, JSON.stringify(approved.json)).toBe(0);
  expect(approved.json).toEqual({ id: approvals[0].id, status: "succeeded" });

  // The run continues on its own (any instance) and parks again at item 2 (item 1 is filtered out).
  for (const until = Date.now() + 15_000; ;) {
    approvals = (await list()).filter((a) => a.run_id === runId);
    if (approvals.length === 2) break;
    expect(Date.now() < until, JSON.stringify(approvals)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
  }
  run = await settled(runId);
  expect(run.status).toBe("waiting_approval");
  const second = approvals.find((a) => a.status === "pending")!;
  const rejected = await cli("approval", "reject", "--id", second.id, "--user", team.users[0].id);
  expect(rejected.json).toEqual({ id: second.id, status: "rejected" });

  for (const until = Date.now() + 15_000; ;) {
    run = await seed<Json>("workflowRun", { id: runId });
    if (run.status === "stopped") break;
    expect(Date.now() < until, JSON.stringify(run)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
  }
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.metadata.iteration, l.status])).toEqual([
    ["report", undefined, "success"],
    ["note", 0, "success"],
    ["note", 1, "skipped"],
    ["note", 2, "stop"],
    ["after", undefined, "skipped"],
  ]);
  const first = approvals.find((a) => a.status === "succeeded")!;
  expect(logs[1].metadata).toMatchObject({ approval_id: first.id, approved_by: team.users[0].id });
  expect(logs[1].output).toMatchObject({ note: expect.stringContaining("Day ") });
  expect(logs[3].output).toEqual({ reason: "rejected" });
  // 1 + the report + the approved write; one ledger entry for the run, none for the approval.
  expect(run.credits).toBe(1 + logs[0].credits_used + logs[1].credits_used);
  const entries = await ledgerOfRun(team, wf.id);
  expect(entries).toHaveLength(1);
  expect(entries[0].credits_used).toBe(run.credits);
});

test("approval step: deactivating the workflow cancels the request it waits for, an expiry stops the run too; --wait returns when it parks", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const s = await sandbox(team.users[0], "cancel");
  const wf = await save(owner, {
    name: "Waits",
    nodes: [
      {
        id: "note",
        label: "Note",
        operation_id: "sandbox.set_note",
        connection_id: s,
        input: { note: "hello" },
        approval: "required",
      },
    ],
  });
  const waited = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(waited.code, JSON.stringify(waited.json)).toBe(0);
  expect(waited.json).toMatchObject({ status: "waiting_approval", logs: 1 });
  const runId = waited.json.run_id;
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: false } })).status()).toBe(200);
  let run: Json;
  for (const until = Date.now() + 15_000; ;) {
    run = await seed<Json>("workflowRun", { id: runId });
    if (run.status === "stopped") break;
    expect(Date.now() < until, JSON.stringify(run)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
  }
  const [approval] = (await cli("approval", "list", "--team", team.id)).json.approvals as Json[];
  expect(approval.status).toBe("cancelled");
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.status, l.output])).toEqual([["stop", { reason: "cancelled" }]]);
  expect(run.credits).toBe(1);

  // Expired: the request's time runs out (moved into the past in the database); within 15 s the
  // sweeper stores it expired and the run stops at that node.
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } })).status()).toBe(200);
  const again = await runNow(owner, wf.id);
  expect((await settled(again)).status).toBe("waiting_approval");
  const pending = ((await cli("approval", "list", "--team", team.id)).json.approvals as Json[]).find(
    (a) => a.run_id === again,
  )!;
  await inDatabase(
    `await db.approval.update({ where: { id: args.id }, data: { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) } });`,
    { id: pending.id },
  );
  for (const until = Date.now() + 20_000; ;) {
    run = await seed<Json>("workflowRun", { id: again });
    if (run.status === "stopped") break;
    expect(Date.now() < until, JSON.stringify(run)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect((await logsOfRun(team, again)).map((l) => [l.status, l.output])).toEqual([["stop", { reason: "expired" }]]);
});

test("consent in loops: a loop over a private connection's rows is its owner's: each item's log is private to them, a teammate cannot run it by hand, and an approval for an item is theirs to decide", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = [
    await sessionAs(team.users[0].email, PASSWORD, team.id),
    await sessionAs(team.users[1].email, PASSWORD, team.id),
  ];
  // The member's private sandbox: her workflow loops over its rows and writes a note per item.
  const mine = await sandbox(team.users[1], "nina-private", { is_private: true });
  const wf = await save(member, {
    name: "Nina's private loop",
    nodes: [
      report(mine, 2),
      {
        id: "each",
        label: "Each day",
        operation_id: "utility.format_text",
        for_each: "{{nodes.report.output.rows}}",
        input: { template: "{{item.date}}: {{item.value}}" },
      },
      {
        id: "note",
        label: "Note",
        operation_id: "sandbox.set_note",
        connection_id: mine,
        for_each: "{{nodes.report.output.rows}}",
        when: { left: "{{item_index}}", op: "eq", right: 0 },
        input: { note: "{{item.date}}" },
        approval: "required",
      },
    ],
  });
  // Another member (here the owner) may not run it by hand: it runs on Nina's private connection.
  await expectError(await owner.post(`/api/dashboard/workflows/${wf.id}/runs`), 403, "private connection");
  const runId = await runNow(member, wf.id);
  expect((await settled(runId)).status).toBe("waiting_approval");
  const [approval] = ((await cli("approval", "list", "--team", team.id)).json.approvals as Json[]).filter(
    (a) => a.run_id === runId,
  );
  // Only Nina decides a write to her private connection, and only she sees its item.
  const seenByOwner = await (await owner.get(`/api/dashboard/approvals/${approval.id}`)).json();
  expect(seenByOwner).toMatchObject({ redacted: true, can_approve: false, input: null });
  expect(seenByOwner.workflow.item).toBeNull();
  const ownerTries = await cli("approval", "approve", "--id", approval.id, "--user", team.users[0].id);
  expect(ownerTries.code).toBe(1);
  const seenByNina = await (await member.get(`/api/dashboard/approvals/${approval.id}`)).json();
  expect(seenByNina.workflow.item).toMatchObject({ index: 0, count: 2, value: { date: expect.any(String) } });
  const approved = await cli("approval", "approve", "--id", approval.id, "--user", team.users[1].id);
  expect(approved.json).toEqual({ id: approval.id, status: "succeeded" });
  const run = await waitForRun(runId);
  expect(run.status, run.error).toBe("success");
  // Every item's log is Nina's: the owner reads that it ran, not what it read or wrote.
  const read = async (user: SeededTeam["users"][number]) =>
    ((await (await apiAs(user)).get(`/v1/logs?source_run_id=${runId}&limit=100`)).json() as Promise<Json>).then((b) =>
      (b.data as Json[]).sort((a, b) => a.id.localeCompare(b.id)),
    );
  const asOwner = await read(team.users[0]);
  const asNina = await read(team.users[1]);
  expect(asOwner.map((l) => [l.metadata.node_id, l.metadata.iteration ?? null, l.status])).toEqual([
    ["report", null, "success"],
    ["each", 0, "success"],
    ["each", 1, "success"],
    ["note", 0, "success"],
    ["note", 1, "skipped"],
  ]);
  for (const l of asOwner) expect(l.input).toBeNull();
  expect(asNina[1].output.text).toMatch(/^\d{4}-\d{2}-\d{2}: \d+$/);
});
