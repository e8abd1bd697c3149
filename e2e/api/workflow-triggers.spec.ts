import { test, expect, seedTeam, seed, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { waitForRun } from "../support/runs";
import { startInstance } from "../support/instances";
import { createLink, connect as connectThroughLink } from "../support/oauth-flow";
import { WORKFLOW_TEMPLATES, instantiateTemplate } from "@/lib/workflows/workflow-templates";

// Issue 49: workflows that react and recover (CONTRACT §13, rows triggers, webhook trigger, API
// trigger, event trigger, replay and versions), over real HTTP, the CLI and the provider
// stand-ins, on the run's database (SQLite, and PostgreSQL in CI).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
const PASSWORD = "triggers-pass-1";
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

test.describe.configure({ timeout: 120_000 });

async function connect(team: SeededTeam, body: Json, user = team.users[0]): Promise<string> {
  const res = await (await apiAs(user)).post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id;
}
const sandbox = (team: SeededTeam, name: string, extra: Json = {}, user = team.users[0]) =>
  connect(
    team,
    { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${unique()}` }, ...extra },
    user,
  );
const slack = (team: SeededTeam, token: string) =>
  connect(team, { connection_type: "slack", name: `Slack ${token}`, credentials: { bot_token: token } });

async function create(team: SeededTeam, name: string, nodes: Json[], ...extra: string[]) {
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
  return made.json as Json;
}

const echo = (template: string, id = "echo") => ({
  id,
  label: "Echo",
  operation_id: "utility.format_text",
  input: { template },
});

async function logsOfRun(team: SeededTeam, runId: string): Promise<Json[]> {
  const res = await (await apiAs(team.users[0])).get(`/v1/logs?source_run_id=${runId}&limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as Json[]).sort((a, b) => a.id.localeCompare(b.id));
}

const runsOf = (workflowId: string) => seed<Json[]>("workflowRuns", { workflow: workflowId });

async function until<T>(
  what: string,
  read: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  for (const end = Date.now() + timeoutMs; ;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function post(url: string, body: string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
}

test("triggers: workflow create takes --trigger webhook or event, prints the URL once, and list shows trigger and version, never the URL", async () => {
  const team = await seedTeam();
  const hook = await create(team, "On a webhook", [echo("hi {{trigger.body.name}}")], "--trigger", "webhook");
  expect(hook).toEqual({
    id: expect.any(String),
    name: "On a webhook",
    active: true,
    next_run_at: null,
    version: 1,
    trigger: { type: "webhook" },
    webhook_url: expect.stringMatching(new RegExp(`^${process.env.APP_URL}/hooks/workflows/pbwh_[A-Za-z0-9_-]{43}$`)),
  });
  const events = await create(
    team,
    "On events",
    [echo("{{trigger.event.type}}")],
    "--trigger",
    "event",
    "--events",
    "connection.created,workflow.run_failed",
  );
  expect(events.trigger).toEqual({ type: "event", events: ["connection.created", "workflow.run_failed"] });
  expect(events.webhook_url).toBeUndefined();
  const scheduled = await create(team, "Daily", [echo("x")], "--schedule", "0 9 * * *", "--timezone", "Europe/Paris");
  expect(scheduled.trigger).toEqual({ type: "schedule", schedule: "0 9 * * *", timezone: "Europe/Paris" });
  const manual = await create(team, "By hand", [echo("x")]);
  expect(manual.trigger).toEqual({ type: "manual" });

  const unknown = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Bad",
    "--nodes",
    JSON.stringify([echo("x")]),
    "--trigger",
    "event",
    "--events",
    "connection.created,order.placed",
  );
  expect(unknown.code).toBe(1);
  expect(unknown.json.error).toContain('no event type "order.placed"');
  const both = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Bad",
    "--nodes",
    JSON.stringify([echo("x")]),
    "--trigger",
    "webhook",
    "--schedule",
    "0 9 * * *",
  );
  expect(both.code).toBe(1);

  const list = await cli("workflow", "list", "--team", team.id);
  const byName = Object.fromEntries((list.json.workflows as Json[]).map((w) => [w.name, w]));
  expect(byName["On a webhook"]).toEqual({
    id: hook.id,
    name: "On a webhook",
    active: true,
    schedule: null,
    timezone: null,
    next_run_at: null,
    version: 1,
    trigger: { type: "webhook" },
  });
  expect(byName["On events"].trigger.type).toBe("event");
  expect(JSON.stringify(list.json)).not.toContain("pbwh_");
});

test("webhook trigger: the body is trigger.body, the run is the creator's; checks in order 404, 409, 413, 400, then idempotency, then 429 with Retry-After", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const wf = await create(
    team,
    "Greeter",
    [echo("Hello {{trigger.body.name}}, {{trigger.body.count}} items")],
    "--trigger",
    "webhook",
  );
  const url = wf.webhook_url as string;

  const started = await post(url, JSON.stringify({ name: "Ada", count: 3 }));
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  expect(started.json).toEqual({ run_id: expect.stringMatching(/^run_/) });
  const run = await waitForRun(started.json.run_id);
  expect(run).toMatchObject({ status: "success", trigger: "webhook", userId: team.users[0].id, version: 1 });
  const [log] = await logsOfRun(team, started.json.run_id);
  expect(log.output).toEqual({ text: "Hello Ada, 3 items" });
  expect(log.user?.id ?? log.user_id ?? log.user).toBeTruthy();
  // An empty body is {}.
  const empty = await post(url, undefined);
  expect(empty.status).toBe(202);
  expect((await logsOfRun(team, (await waitForRun(empty.json.run_id)).id))[0].output).toEqual({
    text: "Hello null, null items",
  });

  // 404: an unknown token, whatever else is wrong.
  const unknownUrl = url.replace(/pbwh_.{6}/, "pbwh_zzzzzz");
  const notFound = await post(unknownUrl, "[not json");
  expect(notFound.status).toBe(404);
  expect(notFound.json.detail).toContain("unknown or was rotated");
  // 413 before 400; 400 for anything that is not a JSON object.
  const big = await post(url, "x".repeat(262_145));
  expect(big.status).toBe(413);
  for (const body of ["[1, 2]", "not json", '"text"', "null"]) {
    const bad = await post(url, body);
    expect(bad.status, body).toBe(400);
    expect(bad.json.detail).toMatch(/JSON object|not valid JSON/);
  }
  // Exactly at the limit is taken.
  const atLimit = JSON.stringify({ name: "x".repeat(262_144 - 11) });
  expect(Buffer.byteLength(atLimit)).toBe(262_144);
  expect((await post(url, atLimit)).status).toBe(202);

  // The same Idempotency-Key (or webhook-id) answers the first run and starts nothing.
  const key = `order-${unique()}`;
  const first = await post(url, JSON.stringify({ name: "Key" }), { "idempotency-key": key });
  const again = await post(url, JSON.stringify({ name: "Other" }), { "idempotency-key": key });
  expect(first.status).toBe(202);
  expect(again).toMatchObject({ status: 202, json: { run_id: first.json.run_id } });
  const msg = `msg_${unique()}`;
  const viaId = await post(url, "{}", { "webhook-id": msg });
  expect((await post(url, "{}", { "webhook-id": msg })).json.run_id).toBe(viaId.json.run_id);

  // The rate: WORKFLOW_WEBHOOK_PER_MINUTE (20 on the test server) per workflow; 5 used so far.
  const answers: number[] = [];
  let limited: Awaited<ReturnType<typeof post>> | null = null;
  for (let i = 0; i < 20 && !limited; i++) {
    const r = await post(url, "{}");
    answers.push(r.status);
    if (r.status === 429) limited = r;
  }
  expect(limited, answers.join(",")).not.toBeNull();
  expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(limited!.json.detail).toContain("per workflow");
  // A key already accepted still answers its run while the rate is used up.
  expect(await post(url, "{}", { "idempotency-key": key })).toMatchObject({
    status: 202,
    json: { run_id: first.json.run_id },
  });
  expect((await runsOf(wf.id)).filter((r) => r.triggerKey === `webhook:${key}`)).toHaveLength(1);

  // 409 once inactive (after the token check, before the body's).
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: false } })).status()).toBe(200);
  const inactive = await post(url, "[not json");
  expect(inactive.status).toBe(409);
  expect(inactive.json.detail).toContain("inactive");

  // Rotating (any member): the old URL 404 at once, the new one is shown once and works.
  expect((await owner.patch(`/api/dashboard/workflows/${wf.id}`, { data: { active: true } })).status()).toBe(200);
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const rotated = await member.post(`/api/dashboard/workflows/${wf.id}/webhook-token`);
  expect(rotated.status(), await rotated.text()).toBe(200);
  const next = (await rotated.json()).webhook_url as string;
  expect(next).not.toBe(url);
  expect((await post(url, "{}")).status).toBe(404);
  const detail = await (await owner.get(`/api/dashboard/workflows/${wf.id}`)).text();
  expect(detail).not.toContain(next.split("/").pop()!);
});

