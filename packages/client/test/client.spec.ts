import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Patchbay, type Log } from "@patchbay/client";
import { test, expect, cli, seed, seedTeam, baseURL } from "../../../e2e/fixtures";
import { clientFor, failure } from "./support";

// @patchbay/client against the run's real server: every /v1 operation, typed bodies back,
// errors as PatchbayError with the server's own detail, and cursor walks.

const DAY = 86_400;

/** Every request the client sent, as "GET /v1/logs/log_…", by way of its `fetch` option. */
function recorder() {
  const sent: string[] = [];
  const fetchAndRecord: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
    return fetch(input, init);
  };
  return { sent, fetch: fetchAndRecord };
}

test("every /v1 operation of the document, once, through the client", async () => {
  const team = await seedTeam({ name: "Client Co", plan: "team" });
  const { sent, fetch } = recorder();
  const patchbay = clientFor(team.users[0], { fetch });

  const types = await patchbay.connections.types();
  expect(types.map((t) => t.type)).toEqual(expect.arrayContaining(["sandbox_key", "sandbox_oauth"]));
  const created = await patchbay.connections.create({
    connection_type: "sandbox_key",
    name: "From the client",
    credentials: { api_key: "sk-client-1" },
  });
  expect(created).toMatchObject({
    id: expect.stringMatching(/^conn_/),
    type: "sandbox_key",
    display_name: "From the client",
    is_private: false,
  });
  expect((await patchbay.connections.list()).map((c) => c.id)).toContain(created.id);
  expect((await patchbay.connections.list({ type: "sandbox_oauth" })).map((c) => c.id)).not.toContain(created.id);
  expect((await patchbay.connections.get(created.id!)).map((c) => c.id)).toEqual([created.id]);

  const link = await patchbay.authLinks.create({ connection_type: "sandbox_oauth", external_id: "client-acme" });
  expect(link.url).toContain("/connect/");
  const status = await patchbay.authLinks.status(link.id);
  expect(status).toMatchObject({
    id: link.id,
    status: "pending",
    connection_type: "sandbox_oauth",
    external_id: "client-acme",
    connections: [],
  });

  const balance = await patchbay.credits.get();
  expect(balance.tier).toBe("team");
  expect(balance.credits_remaining).toBe(balance.credits_limit - balance.credits_used);

  await seed("logs", { team: team.id, startedAgo: [30, 20, 10], operationId: "client.op" });
  await seed("charges", {
    team: team.id,
    charges: [
      { credits: 3, type: "agent" },
      { credits: 4, type: "mcp" },
    ],
  });
  const page = await patchbay.logs.list({ operation_id: "client.op", limit: 2 });
  expect(page.data).toHaveLength(2);
  expect(page.has_more).toBe(true);
  const one: Log = await patchbay.logs.get(page.data[0].id);
  expect(one).toEqual(page.data[0]);
  const ledger = await patchbay.ledger.list({ limit: 10 });
  expect(ledger.data.map((e) => e.credits_used).sort()).toEqual([3, 4]);

  // The agent (an extension): a conversation on the sandbox model, reading the connection made above.
  const model = await patchbay.connections.create({ connection_type: "sandbox_model", name: "Model", credentials: {} });
  const started = await patchbay.agent.start({
    model_connection_id: model.id!,
    connection_ids: [created.id!],
    message: "The sessions report, please",
  });
  expect(started.turn).toMatchObject({
    status: "completed",
    steps: [{ operation_id: "sandbox.report", status: "success" }],
  });
  const next = await patchbay.agent.send(started.id, { message: "thanks" });
  expect(next.turn.status).toBe("completed");
  const shared = await patchbay.agent.share(started.id, { shared: true });
  expect(shared.turns.map((t) => t.message)).toEqual(["The sessions report, please", "thanks"]);
  expect((await patchbay.agent.get(started.id)).shared).toBe(true);
  expect((await patchbay.agent.list({ q: "sessions" })).data.map((c) => c.id)).toEqual([started.id]);

  // Workflow runs (an extension): the API trigger starts one, getRun reads it.
  const workflow = await cli(
    "workflow",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Client workflow",
    "--nodes",
    JSON.stringify([{ id: "hi", label: "Hi", operation_id: "utility.format_text", input: { template: "Hi" } }]),
  );
  expect(workflow.code, JSON.stringify(workflow.json)).toBe(0);
  const run = await patchbay.workflows.run(workflow.json.id, { input: { from: "client" } });
  expect(run).toEqual({ run_id: expect.stringMatching(/^run_/), status: "queued" });
  expect(await patchbay.workflows.getRun(workflow.json.id, run.run_id)).toMatchObject({
    run_id: run.run_id,
    workflow_id: workflow.json.id,
    trigger: { type: "api" },
  });

  // Usage (an extension): the workflow's run above, on no connection, is the null client.
  const now = Math.floor(Date.now() / 1000);
  const usage = await patchbay.usage.list({ group_by: "external_id", from: now - DAY, to: now + 60 });
  expect(usage.data.map((r) => r.key)).toContain(null);

  const deleted = await patchbay.connections.delete(created.id!);
  expect(deleted.id).toBe(created.id);
  const gone = await failure(patchbay.connections.get(created.id!));
  expect(gone).toMatchObject({ status: 404, code: "http_error", method: "GET" });

  // Each operation the live document lists was called.
  const doc = await (await globalThis.fetch(`${baseURL()}/v1/openapi.json`)).json();
  const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
  expect(operations).toHaveLength(19);
  for (const op of operations) {
    const pattern = new RegExp(`^${op.method} ${op.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    expect(
      sent.some((s) => pattern.test(s)),
      `${op.method} ${op.path} was called`,
    ).toBe(true);
  }
});

test("errors are PatchbayError with the server's status and detail; the aged-out 404 carries history_days", async () => {
  const team = await seedTeam({ name: "Client errors Co", plan: "free" });
  const patchbay = clientFor(team.users[0]);

  const tooBig = await failure(patchbay.logs.list({ limit: 1000 }));
  expect(tooBig).toBeInstanceOf(Error);
  expect(tooBig).toMatchObject({ status: 400, code: "http_error", detail: expect.stringContaining("limit") });
  expect(tooBig.requestId).toMatch(/\S/);
  expect(tooBig.message).toContain("GET /v1/logs: 400 limit");

  const refused = await failure(
    patchbay.connections.create({ connection_type: "sandbox_key", name: "x", credentials: { wrong_field: "1" } }),
  );
  expect(refused).toMatchObject({ status: 400, method: "POST", detail: expect.stringContaining("wrong_field") });

  const badKey = await failure(new Patchbay({ baseUrl: baseURL(), apiKey: "pb_not_a_key" }).credits.get());
  expect(badKey).toMatchObject({ status: 401, detail: expect.any(String) });

  const { ids } = await seed<{ ids: string[] }>("logs", { team: team.id, startedAgo: [2 * DAY] });
  const aged = await failure(patchbay.logs.get(ids[0]));
  expect(aged).toMatchObject({ status: 404, historyDays: 1, detail: { message: expect.any(String), history_days: 1 } });
  expect(aged.message).toContain("404");
  const unknown = await failure(patchbay.logs.get("log_doesnotexist0000000"));
  expect(unknown).toMatchObject({ status: 404, historyDays: undefined, detail: expect.any(String) });
});

test("iterate walks 5,000 logs in small pages, each exactly once, with the filters held for every page", async () => {
  // A budget, not an assertion: seeding 5,000 logs and ~260 pages took over 120 s beside a CPU burner.
  test.setTimeout(240_000);
  const team = await seedTeam({ name: "Client walk Co" });
  const made = await seed<{ logs: number; charges: Record<string, number> }>("bulkActivity", {
    team: team.id,
    count: 5000,
  });
  expect(made.logs).toBe(5000);
  const { sent, fetch } = recorder();
  // A page the transport fetched again (a 503 or a dropped connection on a loaded machine: CI,
  // 2026-12-02) is one page requested once by the walk; the retries are counted apart.
  const retries: string[] = [];
  const patchbay = clientFor(team.users[0], {
    fetch,
    onRetry: ({ method, status }) => retries.push(`${method} ${status}`),
  });

  const query = { limit: 50 };
  const seen = new Set<string>();
  let count = 0;
  let previous = Infinity;
  for await (const log of patchbay.logs.iterate(query)) {
    count++;
    seen.add(log.id);
    expect(log.started_at).toBeLessThanOrEqual(previous);
    previous = log.started_at;
    // Changing the caller's object mid-walk cannot change the walk's filters.
    (query as { limit: number; status?: string }).status = "error";
  }
  expect(count).toBe(5000);
  expect(seen.size).toBe(5000);
  expect(
    retries.every((r) => /^GET (0|429|503)$/.test(r)),
    retries.join(),
  ).toBe(true);
  expect(sent).toHaveLength(100 + retries.length);

  // Filtered: the errors only (every 10th step), the same on every page.
  const errors: string[] = [];
  for await (const log of patchbay.logs.iterate({ status: "error", limit: 20 })) {
    expect(log.status).toBe("error");
    errors.push(log.id);
  }
  expect(errors).toHaveLength(500);
  expect(new Set(errors).size).toBe(500);

  // The ledger: one entry per run, walked the same way; an early break stops asking.
  const entries = new Set<number | string>();
  for await (const entry of patchbay.ledger.iterate({ service_type: "workflow", limit: 37 })) {
    expect(entry.service.type).toBe("workflow");
    entries.add(entry.id);
  }
  expect(entries.size).toBe(made.charges.workflow);
  const [before, retriedBefore] = [sent.length, retries.length];
  for await (const _ of patchbay.ledger.iterate({ limit: 5 })) break;
  expect(sent.length - before).toBe(1 + retries.length - retriedBefore);
});

test("a caller's AbortSignal cancels the call; a per-call timeout becomes a PatchbayError", async () => {
  const team = await seedTeam({ name: "Client abort Co" });
  const patchbay = clientFor(team.users[0]);
  const controller = new AbortController();
  controller.abort(new Error("changed my mind"));
  await expect(patchbay.credits.get({ signal: controller.signal })).rejects.toThrow("changed my mind");

  // 1 ms is never enough for a round trip through the server.
  const slow = await failure(patchbay.logs.list({}, { timeoutMs: 1 }));
  expect(slow).toMatchObject({ status: 0, code: "timeout" });
  expect(slow.message).toContain("No response within 1 ms");
  expect((await patchbay.credits.get()).tier).toBeTruthy();

  // A server that sends its headers and then stalls mid-body: the timeout covers the body too.
  const stalling = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"credits_limit": 10');
  });
  await new Promise<void>((ready) => stalling.listen(0, "127.0.0.1", ready));
  try {
    const started = Date.now();
    const stalled = await failure(
      new Patchbay({
        baseUrl: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`,
        apiKey: "pbk_x",
        timeoutMs: 300,
      }).credits.get(),
    );
    expect(stalled).toMatchObject({ status: 0, code: "timeout", method: "GET" });
    expect(Date.now() - started).toBeLessThan(3000);
  } finally {
    stalling.closeAllConnections();
    stalling.close();
  }
});
