import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, seed, cli, apiAs, anonymous, type SeededTeam } from "../fixtures";

// GET /v1/logs and GET /v1/logs/{log_id} (spec §2.5, §4.10-4.12, §7, §8).

type Log = {
  id: string;
  operation_id: string;
  operation_version?: number | null;
  status: string;
  source: { type: string; id: string | null; run_id: string | null; name: string | null };
  user: { id: string | null; email: string | null };
  started_at: number;
  completed_at?: number | null;
  credits_used: number;
  cache_hit: boolean;
  input?: unknown;
  output?: unknown;
  metadata: Record<string, unknown>;
};
type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };
type Params = Record<string, string | number>;

const DAY = 86_400;
const STATUSES = ["success", "error", "skipped", "stop", "start"];
const SOURCE_TYPES = ["mcp", "agent", "workflow"];
const LOG_FIELDS = [
  "id",
  "operation_id",
  "operation_version",
  "status",
  "source",
  "user",
  "started_at",
  "completed_at",
  "credits_used",
  "cache_hit",
  "input",
  "output",
  "metadata",
];
const REQUIRED_LOG_FIELDS = [
  "id",
  "operation_id",
  "status",
  "source",
  "user",
  "started_at",
  "credits_used",
  "cache_hit",
  "metadata",
];
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function getPage(api: APIRequestContext, params: Params = {}): Promise<Page<Log>> {
  const res = await api.get("/v1/logs", { params });
  expect(res.status(), `GET /v1/logs ${JSON.stringify(params)}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** Follows next_cursor to the end, checking the page contract on the way. */
async function walk(api: APIRequestContext, params: Params, limit: number) {
  const items: Log[] = [];
  const pages: Page<Log>[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await getPage(api, { ...params, limit, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    if (cursor) expect(page.data.length, "a page after has_more: true is not empty").toBeGreaterThan(0);
    items.push(...page.data);
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      return { items, pages };
    }
    expect(typeof page.next_cursor).toBe("string");
    expect(page.data.length, "a page with more after it is full").toBe(limit);
    cursor = page.next_cursor;
    expect(pages.length, "the walk ends").toBeLessThan(500);
  }
}

/** Newest first: started_at descending, ties by id descending. */
function expectNewestFirst(logs: Log[]) {
  const outOfOrder: string[] = [];
  for (let i = 1; i < logs.length; i++) {
    const [a, b] = [logs[i - 1], logs[i]];
    const ordered = a.started_at > b.started_at || (a.started_at === b.started_at && a.id > b.id);
    if (!ordered) outOfOrder.push(`position ${i}: ${a.id}@${a.started_at} before ${b.id}@${b.started_at}`);
  }
  expect(outOfOrder).toEqual([]);
}

const ids = (logs: { id: string }[]) => logs.map((l) => l.id);

function expectUnique(values: unknown[]) {
  expect(new Set(values).size, "no repeats").toBe(values.length);
}

/**
 * Every field of spec §2.5, with its type. Problems are collected and asserted once: an
 * expect() per field per log makes a 200-log check take seconds.
 */
function logShapeProblems(log: Log, team: SeededTeam): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${log.id}: ${what}`);
  };
  const isInt = (v: unknown) => Number.isInteger(v);
  const isStringOrNull = (v: unknown) => v === null || typeof v === "string";
  for (const key of REQUIRED_LOG_FIELDS) check(key in log, `required field ${key} is missing`);
  for (const key of Object.keys(log)) check(LOG_FIELDS.includes(key), `field ${key} is not in the spec`);
  check(typeof log.id === "string" && log.id.length > 0, "id is a non-empty string");
  check(typeof log.operation_id === "string" && log.operation_id.length > 0, "operation_id is a non-empty string");
  check(
    log.operation_version === undefined || log.operation_version === null || isInt(log.operation_version),
    "operation_version is an integer or null",
  );
  check(STATUSES.includes(log.status), `status ${log.status} is one of ${STATUSES.join(",")}`);

  check(
    JSON.stringify(Object.keys(log.source ?? {}).sort()) === JSON.stringify(["id", "name", "run_id", "type"]),
    `source has exactly type, id, run_id, name: ${JSON.stringify(log.source)}`,
  );
  check(SOURCE_TYPES.includes(log.source?.type), `source.type ${log.source?.type}`);
  for (const key of ["id", "run_id", "name"] as const)
    check(isStringOrNull(log.source?.[key]), `source.${key} is a string or null`);
  if (log.source?.type === "workflow") check(typeof log.source.run_id === "string", "workflow logs have a run_id");
  else check(log.source?.run_id === null, "run_id is null outside workflows");

  check(
    JSON.stringify(Object.keys(log.user ?? {}).sort()) === JSON.stringify(["email", "id"]),
    `user has exactly id, email: ${JSON.stringify(log.user)}`,
  );
  if (log.user?.id === null) check(log.user.email === null, "a null user has a null email");
  else {
    const member = team.users.find((u) => u.id === log.user?.id);
    check(!!member, `user ${log.user?.id} is a team member`);
    check(log.user?.email === member?.email, `user email ${log.user?.email} is the member's`);
  }

  // Unix seconds: integers near now, not milliseconds.
  const now = nowSeconds();
  check(
    isInt(log.started_at) && log.started_at > now - 40 * DAY && log.started_at <= now + 60,
    `started_at ${log.started_at} is Unix seconds`,
  );
  if (log.status === "start") check((log.completed_at ?? null) === null, "completed_at is null while running");
  else
    check(
      isInt(log.completed_at) && log.completed_at! >= log.started_at && log.completed_at! < now + 3600,
      `completed_at ${log.completed_at} is Unix seconds after started_at`,
    );

  check(isInt(log.credits_used) && log.credits_used >= 0, `credits_used ${log.credits_used} is a whole number`);
  check(typeof log.cache_hit === "boolean", "cache_hit is a boolean");
  check(
    log.metadata !== null && typeof log.metadata === "object" && !Array.isArray(log.metadata),
    "metadata is an object",
  );
  return problems;
}

