import { spawn } from "node:child_process";
import { test, expect, seedTeam, seed, apiAs, cli, cliWith, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";
import { startInstance } from "../support/instances";
import { root } from "../support/server";
import { inDatabase } from "../support/in-database";
import { createLink, connect as connectThroughLink } from "../support/oauth-flow";
import { FROM_PREFIX, heldRequests, releaseHeld } from "../support/stand-ins/stand-in-server";

// Issue 26: workflows that really run (CONTRACT §9), over real HTTP, the CLI and the provider
// stand-ins, on the run's database (SQLite, and PostgreSQL in CI): node logs and the one ledger
// entry of a run, retries then skipped nodes, refusal without credits, schedules once per slot
// across two instances, takeover after kill -9, connections deleted and rebound, and templates
// checked when a workflow is saved.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "workflows-pass-1";

async function connect(team: SeededTeam, body: Json): Promise<{ id: string }> {
  const res = await (await apiAs(team.users[0])).post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}
const sandbox = (team: SeededTeam, name: string) =>
  connect(team, {
    connection_type: "sandbox_key",
    name,
    credentials: { api_key: `sk-${name}-${Date.now()}-${Math.random()}` },
  });
const slack = (team: SeededTeam, token: string) =>
  connect(team, { connection_type: "slack", name: `Slack ${token}`, credentials: { bot_token: token } });

async function createWorkflow(team: SeededTeam, name: string, nodes: Json[], ...extra: string[]) {
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    name,
    "--nodes",
    JSON.stringify(nodes),
    ...extra,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return made.json as { id: string; name: string; active: boolean; next_run_at: number | null };
}

async function logsOfRun(team: SeededTeam, runId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runId}&limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  // Newest first: in node order they read oldest first (ties keep node order by metadata).
  return ((await res.json()).data as Json[]).sort((a, b) => a.started_at - b.started_at || a.id.localeCompare(b.id));
}

async function ledgerOf(team: SeededTeam, workflowId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${workflowId}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data;
}

const journal = async (type: string) => {
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}")[type] as string;
  return (
    (await (await fetch(`${base}/__stand-in/requests?method=POST`)).json()) as {
      requests: { path: string; headers: Record<string, string>; json: Json }[];
    }
  ).requests;
};

const runOf = (id: string) => seed<Json | null>("workflowRun", { id });

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

const REPORT_NOTE = (connectionId: string) => [
  {
    id: "report",
    label: "Sessions, last 7 days",
    operation_id: "sandbox.report",
    connection_id: connectionId,
    input: { metric: "sessions", days: 7, end_date: "{{run.date.yesterday}}" },
  },
  {
    id: "message",
    label: "Write the note",
    operation_id: "utility.format_text",
    input: { template: "{{nodes.report.output.total}} sessions to {{run.date.yesterday}}" },
  },
  {
    id: "note",
    label: "Save the note",
    operation_id: "sandbox.set_note",
    connection_id: connectionId,
    input: { note: "{{nodes.message.output.text}}" },
  },
];

test("a three-node run writes three logs with the spec's metadata, in node order, and one ledger entry of 1 + its nodes' credits", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const conn = await sandbox(team, "three");
  const wf = await createWorkflow(team, "Sessions to a note", REPORT_NOTE(conn.id));
  expect(wf).toEqual({
    id: expect.stringMatching(/^wf_/),
    name: "Sessions to a note",
    active: true,
    next_run_at: null,
    version: 1,
    trigger: { type: "manual" },
  });

  const done = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(done.code, JSON.stringify(done.json)).toBe(0);
  // sandbox.report 2 + format_text 0 + set_note 1, plus 1 for the run.
  expect(done.json).toEqual({ run_id: expect.stringMatching(/^run_/), status: "success", logs: 3, credits: 4 });

  const logs = await logsOfRun(team, done.json.run_id);
  expect(logs.map((l) => l.operation_id)).toEqual(["sandbox.report", "utility.format_text", "sandbox.set_note"]);
  for (const [i, log] of logs.entries()) {
    expect(log.status).toBe("success");
    expect(log.source).toEqual({ type: "workflow", id: wf.id, run_id: done.json.run_id, name: "Sessions to a note" });
    expect(log.metadata).toEqual({
      node_id: REPORT_NOTE(conn.id)[i].id,
      node_label: REPORT_NOTE(conn.id)[i].label,
      retry_attempts: 0,
      ...(i !== 1 && { connection_id: conn.id }),
    });
    if (i > 0) expect(log.started_at).toBeGreaterThanOrEqual(logs[i - 1].started_at);
  }
  expect(logs.map((l) => l.credits_used)).toEqual([2, 0, 1]);
  // The references were filled in: the note holds the report's total and yesterday's date.
  const total = logs[0].output.total;
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  expect(logs[0].input).toEqual({
    metric: "sessions",
    days: 7,
    end_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });
  expect([yesterday, new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)]).toContain(
    logs[0].input.end_date,
  );
  expect(logs[2].input).toEqual({ note: `${total} sessions to ${logs[0].input.end_date}` });
  expect(logs[2].output.note).toBe(`${total} sessions to ${logs[0].input.end_date}`);

  const ledger = await ledgerOf(team, wf.id);
  expect(ledger).toHaveLength(1);
  expect(ledger[0]).toMatchObject({
    credits_used: 4,
    service: { type: "workflow", id: wf.id, name: "Sessions to a note" },
  });

  // The dashboard's run history holds the same run, each node with its duration and output.
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const runs = (await (await session.get(`/api/dashboard/workflows/${wf.id}/runs`)).json()).runs as Json[];
  expect(runs.map((r) => [r.id, r.status, r.trigger, r.credits])).toEqual([[done.json.run_id, "success", "manual", 4]]);
  const detail = await (await session.get(`/api/dashboard/workflow-runs/${done.json.run_id}`)).json();
  expect(detail.nodes.map((n: Json) => [n.node_id, n.status, n.log_id])).toEqual(
    logs.map((l) => [l.metadata.node_id, "success", l.id]),
  );
  expect(detail.nodes[2].output).toEqual(logs[2].output);
});

