import { test, expect, seedTeam, apiAs } from "../fixtures";
import {
  connection,
  lastTurn,
  openAiModel,
  sandboxConnection,
  toolResults,
  unique,
  type AgentTurnResult as TurnResult,
} from "../support/agent-api";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";
import { modelRequests, modelStandInUrl, scriptModel } from "../support/model-script";

// Issue 45's "fresh read" (a reviewer who did not write the fixes): each test reproduces one way
// a member read what the logs redact for them, through the route it was found on. Each failed on
// the code reviewed (main at 9fb65ce) and passes now that the hole is closed.

const PASSWORD = "security-review-45";

type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

const sandbox = sandboxConnection;
const model = openAiModel;

test("hole A: another member's turn in a shared conversation reads a private write's result through get_operation_result", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [alice, bob] = team.users; // alice: owner; bob: member
  const m = await model(alice);
  const alicePrivate = await sandbox(m.api, { is_private: true });
  const secret = `alice-secret-${unique()}`;
  await scriptModel(modelStandInUrl(), m.key, [
    // Alice's turn: a write on her private connection, filed for her approval.
    {
      tool_calls: [
        {
          name: "run_write_operation",
          arguments: { operation_id: "sandbox.set_note", connection_id: alicePrivate, input: { note: secret } },
        },
      ],
    },
    { text: "Noted." },
  ]);
  const created = await m.api.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [alicePrivate], message: "Set the note", shared: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const conv = (await created.json()) as TurnResult;
  expect(conv.turn.status, conv.turn.reply).toBe("waiting_approval");
  const approvalId = conv.turn.steps[0].approval_id!;
  const aliceSession = await sessionAs(alice.email, PASSWORD, team.id);
  const approved = await aliceSession.post(`/api/dashboard/approvals/${approvalId}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  const done = await lastTurn(m.api, conv.id, "completed");
  const writeLog = done.steps[0].log_id!;

  // Bob reads the conversation (shared): he sees the approval id. The log of the write is redacted for him.
  const bobApi = await apiAs(bob);
  const seen = await (await bobApi.get(`/v1/agent/conversations/${conv.id}`)).json();
  expect(seen.turns[0].steps[0].approval_id).toBe(approvalId);
  const bobLog = await (await bobApi.get(`/v1/logs/${writeLog}`)).json();
  expect(bobLog.output).toEqual({ redacted: expect.any(String) });
  expect(JSON.stringify(bobLog)).not.toContain(secret);

  // Bob posts ("what did approval apr_… write?"); his model calls get_operation_result with that id.
  await scriptModel(modelStandInUrl(), m.key, [
    { tool_calls: [{ name: "get_operation_result", arguments: { approval_id: approvalId } }] },
    { text: "Here it is." },
  ]);
  const before = (await modelRequests(modelStandInUrl(), m.key)).length;
  const posted = await bobApi.post(`/v1/agent/conversations/${conv.id}/messages`, {
    data: { message: `What did approval ${approvalId} write?` },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  const requests = await modelRequests(modelStandInUrl(), m.key);
  const bobsSecondCall = requests[before + 1];
  const bobResults = toolResults(bobsSecondCall).at(-1) ?? "";
  // Was: Bob's model read {"note": secret, "previous_note": …} of Alice's private account.
  expect(bobResults).not.toContain(secret);
});

test("hole B: a team owner's token on a member's shared MCP server reads the member's private write through get_operation_result", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [owner, member] = team.users;
  const memberApi = await apiAs(member);
  const memberPrivate = await sandbox(memberApi, { is_private: true });
  const memberSession = await sessionAs(member.email, PASSWORD, team.id);
  const ownerSession = await sessionAs(owner.email, PASSWORD, team.id);
  // The member's own server, shared with the team, holding her private connection (allowed: she owns it).
  const made = await memberSession.post("/api/dashboard/mcp-servers", {
    data: { name: `Member server ${unique()}`, connection_ids: [memberPrivate], write_policy: "approval" },
  });
  expect(made.status(), await made.text()).toBe(200);
  const server = (await made.json()) as { id: string; is_private?: boolean };
  const minted = await memberSession.post(`/api/dashboard/mcp-servers/${server.id}/tokens`, { data: { name: "m" } });
  expect(minted.status(), await minted.text()).toBe(200);
  const memberClient = await mcpClient(((await minted.json()) as { token: string }).token);
  const secret = `member-secret-${unique()}`;
  const asked = (await memberClient.callTool({
    name: "run_write_operation",
    arguments: { operation_id: "sandbox.set_note", connection_id: memberPrivate, input: { note: secret } },
  })) as Result;
  expect(asked.isError, JSON.stringify(asked)).toBeFalsy();
  const approvalId = (asked.structuredContent as { approval_id: string }).approval_id;
  const approved = await memberSession.post(`/api/dashboard/approvals/${approvalId}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);

  // The owner sees that the request exists (id, status), not its content.
  const detail = await (await ownerSession.get(`/api/dashboard/approvals/${approvalId}`)).json();
  expect(JSON.stringify(detail)).not.toContain(secret);
  // A team owner may mint a token on any shared server (manageable()); its scope excludes her private connection ...
  const ownerMinted = await ownerSession.post(`/api/dashboard/mcp-servers/${server.id}/tokens`, {
    data: { name: "owner's" },
  });
  expect(ownerMinted.status(), await ownerMinted.text()).toBe(200);
  const ownerClient = await mcpClient(((await ownerMinted.json()) as { token: string }).token);
  const listed = (await ownerClient.callTool({ name: "list_connections", arguments: {} })) as Result;
  expect(JSON.stringify(listed.structuredContent)).not.toContain(memberPrivate);
  // ... but get_operation_result answers by server only.
  const read = (await ownerClient.callTool({
    name: "get_operation_result",
    arguments: { approval_id: approvalId },
  })) as Result;
  // Was: {"status":"succeeded","result":{"note": secret, "previous_note": null}}; now the status alone.
  expect(JSON.stringify(read)).not.toContain(secret);
  expect((read as { structuredContent?: unknown }).structuredContent).toEqual({
    approval_id: approvalId,
    status: "succeeded",
  });
});

