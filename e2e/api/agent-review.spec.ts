import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs } from "../fixtures";
import {
  connection,
  lastTurn,
  openAiModel,
  sandboxConnection,
  toolResults,
  unique,
  type AgentTurn as Turn,
  type AgentTurnResult as TurnResult,
} from "../support/agent-api";
import { sessionAs } from "../support/session";
import { startExtraServer } from "../support/extra-server";
import { requestContext } from "../support/request-context";
import { modelRequestCount, modelRequests, modelStandInUrl, scriptModel } from "../support/model-script";
import type { ModelTurn } from "../support/stand-ins/model-chat";

// Issue 45, the agent's findings, each through the route it was found on: a teammate posting in a
// shared conversation does not get the creator's private results in their model's context; a
// removed member's turn does not run on; one turn (and a team's concurrent turns) spend within one
// operation's price of the balance; a private conversation's title reaches no other member through
// the logs, the ledger or its CSV; tool results are capped as they are stored and re-sent.

const PASSWORD = "agent-review-45";

const sandbox = sandboxConnection;
const model = openAiModel;

const read = (connectionId: string, days = 7): NonNullable<ModelTurn["tool_calls"]>[number] => ({
  name: "run_operation",
  arguments: { operation_id: "sandbox.report", connection_id: connectionId, input: { metric: "sessions", days } },
});

test("a teammate posting in a shared conversation gets nothing of the creator's private connection", async () => {
  const team = await seedTeam({ members: 2 });
  const [alice, bob] = team.users;
  const m = await model(alice);
  const private_ = await sandbox(m.api, { is_private: true });
  const shared = await sandbox(m.api);
  await scriptModel(modelStandInUrl(), m.key, [
    // Alice's first turn reads only the shared connection; her second reads her private one too.
    { tool_calls: [read(shared, 8)] },
    { text: "Read the shared one." },
    { tool_calls: [read(private_, 9)] },
    { text: "Private total read." },
    { text: "Bob's answer." },
    // Alice's model has read her private data: what it runs next may carry it.
    { tool_calls: [read(shared, 5)] },
    { text: "Alice's third answer." },
  ]);
  const res = await m.api.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [private_, shared], message: "Shared report", shared: true },
  });
  expect(res.status(), await res.text()).toBe(201);
  const first = (await res.json()) as TurnResult;
  expect(first.turn.status, first.turn.reply).toBe("completed");
  const post = async (api: APIRequestContext, message: string) => {
    const r = await api.post(`/v1/agent/conversations/${first.id}/messages`, { data: { message } });
    expect(r.status(), await r.text()).toBe(200);
    return (await r.json()) as TurnResult;
  };
  const logOf = async (api: APIRequestContext, turn: TurnResult, i = 0) =>
    (await api.get(`/v1/logs/${turn.turn.steps[i].log_id}`)).json();
  const sharedLog = await logOf(m.api, first);
  const second = await post(m.api, "Now my private one");
  expect(second.turn.status, second.turn.reply).toBe("completed");
  const privateLog = await logOf(m.api, second);
  const sharedTotal = `"total":${sharedLog.output.total}`;
  const privateTotal = `"total":${privateLog.output.total}`;
  expect(privateLog.output.total).not.toBe(sharedLog.output.total);

  // Bob posts: his model reads Alice's first turn whole, and of her second only her message.
  const bobApi = await apiAs(bob);
  await post(bobApi, "Repeat it");
  const bobRequest = (await modelRequests(modelStandInUrl(), m.key))[4];
  const bobSees = JSON.stringify(bobRequest.messages);
  expect(toolResults(bobRequest).join("\n")).toContain(sharedTotal);
  expect(bobSees).toContain("Now my private one");
  expect(bobSees).not.toContain(privateTotal);
  expect(bobSees).not.toContain("Private total read.");
  expect(bobSees).toContain("another member's private connection");
  // The logs API redacts the same result for him, and the conversation withholds that answer.
  expect((await (await bobApi.get(`/v1/logs/${privateLog.id}`)).json()).output).toEqual({
    redacted: expect.any(String),
  });
  const asBob = (await (await bobApi.get(`/v1/agent/conversations/${first.id}`)).json()).turns as Turn[];
  expect(asBob.map((t) => t.reply)).toEqual([
    "Read the shared one.",
    expect.stringContaining("only they can read it"),
    "Bob's answer.",
  ]);

  // Alice's next turn reads her own result whole; the shared read it makes now may carry her
  // private data, so its log is hers alone.
  const third = await post(m.api, "Again");
  expect(third.turn.status, third.turn.reply).toBe("completed");
  expect(toolResults((await modelRequests(modelStandInUrl(), m.key))[5]).join("\n")).toContain(privateTotal);
  const carried = await logOf(m.api, third);
  expect(carried.output.total).toEqual(expect.any(Number));
  expect((await (await bobApi.get(`/v1/logs/${carried.id}`)).json()).output).toEqual({
    redacted: expect.any(String),
  });
});