test("a node that keeps failing is retried twice with backoff, ends the run with error, skips the rest and sends workflow.run_failed", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const hooks = await startReceiver();
  receivers.push(hooks);
  expect(
    (await cli("webhook", "create", "--team", team.id, "--url", hooks.url, "--events", "workflow.run_failed")).code,
  ).toBe(0);
  const token = `down-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const down = await slack(team, token);
  const wf = await createWorkflow(team, "Post while Slack is down", [
    {
      id: "text",
      label: "Write",
      operation_id: "utility.format_text",
      input: { template: "Hello on {{run.date.today}}" },
    },
    {
      id: "post",
      label: "Post to Slack",
      operation_id: "slack.post_message",
      connection_id: down.id,
      input: { channel: "general", text: "{{nodes.text.output.text}}" },
    },
    { id: "after", label: "After", operation_id: "utility.format_text", input: { template: "done" } },
    { id: "last", label: "Last", operation_id: "utility.format_text", input: { template: "done" } },
  ]);
  const done = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(done.json).toEqual({ run_id: expect.any(String), status: "error", logs: 4, credits: 1 });

  const logs = await logsOfRun(team, done.json.run_id);
  expect(logs.map((l) => [l.metadata.node_id, l.status, l.metadata.retry_attempts])).toEqual([
    ["text", "success", 0],
    ["post", "error", 2],
    ["after", "skipped", 0],
    ["last", "skipped", 0],
  ]);
  expect(logs[1].output.error).toMatch(/Slack/);
  // The provider received the write three times: the attempt and its two retries.
  const sent = (await journal("slack")).filter(
    (r) => r.path === "/api/chat.postMessage" && r.headers.authorization === `Bearer ${token}`,
  );
  expect(sent).toHaveLength(3);
  expect((await ledgerOf(team, wf.id)).map((e) => e.credits_used)).toEqual([1]);

  const [event] = await waitFor(() => (hooks.received.length ? hooks.received : null), 15_000, "workflow.run_failed");
  const body = JSON.parse(event.body);
  expect(body.type).toBe("workflow.run_failed");
  expect(body.data).toEqual({
    workflow: { id: wf.id, name: "Post while Slack is down" },
    run_id: done.json.run_id,
    failed_node_id: "post",
    error: logs[1].output.error,
  });
});

test("a run that starts without credits is refused: no log, no ledger entry, shown as refused", async () => {
  const team = await seedTeam({ password: PASSWORD, creditsLimit: 10 });
  const conn = await sandbox(team, "broke");
  const wf = await createWorkflow(team, "No credits", REPORT_NOTE(conn.id));
  await seed("charges", { team: team.id, charges: [{ credits: 10, type: "mcp" }] });
  const done = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(done.json).toEqual({ run_id: expect.any(String), status: "refused", logs: 0, credits: 0 });
  expect(await logsOfRun(team, done.json.run_id)).toEqual([]);
  expect(await ledgerOf(team, wf.id)).toEqual([]);
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const [run] = (await (await session.get(`/api/dashboard/workflows/${wf.id}/runs`)).json()).runs;
  expect(run).toMatchObject({ id: done.json.run_id, status: "refused", credits: 0, nodes: [] });
  expect(run.error).toMatch(/no credits left/);

  // With one credit left it starts, holding that credit (CONTRACT §13, which replaces §9's "may
  // overshoot"): its first node that costs credits finds nothing left once the hold is counted,
  // fails with "out of credits", and the run is charged its 1.
  expect((await cli("credits", "renew", "--team", team.id)).code).toBe(0);
  await seed("charges", { team: team.id, charges: [{ credits: 9, type: "mcp" }] });
  const short = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(short.json).toMatchObject({ status: "error", logs: 3, credits: 1 });
  const shortLogs = await logsOfRun(team, short.json.run_id);
  expect(shortLogs.map((l) => l.status)).toEqual(["error", "skipped", "skipped"]);
  expect(shortLogs[0].output.error).toContain("Out of credits");

  // With four left it runs whole (1 + 2 + 1), ending at 0, not below.
  expect((await cli("credits", "renew", "--team", team.id)).code).toBe(0);
  await seed("charges", { team: team.id, charges: [{ credits: 6, type: "mcp" }] });
  const whole = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(whole.json).toMatchObject({ status: "success", logs: 3, credits: 4 });
  expect((await (await (await apiAs(team.users[0])).get("/v1/credits")).json()).credits_remaining).toBe(0);
});

test("templates are checked when a workflow is saved; bad nodes, references and schedules are named; a member cannot activate writes", async () => {
  test.setTimeout(150_000); // sixteen CLI processes, one after another
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const conn = await sandbox(team, "checks");
  const other = await seedTeam();
  const foreign = await sandbox(other, "foreign");
  const bad = async (nodes: unknown, ...extra: string[]) => {
    const r = await cli(
      "workflow",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      "Bad",
      "--nodes",
      typeof nodes === "string" ? nodes : JSON.stringify(nodes),
      ...extra,
    );
    expect(r.code).toBe(1);
    expect(Object.keys(r.json)).toEqual(["error"]);
    return r.json.error as string;
  };
  const fmt = (id: string, template: string) => ({
    id,
    label: id,
    operation_id: "utility.format_text",
    input: { template },
  });
  expect(await bad("[{")).toMatch(/not JSON/);
  expect(await bad([{ id: "a", label: "A", operation_id: "nope.report", input: {} }])).toMatch(
    /no operation "nope.report"; closest: /,
  );
  expect(await bad([fmt("a", "{{nodes.b.output.text}}"), fmt("b", "x")])).toMatch(
    /refers to node b, which runs after this one/,
  );
  expect(await bad([fmt("a", "{{nodes.a.output.text}}")])).toMatch(/its own node a/);
  expect(await bad([fmt("a", "{{run.date.tomorrow}}")])).toMatch(/"\{\{run.date.tomorrow\}\}" is not a reference/);
  expect(await bad([fmt("a", "{{ process.env.SECRET }}")])).toMatch(/is not a reference/);
  expect(await bad([fmt("a", "x"), fmt("a", "y")])).toMatch(/nodes\[1\].id: a is used by an earlier node/);
  expect(
    await bad([{ id: "Bad-Id", label: "A", operation_id: "utility.format_text", input: { template: "x" } }]),
  ).toMatch(/--nodes: 0.id: must be 1-40 characters/);
  expect(
    await bad([
      { id: "r", label: "R", operation_id: "sandbox.report", connection_id: foreign.id, input: { metric: "sessions" } },
    ]),
  ).toMatch(/no connection .* that you can use in this team/);
  expect(
    await bad([
      {
        id: "r",
        label: "R",
        operation_id: "ga4.run_report",
        connection_id: conn.id,
        input: { property_id: "1", metrics: ["sessions"] },
      },
    ]),
  ).toMatch(/is a sandbox_key connection; ga4.run_report runs on ga4/);
  expect(await bad([{ id: "r", label: "R", operation_id: "sandbox.report", input: { metric: "sessions" } }])).toMatch(
    /runs on a .* connection; give one/,
  );
  expect(
    await bad([
      { id: "r", label: "R", operation_id: "sandbox.report", connection_id: conn.id, input: { metric: "visits" } },
    ]),
  ).toMatch(/nodes\[0\].input.metric/);
  expect(await bad([fmt("a", "x")], "--schedule", "61 * * * *")).toMatch(/schedule: .* not a valid cron expression/);
  expect(await bad([fmt("a", "x")], "--schedule", "0 9 * *")).toMatch(/five fields/);
  expect(await bad([fmt("a", "x")], "--schedule", "0 9 * * *", "--timezone", "Mars/Olympus")).toMatch(
    /not an IANA time zone/,
  );
  // A template reference in a typed field is checked at run time; the rest of the input now.
  const ok = await createWorkflow(
    team,
    "Typed later",
    [
      fmt("a", "7"),
      {
        id: "r",
        label: "R",
        operation_id: "sandbox.report",
        connection_id: conn.id,
        input: { metric: "sessions", days: "{{nodes.a.output.text}}" },
      },
    ],
    "--inactive",
  );
  expect(ok).toMatchObject({ active: false, next_run_at: null });

  // Dashboard: the same checks answer 400 with every problem; a member may save writes only inactive.
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const nodes = REPORT_NOTE(conn.id);
  await expectError(
    await member.post("/api/dashboard/workflows", { data: { name: "X", nodes: [fmt("a", "{{nope}}")] } }),
    400,
    "nodes[0].input.template",
  );
  // The schema's problems name a node the same way (not "nodes.0.label"), so the editor puts them on the field.
  await expectError(
    await member.post("/api/dashboard/workflows", { data: { name: "X", nodes: [{ ...fmt("a", "x"), label: " " }] } }),
    400,
    "nodes[0].label: is empty",
  );
  await expectError(
    await member.post("/api/dashboard/workflows", { data: { name: "Member writes", nodes } }),
    403,
    "Only a team owner can activate",
    "Save the note (sandbox.set_note) writes to",
  );
  const saved = await member.post("/api/dashboard/workflows", {
    data: { name: "Member writes", nodes, active: false },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const id = (await saved.json()).id;
  await expectError(
    await member.patch(`/api/dashboard/workflows/${id}`, { data: { active: true } }),
    403,
    "Only a team owner",
  );
  await expectError(
    await member.post(`/api/dashboard/workflows/${id}/runs`),
    403,
    "only a team owner can run it by hand",
  );
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const activated = await owner.patch(`/api/dashboard/workflows/${id}`, {
    data: { active: true, schedule: "30 2 * * *", timezone: "America/New_York" },
  });
  expect(activated.status(), await activated.text()).toBe(200);
  expect((await activated.json()).next_run_at).toBeGreaterThan(Date.now() / 1000);
  const preview = await (
    await owner.get("/api/dashboard/workflow-schedule?schedule=0%209%20*%20*%201&timezone=Europe%2FParis")
  ).json();
  expect(preview.next_runs).toHaveLength(5);
  for (const t of preview.next_runs) expect(new Date(t).getUTCDay()).toBe(1);
  await expectError(await owner.get("/api/dashboard/workflow-schedule?schedule=nope"), 400, "schedule");
  const audit = await (await owner.get("/api/dashboard/audit?action=workflow.update")).json();
  expect(JSON.stringify(audit)).toContain(id);
});

test("deleting a connection deactivates the workflows that use it, and says why; an API-key connection is rebound in one step", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const first = await sandbox(team, "old-key");
  const second = await sandbox(team, "new-key");
  const hourly = ["--schedule", "0 * * * *"];
  const rebound = await createWorkflow(team, "Rebound", REPORT_NOTE(first.id), ...hourly);
  const left = await createWorkflow(team, "Left alone", REPORT_NOTE(first.id), ...hourly);
  expect(rebound.next_run_at).toBeGreaterThan(Date.now() / 1000);

  const wrong = await slack(team, `xoxb-${Date.now()}-1-rebind`);
  const refused = await cli("workflow", "rebind", "--id", rebound.id, "--from", first.id, "--to", wrong.id);
  expect(refused.code).toBe(1);
  expect(refused.json.error).toMatch(/is a slack connection; node report \(sandbox.report\) runs on/);
  expect((await cli("workflow", "rebind", "--id", rebound.id, "--from", first.id, "--to", second.id)).json).toEqual({
    id: rebound.id,
    nodes_rebound: 2,
  });
  expect((await cli("workflow", "rebind", "--id", rebound.id, "--from", first.id, "--to", second.id)).json).toEqual({
    id: rebound.id,
    nodes_rebound: 0,
  });

  const api = await apiAs(team.users[0]);
  expect((await api.delete(`/v1/connections/${first.id}`)).status()).toBe(200);
  const list = (await cli("workflow", "list", "--team", team.id)).json.workflows as Json[];
  expect(list.find((w) => w.id === rebound.id)).toMatchObject({ active: true, schedule: "0 * * * *", timezone: null });
  expect(list.find((w) => w.id === left.id)).toEqual({
    id: left.id,
    name: "Left alone",
    active: false,
    schedule: "0 * * * *",
    timezone: null,
    next_run_at: null,
    version: 1,
    trigger: { type: "schedule", schedule: "0 * * * *", timezone: null },
  });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const page = await (await session.get(`/api/dashboard/workflows/${left.id}`)).json();
  expect(page.deactivated_reason).toMatch(/old-key .* was deleted/);
  expect(page.nodes[0].connection_problem).toMatch(/deleted/);
  // Activating it again is refused until its nodes use a connection that exists.
  await expectError(
    await session.patch(`/api/dashboard/workflows/${left.id}`, { data: { active: true } }),
    400,
    `no connection ${first.id}`,
  );
  const viaDashboard = await (
    await session.post(`/api/dashboard/workflows/${left.id}/rebind`, { data: { from: first.id, to: second.id } })
  ).json();
  expect(viaDashboard).toEqual({ id: left.id, nodes_rebound: 2 });
  expect((await session.patch(`/api/dashboard/workflows/${left.id}`, { data: { active: true } })).status()).toBe(200);

  const done = await cli("workflow", "run", "--id", rebound.id, "--wait");
  expect(done.json).toMatchObject({ status: "success", logs: 3 });
  expect((await logsOfRun(team, done.json.run_id))[0].metadata.connection_id).toBe(second.id);
});

test("a connection that needs re-authorization fails its node with that reason, and the workflow page says so", async () => {
  const team = await seedTeam({ password: PASSWORD });
  // An OAuth grant (an API key is never re-authorized: it is replaced and rebound).
  const api = await apiAs(team.users[0]);
  const link = await createLink(api, { connection_type: "slack" });
  await connectThroughLink(link, "slack", { account: `reauth-${Date.now()}` });
  const conn = {
    id: (await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json()).connection_id as string,
  };
  const wf = await createWorkflow(team, "Needs reauth", [
    { id: "channels", label: "Channels", operation_id: "slack.list_channels", connection_id: conn.id, input: {} },
    {
      id: "text",
      label: "Text",
      operation_id: "utility.format_text",
      input: { template: "{{nodes.channels.output.channels.0.name}}" },
    },
    {
      id: "post",
      label: "Post",
      operation_id: "slack.post_message",
      connection_id: conn.id,
      input: { channel: "general", text: "{{nodes.text.output.text}}" },
    },
  ]);
  await seed("needsReauth", { connection: conn.id });
  const done = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(done.json).toMatchObject({ status: "error", logs: 3, credits: 1 });
  const logs = await logsOfRun(team, done.json.run_id);
  expect(logs[0].output.error).toMatch(/needs to be re-authorized/);
  expect(logs[0].metadata.retry_attempts).toBe(0);
  expect(logs.slice(1).map((l) => l.status)).toEqual(["skipped", "skipped"]);
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const page = await (await session.get(`/api/dashboard/workflows/${wf.id}`)).json();
  expect(page.nodes[0].connection_problem).toMatch(/needs re-authorization/);
});

test("a cron schedule starts each slot once, within 15 s, with two instances", async () => {
  test.setTimeout(150_000);
  const second = await startInstance();
  try {
    const team = await seedTeam({ password: PASSWORD });
    const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await session.post("/api/dashboard/workflows", {
        data: {
          name: `Every minute ${i}`,
          nodes: [
            {
              id: "hello",
              label: "Hello",
              operation_id: "utility.format_text",
              input: { template: "slot of {{run.started_at}}" },
            },
          ],
          schedule: "* * * * *",
          timezone: "America/New_York",
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      ids.push((await res.json()).id);
    }
    const slot = Math.ceil(Date.now() / 60_000) * 60_000;
    const runsOf = async (id: string) =>
      (await (await session.get(`/api/dashboard/workflows/${id}/runs`)).json()).runs as Json[];
    // Until every workflow has its run of the slot (at most 16 s after it; read every 0.5 s),
    // then two more polls of both instances (1 s each): a second start would be there by then.
    const allStarted = async () =>
      (await Promise.all(ids.map(runsOf))).every((runs) => runs.some((r) => r.slot_at === slot));
    while (Date.now() < slot || (Date.now() < slot + 16_000 && !(await allStarted())))
      await new Promise((r) => setTimeout(r, 500));
    await new Promise((r) => setTimeout(r, 2_500));
    for (const id of ids) {
      const runs = await runsOf(id);
      const ofSlot = runs.filter((r) => r.slot_at === slot);
      expect(ofSlot, `runs of ${id}`).toHaveLength(1);
      expect(ofSlot[0].trigger).toBe("schedule");
      expect(ofSlot[0].started_at - slot).toBeLessThan(15_000);
      expect(runs.every((r) => r.slot_at !== null && r.slot_at % 60_000 === 0)).toBe(true);
      expect(new Set(runs.map((r) => r.slot_at)).size).toBe(runs.length);
    }
  } finally {
    await second.stop();
  }
});

test("a slot missed while no instance ran runs once when one is back (WORKFLOW_MISSED_SLOTS=run_once), and taking a slot is no edit", async () => {
  const HOUR = 3_600_000;
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  // Daily, at the hour half a day from now: no slot of its own comes due while the test runs.
  const hour = (new Date().getUTCHours() + 12) % 24;
  const made = await session.post("/api/dashboard/workflows", {
    data: {
      name: "Daily, missed",
      nodes: [{ id: "hello", label: "Hello", operation_id: "utility.format_text", input: { template: "hi" } }],
      schedule: `0 ${hour} * * *`,
      timezone: "UTC",
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { id, next_run_at: next } = await made.json();
  const read = async () => (await session.get(`/api/dashboard/workflows/${id}`)).json();
  const before = await read();
  // Its slots of the last three days went by with no instance running.
  const missed = next * 1000 - 3 * 24 * HOUR;
  await seed("missSlot", { workflow: id, at: missed });
  const runsOf = async () => (await (await session.get(`/api/dashboard/workflows/${id}/runs`)).json()).runs as Json[];
  await expect.poll(async () => (await runsOf()).length, { timeout: 15_000 }).toBe(1);
  const [run] = await runsOf();
  expect(run).toMatchObject({ trigger: "schedule", slot_at: missed });
  const after = await read();
  // The oldest missed slot ran once (not three); the schedule goes on from its next slot after
  // now, and moving it is bookkeeping: "changed" (updated_at) is still the person's last save.
  expect(after.next_run_at).toBe(next);
  expect(after.updated_at).toBe(before.updated_at);
  // A person's save still changes it.
  const renamed = await session.patch(`/api/dashboard/workflows/${id}`, { data: { name: "Daily, renamed" } });
  expect(renamed.status(), await renamed.text()).toBe(200);
  expect((await read()).updated_at > before.updated_at).toBe(true);
  expect(await runsOf()).toHaveLength(1);
});

test("the scheduler at a later instant: a slot found on time starts one run, one found late is skipped under WORKFLOW_MISSED_SLOTS=skip", async () => {
  const HOUR = 3_600_000;
  const team = await seedTeam({ password: PASSWORD });
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const make = async (name: string) => {
    const made = await session.post("/api/dashboard/workflows", {
      data: {
        name,
        nodes: [{ id: "hello", label: "Hello", operation_id: "utility.format_text", input: { template: "hi" } }],
        schedule: "0 0 1 1 *", // yearly: no slot of its own comes due while the test runs
        timezone: "UTC",
      },
    });
    expect(made.status(), await made.text()).toBe(200);
    return (await made.json()) as { id: string; next_run_at: number };
  };
  const onTime = await make("Yearly, on time");
  const late = await make("Yearly, found late");
  // Both slots are days ahead, so this server's own scheduler does not reach them: the scheduler
  // runs here, in a process of its own, at an instant a second after one slot and two days after
  // the other (PostgreSQL: the batch's slots in one round trip; SQLite: in one transaction).
  const now = Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR + HOUR / 2;
  await seed("missSlot", { workflow: onTime.id, at: now - 1000 });
  await seed("missSlot", { workflow: late.id, at: now - 2 * 24 * HOUR });
  const out = await inDatabase<{
    runs: { workflowId: string; slotAt: number; status: string }[];
    next: Record<string, number>;
  }>(
    `
    const scheduleDueWorkflows = pick(await import("./lib/workflows/runner.ts"), "scheduleDueWorkflows");
    await scheduleDueWorkflows(args.now, args.team);
    const runs = await db.workflowRun.findMany({ where: { teamId: args.team }, select: { workflowId: true, slotAt: true, status: true } });
    const wfs = await db.workflow.findMany({ where: { teamId: args.team }, select: { id: true, nextRunAt: true } });
    return { runs: runs.map((r) => ({ ...r, slotAt: Number(r.slotAt) })), next: Object.fromEntries(wfs.map((w) => [w.id, Number(w.nextRunAt)])) };
    `,
    { now, team: team.id },
    { ...process.env, WORKFLOW_MISSED_SLOTS: "skip" },
  );
  // One run, for the slot found on time (a second before `now`); none for the one two days late.
  expect(out.runs).toEqual([{ workflowId: onTime.id, slotAt: now - 1000, status: "queued" }]);
  // Both schedules go on from their next slot after that instant: the next New Year.
  const next = Date.UTC(new Date(now).getUTCFullYear() + 1, 0, 1);
  expect(out.next).toEqual({ [onTime.id]: next, [late.id]: next });
  for (const w of [onTime, late]) expect((await session.delete(`/api/dashboard/workflows/${w.id}`)).status()).toBe(200);
});

test("kill -9 in the middle of a run: another instance takes it over after its lease and continues at the node it was on", async () => {
  test.setTimeout(180_000); // a dozen CLI and seed processes on 2 shared cores
  const team = await seedTeam({ password: PASSWORD });
  const conn = await sandbox(team, "takeover");
  // A `hold…` token: the stand-in keeps the call unanswered until the test releases it, so the
  // kill lands while the node is in flight however fast or slow the machine is.
  const token = `hold-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const held = await slack(team, token);
  const wf = await createWorkflow(team, "Held read", [
    {
      id: "report",
      label: "Report",
      operation_id: "sandbox.report",
      connection_id: conn.id,
      input: { metric: "users", days: 3 },
    },
    {
      id: "channels",
      label: "Channels (held)",
      operation_id: "slack.list_channels",
      connection_id: held.id,
      input: {},
    },
    {
      id: "count",
      label: "Count",
      operation_id: "utility.format_text",
      input: { template: "{{nodes.report.output.total}} users, channels: {{nodes.channels.output.channels.0.name}}" },
    },
  ]);
  const { runId, first } = await runInChildThenKill(team, wf.id, token);
  // The run continues on an instance that is up (this run's server) once the 4 s lease lapses.
  const run = await waitFor(
    async () => {
      const r = await runOf(runId);
      return r && ["success", "error"].includes(r.status) ? r : null;
    },
    60_000,
    "the run to end after the takeover",
  );
  expect(run.status).toBe("success");
  expect(run.claims).toBeGreaterThan(1);
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["report", "success"],
    ["channels", "success"],
    ["count", "success"],
  ]);
  // The node that had finished was not run again: its log is the one written before the kill.
  expect(logs[0].id).toBe(first.id);
  expect(logs[0].completed_at).toBe(first.completed_at);
  expect(logs[2].output.text).toMatch(/^\d+ users, channels: general$/);
  expect((await ledgerOf(team, wf.id)).map((e) => e.credits_used)).toEqual([1 + 2 + 1]);
});