test("API trigger: POST /v1/workflows/{id}/runs with input and an Idempotency-Key, GET its progress; 404, 409 and 403 as §13 says", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [owner, member] = team.users;
  const wf = await create(team, "API run", [echo("Input {{trigger.input.who}}")]);
  const api = await apiAs(owner);
  const started = await api.post(`/v1/workflows/${wf.id}/runs`, { data: { input: { who: "Grace" } } });
  expect(started.status(), await started.text()).toBe(201);
  const body = await started.json();
  expect(body).toEqual({ run_id: expect.stringMatching(/^run_/), status: "queued" });
  const ended = await until("the run to end", async () => {
    const r = await api.get(`/v1/workflows/${wf.id}/runs/${body.run_id}`);
    expect(r.status()).toBe(200);
    const j = await r.json();
    return j.status === "success" ? j : null;
  });
  expect(ended).toEqual({
    run_id: body.run_id,
    workflow_id: wf.id,
    version: 1,
    status: "success",
    trigger: { type: "api" },
    started_at: expect.any(Number),
    completed_at: expect.any(Number),
    credits: 1,
    replay_of: null,
  });
  expect(ended.completed_at).toBeGreaterThanOrEqual(ended.started_at);
  expect((await logsOfRun(team, body.run_id))[0].output).toEqual({ text: "Input Grace" });
  // No body at all is no input.
  const bare = await api.post(`/v1/workflows/${wf.id}/runs`);
  expect(bare.status(), await bare.text()).toBe(201);

  // The same key within 24 h: the same status and body, nothing started.
  const key = `k-${unique()}`;
  const a = await api.post(`/v1/workflows/${wf.id}/runs`, { data: {}, headers: { "idempotency-key": key } });
  const b = await api.post(`/v1/workflows/${wf.id}/runs`, {
    data: { input: { x: 1 } },
    headers: { "idempotency-key": key },
  });
  expect(a.status()).toBe(201);
  expect(b.status()).toBe(201);
  expect(await b.json()).toEqual(await a.json());
  expect((await runsOf(wf.id)).length).toBe(3);

  await expectError(await api.post(`/v1/workflows/${wf.id}/runs`, { data: { input: [1] } }), 400, "input");
  await expectError(await api.post(`/v1/workflows/${wf.id}/runs`, { data: { other: 1 } }), 400);
  await expectError(await api.get(`/v1/workflows/${wf.id}/runs/run_nope`), 404);
  const other = await seedTeam();
  await expectError(await (await apiAs(other.users[0])).post(`/v1/workflows/${wf.id}/runs`, { data: {} }), 404);
  await expectError(await (await apiAs(other.users[0])).get(`/v1/workflows/${wf.id}/runs/${body.run_id}`), 404);
  const off = await create(team, "Off", [echo("x")], "--inactive");
  await expectError(await api.post(`/v1/workflows/${off.id}/runs`, { data: {} }), 409, "inactive");
  // A teammate's private connection is theirs alone: another member's key is refused, nothing runs.
  const mine = await sandbox(team, `private-${unique()}`, { is_private: true }, owner);
  const privateWf = await create(team, "Private", [
    {
      id: "r",
      label: "Report",
      operation_id: "sandbox.report",
      connection_id: mine,
      input: { metric: "users", days: 1 },
    },
  ]);
  await expectError(
    await (await apiAs(member)).post(`/v1/workflows/${privateWf.id}/runs`, { data: {} }),
    403,
    "private",
  );
  expect(await runsOf(privateWf.id)).toHaveLength(0);
});

