import { test, expect, seedTeam, seed, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { waitForRun } from "../support/runs";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";

// "Consent that holds" (issue 31), findings 1, 2, 3 and 7, each through the routes it was found
// on and their neighbours (dashboard, CLI, /v1), on the run's database: an active workflow that
// writes runs only what an owner set running; a private connection is its owner's alone, at run
// time too; a shared connection does not turn private, or change account, under other people's
// workflows; concurrent runs hold their credits instead of all spending the same ones.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "consent-pass-1";
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

async function connect(user: SeededTeam["users"][number], body: Json): Promise<{ id: string }> {
  const res = await (await apiAs(user)).post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}
const sandbox = (user: SeededTeam["users"][number], name: string, extra: Json = {}) =>
  connect(user, { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${unique()}` }, ...extra });

const NOTE_NODES = (connectionId: string, note = "Written by the owner's workflow") => [
  {
    id: "report",
    label: "Sessions",
    operation_id: "sandbox.report",
    connection_id: connectionId,
    input: { metric: "sessions", days: 7 },
  },
  {
    id: "note",
    label: "Save the note",
    operation_id: "sandbox.set_note",
    connection_id: connectionId,
    input: { note },
  },
];

async function createWorkflow(team: SeededTeam, userIndex: number, name: string, nodes: Json[], ...extra: string[]) {
  const made = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[userIndex].id,
    "--name",
    name,
    "--nodes",
    JSON.stringify(nodes),
    ...extra,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  return made.json as { id: string; active: boolean };
}

/** Saves a workflow through the dashboard as the given session (faster than a CLI process each). */
async function saveAs(
  session: Awaited<ReturnType<typeof sessionAs>>,
  body: Json,
): Promise<{ id: string; active: boolean }> {
  const res = await session.post("/api/dashboard/workflows", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

// Each test starts servers' CLIs and waits for runs on 2 shared cores.
test.describe.configure({ timeout: 180_000 });

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

test("finding 1: a member cannot redirect, reschedule or re-node an active workflow an owner set writing, on any path; stopping it is always allowed", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = [
    await sessionAs(team.users[0].email, PASSWORD, team.id),
    await sessionAs(team.users[1].email, PASSWORD, team.id),
  ];
  const s1 = await sandbox(team.users[0], "s1");
  const s2 = await sandbox(team.users[0], "s2");
  const wf = await createWorkflow(team, 0, "Owner's note", NOTE_NODES(s1.id));
  expect(wf.active).toBe(true);

  // The penetration test's requests, now refused.
  await expectError(
    await member.post(`/api/dashboard/workflows/${wf.id}/rebind`, { data: { from: s1.id, to: s2.id } }),
    403,
    "only a team owner can change its connections",
    "Deactivate it first",
  );
  await expectError(
    await member.patch(`/api/dashboard/workflows/${wf.id}`, { data: { schedule: "* * * * *" } }),
    403,
    "only a team owner can change its schedule",
  );
  await expectError(
    await member.patch(`/api/dashboard/workflows/${wf.id}`, { data: { nodes: NOTE_NODES(s2.id) } }),
    403,
    "only a team owner can change its nodes",
  );
  const unchanged = await (await owner.get(`/api/dashboard/workflows/${wf.id}`)).json();
  expect(unchanged).toMatchObject({ active: true, schedule: null });
  expect(unchanged.nodes.map((n: Json) => n.connection_id)).toEqual([s1.id, s1.id]);

  // A rename changes nothing that runs; a stop is always allowed. Once stopped, the member may
  // edit, but only an owner sets it running again.
  expect(
    (await member.patch(`/api/dashboard/workflows/${wf.id}`, { data: { name: "Renamed by a member" } })).status(),
  ).toBe(200);
  expect((await member.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: false } })).status()).toBe(200);
  const rebound = await member.post(`/api/dashboard/workflows/${wf.id}/rebind`, { data: { from: s1.id, to: s2.id } });
  expect(rebound.status(), await rebound.text()).toBe(200);
  await expectError(
    await member.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } }),
    403,
    "Only a team owner can activate",
  );
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } })).status()).toBe(200);

  // The CLI's rebind acts as the workflow's creator: a member's write workflow that an owner
  // activated is not re-pointed through it either.
  const membersOwn = await createWorkflow(team, 1, "Member's note", NOTE_NODES(s1.id), "--inactive");
  expect((await owner.patch(`/api/dashboard/workflows/${membersOwn.id}`, { data: { active: true } })).status()).toBe(
    200,
  );
  const viaCli = await cli("workflow", "rebind", "--id", membersOwn.id, "--from", s1.id, "--to", s2.id);
  expect(viaCli.code).toBe(1);
  expect(viaCli.json.error).toMatch(/only a team owner can change its connections/);
  // An owner's change goes through, on either path.
  expect((await cli("workflow", "rebind", "--id", wf.id, "--from", s2.id, "--to", s1.id)).json).toEqual({
    id: wf.id,
    nodes_rebound: 2,
  });
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { schedule: "0 9 * * *" } })).status()).toBe(
    200,
  );
});

test("finding 1: a run executes the definition it was queued with, whatever is saved after", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandbox(team.users[0], "snapshot");
  const wf = await createWorkflow(team, 0, "Snapshot", NOTE_NODES(conn.id, "the queued definition"));
  const queued = await cli("workflow", "run", "--id", wf.id);
  expect(queued.code).toBe(0);
  const state = await seed<Json>("runState", { id: queued.json.run_id });
  expect(state.nodes.map((n: Json) => n.input)).toEqual([
    { metric: "sessions", days: 7 },
    { note: "the queued definition" },
  ]);
  // An edit between queueing and claiming: the queued run still writes what was queued.
  expect(
    (
      await owner.patch(`/api/dashboard/workflows/${wf.id}`, {
        data: { nodes: NOTE_NODES(conn.id, "an edit after it was queued") },
      })
    ).status(),
  ).toBe(200);
  expect((await waitForRun(queued.json.run_id)).status).toBe("success");
  const logs = (await (await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${queued.json.run_id}`)).json())
    .data as Json[];
  expect(logs.find((l) => l.operation_id === "sandbox.set_note")?.output).toMatchObject({
    note: "the queued definition",
  });
});