test("kill -9 while a write that is not safe to repeat was in flight: after the takeover it is not sent again, and the node says why", async () => {
  test.setTimeout(180_000); // a dozen CLI and seed processes on 2 shared cores
  const team = await seedTeam({ password: PASSWORD });
  const token = `hold-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const held = await slack(team, token);
  const wf = await createWorkflow(team, "Held post", [
    { id: "text", label: "Text", operation_id: "utility.format_text", input: { template: "Posted once" } },
    {
      id: "post",
      label: "Post",
      operation_id: "slack.post_message",
      connection_id: held.id,
      input: { channel: "general", text: "{{nodes.text.output.text}}" },
    },
    { id: "after", label: "After", operation_id: "utility.format_text", input: { template: "done" } },
  ]);
  // Killed once the post has reached Slack (the stand-in holds its answer): the write was sent.
  const { runId } = await runInChildThenKill(team, wf.id, token);
  const run = await waitFor(
    async () => {
      const r = await runOf(runId);
      return r && ["success", "error"].includes(r.status) ? r : null;
    },
    60_000,
    "the run to end after the takeover",
  );
  expect(run.status).toBe("error");
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["text", "success"],
    ["post", "error"],
    ["after", "skipped"],
  ]);
  expect(logs[1].output.error).toMatch(/not sent again/);
  // The stand-in journals a request when it arrives: the killed process's one, and no other.
  const sent = (await journal("slack")).filter(
    (r) => r.path === "/api/chat.postMessage" && r.headers.authorization === `Bearer ${token}`,
  );
  expect(sent).toHaveLength(1);
});

test("kill -9 in the middle of a loop with a write per item: after the takeover no item is written twice and none is lost", async () => {
  test.setTimeout(180_000); // a dozen CLI and seed processes on 2 shared cores
  const team = await seedTeam({ password: PASSWORD });
  const poster = await slack(team, `xoxb-loop-${Date.now()}`);
  // The third item's post is held by the stand-in (its text starts with the hold word) until the
  // test releases it: the kill lands while item 2 is in flight, after items 0 and 1 were posted.
  const hold = `hold-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const texts = [`one ${hold}`, `two ${hold}`, `${hold} three`, `four ${hold}`];
  const wf = await createWorkflow(team, "Post each", [
    {
      id: "rows",
      label: "Messages",
      operation_id: "utility.filter_rows",
      input: { rows: texts.map((text) => ({ text, keep: true })), field: "keep", equals: true },
    },
    {
      id: "post",
      label: "Post each",
      operation_id: "slack.post_message",
      connection_id: poster.id,
      for_each: "{{nodes.rows.output.rows}}",
      input: { channel: "general", text: "{{item.text}}" },
      continue_on_error: true,
    },
  ]);
  const { runId } = await runInChildThenKill(team, wf.id, hold);
  const run = await waitFor(
    async () => {
      const r = await runOf(runId);
      return r && ["success", "error"].includes(r.status) ? r : null;
    },
    60_000,
    "the run to end after the takeover",
  );
  expect(run.claims).toBeGreaterThan(1);
  const logs = await logsOfRun(team, runId);
  expect(logs.map((l) => [l.metadata.node_id, l.metadata.iteration ?? null, l.status])).toEqual([
    ["rows", null, "success"],
    ["post", 0, "success"],
    ["post", 1, "success"],
    ["post", 2, "error"],
    ["post", 3, "success"],
  ]);
  // The item in flight may have reached Slack: it is not sent again, and says so.
  expect(logs[3].output.error).toMatch(/not sent again/);
  expect(run.status).toBe("success");
  // Each item's post reached Slack exactly once: the ones before the kill were not repeated,
  // the one in flight not resent, the one after sent by the instance that took over.
  const sent = (await journal("slack"))
    .filter((r) => r.path === "/api/chat.postMessage" && String(r.json?.text ?? "").includes(hold))
    .map((r) => r.json.text);
  expect(sent.sort()).toEqual([...texts].sort());
});