test("event trigger: an event of the team starts each listening workflow once, across two instances, with trigger.event; an inactive one or another team's does not", async () => {
  const team = await seedTeam();
  const listener = await create(
    team,
    "On new connections",
    [echo("{{trigger.event.type}} {{trigger.event.data.connection.id}}")],
    "--trigger",
    "event",
    "--events",
    "connection.created",
  );
  const off = await create(
    team,
    "Off",
    [echo("x")],
    "--trigger",
    "event",
    "--events",
    "connection.created",
    "--inactive",
  );
  const elsewhere = await seedTeam();
  const theirs = await create(elsewhere, "Theirs", [echo("x")], "--trigger", "event", "--events", "connection.created");
  // A second instance on the same database: both run workflows, one run per event.
  const second = await startInstance();
  try {
    const conn = await sandbox(team, `evt-${unique()}`);
    const [run] = await until("the event's run", async () => {
      const runs = await runsOf(listener.id);
      return runs.length && runs.every((r) => ["success", "error"].includes(r.status)) ? runs : null;
    });
    expect(run).toMatchObject({
      status: "success",
      trigger: "event",
      triggerKey: expect.stringMatching(/^event:msg_/),
    });
    expect((await logsOfRun(team, run.id))[0].output).toEqual({ text: `connection.created ${conn}` });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await runsOf(listener.id)).toHaveLength(1);
    expect(await runsOf(off.id)).toHaveLength(0);
    expect(await runsOf(theirs.id)).toHaveLength(0);
  } finally {
    await second.stop();
  }
});