test("finding 2: a private connection's workflow is its owner's, and stops when she leaves; an owner can always stop a workflow", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 3 });
  const [o, m, n] = team.users;
  const [owner, member, nina] = [
    await sessionAs(o.email, PASSWORD, team.id),
    await sessionAs(m.email, PASSWORD, team.id),
    await sessionAs(n.email, PASSWORD, team.id),
  ];
  const hooks = await startReceiver();
  receivers.push(hooks);
  expect(
    (await cli("webhook", "create", "--team", team.id, "--url", hooks.url, "--events", "workflow.deactivated")).code,
  ).toBe(0);
  const pn = await sandbox(n, "nina-private", { is_private: true });
  const reads = [
    {
      id: "report",
      label: "Nina's sessions",
      operation_id: "sandbox.report",
      connection_id: pn.id,
      input: { metric: "sessions", days: 7 },
    },
  ];
  const wf = await createWorkflow(team, 2, "Nina's report", reads, "--schedule", "0 9 * * *");

  // Run now and the run's details belong to the connection's owner.
  await expectError(
    await member.post(`/api/dashboard/workflows/${wf.id}/runs`),
    403,
    "private connection",
    "only its owner can run it by hand",
  );
  await expectError(await owner.post(`/api/dashboard/workflows/${wf.id}/runs`), 403, "only its owner");
  const started = await nina.post(`/api/dashboard/workflows/${wf.id}/runs`);
  expect(started.status(), await started.text()).toBe(200);
  const runId = (await started.json()).run_id as string;
  expect((await waitForRun(runId)).status).toBe("success");
  const hers = await (await nina.get(`/api/dashboard/workflow-runs/${runId}`)).json();
  expect(hers.redacted).toBeNull();
  expect(hers.nodes[0].output).toMatchObject({ total: expect.any(Number) });
  const theirs = await (await member.get(`/api/dashboard/workflow-runs/${runId}`)).json();
  expect(theirs.redacted).toMatch(/teammate's private connection \(sandbox_key\)/);
  expect(theirs.nodes[0]).toMatchObject({ status: "success", input: null, output: null });
  // The same run's logs: the team sees that it ran, only Nina what it read (API key and session alike).
  const logsAs = async (user: SeededTeam["users"][number]) =>
    ((await (await (await apiAs(user)).get(`/v1/logs?source_run_id=${runId}`)).json()).data as Json[])[0];
  expect(await logsAs(n)).toMatchObject({
    status: "success",
    input: { metric: "sessions", days: 7 },
    output: { total: expect.any(Number) },
  });
  for (const other of [
    await logsAs(m),
    await logsAs(o),
    ((await (await member.get(`/v1/logs?source_run_id=${runId}`)).json()).data as Json[])[0],
  ]) {
    expect(other).toMatchObject({
      status: "success",
      input: null,
      output: { redacted: expect.stringContaining("private connection") },
    });
  }
  const one = await (await (await apiAs(m)).get(`/v1/logs/${(await logsAs(n)).id}`)).json();
  expect(one).toMatchObject({ input: null, output: { redacted: expect.any(String) } });
  // Its problems name it by type only.
  await seed("needsReauth", { connection: pn.id });
  const listed = JSON.stringify(await (await member.get("/api/dashboard/workflows")).json());
  expect(listed).toContain("a teammate's private sandbox_key connection");
  expect(listed).not.toContain("nina-private");

  // An owner stops any workflow, even one on a connection she cannot see (this was a 400).
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: false } })).status()).toBe(200);
  expect((await nina.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } })).status()).toBe(200);

  // Nina leaves: her workflow stops at once, with the reason, an audit event and a webhook.
  const removed = await owner.delete(`/api/dashboard/members/${n.id}`);
  expect(removed.status(), await removed.text()).toBe(200);
  const after = await (await owner.get(`/api/dashboard/workflows/${wf.id}`)).json();
  expect(after.active).toBe(false);
  expect(after.deactivated_reason).toContain(`${n.email} left the team`);
  const event = await waitFor(() => hooks.received.find((r) => JSON.parse(r.body).type === "workflow.deactivated"));
  expect(JSON.parse(event.body).data).toEqual({
    workflow: { id: wf.id, name: "Nina's report" },
    reason: after.deactivated_reason,
  });
  const audit = await (await owner.get("/api/dashboard/audit?action=workflow.deactivate")).json();
  expect(JSON.stringify(audit)).toContain(wf.id);
  // Nobody can set it running again on her connection, and a run the operator forces fails at
  // run time without reaching the provider.
  await expectError(
    await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } }),
    400,
    "no connection",
  );
  const forced = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(forced.json).toMatchObject({ status: "error", credits: 1 });
  expect((await seed<Json>("runState", { id: forced.json.run_id })).steps[0].error).toContain("left the team");
});

