import { test, expect, seedTeam, seed, apiAs, expectError, type SeededTeam } from "../fixtures";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";

// Issue 45, the workflow part: consent does not outlive the owner who gave it (a demotion or a
// removal stops the write workflows they activated and puts the MCP servers they set to `allowed`
// back on `approval`, and a run queued on their consent writes nothing); a stop that also edits a
// workflow refuses its queued scheduled runs; `workflow.run_failed` tells the team only that a
// node on a private connection failed. Through the dashboard's routes, on the run's database.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Session = Awaited<ReturnType<typeof sessionAs>>;
type User = SeededTeam["users"][number];
const PASSWORD = "consent-owner-1";
const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

async function connect(user: User, body: Json): Promise<{ id: string }> {
  const res = await (await apiAs(user)).post("/v1/connections", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}
const sandbox = (user: User, name: string) =>
  connect(user, { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}-${unique()}` } });

const NOTE_NODES = (connectionId: string, note = "Written on an owner's consent") => [
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

async function post(session: Session, path: string, body: Json = {}): Promise<Json> {
  const res = await session.post(path, { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}
async function get(session: Session, path: string): Promise<Json> {
  const res = await session.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}
async function setRole(owner: Session, user: User, role: "owner" | "member") {
  const res = await owner.patch(`/api/dashboard/members/${user.id}`, { data: { role } });
  expect(res.status(), await res.text()).toBe(200);
}
/** Polls the run through the dashboard until it has ended. */
const ended = (session: Session, runId: string) =>
  waitFor(
    async () => {
      const run = await get(session, `/api/dashboard/workflow-runs/${runId}`);
      return ["success", "error", "refused"].includes(run.status) ? run : null;
    },
    30_000,
    `run ${runId} to end`,
  );
const writePolicies = async (session: Session) =>
  Object.fromEntries(
    ((await get(session, "/api/dashboard/mcp-servers")).data as Json[]).map((s) => [s.id, s.write_policy]),
  );
const audit = async (owner: Session, action: string) =>
  (await get(owner, `/api/dashboard/audit?action=${action}&limit=100`)).data as Json[];

// Each test waits for runs and webhooks on 2 shared cores.
test.describe.configure({ timeout: 180_000 });

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

/**
 * A team whose second user is an owner who has consented to writes: a write workflow she
 * activated (with a run of it queued), an MCP server she set to `allowed`, and the same of the
 * first owner's, who stays; a receiver of workflow.deactivated.
 */
async function ownerWhoConsented() {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [o, b] = team.users;
  const owner = await sessionAs(o.email, PASSWORD, team.id);
  await setRole(owner, b, "owner");
  const bea = await sessionAs(b.email, PASSWORD, team.id);
  const hooks = await startReceiver();
  receivers.push(hooks);
  await post(owner, "/api/dashboard/webhooks", { url: hooks.url, events: ["workflow.deactivated"] });
  const conn = await sandbox(b, "consented");
  const hers = await post(bea, "/api/dashboard/workflows", { name: "Bea's note", nodes: NOTE_NODES(conn.id) });
  const his = await post(owner, "/api/dashboard/workflows", { name: "Olaf's note", nodes: NOTE_NODES(conn.id) });
  expect([hers.active, his.active]).toEqual([true, true]);
  const server = (who: Session, name: string) =>
    post(who, "/api/dashboard/mcp-servers", { name, connection_ids: [conn.id], write_policy: "allowed" });
  const [herServer, hisServer] = [await server(bea, "Bea's agent"), await server(owner, "Olaf's agent")];
  expect(await writePolicies(owner)).toMatchObject({ [herServer.id]: "allowed", [hisServer.id]: "allowed" });
  // A run of her workflow waiting for its turn (due in ten minutes).
  const queued = await seed<{ run_id: string }>("queuedRun", {
    team: team.id,
    workflow: hers.id,
    user: b.id,
    dueInMs: 600_000,
  });
  return { team, o, b, owner, bea, hooks, conn, hers, his, herServer, hisServer, queued };
}

/** What a demotion or removal must have done to what Bea consented to, and nothing else. */
async function expectConsentWithdrawn(world: Awaited<ReturnType<typeof ownerWhoConsented>>, gone: string) {
  const { owner, hooks, hers, his, herServer, hisServer, queued, b } = world;
  const after = await get(owner, `/api/dashboard/workflows/${hers.id}`);
  expect(after.active).toBe(false);
  expect(after.deactivated_reason).toContain(`${b.email}, the team owner who activated it, ${gone}`);
  expect((await get(owner, `/api/dashboard/workflows/${his.id}`)).active).toBe(true);
  // The run that waited does not start.
  expect(await get(owner, `/api/dashboard/workflow-runs/${queued.run_id}`)).toMatchObject({
    status: "refused",
    error: `Not started: ${after.deactivated_reason}`,
  });
  const event = await waitFor(
    () => hooks.events().find((e) => e.type === "workflow.deactivated"),
    15_000,
    "workflow.deactivated",
  );
  expect(event.data).toEqual({ workflow: { id: hers.id, name: "Bea's note" }, reason: after.deactivated_reason });
  const deactivations = await audit(owner, "workflow.deactivate");
  expect(deactivations.map((e) => e.target.id)).toEqual([hers.id]);
  expect(deactivations[0].details).toMatchObject({ name: "Bea's note", reason: after.deactivated_reason });
  // Her `allowed` is back to `approval`, on the record as Patchbay's; his stands.
  expect(await writePolicies(owner)).toMatchObject({ [herServer.id]: "approval", [hisServer.id]: "allowed" });
  const policyChanges = (await audit(owner, "mcp_server.write_policy_change")).filter(
    (e) => e.target.id === herServer.id && e.details.to === "approval",
  );
  expect(policyChanges).toHaveLength(1);
  expect(policyChanges[0]).toMatchObject({
    actor: { kind: "system" },
    details: { from: "allowed", changed_by: "Patchbay", reason: expect.stringContaining(`${b.email}`) },
  });
  // Only a webhook for hers was sent.
  expect(hooks.events().filter((e) => e.type === "workflow.deactivated")).toHaveLength(1);
}

test("an owner who is demoted takes her consent with her: her write workflows stop, her allowed MCP servers ask again, and a run queued on her consent writes nothing", async () => {
  const world = await ownerWhoConsented();
  const { team, owner, bea, b, conn } = world;
  // An inactive write workflow she ran by hand: that run's writes are on her consent too.
  const byHand = await post(bea, "/api/dashboard/workflows", {
    name: "Bea's one-off",
    nodes: NOTE_NODES(conn.id, "written after her demotion"),
    active: false,
  });

  await setRole(owner, b, "member");
  await expectConsentWithdrawn(world, "is no longer a team owner");
  const roleChange = (await audit(owner, "member.role_change")).find((e) => e.details.to === "member");
  expect(roleChange?.details).toMatchObject({ workflows_deactivated: 1, mcp_servers_downgraded: 1 });

  // A run whose snapshot names her as the one who allowed its writes, claimed after the
  // demotion (as one already queued or under way would be): its read runs, its write does not.
  const late = await seed<{ run_id: string }>("queuedRun", {
    team: team.id,
    workflow: byHand.id,
    user: b.id,
    writesBy: b.id,
    dueInMs: 0,
  });
  const run = await ended(owner, late.run_id);
  expect(run.status).toBe("error");
  expect(run.nodes.map((n: Json) => [n.node_id, n.status])).toEqual([
    ["report", "success"],
    ["note", "error"],
  ]);
  expect(run.nodes[1].error).toContain(
    `${b.email}, the team owner who allowed this run's writes, is no longer a team owner`,
  );

  // As a member she cannot give the consent again.
  await expectError(
    await bea.patch(`/api/dashboard/workflows/${world.hers.id}`, { data: { active: true } }),
    403,
    "Only a team owner can activate",
  );
  await expectError(
    await bea.patch(`/api/dashboard/mcp-servers/${world.herServer.id}`, { data: { write_policy: "allowed" } }),
    403,
    "Only a team owner",
  );
});