test("event trigger chains: a run's own event starts no workflow already in its chain, and none once the chain holds 3 runs", async () => {
  const team = await seedTeam();
  const s = await sandbox(team, `chain-${unique()}`);
  // Each fails at once (its metric is the event's type, which the report refuses) and so emits workflow.run_failed.
  const failing = (name: string, ...trigger: string[]) =>
    create(
      team,
      name,
      [
        {
          id: "report",
          label: "Report",
          operation_id: "sandbox.report",
          connection_id: s,
          input: { metric: "{{trigger.event.type}}", days: 1 },
        },
      ],
      ...trigger,
    );
  const a = await failing("A", "--trigger", "event", "--events", "workflow.run_failed");
  const b = await failing("B", "--trigger", "event", "--events", "workflow.run_failed");
  const x = await failing("X");
  const done = await cli("workflow", "run", "--id", x.id, "--wait");
  expect(done.json.status).toBe("error");
  // X fails: A and B run (chains X,A and X,B); A's failure starts B (X,A,B) and B's starts A
  // (X,B,A); those chains hold 3 runs, so their failures start nothing; A never starts A.
  const settled = async () => {
    const [ra, rb] = [await runsOf(a.id), await runsOf(b.id)];
    return ra.length + rb.length === 4 && [...ra, ...rb].every((r) => r.status === "error") ? [ra, rb] : null;
  };
  const [ra, rb] = await until("four chained runs", settled);
  await new Promise((r) => setTimeout(r, 2000));
  expect((await runsOf(a.id)).length).toBe(2);
  expect((await runsOf(b.id)).length).toBe(2);
  const chains = [...ra, ...rb].map((r) => JSON.parse(r.state).chain.join(">")).sort();
  expect(chains).toEqual([x.id, x.id, `${x.id}>${a.id}`, `${x.id}>${b.id}`].sort());
});

