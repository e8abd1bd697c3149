import { randomUUID } from "node:crypto";
import type { Patchbay, StartWorkflowRunBody } from "@patchbay/client";
import { test, expect, cli, seedTeam, type SeededTeam } from "../../../e2e/fixtures";
import { clientFor, failure } from "./support";

// Workflow runs through @patchbay/client (CONTRACT §13 API trigger) against the run's real
// server: workflows.run starts one with its input and an idempotency key, getRun reads it, and
// waitForRun polls it with backoff until it ends or waits for an approval.

type Node = Record<string, unknown>;

/** A workflow saved by the team's first member through the operator's CLI: its id. */
async function workflow(team: SeededTeam, nodes: Node[], ...flags: string[]): Promise<string> {
  const { code, json } = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    `Client run ${randomUUID().slice(0, 8)}`,
    "--nodes",
    JSON.stringify(nodes),
    ...flags,
  );
  expect(code, JSON.stringify(json)).toBe(0);
  return json.id;
}

/** A node that needs no connection and costs nothing: its output's text shows what the run read. */
const greet: Node = {
  id: "greet",
  label: "Greet",
  operation_id: "utility.format_text",
  input: { template: "Hello {{trigger.input.name}}, order {{trigger.input.order.id}}" },
};

/**
 * A fetch that passes every request to the server and notes when each run read was sent; the
 * first `holdFor` reads of a run answer `running` (the server's body otherwise), so the polling
 * has something to wait out whatever the runner's speed.
 */
function holdingRunning(holdFor: number) {
  const reads: number[] = [];
  const fetchAndHold: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const { pathname } = new URL(input instanceof Request ? input.url : String(input));
    if ((init?.method ?? "GET") !== "GET" || !/^\/v1\/workflows\/[^/]+\/runs\/[^/]+$/.test(pathname)) return response;
    reads.push(Date.now());
    if (reads.length > holdFor || !response.ok) return response;
    const body = { ...((await response.json()) as object), status: "running" };
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { reads, fetch: fetchAndHold };
}

test("run starts an active workflow with its input; waitForRun follows it to the end, and getRun reads it", async () => {
  const team = await seedTeam({ name: "Client runs Co" });
  const patchbay = clientFor(team.users[0]);
  const id = await workflow(team, [greet]);

  const started = await patchbay.workflows.run(id, { input: { name: "Ada", order: { id: 1042 } } });
  expect(started).toEqual({ run_id: expect.stringMatching(/^run_/), status: "queued" });
  const run = await patchbay.workflows.waitForRun(id, started.run_id, { timeoutMs: 60_000 });
  expect(run).toEqual({
    run_id: started.run_id,
    workflow_id: id,
    version: 1,
    status: "success",
    trigger: { type: "api" },
    started_at: expect.any(Number),
    completed_at: expect.any(Number),
    // 1 for the run; the utility costs nothing.
    credits: 1,
    replay_of: null,
  });
  expect(run.completed_at!).toBeGreaterThanOrEqual(run.started_at!);
  expect(await patchbay.workflows.getRun(id, started.run_id)).toEqual(run);

  // The node read the input as {{trigger.input…}}.
  const logs = await patchbay.logs.list({ source_run_id: started.run_id });
  expect(logs.data.map((l) => [l.operation_id, l.status, l.output])).toEqual([
    ["utility.format_text", "success", { text: "Hello Ada, order 1042" }],
  ]);

  // No body at all is an empty input: the references read null.
  const bare = await patchbay.workflows.run(id);
  await patchbay.workflows.waitForRun(id, bare.run_id, { timeoutMs: 60_000 });
  const bareLogs = await patchbay.logs.list({ source_run_id: bare.run_id });
  expect(bareLogs.data.map((l) => l.output)).toEqual([{ text: "Hello null, order null" }]);
});

test("the same idempotencyKey answers the first run and starts nothing; another key starts another run", async () => {
  const team = await seedTeam({ name: "Client idempotency Co" });
  const patchbay = clientFor(team.users[0]);
  const id = await workflow(team, [greet]);
  const key = `order-${randomUUID()}`;

  const first = await patchbay.workflows.run(id, { input: { name: "first" } }, { idempotencyKey: key });
  // A retry after a lost answer, even with another body, is the same run.
  const again = await patchbay.workflows.run(id, { input: { name: "second" } }, { idempotencyKey: key });
  expect(again).toEqual(first);
  const other = await patchbay.workflows.run(id, { input: { name: "other" } }, { idempotencyKey: `${key}-2` });
  expect(other.run_id).not.toBe(first.run_id);

  await patchbay.workflows.waitForRun(id, first.run_id, { timeoutMs: 60_000 });
  await patchbay.workflows.waitForRun(id, other.run_id, { timeoutMs: 60_000 });
  const texts = [];
  for await (const log of patchbay.logs.iterate({ source_id: id })) texts.push((log.output as { text: string }).text);
  expect(texts.sort()).toEqual(["Hello first, order null", "Hello other, order null"]);
});