test("a removed member's waiting turn does not run on: it fails without another model call or operation", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [owner, bob] = team.users;
  const m = await model(owner);
  const bobApi = await apiAs(bob);
  const bobsPrivate = await sandbox(bobApi, { is_private: true });
  await scriptModel(modelStandInUrl(), m.key, [
    {
      tool_calls: [
        {
          name: "run_write_operation",
          arguments: { operation_id: "sandbox.set_note", connection_id: bobsPrivate, input: { note: "bob's" } },
        },
      ],
    },
    // What the model would do once the write's answer came back: read Bob's private connection.
    { tool_calls: [read(bobsPrivate, 3)] },
    { text: "Read it." },
  ]);
  const res = await bobApi.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [bobsPrivate], message: "Note it", shared: true },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as TurnResult;
  expect(body.turn.status).toBe("waiting_approval");
  const calls = await modelRequestCount(modelStandInUrl(), m.key);

  const ownerSession = await sessionAs(owner.email, PASSWORD, team.id);
  const removed = await ownerSession.delete(`/api/dashboard/members/${bob.id}`);
  expect(removed.status(), await removed.text()).toBe(200);

  const ownerApi = await apiAs(owner);
  const turn = await lastTurn(ownerApi, body.id, "failed");
  expect(turn.reply).toContain("no longer in the team");
  expect(turn.steps).toEqual([expect.objectContaining({ operation_id: "sandbox.set_note", status: "rejected" })]);
  expect(await modelRequestCount(modelStandInUrl(), m.key)).toBe(calls);
  const logs = await (await ownerApi.get(`/v1/logs?source_id=${body.id}`)).json();
  expect(logs.data.filter((l: { operation_id: string }) => l.operation_id === "sandbox.report")).toEqual([]);
});

test("one turn, and a team's concurrent turns, spend within one operation's price of the balance", async () => {
  const team = await seedTeam({ creditsLimit: 3 });
  const m = await model(team.users[0]);
  const conn = await sandbox(m.api);
  const price = 2; // sandbox.report
  // Thirty reads of distinct inputs (no response cache), then an answer.
  const greedy: ModelTurn[] = [
    { tool_calls: Array.from({ length: 30 }, (_, i) => read(conn, i + 1)) },
    { text: "Done reading." },
  ];
  await scriptModel(modelStandInUrl(), m.key, greedy);
  const res = await m.api.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [conn], message: "Read everything" },
  });
  const body = (await res.json()) as TurnResult;
  expect(body.turn.status, body.turn.reply).toBe("completed");
  expect(body.turn.steps.length).toBeLessThanOrEqual(1);
  const requests = await modelRequests(modelStandInUrl(), m.key);
  expect(toolResults(requests[1]).filter((r) => r.includes("credits")).length).toBeGreaterThanOrEqual(29);
  let balance = await (await m.api.get("/v1/credits")).json();
  expect(balance.credits_remaining).toBeGreaterThan(-price);

  // Two turns at once on another 3-credit team: together they stay within one price too.
  const other = await seedTeam({ creditsLimit: 3 });
  const m2 = await model(other.users[0]);
  const conn2 = await sandbox(m2.api);
  const m3key = `sk-openai-${unique()}`;
  const m3 = await connection(m2.api, "openai", { api_key: m3key });
  await scriptModel(modelStandInUrl(), m2.key, greedy);
  await scriptModel(modelStandInUrl(), m3key, greedy);
  const both = await Promise.all(
    [m2.id, m3].map(async (id) =>
      (
        await m2.api.post("/v1/agent/conversations", {
          data: { model_connection_id: id, connection_ids: [conn2], message: "Read everything" },
        })
      ).json(),
    ),
  );
  for (const b of both as TurnResult[]) expect(b.turn.status, b.turn.reply).toBe("completed");
  balance = await (await m2.api.get("/v1/credits")).json();
  expect(balance.credits_remaining).toBeGreaterThan(-price);
});