test("replay: from the failed node with the original's outputs, charged 1 + what it ran; never a write that succeeded; each run once, also when two race", async () => {
  const team = await seedTeam({ password: PASSWORD, creditsLimit: 4 });
  const s = await sandbox(team, `replay-${unique()}`);
  const token = `xoxb-replay-${unique()}`;
  const post = await slack(team, token);
  // 4 credits: the run holds 1; the report (2) leaves 1 free, the Slack post (1) none, so the
  // second report fails out of credits after the write succeeded.
  const wf = await create(team, "Report, post, report", [
    {
      id: "report",
      label: "Report",
      operation_id: "sandbox.report",
      connection_id: s,
      input: { metric: "users", days: 2, end_date: "2026-11-30" },
    },
    {
      id: "post",
      label: "Post",
      operation_id: "slack.post_message",
      connection_id: post,
      input: { channel: "general", text: "{{nodes.report.output.total}} users" },
    },
    {
      id: "again",
      label: "Report again",
      operation_id: "sandbox.report",
      connection_id: s,
      input: { metric: "sessions", days: 1, end_date: "2026-11-30" },
    },
    echo("{{nodes.report.output.total}} then {{nodes.again.output.total}}", "sum"),
  ]);
  const first = await cli("workflow", "run", "--id", wf.id, "--wait");
  expect(first.json).toMatchObject({ status: "error", logs: 4 });
  const original = await seed<Json>("workflowRun", { id: first.json.run_id });
  expect(original.failedNodeId).toBe("again");

  // A write that succeeded is never sent again: not from it, not before it.
  for (const from of ["post", "report"]) {
    const refused = await cli("workflow", "replay", "--run", first.json.run_id, "--from", from);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toContain("post (slack.post_message) wrote successfully");
  }
  const later = await cli("workflow", "replay", "--run", first.json.run_id, "--from", "sum");
  expect(later.json.error).toContain("did not run");
  const noNode = await cli("workflow", "replay", "--run", first.json.run_id, "--from", "nope");
  expect(noNode.json.error).toContain("has no node");

  expect((await cli("credits", "renew", "--team", team.id)).code).toBe(0);
  // Two replays at once: exactly one starts.
  const [x, y] = await Promise.all([
    cli("workflow", "replay", "--run", first.json.run_id, "--wait"),
    cli("workflow", "replay", "--run", first.json.run_id),
  ]);
  const won = [x, y].filter((r) => r.code === 0);
  const lost = [x, y].filter((r) => r.code === 1);
  expect(won).toHaveLength(1);
  expect(lost).toHaveLength(1);
  expect(lost[0].json.error).toContain("already replayed");
  const replayId = won[0].json.run_id as string;
  expect(won[0].json.replay_of).toBe(first.json.run_id);
  const replay = await waitForRun(replayId);
  expect(replay).toMatchObject({
    status: "success",
    trigger: "replay",
    replayOf: first.json.run_id,
    version: 1,
    credits: 3,
  });
  const logs = await logsOfRun(team, replayId);
  expect(logs.map((l) => [l.metadata.node_id, l.status])).toEqual([
    ["again", "success"],
    ["sum", "success"],
  ]);
  const firstLogs = await logsOfRun(team, first.json.run_id);
  const total = firstLogs.find((l) => l.metadata.node_id === "report")!.output.total;
  expect(logs[1].output.text).toBe(`${total} then ${logs[0].output.total}`);
  // The Slack stand-in received the post once.
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").slack as string;
  const journal = (await (await fetch(`${base}/__stand-in/requests?method=POST`)).json()) as { requests: Json[] };
  expect(
    journal.requests.filter((r) => r.path === "/api/chat.postMessage" && r.headers.authorization === `Bearer ${token}`),
  ).toHaveLength(1);
  // Each run once; a run that succeeded is not replayed.
  expect((await cli("workflow", "replay", "--run", first.json.run_id)).json.error).toContain("already replayed");
  expect((await cli("workflow", "replay", "--run", replayId)).json.error).toContain("succeeded");
  // The API reads the link.
  const read = await (await apiAs(team.users[0])).get(`/v1/workflows/${wf.id}/runs/${replayId}`);
  expect(await read.json()).toMatchObject({ trigger: { type: "replay" }, replay_of: first.json.run_id, credits: 3 });
});