test("an owner who is removed takes her consent with her, in the removal", async () => {
  const world = await ownerWhoConsented();
  const removed = await world.owner.delete(`/api/dashboard/members/${world.b.id}`);
  expect(removed.status(), await removed.text()).toBe(200);
  await expectConsentWithdrawn(world, "is no longer in the team");
  const removal = (await audit(world.owner, "member.remove"))[0];
  expect(removal.details).toMatchObject({ workflows_deactivated: 1, mcp_servers_downgraded: 1 });
});

test("a save that stops a workflow and edits it refuses its queued scheduled runs; an edit that leaves it running keeps them", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const conn = await sandbox(team.users[0], "scheduled");
  const wf = await post(owner, "/api/dashboard/workflows", {
    name: "Every morning",
    nodes: NOTE_NODES(conn.id, "the morning note"),
    schedule: "0 9 * * *",
    timezone: "Europe/Paris",
  });
  expect(wf.active).toBe(true);
  // Its schedule's run waiting for its turn, and one a person queued by hand.
  const queue = (trigger: "schedule" | "manual") =>
    seed<{ run_id: string }>("queuedRun", {
      team: team.id,
      workflow: wf.id,
      user: trigger === "manual" ? team.users[0].id : null,
      trigger,
      dueInMs: 600_000,
    });
  const [scheduled, byHand] = [await queue("schedule"), await queue("manual")];
  const status = async (runId: string) => (await get(owner, `/api/dashboard/workflow-runs/${runId}`)).status;

  // An edit of the running workflow: its queued runs go on, with the definition they were queued with.
  const edited = await owner.patch(`/api/dashboard/workflows/${wf.id}`, {
    data: { nodes: NOTE_NODES(conn.id, "an edited note") },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  expect([await status(scheduled.run_id), await status(byHand.run_id)]).toEqual(["queued", "queued"]);

  // A stop in the same save as an edit: as a plain stop, the schedule's run does not start; the one queued by hand does.
  const stopped = await owner.patch(`/api/dashboard/workflows/${wf.id}`, {
    data: { active: false, nodes: NOTE_NODES(conn.id, "edited while stopping"), schedule: "0 10 * * *" },
  });
  expect(stopped.status(), await stopped.text()).toBe(200);
  expect((await stopped.json()).active).toBe(false);
  expect(await get(owner, `/api/dashboard/workflow-runs/${scheduled.run_id}`)).toMatchObject({
    status: "refused",
    error: "Not started: the workflow was deactivated before this run began.",
  });
  expect(await status(byHand.run_id)).toBe("queued");
});

test("workflow.run_failed says only that a node on private data failed; the owner's logs keep the error, and a shared connection's error goes out whole", async () => {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const [o, m] = team.users;
  const owner = await sessionAs(o.email, PASSWORD, team.id);
  const hooks = await startReceiver();
  receivers.push(hooks);
  await post(owner, "/api/dashboard/webhooks", { url: hooks.url, events: ["workflow.run_failed"] });
  // Slack stand-in tokens starting with `down` answer 503 with Slack's error page to every data call.
  const slack = (isPrivate: boolean) =>
    connect(o, {
      connection_type: "slack",
      name: `Slack ${unique()}`,
      credentials: { bot_token: `down-${unique()}` },
      ...(isPrivate && { is_private: true }),
    });
  const channels = (connectionId: string, input: Json = {}) => ({
    id: "channels",
    label: "Channels",
    operation_id: "slack.list_channels",
    connection_id: connectionId,
    input,
  });
  const run = async (name: string, nodes: Json[]) => {
    const wf = await post(owner, "/api/dashboard/workflows", { name, nodes });
    return { wf, ...(await post(owner, `/api/dashboard/workflows/${wf.id}/runs`)) } as { wf: Json; run_id: string };
  };
  const privateSandbox = await connect(o, {
    connection_type: "sandbox_key",
    name: `Private ${unique()}`,
    credentials: { api_key: `sk-private-${unique()}` },
    is_private: true,
  });
  const shared = await slack(false);
  const mine = await run("Private channels", [channels((await slack(true)).id)]);
  const ours = await run("Shared channels", [channels(shared.id)]);
  // A shared connection's node fed the output of a node on a private one.
  const fed = await run("Fed private data", [
    {
      id: "report",
      label: "Sessions",
      operation_id: "sandbox.report",
      connection_id: privateSandbox.id,
      input: { metric: "sessions", days: 7 },
    },
    channels(shared.id, { cursor: "after-{{nodes.report.output.total}}" }),
  ]);
  const failed = await waitFor(
    () => (hooks.events().length >= 3 ? hooks.events() : null),
    30_000,
    "three workflow.run_failed",
  );
  const eventOf = (r: { run_id: string }) => failed.find((e) => e.data.run_id === r.run_id)!;
  const logOf = async (user: User, r: { run_id: string }, node = "channels") =>
    ((await (await (await apiAs(user)).get(`/v1/logs?source_run_id=${r.run_id}`)).json()).data as Json[]).find(
      (l) => l.metadata.node_id === node,
    )!;
  const redacted = { redacted: expect.stringContaining("private connection") };

  // On a private connection: the team reads that it failed there, the owner reads why.
  const ownersLog = await logOf(o, mine);
  expect(ownersLog.status).toBe("error");
  expect(ownersLog.output.error).toMatch(/Slack/);
  expect(eventOf(mine).type).toBe("workflow.run_failed");
  expect(eventOf(mine).data).toEqual({
    workflow: { id: mine.wf.id, name: "Private channels" },
    run_id: mine.run_id,
    failed_node_id: "channels",
    error: "Node channels failed on a private slack connection; its owner can read the error in the logs.",
  });
  expect((await logOf(m, mine)).output).toEqual(redacted);

  // On a shared connection fed private data: the same, and its log's input is the owner's too.
  const fedLog = await logOf(o, fed);
  expect(fedLog.input.cursor).toMatch(/^after-\d/);
  expect(fedLog.output.error).toMatch(/Slack/);
  expect(eventOf(fed).data).toMatchObject({
    failed_node_id: "channels",
    error: "Node channels failed on data from a private connection; its owner can read the error in the logs.",
  });
  expect(await logOf(m, fed)).toMatchObject({ status: "error", input: null, output: redacted });

  // On a shared connection: the error goes out whole.
  const sharedLog = await logOf(m, ours);
  expect(sharedLog.output.error).toMatch(/Slack/);
  expect(eventOf(ours).data).toMatchObject({ failed_node_id: "channels", error: sharedLog.output.error });
});