test("a private conversation's title reaches no other member: logs, ledger and its CSV name it neutrally", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [alice, bob] = team.users;
  const m = await model(alice);
  const conn = await sandbox(m.api);
  await scriptModel(modelStandInUrl(), m.key, [{ tool_calls: [read(conn)] }, { text: "Read." }]);
  const secret = `Quarterly layoffs plan ${unique()} report`;
  const res = await m.api.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [conn], message: secret },
  });
  const body = (await res.json()) as TurnResult;
  expect(body.turn.status, body.turn.reply).toBe("completed");

  const names = async (api: APIRequestContext) => {
    const logs = (await (await api.get(`/v1/logs?source_id=${body.id}`)).json()).data as {
      source: { name: string };
    }[];
    const ledger = (await (await api.get(`/v1/credits/logs?service_id=${body.id}`)).json()).data as {
      service: { name: string };
    }[];
    return { logs: logs.map((l) => l.source.name), ledger: ledger.map((e) => e.service.name) };
  };
  const bobApi = await apiAs(bob);
  expect(await names(m.api)).toEqual({ logs: [body.title], ledger: [body.title] });
  expect(await names(bobApi)).toEqual({ logs: ["Private conversation"], ledger: ["Private conversation"] });
  const csv = await (await sessionAs(bob.email, PASSWORD, team.id)).get("/api/dashboard/ledger.csv");
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toContain("Private conversation");
  expect(text).not.toContain("layoffs");

  // Shared with the team, it reads by its title for everyone.
  const share = await m.api.patch(`/v1/agent/conversations/${body.id}`, { data: { shared: true } });
  expect(share.status(), await share.text()).toBe(200);
  expect(await names(bobApi)).toEqual({ logs: [body.title], ledger: [body.title] });
});

test("a large tool result is stored and re-sent cut to AGENT_TOOL_RESULT_MAX_BYTES, saying so to the model", async () => {
  const server = await startExtraServer({ AGENT_TOOL_RESULT_MAX_BYTES: "4000" });
  try {
    const team = await seedTeam();
    const m = await model(team.users[0]);
    const api = await requestContext({
      baseURL: server.baseUrl,
      extraHTTPHeaders: { authorization: `Bearer ${team.users[0].key}` },
    });
    const conn = await sandbox(api);
    // A year of daily rows: about 13 kB of JSON.
    await scriptModel(modelStandInUrl(), m.key, [
      { tool_calls: [read(conn, 366)] },
      { text: "Read a year." },
      { text: "Again." },
    ]);
    const res = await api.post("/v1/agent/conversations", {
      data: { model_connection_id: m.id, connection_ids: [conn], message: "A year of sessions" },
    });
    const body = (await res.json()) as TurnResult;
    expect(body.turn.status, body.turn.reply).toBe("completed");
    const log = await (await api.get(`/v1/logs/${body.turn.steps[0].log_id}`)).json();
    expect(JSON.stringify(log.output).length).toBeGreaterThan(8000); // the log keeps it whole
    await api.post(`/v1/agent/conversations/${body.id}/messages`, { data: { message: "Once more" } });
    const requests = await modelRequests(modelStandInUrl(), m.key);
    // Sent cut in the same turn and again from the stored history in the next.
    for (const r of [requests[1], requests[2]]) {
      const [result] = toolResults(r);
      expect(result.length).toBeLessThan(5000);
      expect(JSON.parse(result)).toMatchObject({
        truncated: true,
        original_bytes: expect.any(Number),
        note: expect.stringContaining("AGENT_TOOL_RESULT_MAX_BYTES"),
      });
    }
  } finally {
    await server.stop();
  }
});
