import type { APIRequestContext } from "@playwright/test";
import { test, expect, seed, seedTeam, apiAs, cli, expectError, type SeededUser } from "../fixtures";
import { inDatabase } from "../support/in-database";

// Issue 36 / CONTRACT §11: the agent over the API, on the sandbox model (a model inside Patchbay
// speaking Chat Completions with a fixed script) through the real loop: its tools, approvals,
// logs and ledger.

type Turn = {
  status: string;
  reply: string;
  credits: number | null;
  steps: { operation_id: string; connection_id: string; status: string; log_id: string | null; approval_id?: string }[];
};
type TurnResult = { id: string; title: string; turn: Turn };

async function connection(api: APIRequestContext, type: string, credentials: Record<string, string>, extra = {}) {
  const res = await api.post("/v1/connections", {
    data: { connection_type: type, name: `${type} ${Math.random().toString(36).slice(2, 8)}`, credentials, ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const sandboxKey = (api: APIRequestContext, extra = {}) =>
  connection(api, "sandbox_key", { api_key: `sk-agent-${Date.now()}-${Math.random()}` }, extra);
const sandboxModel = (api: APIRequestContext) => connection(api, "sandbox_model", {});

async function ledger(api: APIRequestContext) {
  const res = await api.get("/v1/credits/logs?limit=100");
  expect(res.status()).toBe(200);
  return (await res.json()).data as {
    credits_used: number;
    service: { type: string; id: string | null; name: string | null };
  }[];
}

async function waitForTurn(api: APIRequestContext, id: string, index: number, status: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const body = await (await api.get(`/v1/agent/conversations/${id}`)).json();
    const turn = body.turns?.[index];
    if (turn?.status === status) return body as { title: string; turns: Turn[] };
    if (Date.now() > until) throw new Error(`turn ${index} of ${id} is ${JSON.stringify(turn)}, not ${status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function start(user: SeededUser) {
  const api = await apiAs(user);
  const model = await sandboxModel(api);
  const sandbox = await sandboxKey(api);
  return { api, model, sandbox };
}

test("a report: one read step, one agent log, one ledger entry of 1 + the read's credits", async () => {
  const team = await seedTeam();
  const { api, model, sandbox } = await start(team.users[0]);
  const res = await api.post("/v1/agent/conversations", {
    data: { model_connection_id: model, message: "Give me the sessions report for last week" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as TurnResult;
  expect(body.id).toMatch(/^conv_/);
  expect(body.title).toBe("Give me the sessions report for last week");
  expect(body.turn.status).toBe("completed");
  expect(body.turn.steps).toEqual([
    { operation_id: "sandbox.report", connection_id: sandbox, status: "success", log_id: expect.any(String) },
  ]);
  const log = await (await api.get(`/v1/logs/${body.turn.steps[0].log_id}`)).json();
  expect(log.source).toEqual({ type: "agent", id: body.id, run_id: null, name: body.title });
  expect(log.metadata.tool_name).toBe("run_operation");
  const total = log.output.total;
  expect(body.turn.reply).toContain(String(total));
  expect(body.turn.credits).toBe(1 + log.credits_used);
  const entries = (await ledger(api)).filter((e) => e.service.type === "agent");
  expect(entries).toEqual([
    expect.objectContaining({
      credits_used: 1 + log.credits_used,
      service: { type: "agent", id: body.id, name: body.title },
    }),
  ]);
  // A plain message: no tool call, a ledger entry of 1.
  const next = await api.post(`/v1/agent/conversations/${body.id}/messages`, { data: { message: "hello" } });
  expect(next.status(), await next.text()).toBe(200);
  const plain = (await next.json()) as TurnResult;
  expect(plain.turn).toMatchObject({ status: "completed", steps: [], credits: 1 });
  const got = await (await api.get(`/v1/agent/conversations/${body.id}`)).json();
  expect(got.turns.map((t: Turn) => t.status)).toEqual(["completed", "completed"]);
});

test("a note: the write waits for approval, the CLI approves it, the agent continues with the result", async () => {
  const team = await seedTeam();
  const { api, model, sandbox } = await start(team.users[0]);
  const res = await api.post("/v1/agent/conversations", {
    data: { model_connection_id: model, message: "note: Budget review on Friday" },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as TurnResult;
  expect(body.turn.status).toBe("waiting_approval");
  expect(body.turn.credits).toBeNull();
  expect(body.turn.steps).toEqual([
    {
      operation_id: "sandbox.set_note",
      connection_id: sandbox,
      status: "pending",
      log_id: null,
      approval_id: expect.stringMatching(/^apr_/),
    },
  ]);
  const approvalId = body.turn.steps[0].approval_id!;
  const listed = await cli("approval", "list", "--team", team.id);
  expect(listed.json.approvals[0]).toMatchObject({
    id: approvalId,
    status: "pending",
    mcp_server_id: null,
    conversation_id: body.id,
  });
  // A second message while it waits is refused, saying why.
  await expectError(
    await api.post(`/v1/agent/conversations/${body.id}/messages`, { data: { message: "hello" } }),
    409,
    approvalId,
  );
  const approved = await cli("approval", "approve", "--id", approvalId, "--user", team.users[0].id);
  expect(approved.json).toEqual({ id: approvalId, status: "succeeded" });
  const done = await waitForTurn(api, body.id, 0, "completed");
  const turn = done.turns[0];
  expect(turn.reply).toContain("Budget review on Friday");
  expect(turn.steps[0]).toMatchObject({ status: "success", approval_id: approvalId, log_id: expect.any(String) });
  const log = await (await api.get(`/v1/logs/${turn.steps[0].log_id}`)).json();
  expect(log.source).toMatchObject({ type: "agent", id: body.id });
  expect(log.metadata).toMatchObject({
    tool_name: "run_write_operation",
    approval_id: approvalId,
    approved_by: team.users[0].id,
  });
  expect(turn.credits).toBe(1 + log.credits_used);
  const entries = (await ledger(api)).filter((e) => e.service.type === "agent" || e.service.type === "mcp");
  expect(entries).toEqual([
    expect.objectContaining({ credits_used: turn.credits, service: expect.objectContaining({ id: body.id }) }),
  ]);
});

test("a rejected write: nothing is written, the agent says so, the turn costs 1", async () => {
  const team = await seedTeam();
  const { api, model } = await start(team.users[0]);
  const body = (await (
    await api.post("/v1/agent/conversations", { data: { model_connection_id: model, message: "note: never" } })
  ).json()) as TurnResult;
  const approvalId = body.turn.steps[0].approval_id!;
  const rejected = await cli("approval", "reject", "--id", approvalId, "--user", team.users[0].id, "--note", "no");
  expect(rejected.json).toEqual({ id: approvalId, status: "rejected" });
  const done = await waitForTurn(api, body.id, 0, "completed");
  expect(done.turns[0].steps[0]).toMatchObject({ status: "rejected", log_id: null });
  expect(done.turns[0].reply).toContain("not saved");
  expect(done.turns[0].credits).toBe(1);
});

test("a decided write continues behind 200 of the team's turns whose requests are still pending", async () => {
  const team = await seedTeam();
  const user = team.users[0];
  const { api, model } = await start(user);
  // Older turns, each waiting for a request nobody has decided: ahead of this one in any scan.
  const backlog = await seed("agentConversation", { team: team.id, user: user.id, modelConnection: model });
  await seed("pendingAgentTurns", { team: team.id, user: user.id, conversation: backlog.id, count: 200 });
  const body = (await (
    await api.post("/v1/agent/conversations", { data: { model_connection_id: model, message: "note: behind them" } })
  ).json()) as TurnResult;
  const approvalId = body.turn.steps[0].approval_id!;
  expect((await cli("approval", "reject", "--id", approvalId, "--user", user.id)).json.status).toBe("rejected");
  const done = await waitForTurn(api, body.id, 0, "completed");
  expect(done.turns[0].steps[0]).toMatchObject({ status: "rejected", log_id: null });
  // The backlog still waits for its decisions.
  const waiting = (await (await api.get(`/v1/agent/conversations/${backlog.id}`)).json()) as { turns: Turn[] };
  expect(waiting.turns).toHaveLength(200);
  expect(waiting.turns.every((t) => t.status === "waiting_approval")).toBe(true);
});

test("a note over the limit: the reply says in plain words what was wrong, naming no tool; nothing is filed", async () => {
  const team = await seedTeam();
  const { api, model } = await start(team.users[0]);
  const res = await api.post("/v1/agent/conversations", {
    data: { model_connection_id: model, message: `note: ${"x".repeat(612)}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { turn } = (await res.json()) as TurnResult;
  expect(turn.status).toBe("completed");
  expect(turn.steps).toEqual([]);
  expect(turn.reply).toBe("The note was not saved: note is too long (612 characters; the limit is 500).");
  expect(turn.reply).not.toMatch(/get_operation_inputs|run_write_operation|find_operations/);
  expect((await cli("approval", "list", "--team", team.id)).json).toEqual({ approvals: [] });
});

test("out of credits: refused, no model call, no log, no ledger entry", async () => {
  const team = await seedTeam({ creditsLimit: 0 });
  const { api, model } = await start(team.users[0]);
  const res = await api.post("/v1/agent/conversations", { data: { model_connection_id: model, message: "report" } });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as TurnResult;
  expect(body.turn).toMatchObject({ status: "refused", steps: [], credits: 0 });
  expect(body.turn.reply).toContain("no credits");
  expect(await ledger(api)).toEqual([]);
  const logs = await (await api.get("/v1/logs?source_type=agent")).json();
  expect(logs.data).toEqual([]);
});

test("who may use what: model and connection ids are checked, conversations are their creator's unless shared", async () => {
  const team = await seedTeam({ members: 2 });
  const [alice, bob] = team.users;
  const { api, model } = await start(alice);
  const bobApi = await apiAs(bob);
  const bobsPrivate = await sandboxKey(bobApi, { is_private: true });
  const other = await seedTeam();
  const otherApi = await apiAs(other.users[0]);
  const otherConnection = await sandboxKey(otherApi);
  const create = (data: object) => api.post("/v1/agent/conversations", { data: { message: "report", ...data } });

  await expectError(await create({ model_connection_id: model, connection_ids: [bobsPrivate] }), 403, bobsPrivate);
  await expectError(await create({ model_connection_id: model, connection_ids: [otherConnection] }), 403);
  await expectError(await create({ model_connection_id: "conn_nope" }), 404);
  const notModel = await sandboxKey(api);
  await expectError(await create({ model_connection_id: notModel }), 400, "not a model");
  await expectError(await create({ model_connection_id: model, message: "" }), 400, "message");
  // Each bad field is named, with what was wrong with it.
  await expectError(await create({}), 400, "model_connection_id: is required");
  await expectError(await create({ model_connection_id: 7 }), 400, "model_connection_id: must be a string");
  await expectError(await create({ model_connection_id: model, shared: "yes" }), 400, "shared: must be true or false");
  await expectError(
    await api.post("/v1/agent/conversations", { data: { model_connection_id: model } }),
    400,
    "message: is required",
  );
  expect((await (await api.get("/v1/agent/conversations")).json()).data).toEqual([]);

  // connection_ids [] gives none: the report finds nothing to run on.
  const none = (await (await create({ model_connection_id: model, connection_ids: [] })).json()) as TurnResult;
  expect(none.turn).toMatchObject({ status: "completed", steps: [] });
  expect(none.turn.reply).toContain("No connection");

  // Alice's conversation is hers: Bob and another team get 404, until she shares it with the team.
  await expectError(await bobApi.get(`/v1/agent/conversations/${none.id}`), 404);
  await expectError(await otherApi.get(`/v1/agent/conversations/${none.id}`), 404);
  await expectError(await bobApi.post(`/v1/agent/conversations/${none.id}/messages`, { data: { message: "hi" } }), 404);
  expect((await api.patch(`/v1/agent/conversations/${none.id}`, { data: { shared: true } })).status()).toBe(200);
  expect((await bobApi.get(`/v1/agent/conversations/${none.id}`)).status()).toBe(200);
  await expectError(await otherApi.get(`/v1/agent/conversations/${none.id}`), 404);
  const found = await (await bobApi.get("/v1/agent/conversations?q=report")).json();
  expect(found.data.map((c: { id: string }) => c.id)).toEqual([none.id]);
});

test("streaming: Accept text/event-stream sends text deltas, then the turn", async () => {
  const team = await seedTeam();
  const { api, model } = await start(team.users[0]);
  const res = await api.post("/v1/agent/conversations", {
    headers: { accept: "text/event-stream" },
    data: { model_connection_id: model, message: "report please" },
  });
  expect(res.status()).toBe(201);
  expect(res.headers()["content-type"]).toContain("text/event-stream");
  const events = (await res.text())
    .split("\n\n")
    .filter(Boolean)
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null"),
    }));
  const deltas = events.filter((e) => e.event === "text").map((e) => e.data.delta);
  expect(deltas.length).toBeGreaterThan(1);
  expect(events.filter((e) => e.event === "step")).toHaveLength(1);
  const last = events.at(-1)!;
  expect(last.event).toBe("turn");
  expect(last.data.turn.status).toBe("completed");
  expect(deltas.join("")).toBe(last.data.turn.reply);
});

test("an expired write: the agent continues within 15 s, saying nothing was written", async () => {
  const team = await seedTeam();
  const { api, model } = await start(team.users[0]);
  const body = (await (
    await api.post("/v1/agent/conversations", { data: { model_connection_id: model, message: "note: too late" } })
  ).json()) as TurnResult;
  const approvalId = body.turn.steps[0].approval_id!;
  // Nobody decides: the request's time runs out.
  await inDatabase(
    `await db.approval.update({ where: { id: args.id }, data: { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) } });`,
    { id: approvalId },
  );
  const done = await waitForTurn(api, body.id, 0, "completed");
  expect(done.turns[0].steps[0]).toMatchObject({ status: "expired", log_id: null, approval_id: approvalId });
  expect(done.turns[0].reply).toContain("expired");
  expect(done.turns[0].credits).toBe(1);
  const listed = await cli("approval", "list", "--team", team.id);
  expect(listed.json.approvals[0]).toMatchObject({ id: approvalId, status: "expired" });
});

test("the connection of a waiting write is deleted: the request is cancelled and the agent says so", async () => {
  const team = await seedTeam();
  const { api, model, sandbox } = await start(team.users[0]);
  const body = (await (
    await api.post("/v1/agent/conversations", { data: { model_connection_id: model, message: "note: orphan" } })
  ).json()) as TurnResult;
  expect((await api.delete(`/v1/connections/${sandbox}`)).status()).toBe(200);
  const done = await waitForTurn(api, body.id, 0, "completed");
  expect(done.turns[0].steps[0]).toMatchObject({ status: "rejected", log_id: null });
  expect(done.turns[0].reply).toContain("not saved");
});