test("a write that is not safe to repeat is not sent again when the provider gave no answer in time; a read is retried", async () => {
  test.setTimeout(120_000);
  const team = await seedTeam({ password: PASSWORD });
  const bases = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}") as Record<string, string>;
  const token = `hold-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const held = await slack(team, token);
  const wf = await createWorkflow(team, "Unanswered post", [
    {
      id: "post",
      label: "Post",
      operation_id: "slack.post_message",
      connection_id: held.id,
      input: { channel: "general", text: "Once" },
    },
  ]);
  // The CLI runs each run itself, and keeps it: with a lease far longer than the test, no server
  // takes the run over when a busy machine delays a renewal (a takeover would run the read again).
  // It gives up on an unanswered call after 2 s (10 s by default): what is asserted is that it gave up.
  const keepsItsRuns = { ...process.env, WORKFLOW_LEASE_SECONDS: "600", PROVIDER_TIMEOUT_MS: "2000" };
  try {
    // The stand-in holds the post until released: the runner gives up after PROVIDER_TIMEOUT_MS.
    const ran = await cliWith(keepsItsRuns, "workflow", "run", "--id", wf.id, "--wait");
    expect(ran.json.status).toBe("error");
    const logs = await logsOfRun(team, ran.json.run_id);
    expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([["post", "error"]]);
    expect(logs[0].output.error).toMatch(/no answer within/);
    // One post reached Slack, and no retry followed it.
    expect((await heldRequests(bases.slack, token, 1, 1_000)).arrived).toBe(1);
  } finally {
    await releaseHeld(bases.slack, token);
  }
  // A read on the same unanswering token is retried (MAX_RETRIES): reads are safe to repeat.
  const readToken = `hold-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const readHeld = await slack(team, readToken);
  const reader = await createWorkflow(team, "Unanswered read", [
    { id: "channels", label: "Channels", operation_id: "slack.list_channels", connection_id: readHeld.id, input: {} },
  ]);
  try {
    const ran = await cliWith(keepsItsRuns, "workflow", "run", "--id", reader.id, "--wait");
    expect(ran.json.status).toBe("error");
    expect((await heldRequests(bases.slack, readToken, 3, 1_000)).arrived).toBe(3);
  } finally {
    await releaseHeld(bases.slack, readToken);
  }
});