async function expectBadRequest(api: APIRequestContext, path: string, params: Params, mentions: RegExp) {
  const res = await api.get(path, { params });
  const body = await res.json();
  expect(res.status(), `GET ${path} ${JSON.stringify(params)} → ${JSON.stringify(body)}`).toBe(400);
  expect(typeof body.detail, JSON.stringify(body)).toBe("string");
  expect(body.detail).toMatch(mentions);
  return body.detail as string;
}

test.describe("GET /v1/logs requires auth", () => {
  test("missing, invalid and revoked keys get 401 with a detail", async () => {
    const team = await seedTeam();
    const anon = await anonymous();
    const wrong = await apiAs({ key: "pb_live_notarealkey0000000000000000000000" });
    for (const client of [anon, wrong]) {
      for (const path of ["/v1/logs", "/v1/logs/log_00000000000000000000"]) {
        const res = await client.get(path);
        expect(res.status(), path).toBe(401);
        expect(typeof (await res.json()).detail).toBe("string");
      }
    }
    const api = await apiAs(team.users[0]);
    expect((await api.get("/v1/logs")).status()).toBe(200);
    const revoked = await cli("apikey", "revoke", "--id", team.users[0].keyId);
    expect(revoked.code).toBe(0);
    const res = await api.get("/v1/logs");
    expect(res.status()).toBe(401);
    expect(typeof (await res.json()).detail).toBe("string");
  });
});