test("finding 2: a workflow on a private connection runs only in its owner's workflow, checked when it runs", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const pn = await sandbox(team.users[1], "private-elsewhere", { is_private: true });
  // Saving refuses it (the bind rule); a row that holds it anyway (written around the checks)
  // fails at run time.
  const refused = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Not hers",
    "--nodes",
    JSON.stringify([
      { id: "r", label: "R", operation_id: "sandbox.report", connection_id: pn.id, input: { metric: "sessions" } },
    ]),
  );
  expect(refused.code).toBe(1);
  const wf = await seed<{ id: string }>("workflowWithNodes", {
    team: team.id,
    createdBy: team.users[0].id,
    nodes: [
      {
        id: "r",
        label: "R",
        operation_id: "sandbox.report",
        connection_id: pn.id,
        input: { metric: "sessions", days: 7 },
      },
    ],
  });
  const run = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(run.json).toMatchObject({ status: "error", logs: 1, credits: 1 });
  expect((await seed<Json>("runState", { id: run.json.run_id })).steps[0].error).toMatch(
    /private to another member, and a private connection runs only in its owner's own workflows/,
  );
});

test("finding 3: a shared connection does not turn private under other people's workflows, and a member's new credentials stop the writes on it", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [o, m] = team.users;
  const owner = await sessionAs(o.email, PASSWORD, team.id);
  const name = `Brand ${unique()}`;
  const creds = (who: string) => ({
    client_id: `client-${who}-${unique()}`,
    client_secret: `secret-${who}-${unique()}`,
    refresh_token: `refresh-${who}-${unique()}`,
  });
  const shared = await connect(o, { connection_type: "sandbox_whitelabel", name, credentials: creds("owner") });
  const wf = await saveAs(owner, { name: "Owner writes to Brand", nodes: NOTE_NODES(shared.id) });
  expect(wf.active).toBe(true);

  // Re-posting it private with her own credentials: refused while the owner's workflow uses it.
  const privateRepost = await (
    await apiAs(m)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_whitelabel", name, credentials: creds("member"), is_private: true },
  });
  await expectError(privateRepost, 400, "cannot become private", "Owner writes to Brand");
  // The same through an MCP server of the owner's that holds it.
  const other = await connect(o, {
    connection_type: "sandbox_whitelabel",
    name: `${name} 2`,
    credentials: creds("owner"),
  });
  const server = await seed<{ id: string }>("mcpServer", { team: team.id, name: "Owner's server", owner: o.id });
  await seed("mcpServerConnections", { server: server.id, connections: [other.id] });
  await expectError(
    await (
      await apiAs(m)
    ).post("/v1/connections", {
      data: {
        connection_type: "sandbox_whitelabel",
        name: `${name} 2`,
        credentials: creds("member"),
        is_private: true,
      },
    }),
    400,
    "Owner's server",
  );
  expect((await (await (await apiAs(o)).get(`/v1/connections/${shared.id}`)).json()).is_private ?? false).toBeFalsy();

  // An MCP server of the owner's that writes to it without approval.
  const allowed = await seed<{ id: string }>("mcpServer", {
    team: team.id,
    name: "Owner's allowed server",
    owner: o.id,
  });
  await seed("mcpServerConnections", { server: allowed.id, connections: [shared.id] });
  expect(
    (await owner.patch(`/api/dashboard/mcp-servers/${allowed.id}`, { data: { write_policy: "allowed" } })).status(),
  ).toBe(200);
  // A run of it already queued (due in ten minutes) when the credentials change.
  const queued = await seed<{ run_id: string }>("queuedRun", {
    team: team.id,
    workflow: wf.id,
    user: o.id,
    dueInMs: 600_000,
  });
  // Re-posting it shared with other credentials: the owner's write workflow stops, and says why,
  // and the run that waited does not start.
  const replaced = await connect(m, { connection_type: "sandbox_whitelabel", name, credentials: creds("member") });
  expect(await seed<Json>("workflowRun", { id: queued.run_id })).toMatchObject({ status: "refused" });
  const servers = (await (await owner.get("/api/dashboard/mcp-servers")).json()).data as Json[];
  expect(servers.find((x) => x.id === allowed.id)).toMatchObject({ write_policy: "approval" });
  expect(replaced.id).toBe(shared.id);
  const after = await (await owner.get(`/api/dashboard/workflows/${wf.id}`)).json();
  expect(after.active).toBe(false);
  expect(after.deactivated_reason).toContain(`${m.email} replaced the credentials`);
  // An owner's re-post keeps it running.
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } })).status()).toBe(200);
  await connect(o, { connection_type: "sandbox_whitelabel", name, credentials: creds("owner") });
  expect((await (await owner.get(`/api/dashboard/workflows/${wf.id}`)).json()).active).toBe(true);
});

