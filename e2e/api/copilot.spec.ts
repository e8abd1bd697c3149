import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, expectError, type SeededUser } from "../fixtures";
import { sessionAs } from "../support/session";
import { waitForRun } from "../support/runs";
import { modelRequests, modelStandInUrl, scriptModel } from "../support/model-script";

// Issue 36 part 3: the workflow Copilot over real HTTP. A member's words become a draft checked
// as a save checks it; the draft saves through the dashboard's own route and runs; each message
// is one `copilot` ledger entry. On the sandbox model (its Copilot script) and on OpenAI's wire
// format through the stand-in, where an invalid proposal's problems go back to the model.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
type Draft = {
  draft: Json | null;
  problems: string[];
  reply: string;
  usage: { input_tokens: number; output_tokens: number };
};

const PASSWORD = "copilot-pass-1";
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function connection(api: APIRequestContext, type: string, credentials: Record<string, string>) {
  const res = await api.post("/v1/connections", {
    data: { connection_type: type, name: `${type} ${unique()}`, credentials },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function setUp(user: SeededUser, teamId: string) {
  const api = await apiAs(user);
  const model = await connection(api, "sandbox_model", {});
  const sandbox = await connection(api, "sandbox_key", { api_key: `sk-copilot-${unique()}` });
  const session = await sessionAs(user.email, PASSWORD, teamId);
  return { api, model, sandbox, session };
}

async function copilotLedger(api: APIRequestContext) {
  const res = await api.get("/v1/credits/logs?limit=100");
  expect(res.status()).toBe(200);
  return ((await res.json()).data as Json[]).filter((e) => e.service.type === "copilot");
}

async function ask(session: APIRequestContext, data: Json): Promise<Draft> {
  const res = await session.post("/api/dashboard/workflows/copilot", { data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test("a Copilot draft that saves and runs; one copilot ledger entry per message, null then the workflow's id", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const { api, model, sandbox, session } = await setUp(team.users[0], team.id);

  const message = "Every day, report the sessions of the sandbox account";
  const name = "Daily sessions report";
  const first = await ask(session, { model_connection_id: model, message });
  expect(first.problems).toEqual([]);
  // Named for what it does, not after the message; not switched on, since nobody asked for that.
  expect(first.draft).toEqual({
    name,
    nodes: [
      {
        id: "report",
        label: "Sessions report",
        operation_id: "sandbox.report",
        connection_id: sandbox,
        input: { metric: "sessions", days: 7 },
      },
    ],
    schedule: "0 9 * * *",
    timezone: "UTC",
    active: false,
  });
  expect(first.reply).toBe(
    `Here is a draft: “${name}” runs sandbox.report (sessions over the last 7 days) every day at 09:00 (UTC). It is not active: switch Active on when it should run on its schedule.`,
  );
  expect(first.usage.input_tokens).toBeGreaterThan(0);
  expect(first.usage.output_tokens).toBeGreaterThan(0);
  expect(await copilotLedger(api)).toEqual([
    expect.objectContaining({ credits_used: 1, service: { type: "copilot", id: null, name } }),
  ]);

  // The draft is saved as the editor saves it, and runs.
  const saved = await session.post("/api/dashboard/workflows", { data: first.draft });
  expect(saved.status(), await saved.text()).toBe(200);
  const workflow = (await saved.json()) as Json;
  expect(workflow).toMatchObject({ name, schedule: "0 9 * * *", timezone: "UTC", active: false });
  const started = await session.post(`/api/dashboard/workflows/${workflow.id}/runs`);
  expect(started.status(), await started.text()).toBe(200);
  const run = await waitForRun((await started.json()).run_id as string, 60_000);
  expect(run.status).toBe("success");

  // Drafting for the saved workflow: no schedule asked for, so none; charged under its id and name.
  const second = await ask(session, {
    model_connection_id: model,
    message: "Report the sessions when I run it",
    workflow_id: workflow.id,
  });
  expect(second.problems).toEqual([]);
  // The saved workflow keeps its name (not the new message's) and stays as it was: inactive.
  expect(second.draft).toMatchObject({ name, schedule: null, timezone: null, active: false });
  expect(second.reply).toContain("when you run it");
  expect(await copilotLedger(api)).toEqual([
    expect.objectContaining({ credits_used: 1, service: { type: "copilot", id: workflow.id, name } }),
    expect.objectContaining({ service: { type: "copilot", id: null, name } }),
  ]);
});

test("the sandbox Copilot builds every step it can, names what it left out, keeps the zone and the name, activates only when asked", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const { model, sandbox, session } = await setUp(team.users[0], team.id);
  const message = "Every weekday at 8:30 in Europe/Paris, report the signups, save it as a note and send it to Slack";
  const first = await ask(session, { model_connection_id: model, message });
  expect(first.problems).toEqual([]);
  expect(first.draft).toEqual({
    name: "Weekday signups report to a note",
    nodes: [
      {
        id: "report",
        label: "Signups report",
        operation_id: "sandbox.report",
        connection_id: sandbox,
        input: { metric: "signups", days: 7 },
      },
      {
        id: "note",
        label: "Save it as the account's note",
        operation_id: "sandbox.set_note",
        connection_id: sandbox,
        input: { note: "{{nodes.report.output.total}} signups in the last 7 days" },
      },
    ],
    schedule: "30 8 * * 1-5",
    timezone: "Europe/Paris",
    active: false,
  });
  expect(first.reply).toBe(
    "Here is a draft: “Weekday signups report to a note” runs sandbox.report (signups over the last 7 days), then sandbox.set_note (saves the total as the account's note) every weekday at 08:30 (Europe/Paris). It is not active: switch Active on when it should run on its schedule. I left out “send it to Slack”: none of the operations you can use does that.",
  );

  // A second message on the draft in the editor: the name stays; asked to, it switches it on.
  const second = await ask(session, {
    model_connection_id: model,
    message: "Make it daily at 7am and turn it on",
    current: first.draft,
  });
  expect(second.problems).toEqual([]);
  expect(second.draft).toMatchObject({
    name: "Weekday signups report to a note",
    schedule: "0 7 * * *",
    timezone: "Europe/Paris",
    active: true,
  });
  expect(second.reply).toContain("It is active");
  expect(second.reply).not.toContain("left out");
});

test("the sandbox Copilot builds issue 48's three shapes from a sentence: each draft saves with the when, for_each, approval and stop it should have", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const { model, sandbox, session } = await setUp(team.users[0], team.id);
  const cases: { message: string; nodes: Json[]; schedule: string | null; reply: string[] }[] = [
    {
      message: "Pause the campaigns that overspend, with my approval",
      nodes: [
        { id: "report", operation_id: "sandbox.report", input: { metric: "revenue", days: 7 } },
        {
          id: "flag",
          operation_id: "sandbox.set_note",
          connection_id: sandbox,
          for_each: "{{nodes.report.output.rows}}",
          when: { left: "{{item.value}}", op: "gt", right: 25000 },
          approval: "required",
        },
      ],
      schedule: null,
      reply: ["each write waiting for your approval", "No operation you can use lists or pauses campaigns"],
    },
    {
      message: "Alert Slack only when sessions drop by more than 20%",
      nodes: [
        { id: "report", operation_id: "sandbox.report", input: { metric: "sessions", days: 2 } },
        {
          id: "no_drop",
          operation_id: "flow.stop",
          when: {
            left: "{{nodes.report.output.rows.1.value}}",
            op: "gte",
            right: "{{nodes.report.output.rows.0.value}}",
          },
        },
        { id: "alert", operation_id: "sandbox.set_note", connection_id: sandbox },
      ],
      schedule: null,
      reply: ["No operation you can use posts to Slack", "I left out “by more than 20%”"],
    },
    {
      message: "Add a weekly sheet row per client",
      nodes: [
        { id: "report", operation_id: "sandbox.report" },
        {
          id: "row",
          operation_id: "sandbox.set_note",
          for_each: "{{nodes.report.output.rows}}",
          continue_on_error: true,
        },
      ],
      schedule: "0 9 * * 1",
      reply: ["for each day", "every Monday at 09:00 (UTC)", "appends to a sheet"],
    },
  ];
  for (const c of cases) {
    const answer = await ask(session, { model_connection_id: model, message: c.message });
    expect(answer.problems, c.message).toEqual([]);
    expect(answer.draft, c.message).toMatchObject({ nodes: c.nodes, schedule: c.schedule, active: false });
    expect(answer.draft!.nodes).toHaveLength(c.nodes.length);
    for (const words of c.reply) expect(answer.reply, c.message).toContain(words);
    // The draft is what the editor saves: the save endpoint takes it as it is, conditions and loops included.
    const saved = await session.post("/api/dashboard/workflows", { data: answer.draft });
    expect(saved.status(), await saved.text()).toBe(200);
    expect(((await saved.json()) as Json).nodes, c.message).toMatchObject(c.nodes);
  }
});

test("validates input, needs a session, and a model connection the member sees", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const { api, sandbox, session } = await setUp(team.users[0], team.id);
  await expectError(
    await session.post("/api/dashboard/workflows/copilot", { data: { model_connection_id: "x", message: "" } }),
    400,
    "message",
  );
  await expectError(
    await session.post("/api/dashboard/workflows/copilot", {
      data: { model_connection_id: sandbox, message: "a report" },
    }),
    400,
    "not a model",
  );
  await expectError(
    await session.post("/api/dashboard/workflows/copilot", {
      data: { model_connection_id: "conn_nope", message: "a report" },
    }),
    404,
  );
  // An API key is for /v1, not the dashboard's routes.
  expect((await api.post("/api/dashboard/workflows/copilot", { data: {} })).status()).toBe(401);
  expect(await copilotLedger(api)).toEqual([]);
});

test("out of credits: refused with a sentence, no model call, no ledger entry", async () => {
  const team = await seedTeam({ password: PASSWORD, creditsLimit: 0 });
  const { api, model, session } = await setUp(team.users[0], team.id);
  await expectError(
    await session.post("/api/dashboard/workflows/copilot", {
      data: { model_connection_id: model, message: "Every day, report the sessions" },
    }),
    402,
    "no credits left",
  );
  expect(await copilotLedger(api)).toEqual([]);
});

test("OpenAI: an invalid proposal's problems go back to the model, and its second proposal is the draft", async () => {
  const team = await seedTeam({ password: PASSWORD });
  const user = team.users[0];
  const api = await apiAs(user);
  const key = `sk-openai-${unique()}`;
  const model = await connection(api, "openai", { api_key: key });
  const sandbox = await connection(api, "sandbox_key", { api_key: `sk-copilot-${unique()}` });
  const session = await sessionAs(user.email, PASSWORD, team.id);
  const node = (operation_id: string) => ({
    id: "report",
    label: "Sessions",
    operation_id,
    connection_id: sandbox,
    input: { metric: "sessions", days: 7 },
  });
  // The first proposal also puts the schedule in UTC where the member named Europe/Paris.
  const daily = (timezone: string) => ({ schedule: "0 9 * * *", timezone });
  await scriptModel(modelStandInUrl(), key, [
    { tool_calls: [{ name: "find_operations", arguments: { query: "sessions report" } }] },
    {
      tool_calls: [
        {
          name: "propose_workflow",
          arguments: { name: "Sessions", nodes: [node("sandbox.reprot")], ...daily("UTC") },
        },
      ],
    },
    {
      tool_calls: [
        {
          name: "propose_workflow",
          arguments: { name: "Sessions", nodes: [node("sandbox.report")], ...daily("Europe/Paris") },
        },
      ],
    },
    { text: "Here is a draft that reads the sessions." },
  ]);
  const body = await ask(session, {
    model_connection_id: model,
    message: "Sessions of last week, every day at 09:00 Europe/Paris",
  });
  expect(body).toMatchObject({
    // The model left `active` out: the draft is not switched on.
    draft: { name: "Sessions", nodes: [node("sandbox.report")], ...daily("Europe/Paris"), active: false },
    problems: [],
    reply: "Here is a draft that reads the sessions.",
  });
  const requests = await modelRequests(modelStandInUrl(), key);
  expect(requests).toHaveLength(4);
  expect(requests[0].tools?.map((t) => (t.function as { name: string }).name).sort()).toEqual([
    "find_operations",
    "get_operation_inputs",
    "propose_workflow",
  ]);
  // propose_workflow's input is the save schema itself: a node may carry a condition, a loop, a flag and an approval step.
  const propose = requests[0].tools!.find((t) => (t.function as { name: string }).name === "propose_workflow")!;
  const nodeSchema = (propose.function as Json).parameters.properties.nodes.items;
  expect(Object.keys(nodeSchema.properties)).toEqual(
    expect.arrayContaining(["when", "for_each", "continue_on_error", "approval"]),
  );
  expect(nodeSchema.properties.approval).toMatchObject({ const: "required" });
  // The third request carries the first proposal's problems as its tool result, in the save's words.
  const results = requests[2].messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  expect(results.at(-1)).toContain('"valid":false');
  expect(results.at(-1)).toContain('there is no operation \\"sandbox.reprot\\"');
  expect(results.at(-1)).toContain("the member asked for Europe/Paris, but the draft's is UTC; use Europe/Paris");
  expect(String(requests[3].messages.filter((m) => m.role === "tool").at(-1)?.content)).toContain('"valid":true');
  expect(await copilotLedger(api)).toEqual([
    expect.objectContaining({ credits_used: 1, service: { type: "copilot", id: null, name: "Sessions" } }),
  ]);
});