test("versions: each save that changes what runs is the next version, a rename is not; runs record theirs; restore saves a new one under the consent rules", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const made = await owner.post("/api/dashboard/workflows", {
    data: { name: "V", nodes: [echo("one")], active: true },
  });
  expect(made.status(), await made.text()).toBe(200);
  const wf = await made.json();
  expect(wf.version).toBe(1);
  const patch = async (s: typeof owner, data: Json) => {
    const r = await s.patch(`/api/dashboard/workflows/${wf.id}`, { data });
    expect(r.status(), await r.text()).toBe(200);
    return r.json();
  };
  expect((await patch(owner, { nodes: [echo("two")] })).version).toBe(2);
  expect((await patch(owner, { name: "V renamed" })).version).toBe(2);
  expect((await patch(owner, { nodes: [echo("two")] })).version).toBe(2);
  expect((await patch(owner, { schedule: "0 8 * * *", timezone: "UTC" })).version).toBe(3);
  expect((await patch(owner, { trigger: "webhook" })).version).toBe(4);
  const run = await (await apiAs(team.users[0])).post(`/v1/workflows/${wf.id}/runs`, { data: {} });
  expect((await waitForRun((await run.json()).run_id)).version).toBe(4);

  const versions = await cli("workflow", "versions", "--id", wf.id);
  expect(versions.json.versions.map((v: Json) => [v.version, v.nodes, v.created_by])).toEqual([
    [4, 1, team.users[0].id],
    [3, 1, team.users[0].id],
    [2, 1, team.users[0].id],
    [1, 1, team.users[0].id],
  ]);
  expect(Object.keys(versions.json.versions[0]).sort()).toEqual(["created_at", "created_by", "nodes", "version"]);

  // Restore version 2: its nodes and its (manual) trigger, as version 5.
  const restored = await owner.post(`/api/dashboard/workflows/${wf.id}/versions/2/restore`);
  expect(restored.status(), await restored.text()).toBe(200);
  expect(await restored.json()).toMatchObject({ version: 5, trigger: { type: "manual" }, schedule: null });
  const listed = await (await owner.get(`/api/dashboard/workflows/${wf.id}/versions`)).json();
  expect(listed.versions[0]).toMatchObject({
    version: 5,
    nodes: [expect.objectContaining({ input: { template: "two" } })],
  });

  // A rebind is a version too; the CLI's is nobody's.
  const a = await sandbox(team, `va-${unique()}`);
  const b = await sandbox(team, `vb-${unique()}`);
  await patch(owner, {
    nodes: [
      { id: "r", label: "R", operation_id: "sandbox.report", connection_id: a, input: { metric: "users", days: 1 } },
    ],
  });
  const rebound = await cli("workflow", "rebind", "--id", wf.id, "--from", a, "--to", b);
  expect(rebound.json.nodes_rebound).toBe(1);
  const after = await cli("workflow", "versions", "--id", wf.id);
  expect(after.json.versions[0]).toMatchObject({ version: 7, created_by: null });

  // A member may not restore a version that sets an owner's writes running.
  await patch(owner, {
    nodes: [{ id: "w", label: "Write", operation_id: "sandbox.set_note", connection_id: b, input: { note: "hi" } }],
  });
  await patch(owner, { nodes: [echo("safe")] });
  await expectError(await member.post(`/api/dashboard/workflows/${wf.id}/versions/8/restore`), 403, "owner");
  await expectError(await member.post(`/api/dashboard/workflows/${wf.id}/versions/99/restore`), 404, "no version 99");
  await expectError(await member.post(`/api/dashboard/workflows/${wf.id}/versions/zero/restore`), 400);
});