test("a workflow whose writes no owner allowed (activity simulate's, say) is run by hand by an owner only, and its writes never run unasked", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = [
    await sessionAs(team.users[0].email, PASSWORD, team.id),
    await sessionAs(team.users[1].email, PASSWORD, team.id),
  ];
  const conn = await sandbox(team.users[0], "unasked");
  // Active, with a write node, and no owner's activation recorded: as `activity simulate` makes them.
  const wf = await seed<{ id: string }>("workflowWithNodes", {
    team: team.id,
    nodes: NOTE_NODES(conn.id, "nobody asked"),
  });
  await expectError(
    await member.post(`/api/dashboard/workflows/${wf.id}/runs`),
    403,
    "no team owner has activated",
    "only a team owner can run it by hand",
  );
  const byOwner = await owner.post(`/api/dashboard/workflows/${wf.id}/runs`);
  expect(byOwner.status(), await byOwner.text()).toBe(200);
  expect((await waitForRun((await byOwner.json()).run_id)).status).toBe("success");
  // A run queued with nobody's consent (a schedule's, say) refuses its write node.
  const unasked = await seed<{ run_id: string }>("queuedRun", {
    team: team.id,
    workflow: wf.id,
    user: null,
    dueInMs: 0,
    writesBy: null,
  });
  expect((await waitForRun(unasked.run_id)).status).toBe("error");
  expect((await seed<Json>("runState", { id: unasked.run_id })).steps[1].error).toMatch(
    /No team owner has allowed this workflow's writes/,
  );
});