test.describe("a team with simulated activity", () => {
  test.describe.configure({ mode: "default" });

  let team: SeededTeam;
  let api: APIRequestContext;
  let simulated: { logs: number; ledger_entries: number };
  let seeded: { ids: string[]; now: number };
  let all: Log[];
  const SEEDED_AGO = [1000, 2000, 3000, 4000, 5000];
  const TIES = 12;
  const SEEDED_SOURCE = "conv_seeded";

  test.beforeAll(async () => {
    team = await seedTeam({ members: 2 });
    const sim = await cli(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "30",
      "--mcp-calls",
      "15",
      "--agent-conversations",
      "4",
      "--copilot-uses",
      "2",
      "--days",
      "5",
      "--seed",
      "7",
    );
    expect(sim.code, JSON.stringify(sim.json)).toBe(0);
    simulated = sim.json;
    // Exact times: five distinct seconds, then twelve logs sharing one second (ties across pages).
    seeded = await seed("logs", {
      team: team.id,
      startedAgo: [...SEEDED_AGO, ...Array(TIES).fill(7200)],
      status: "stop",
      operationId: "test.seeded",
      sourceType: "agent",
      sourceId: SEEDED_SOURCE,
    });
    api = await apiAs(team.users[0]);
    all = (await walk(api, {}, 100)).items;
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("lists every log the team wrote, including other members' runs", async () => {
    expect(all.length).toBe(simulated.logs + SEEDED_AGO.length + TIES);
    expectUnique(ids(all));
    expect(
      all.some((l) => l.user.id === team.users[1].id),
      "a run by the second member is visible to the first member's key",
    ).toBe(true);
    expect(all.some((l) => l.user.id === team.users[0].id)).toBe(true);
    expect(
      all.some((l) => l.user.id === null && l.user.email === null),
      "system-triggered runs have a null user",
    ).toBe(true);
  });

  test("every log has the fields of spec §2.5", async () => {
    expect(all.flatMap((log) => logShapeProblems(log, team))).toEqual([]);
    for (const type of SOURCE_TYPES)
      expect(
        all.some((l) => l.source.type === type),
        `some ${type} logs`,
      ).toBe(true);
  });

  test("workflow logs carry node metadata and a run id; MCP logs carry tool_name", async () => {
    const workflow = all.filter((l) => l.source.type === "workflow");
    expect(workflow.length).toBeGreaterThan(30);
    const bad = workflow.filter(
      (l) =>
        typeof l.source.run_id !== "string" ||
        typeof l.source.id !== "string" ||
        typeof l.source.name !== "string" ||
        typeof l.metadata.node_id !== "string" ||
        typeof l.metadata.node_label !== "string" ||
        !Number.isInteger(l.metadata.retry_attempts) ||
        (l.metadata.retry_attempts as number) < 0,
    );
    expect(bad).toEqual([]);
    // The output of a failed operation is its error payload.
    const failed = all.filter((l) => l.status === "error");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.filter((l) => l.output === null || l.output === undefined)).toEqual([]);
    const mcp = all.filter((l) => l.source.type === "mcp");
    expect(mcp.length).toBe(15);
    expect(
      mcp.filter(
        (l) => l.source.run_id !== null || typeof l.metadata.tool_name !== "string" || !l.metadata.tool_name.length,
      ),
    ).toEqual([]);
    expect(all.filter((l) => l.source.type === "agent" && l.source.run_id !== null)).toEqual([]);
    // A still-running operation: status start, completed_at null.
    expect(all.some((l) => l.status === "start" && l.completed_at === null)).toBe(true);
  });

  test("the default page is 25 logs, newest first", async () => {
    const page = await getPage(api);
    expect(page.data.length).toBe(25);
    expect(page.has_more).toBe(true);
    expect(typeof page.next_cursor).toBe("string");
    expect(ids(page.data)).toEqual(ids(all.slice(0, 25)));
    expectNewestFirst(all);
    expect((await getPage(api, { limit: 1 })).data.length).toBe(1);
    expect((await getPage(api, { limit: 100 })).data.length).toBe(100);
  });

  test("validates limit, enums and times (400 with a detail naming the parameter)", async () => {
    for (const limit of ["0", "101", "abc", "-1", "1.5", ""])
      await expectBadRequest(api, "/v1/logs", { limit }, /limit/);
    for (const source_type of ["workflows", "copilot", "WORKFLOW"])
      await expectBadRequest(api, "/v1/logs", { source_type }, /source_type/);
    for (const status of ["running", "failed", "SUCCESS"])
      await expectBadRequest(api, "/v1/logs", { status }, /status/);
    for (const started_after of ["-1", "abc", "1.5"])
      await expectBadRequest(api, "/v1/logs", { started_after }, /started_after/);
    for (const started_before of ["-1", "abc", "1e9"])
      await expectBadRequest(api, "/v1/logs", { started_before }, /started_before/);
    // The minimum itself is valid.
    expect((await getPage(api, { started_after: 0, started_before: 0 })).data).toEqual([]);
  });

  test("each filter returns exactly the matching logs, newest first", async () => {
    const workflowLog = all.find((l) => l.source.type === "workflow")!;
    const mcpLog = all.find((l) => l.source.type === "mcp")!;
    const agentLog = all.find((l) => l.source.type === "agent" && l.operation_id.startsWith("agent."))!;
    const cases: [Params, (l: Log) => boolean][] = [
      ...SOURCE_TYPES.map((t): [Params, (l: Log) => boolean] => [{ source_type: t }, (l) => l.source.type === t]),
      ...STATUSES.map((s): [Params, (l: Log) => boolean] => [{ status: s }, (l) => l.status === s]),
      [{ operation_id: workflowLog.operation_id }, (l) => l.operation_id === workflowLog.operation_id],
      [{ operation_id: mcpLog.operation_id }, (l) => l.operation_id === mcpLog.operation_id],
      [{ operation_id: "test.seeded" }, (l) => l.operation_id === "test.seeded"],
      [{ source_id: workflowLog.source.id! }, (l) => l.source.id === workflowLog.source.id],
      [{ source_id: mcpLog.source.id! }, (l) => l.source.id === mcpLog.source.id],
      [{ source_id: agentLog.source.id! }, (l) => l.source.id === agentLog.source.id],
      [{ source_type: "workflow", status: "error" }, (l) => l.source.type === "workflow" && l.status === "error"],
      [{ source_type: "agent", source_id: SEEDED_SOURCE, status: "stop" }, (l) => l.source.id === SEEDED_SOURCE],
    ];
    for (const [params, matches] of cases) {
      const expected = all.filter(matches);
      expect(expected.length, `${JSON.stringify(params)} matches something`).toBeGreaterThan(0);
      expect(expected.length, `${JSON.stringify(params)} does not match everything`).toBeLessThan(all.length);
      const got = (await walk(api, params, 100)).items;
      expect(ids(got), JSON.stringify(params)).toEqual(ids(expected));
    }
    for (const params of [
      { operation_id: "no.such.op" },
      { source_id: "wf_nope" },
      { source_run_id: "run_nope" },
    ] as Params[]) {
      expect(await getPage(api, params)).toEqual({ data: [], has_more: false, next_cursor: null });
    }
  });

  test("source_run_id returns every step of one run", async () => {
    const runs = [...new Set(all.filter((l) => l.source.type === "workflow").map((l) => l.source.run_id!))];
    expect(runs.length).toBe(30);
    for (const run of runs) {
      const expected = all.filter((l) => l.source.run_id === run);
      const got = (await walk(api, { source_run_id: run }, 100)).items;
      expect(ids(got)).toEqual(ids(expected));
      expect(new Set(got.map((l) => l.source.id)).size, "one workflow per run").toBe(1);
      expectUnique(got.map((l) => l.metadata.node_id)); // one log per node
    }
    const multiStep = runs.find((r) => all.filter((l) => l.source.run_id === r).length > 1);
    expect(multiStep, "runs have several steps").toBeTruthy();
  });

  test("started_after and started_before are inclusive bounds", async () => {
    const t = seeded.now;
    const [s1000, s2000, s3000, s4000] = seeded.ids;
    const only = { operation_id: "test.seeded" };
    const got = async (params: Params) => ids((await walk(api, { ...only, ...params }, 100)).items);
    expect(await got({ started_after: t - 4000, started_before: t - 2000 })).toEqual([s2000, s3000, s4000]);
    expect(await got({ started_after: t - 3999, started_before: t - 2001 })).toEqual([s3000]);
    expect(await got({ started_after: t - 2000, started_before: t - 2000 })).toEqual([s2000]);
    expect(await got({ started_after: t - 1000 })).toEqual([s1000]);
    expect(await got({ started_after: t - 5000, started_before: t - 5000 })).toEqual([seeded.ids[4]]);
    expect(await got({ started_after: t - 7200, started_before: t - 7200 })).toHaveLength(TIES);
    // Without other filters the bounds select exactly the logs in range.
    for (const [after, before] of [
      [t - 4000, t - 2000],
      [t - 2 * DAY, t - DAY],
    ]) {
      const expected = all.filter((l) => l.started_at >= after && l.started_at <= before);
      expect(ids((await walk(api, { started_after: after, started_before: before }, 100)).items)).toEqual(
        ids(expected),
      );
    }
  });

  test("a full walk with limit=7 returns every log exactly once, newest first", async () => {
    const { items, pages } = await walk(api, {}, 7);
    expect(items.length).toBe(simulated.logs + SEEDED_AGO.length + TIES);
    expectUnique(ids(items));
    expectNewestFirst(items);
    expect(ids(items)).toEqual(ids(all));
    expect(pages.length).toBe(Math.ceil(items.length / 7));
    const last = pages[pages.length - 1];
    expect(last.has_more).toBe(false);
    expect(last.next_cursor).toBeNull();
  });

  test("logs sharing one second page without gaps or repeats", async () => {
    const ties = seeded.ids.slice(SEEDED_AGO.length);
    const { items } = await walk(api, { operation_id: "test.seeded" }, 5);
    const expectedTies = [...ties].sort().reverse();
    expect(ids(items)).toEqual([...seeded.ids.slice(0, SEEDED_AGO.length), ...expectedTies]);
    expect(new Set(items.slice(SEEDED_AGO.length).map((l) => l.started_at))).toEqual(new Set([seeded.now - 7200]));
  });

  test("a walk with a filter returns the filtered logs exactly once, newest first", async () => {
    const cases: [Params, (l: Log) => boolean][] = [
      [{ source_type: "workflow" }, (l) => l.source.type === "workflow"],
      [{ status: "success" }, (l) => l.status === "success"],
    ];
    for (const [params, matches] of cases) {
      const { items } = await walk(api, params, 7);
      expectUnique(ids(items));
      expectNewestFirst(items);
      const expected = all.filter(matches);
      expect(ids(items)).toEqual(ids(expected));
    }
  });

  test("invalid, tampered and forged cursors get 400", async () => {
    const first = await getPage(api, { limit: 7 });
    const second = await getPage(api, { limit: 7, cursor: first.next_cursor! });
    const cursor = first.next_cursor!;
    const [payload, mac] = cursor.split(".");
    expect(mac, "cursor has a payload and a signature").toBeTruthy();
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const bad = [
      "garbage",
      "abc.def",
      `${cursor}x`,
      `${cursor}.extra`,
      flip(payload, 0) + "." + mac,
      flip(payload, Math.floor(payload.length / 2)) + "." + mac,
      payload + "." + flip(mac, 3),
      second.next_cursor!.split(".")[0] + "." + mac, // another position's payload under this signature
      Buffer.from("not json at all").toString("base64url") + "." + mac,
    ];
    for (const c of bad) await expectBadRequest(api, "/v1/logs", { limit: 7, cursor: c }, /cursor/i);
  });

  test("a cursor reused with different filters gets 400 naming the filters", async () => {
    const unfiltered = (await getPage(api, { limit: 3 })).next_cursor!;
    const workflows = (await getPage(api, { limit: 3, source_type: "workflow" })).next_cursor!;
    const withBounds = (await getPage(api, { limit: 3, started_after: 0 })).next_cursor!;
    const mismatches: Params[] = [
      { cursor: unfiltered, status: "success" },
      { cursor: unfiltered, source_type: "workflow" },
      { cursor: workflows },
      { cursor: workflows, source_type: "mcp" },
      { cursor: workflows, source_type: "workflow", status: "success" },
      { cursor: withBounds },
      { cursor: withBounds, started_after: 1 },
    ];
    for (const params of mismatches) await expectBadRequest(api, "/v1/logs", { limit: 3, ...params }, /filter/i);
  });

  test("changing only limit while paging continues from the same position", async () => {
    const first = await getPage(api, { limit: 7 });
    const next = await getPage(api, { limit: 20, cursor: first.next_cursor! });
    expect(ids(next.data)).toEqual(ids(all.slice(7, 27)));
    const after = await getPage(api, { limit: 2, cursor: next.next_cursor! });
    expect(ids(after.data)).toEqual(ids(all.slice(27, 29)));
    // Same with a filter kept unchanged.
    const wf = all.filter((l) => l.source.type === "workflow");
    const f1 = await getPage(api, { limit: 5, source_type: "workflow" });
    const f2 = await getPage(api, { limit: 11, source_type: "workflow", cursor: f1.next_cursor! });
    expect(ids(f2.data)).toEqual(ids(wf.slice(5, 16)));
  });

  test("a ledger cursor is not a log cursor", async () => {
    const ledger = await api.get("/v1/credits/logs", { params: { limit: 1 } });
    expect(ledger.status()).toBe(200);
    const { next_cursor } = await ledger.json();
    expect(typeof next_cursor).toBe("string");
    await expectBadRequest(api, "/v1/logs", { limit: 1, cursor: next_cursor }, /cursor/i);
  });

  test("GET /v1/logs/{id} returns the same object as the list", async () => {
    const samples = [
      all.find((l) => l.source.type === "workflow")!,
      all.find((l) => l.source.type === "workflow" && l.status === "error")!,
      all.find((l) => l.status === "start")!,
      all.find((l) => l.source.type === "mcp")!,
      all.find((l) => l.source.type === "agent" && l.operation_id.startsWith("agent."))!,
      all.find((l) => l.operation_id === "test.seeded")!,
      all[all.length - 1],
    ];
    for (const log of samples) {
      expect(log).toBeTruthy();
      const res = await api.get(`/v1/logs/${log.id}`);
      expect(res.status()).toBe(200);
      expect(await res.json()).toEqual(log);
    }
    // Another member's key of the same team sees the same log.
    const other = await apiAs(team.users[1]);
    expect(await (await other.get(`/v1/logs/${samples[0].id}`)).json()).toEqual(samples[0]);
    await other.dispose();
  });

  test("an unknown log id gets 404 with a string detail", async () => {
    for (const id of ["log_doesnotexist0000000", "nope"]) {
      const res = await api.get(`/v1/logs/${id}`);
      expect(res.status()).toBe(404);
      expect(typeof (await res.json()).detail).toBe("string");
    }
  });

  test("another team's logs are invisible: 404 by id, absent from lists", async () => {
    const other = await seedTeam();
    const workflowId = all.find((l) => l.source.type === "workflow")!.source.id!;
    // A log in the other team that names this team's workflow id.
    const { ids: otherIds } = await seed<{ ids: string[] }>("logs", {
      team: other.id,
      startedAgo: [120],
      sourceType: "workflow",
      sourceId: workflowId,
      runId: "run_other_team",
      sourceName: "Recorded in the other team",
    });
    const otherApi = await apiAs(other.users[0]);

    const res = await api.get(`/v1/logs/${otherIds[0]}`);
    expect(res.status()).toBe(404);
    expect(typeof (await res.json()).detail, "same answer as an unknown id").toBe("string");
    const back = await otherApi.get(`/v1/logs/${all[0].id}`);
    expect(back.status()).toBe(404);
    expect(typeof (await back.json()).detail).toBe("string");

    const otherAll = (await walk(otherApi, {}, 100)).items;
    expect(ids(otherAll)).toEqual(otherIds);
    // The other team's log keeps its own recorded name, not this team's workflow name.
    expect(otherAll[0].source.name).toBe("Recorded in the other team");
    expect(ids((await walk(otherApi, { source_id: workflowId }, 100)).items)).toEqual(otherIds);
    expect(ids((await walk(api, { source_run_id: "run_other_team" }, 100)).items)).toEqual([]);
    expect(ids((await walk(api, { source_id: workflowId }, 100)).items)).not.toContain(otherIds[0]);
    await otherApi.dispose();
  });
});

test("a cursor made for one filter value is not accepted for another split of the same text", async () => {
  const team = await seedTeam();
  // A source id containing `&`, so its cursor can be tried against {source_id, status} split apart.
  await seed("logs", { team: team.id, startedAgo: [60, 120], status: "stop", sourceId: "conv_a&status=stop" });
  const api = await apiAs(team.users[0]);
  const page = await getPage(api, { limit: 1, source_id: "conv_a&status=stop" });
  expect(page.has_more).toBe(true);
  await expectBadRequest(
    api,
    "/v1/logs",
    { limit: 1, source_id: "conv_a", status: "stop", cursor: page.next_cursor! },
    /filter/i,
  );
  await api.dispose();
});

test("time bounds accept the whole int64 range (spec §4.10: integer (int64), minimum 0)", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const INT64_MAX = "9223372036854775807";
  for (const params of [{ started_before: INT64_MAX }, { started_after: INT64_MAX }] as Params[]) {
    const res = await api.get("/v1/logs", { params });
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toEqual({ data: [], has_more: false, next_cursor: null });
  }
  await api.dispose();
});