test("kill -9 during a webhook burst: every accepted request has its run, a client's retry with the same key starts none twice, and each run writes once", async () => {
  test.setTimeout(180_000);
  const team = await seedTeam();
  const wf = await create(team, "Burst", [echo("#{{trigger.body.n}}")], "--trigger", "webhook");
  const path = new URL(wf.webhook_url as string).pathname;
  const doomed = await startInstance();
  const keys = Array.from({ length: 16 }, (_, n) => ({ n, key: `burst-${n}-${unique()}` }));
  const accepted = new Map<string, string>();
  const send = async (base: string, { n, key }: { n: number; key: string }) => {
    try {
      const r = await post(`${base}${path}`, JSON.stringify({ n }), { "idempotency-key": key });
      if (r.status === 202) accepted.set(key, r.json.run_id);
      return r.status;
    } catch {
      return 0; // the instance died under it: the client retries
    }
  };
  // Half the burst lands, then the instance is killed while the rest is in flight.
  const first = await Promise.all(keys.slice(0, 8).map((k) => send(doomed.baseUrl, k)));
  expect(first.every((s) => s === 202)).toBe(true);
  const inFlight = Promise.all(keys.slice(8).map((k) => send(doomed.baseUrl, k)));
  await doomed.kill();
  await inFlight;
  const before = new Map(accepted);
  // The client retries every request with its key on the instance that lives.
  for (const k of keys) {
    const status = await send(process.env.APP_URL!, k);
    expect(status).toBe(202);
  }
  for (const [key, run] of before) expect(accepted.get(key), "an accepted key keeps its run").toBe(run);
  const runs = await until(
    "every run to end",
    async () => {
      const all = await runsOf(wf.id);
      return all.length === keys.length && all.every((r) => r.status === "success") ? all : null;
    },
    60_000,
  );
  expect(new Set(runs.map((r) => r.triggerKey))).toEqual(new Set(keys.map((k) => `webhook:${k.key}`)));
  for (const r of runs) expect((await logsOfRun(team, r.id)).length).toBe(1);
});