test("finding 7: runs started together hold their credits, so the team ends at most one operation's price below zero per running run", async () => {
  const team = await seedTeam({ password: PASSWORD, creditsLimit: 10 });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandbox(team.users[0], "credits");
  // 1 + 5 reads of 2 credits: each run may cost 11.
  const nodes = [1, 2, 3, 4, 5].map((days) => ({
    id: `r${days}`,
    label: `Days ${days}`,
    operation_id: "sandbox.report",
    connection_id: conn.id,
    input: { metric: "sessions", days },
  }));
  const workflows: { id: string }[] = [];
  for (let i = 0; i < 10; i++) workflows.push(await saveAs(owner, { name: `Reads ${i}`, nodes }));
  // Run now on all ten at once.
  const runs = await Promise.all(
    workflows.map(async (w) => {
      const res = await owner.post(`/api/dashboard/workflows/${w.id}/runs`);
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()).run_id as string;
    }),
  );
  const ended = await Promise.all(runs.map((r) => waitForRun(r, 60_000)));
  // CONTRACT §13: a run holds 1 + what it spent, and before each node that costs credits it
  // checks the balance less every run's hold: the team ends at most one operation's price (2)
  // below zero per running run, never a whole run's cost (11) per run as before.
  const started = ended.filter((r) => r.status !== "refused");
  expect(started.length).toBeGreaterThan(0);
  for (const r of started) expect(["success", "error"]).toContain(r.status);
  for (const r of started.filter((r) => r.status === "error")) expect(r.error).toContain("Out of credits");
  const balance = await (await (await apiAs(team.users[0])).get("/v1/credits")).json();
  expect(balance.credits_remaining).toBeGreaterThanOrEqual(-2 * started.length);
  const ledger = (await (await (await apiAs(team.users[0])).get("/v1/credits/logs?limit=100")).json()).data as Json[];
  expect(ledger).toHaveLength(started.length);
  expect(ledger.reduce((sum, e) => sum + e.credits_used, 0)).toBe(10 - balance.credits_remaining);
  // What ran is what was charged: each run 1 + its succeeded reads.
  const spent = await Promise.all(
    started.map(async (r) => {
      const logs = (await (await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${r.id}&limit=100`)).json())
        .data as Json[];
      return 1 + logs.reduce((sum, l) => sum + (l.status === "success" ? l.credits_used : 0), 0);
    }),
  );
  expect(started.map((r) => r.credits)).toEqual(spent);
});