test("errors: another team's workflow or run 404, an inactive workflow 409, a bad body or key 400, as PatchbayError", async () => {
  const team = await seedTeam({ name: "Client run errors Co" });
  const stranger = await seedTeam({ name: "Client run stranger Co" });
  const patchbay = clientFor(team.users[0]);
  const id = await workflow(team, [greet]);
  const inactive = await workflow(team, [greet], "--inactive");

  const theirs = await failure(clientFor(stranger.users[0]).workflows.run(id));
  expect(theirs).toMatchObject({ status: 404, method: "POST", detail: expect.stringContaining(id) });
  const started = await patchbay.workflows.run(id);
  const unseen = await failure(clientFor(stranger.users[0]).workflows.getRun(id, started.run_id));
  expect(unseen).toMatchObject({ status: 404, method: "GET" });
  const noRun = await failure(patchbay.workflows.getRun(id, "run_doesnotexist00000000"));
  expect(noRun).toMatchObject({ status: 404, detail: expect.stringContaining("run_doesnotexist00000000") });

  const off = await failure(patchbay.workflows.run(inactive, { input: {} }));
  expect(off).toMatchObject({ status: 409, detail: expect.stringContaining("inactive") });

  const notAnObject = await failure(patchbay.workflows.run(id, { input: "Ada" } as unknown as StartWorkflowRunBody));
  expect(notAnObject).toMatchObject({ status: 400, detail: expect.stringContaining("input") });
  const longKey = await failure(patchbay.workflows.run(id, {}, { idempotencyKey: "k".repeat(256) }));
  expect(longKey).toMatchObject({ status: 400, detail: expect.stringContaining("Idempotency-Key") });
});

test("waitForRun returns when a run waits for an approval, with no credits yet", async () => {
  const team = await seedTeam({ name: "Client run approval Co" });
  const patchbay = clientFor(team.users[0]);
  const connection = await patchbay.connections.create({
    connection_type: "sandbox_key",
    name: "Sandbox for approvals",
    credentials: { api_key: `sk-${randomUUID()}` },
  });
  const id = await workflow(team, [
    {
      id: "note",
      label: "Set the note",
      operation_id: "sandbox.set_note",
      connection_id: connection.id,
      input: { note: "from the client" },
      approval: "required",
    },
  ]);
  const { run_id } = await patchbay.workflows.run(id);
  const run = await patchbay.workflows.waitForRun(id, run_id, { timeoutMs: 60_000 });
  expect(run).toMatchObject({ run_id, status: "waiting_approval", completed_at: null, credits: null });
});

test("waitForRun backs off from 250 ms, doubling; its timeoutMs and signal end the wait", async () => {
  const team = await seedTeam({ name: "Client run polling Co" });
  const id = await workflow(team, [greet]);

  const held = holdingRunning(4);
  const polling = clientFor(team.users[0], { fetch: held.fetch });
  const { run_id } = await polling.workflows.run(id);
  const run = await polling.workflows.waitForRun(id, run_id, { timeoutMs: 60_000 });
  expect(run.status).toBe("success");
  // Four reads held at running, then the real answer (or more, had the run not ended by then).
  expect(held.reads.length).toBeGreaterThanOrEqual(5);
  const gaps = held.reads.slice(1, 5).map((at, i) => at - held.reads[i]);
  [250, 500, 1000, 2000].forEach((least, i) => expect(gaps[i], `wait ${i + 1}`).toBeGreaterThanOrEqual(least - 5));

  const stuck = holdingRunning(Infinity);
  const waiting: Patchbay = clientFor(team.users[0], { fetch: stuck.fetch });
  const t0 = Date.now();
  const late = await failure(waiting.workflows.waitForRun(id, run_id, { timeoutMs: 700 }));
  expect(late).toMatchObject({ status: 0, code: "timeout", method: "GET" });
  expect(late.message).toContain(`Run ${run_id} is still running after 700 ms`);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
  expect(Date.now() - t0).toBeLessThan(5_000);
  // Reads at about 0, 250 and 700 ms: the last wait is cut to the time left (a slow answer may leave none).
  expect(stuck.reads.length).toBeGreaterThanOrEqual(2);
  expect(stuck.reads.length).toBeLessThanOrEqual(3);

  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error("stop waiting")), 300);
  await expect(waiting.workflows.waitForRun(id, run_id, { signal: controller.signal })).rejects.toThrow("stop waiting");
});