test("template: when a client's connection needs re-authorization, a new auth link for that platform and client is posted to Slack", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const api = await apiAs(team.users[0]);
  const token = `xoxb-reauth-${unique()}`;
  const slackId = await slack(team, token);
  const template = WORKFLOW_TEMPLATES.find((t) => t.id === "reauth_link_to_slack")!;
  const made = await owner.post("/api/dashboard/workflows", {
    data: {
      name: template.name,
      nodes: instantiateTemplate(template, { slack: slackId }, { channel: "general" }),
      trigger: "event",
      events: template.events,
      active: true,
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const wf = await made.json();

  const link = await createLink(api, { connection_type: "sandbox_oauth", external_id: "acme" });
  await connectThroughLink(link, "sandbox_oauth", { account: `acct-reauth-${unique()}` });
  const connId = (await (await api.get(`/v1/connections/auth-links/${link.id}/status`)).json()).connection_id as string;
  expect((await cli("sandbox", "revoke", "--connection", connId)).code).toBe(0);
  // A workflow that reads the revoked connection finds out: connection.needs_reauth, once.
  const reader = await create(team, "Reader", [
    {
      id: "r",
      label: "Report",
      operation_id: "sandbox.report",
      connection_id: connId,
      input: { metric: "users", days: 1 },
    },
  ]);
  expect((await cli("workflow", "run", "--id", reader.id, "--wait")).json.status).toBe("error");

  const [run] = await until("the template's run", async () => {
    const runs = await runsOf(wf.id);
    return runs.length && runs[0].status !== "queued" && runs[0].status !== "running" ? runs : null;
  });
  const logs = await logsOfRun(team, run.id);
  expect(run, JSON.stringify(logs.map((l) => l.output))).toMatchObject({ status: "success", trigger: "event" });
  expect(logs.map((l) => [l.operation_id, l.status, l.credits_used])).toEqual([
    ["patchbay.create_auth_link", "success", 0],
    ["slack.post_message", "success", expect.any(Number)],
  ]);
  const url = logs[0].output.url as string;
  expect(url).toMatch(new RegExp(`^${process.env.APP_URL}/connect/`));
  const status = await (await api.get(`/v1/connections/auth-links/${logs[0].output.id}/status`)).json();
  expect(status).toMatchObject({ status: "pending", connection_type: "sandbox_oauth", external_id: "acme" });
  const base = JSON.parse(process.env.PROVIDER_BASE_URLS ?? "{}").slack as string;
  const journal = (await (await fetch(`${base}/__stand-in/requests?method=POST`)).json()) as { requests: Json[] };
  const posted = journal.requests.filter(
    (r) => r.path === "/api/chat.postMessage" && r.headers.authorization === `Bearer ${token}`,
  );
  expect(posted).toHaveLength(1);
  expect(posted[0].json.channel).toBe("general");
  expect(posted[0].json.text).toContain(url);
  expect(posted[0].json.text).toContain("client acme");
});

test("bulk replay: the failed runs of one workflow in a time range, each at most once (a failed replay is retried, not its original); runs outside the range or that succeeded are left", async () => {
  const team = await seedTeam();
  const s = await sandbox(team, `bulk-${unique()}`);
  const wf = await create(team, "Fails on bad input", [
    echo("start"),
    {
      id: "report",
      label: "Report",
      operation_id: "sandbox.report",
      connection_id: s,
      input: { metric: "{{trigger.input.metric}}", days: 1, end_date: "2026-11-30" },
    },
  ]);
  const api = await apiAs(team.users[0]);
  const start = async (metric: string) => {
    const r = await api.post(`/v1/workflows/${wf.id}/runs`, { data: { input: { metric } } });
    return waitForRun((await r.json()).run_id);
  };
  const old = await start("nope");
  await new Promise((r) => setTimeout(r, 1100));
  const from = Math.floor(Date.now() / 1000);
  const [a, b, ok] = [await start("nope"), await start("nope"), await start("users")];
  expect([old.status, a.status, b.status, ok.status]).toEqual(["error", "error", "error", "success"]);
  const to = Math.floor(Date.now() / 1000) + 1;
  const first = await cli("workflow", "replay-failed", "--id", wf.id, "--from", String(from), "--to", String(to));
  expect(first.code, JSON.stringify(first.json)).toBe(0);
  expect(first.json.replayed.map((r: Json) => r.replay_of).sort()).toEqual([a.id, b.id].sort());
  expect(first.json.skipped).toEqual([]);
  const replays = await Promise.all(first.json.replayed.map((r: Json) => waitForRun(r.run_id)));
  // The replays start at the failed node: the first node is not run again.
  for (const r of replays) {
    expect(r).toMatchObject({ trigger: "replay", status: "error" });
    expect((await logsOfRun(team, r.id)).map((l) => l.metadata.node_id)).toEqual(["report"]);
  }
  // Again, over a range that also holds the replays (queued by the first command, maybe after
  // `to`): the replayed runs are skipped; their replays, which failed in turn, are the ones retried.
  const toNow = Math.floor(Date.now() / 1000) + 1;
  const again = await cli("workflow", "replay-failed", "--id", wf.id, "--from", String(from), "--to", String(toNow));
  expect(again.json.replayed.map((r: Json) => r.replay_of).sort()).toEqual(replays.map((r) => r.id).sort());
  expect(again.json.skipped.map((r: Json) => r.run_id).sort()).toEqual([a.id, b.id].sort());
  for (const skip of again.json.skipped) expect(skip.reason).toContain("already replayed");
  await Promise.all(again.json.replayed.map((r: Json) => waitForRun(r.run_id)));
  const bad = await cli("workflow", "replay-failed", "--id", wf.id, "--from", String(to), "--to", String(from));
  expect(bad.code).toBe(1);
  expect(bad.json.error).toContain("from: must be before to");
});