test("source.name is the workflow's current name, falling back to the recorded one", async () => {
  const team = await seedTeam();
  const wf = await seed<{ id: string }>("workflow", { team: team.id, name: "Current workflow name" });
  const live = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    startedAgo: [300],
    sourceType: "workflow",
    sourceId: wf.id,
    runId: "run_live",
    sourceName: "Name at log time",
  });
  const gone = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    startedAgo: [200],
    sourceType: "workflow",
    sourceId: "wf_deleted000000000000",
    runId: "run_gone",
    sourceName: "Deleted workflow name",
  });
  const api = await apiAs(team.users[0]);
  const { data } = await getPage(api);
  expect(ids(data)).toEqual([gone.ids[0], live.ids[0]]);
  expect(data[1].source).toEqual({ type: "workflow", id: wf.id, run_id: "run_live", name: "Current workflow name" });
  expect(data[0].source).toEqual({
    type: "workflow",
    id: "wf_deleted000000000000",
    run_id: "run_gone",
    name: "Deleted workflow name",
  });
  expect((await (await api.get(`/v1/logs/${live.ids[0]}`)).json()).source.name).toBe("Current workflow name");
  await api.dispose();
});

test.describe("the plan's history window", () => {
  test("a free plan lists only the last day; older logs are 404 with history_days", async () => {
    const team = await seedTeam({ plan: "free" });
    const { ids: logIds, now } = await seed<{ ids: string[]; now: number }>("logs", {
      team: team.id,
      startedAgo: [2 * DAY, DAY + 600, DAY - 600, 3600],
    });
    const [twoDays, justOutside, justInside, anHour] = logIds;
    const api = await apiAs(team.users[0]);

    expect(ids((await getPage(api)).data)).toEqual([anHour, justInside]);
    // started_after cannot reach past the window.
    expect(ids((await getPage(api, { started_after: 0 })).data)).toEqual([anHour, justInside]);
    expect(ids((await getPage(api, { started_after: now - 3 * DAY })).data)).toEqual([anHour, justInside]);
    expect(ids((await getPage(api, { started_after: 0, started_before: now - DAY - 300 })).data)).toEqual([]);
    expect(ids((await getPage(api, { started_before: now - 3600 })).data)).toEqual([anHour, justInside]);
    expect(ids((await getPage(api, { operation_id: "test.op", limit: 1 })).data)).toEqual([anHour]);
    const walked = await walk(api, {}, 1);
    expect(ids(walked.items)).toEqual([anHour, justInside]);

    for (const aged of [twoDays, justOutside]) {
      const res = await api.get(`/v1/logs/${aged}`);
      expect(res.status()).toBe(404);
      const body = await res.json();
      expect(body).toEqual({ detail: { message: expect.any(String), history_days: 1 } });
      expect(body.detail.message.length).toBeGreaterThan(0);
    }
    for (const visible of [justInside, anHour]) expect((await api.get(`/v1/logs/${visible}`)).status()).toBe(200);
    const unknown = await api.get("/v1/logs/log_unknown0000000000000");
    expect(unknown.status()).toBe(404);
    expect(typeof (await unknown.json()).detail).toBe("string");
    await api.dispose();
  });

  test("a team with a 3-day window sees a 2-day-old log but not a 4-day-old one", async () => {
    const team = await seedTeam({ plan: "free", historyDays: 3 });
    const { ids: logIds } = await seed<{ ids: string[] }>("logs", { team: team.id, startedAgo: [2 * DAY, 4 * DAY] });
    const api = await apiAs(team.users[0]);
    expect(ids((await getPage(api, { started_after: 0 })).data)).toEqual([logIds[0]]);
    expect((await api.get("/v1/logs")).status()).toBe(200);
    const aged = await api.get(`/v1/logs/${logIds[1]}`);
    expect(aged.status()).toBe(404);
    expect(await aged.json()).toEqual({ detail: { message: expect.any(String), history_days: 3 } });
    await api.dispose();
  });
});