/**
 * `workflow run --wait` in a child process, killed with SIGKILL while its Slack call with the
 * `hold…` token `token` is in flight: once the stand-in has received it (it holds its answer
 * until released), whatever the machine's speed. Exact on three counts:
 * - the child runs the run: while it starts, the team's places under WORKFLOW_TEAM_CONCURRENCY are
 *   taken (seed occupyTeamRuns), so no server claims the queued run before the child does (the
 *   child claims it by ID), and the held call is checked to come from the child (`/__from/cli`);
 * - the child never gives up on the held call (PROVIDER_TIMEOUT_MS of 10 min instead of 10 s), so
 *   it is not sent twice however long the test takes to kill it;
 * - once it is dead the token is released and the team's places freed: the instance that takes
 *   the run over after its lease gets its answers at once.
 * `first`: the run's first log as it was at the kill.
 */
async function runInChildThenKill(team: SeededTeam, workflowId: string, token: string) {
  const bases = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}") as Record<string, string>;
  const occupied = await seed<{ workflow: string }>("occupyTeamRuns", { team: team.id });
  const env = {
    ...process.env,
    PROVIDER_BASE_URLS: JSON.stringify({ ...bases, slack: `${bases.slack}${FROM_PREFIX}cli` }),
    PROVIDER_TIMEOUT_MS: "600000",
  };
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "lib/cli/main.ts",
      "workflow",
      "run",
      "--id",
      workflowId,
      "--wait",
    ],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise((r) => child.once("exit", r));
  try {
    const held = await heldRequests(bases.slack, token, 1, 60_000).catch((e) => {
      throw new Error(`${(e as Error).message}; the child's output:\n${output}`);
    });
    child.kill("SIGKILL");
    await exited;
    expect(held.from, "the held call came from the child").toEqual(["cli"]);
    const [run] = await seed<Json[]>("workflowRuns", { workflow: workflowId });
    expect(run).toMatchObject({ status: "running", claims: 1 });
    const first = (await logsOfRun(team, run.id))[0];
    return { runId: run.id as string, first };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await releaseHeld(bases.slack, token);
    await seed("deleteWorkflow", { id: occupied.workflow });
  }
}