test("hole C: a shared conversation's reply carries a private connection's result that the logs redact", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [alice, bob] = team.users;
  const aliceApi = await apiAs(alice);
  const alicePrivate = await sandbox(aliceApi, { is_private: true });
  const sandboxModel = await connection(aliceApi, "sandbox_model", {});
  const created = await aliceApi.post("/v1/agent/conversations", {
    data: { model_connection_id: sandboxModel, connection_ids: [alicePrivate], message: "report", shared: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const conv = (await created.json()) as TurnResult;
  expect(conv.turn.status, conv.turn.reply).toBe("completed");
  const aliceLog = await (await aliceApi.get(`/v1/logs/${conv.turn.steps[0].log_id}`)).json();
  const total = String(aliceLog.output.total);
  expect(conv.turn.reply).toContain(total);

  const bobApi = await apiAs(bob);
  const bobLog = await (await bobApi.get(`/v1/logs/${conv.turn.steps[0].log_id}`)).json();
  expect(bobLog.output).toEqual({ redacted: expect.any(String) });
  const seen = await (await bobApi.get(`/v1/agent/conversations/${conv.id}`)).json();
  // Was: Bob read the private total in the turn's reply (and his model got it as history).
  expect(seen.turns[0].reply).not.toContain(total);
});

test("hole D: after reading a private result, the agent's write on a shared connection is shown whole to every member", async () => {
  const team = await seedTeam({ members: 2, password: PASSWORD });
  const [alice, bob] = team.users;
  const m = await model(alice);
  const alicePrivate = await sandbox(m.api, { is_private: true });
  const shared = await sandbox(m.api);
  const carried = `carried-from-private-${unique()}`;
  await scriptModel(modelStandInUrl(), m.key, [
    {
      tool_calls: [
        {
          name: "run_operation",
          arguments: {
            operation_id: "sandbox.report",
            connection_id: alicePrivate,
            input: { metric: "sessions", days: 7 },
          },
        },
      ],
    },
    // The model, having read her private data, writes it into the shared account (a workflow's node doing so is logged private).
    {
      tool_calls: [
        {
          name: "run_write_operation",
          arguments: { operation_id: "sandbox.set_note", connection_id: shared, input: { note: carried } },
        },
      ],
    },
    { text: "Done." },
  ]);
  const created = await m.api.post("/v1/agent/conversations", {
    data: { model_connection_id: m.id, connection_ids: [alicePrivate, shared], message: "Copy it", shared: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const conv = (await created.json()) as TurnResult;
  // The request would show Bob (who could approve it) what the model derived from Alice's private
  // result, which the logs redact for him: it is not filed, and the model is told why.
  expect(conv.turn.status, conv.turn.reply).toBe("completed");
  expect(conv.turn.steps).toEqual([expect.objectContaining({ operation_id: "sandbox.report" })]);
  const refusal = JSON.stringify((await modelRequests(modelStandInUrl(), m.key))[2].messages);
  expect(refusal).toContain("Not filed");
  const bobSession = await sessionAs(bob.email, PASSWORD, team.id);
  const list = await (await bobSession.get("/api/dashboard/approvals")).json();
  expect(JSON.stringify(list)).not.toContain(carried);
});