test("pages across the newest partition's start have every log once, in order, with and without a search", async () => {
  // PostgreSQL asks for the newest partition's part of a window first and for the rest after
  // (lib/logs/list-logs.ts): logs on both sides of the current month's start (UTC), pages of 2.
  const team = await seedTeam({ plan: "team" });
  const nowS = Math.floor(Date.now() / 1000);
  const d = new Date(nowS * 1000);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  // Just after the month's start (only those already past), at it, and just before it.
  const agoes = [-30, 0, 1, 2, 60, 3600].map((k) => nowS - monthStart - k).filter((ago) => ago > 0);
  const { ids: seededIds } = await seed<{ ids: string[] }>("logs", {
    team: team.id,
    startedAgo: agoes,
    operationId: "test.boundary",
  });
  const api = await apiAs(team.users[0]);
  const newestFirst = [...seededIds].reverse();
  const walked = await walk(api, { operation_id: "test.boundary" }, 2);
  expect(ids(walked.items)).toEqual(newestFirst);
  const searched = await walk(api, { q: "boundary" }, 2);
  expect(ids(searched.items)).toEqual(newestFirst);
  // A page of 3 from the newest partition's part falls short and is filled from the month before.
  const first = await getPage(api, { operation_id: "test.boundary", limit: 5 });
  expect(ids(first.data)).toEqual(newestFirst.slice(0, 5));
  await api.dispose();
});
