import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, cli, apiAs, anonymous, type SeededTeam } from "../fixtures";

// GET /v1/credits and GET /v1/credits/logs (spec §2.6, §2.7, §4.8, §4.9, §4.12, §7, §8).

type Balance = {
  credits_limit: number;
  credits_used: number;
  credits_remaining: number;
  billing_period_end?: number | null;
  tier: string;
};
type Entry = {
  id: number;
  credits_used: number;
  credits_remaining: number;
  service: { type: string; id: string | null; name: string | null };
  user: { id: string | null; email: string | null };
  created_at: number;
};
type Log = { id: string; source: { type: string; id: string | null; run_id: string | null }; started_at: number };
type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };
type Params = Record<string, string | number>;

const DAY = 86_400;
const SERVICE_TYPES = ["workflow", "agent", "copilot", "mcp"];
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function getJson<T>(api: APIRequestContext, path: string, params: Params = {}): Promise<T> {
  const res = await api.get(path, { params });
  expect(res.status(), `GET ${path} ${JSON.stringify(params)}: ${await res.text()}`).toBe(200);
  return res.json();
}

const balanceOf = (api: APIRequestContext) => getJson<Balance>(api, "/v1/credits");

/** Follows next_cursor to the end, checking the page contract on the way. */
async function walk<T>(api: APIRequestContext, path: string, params: Params, limit: number) {
  const items: T[] = [];
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: Page<T> = await getJson(api, path, { ...params, limit, ...(cursor ? { cursor } : {}) });
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

const ledgerOf = async (api: APIRequestContext, params: Params = {}, limit = 1000) =>
  (await walk<Entry>(api, "/v1/credits/logs", params, limit)).items;
const logsOf = async (api: APIRequestContext, params: Params = {}) =>
  (await walk<Log>(api, "/v1/logs", params, 100)).items;
const ids = (entries: { id: number | string }[]) => entries.map((e) => e.id);
const sum = (entries: { credits_used: number }[]) => entries.reduce((total, e) => total + e.credits_used, 0);

/** Newest first: created_at descending, ties by id descending. */
function expectNewestFirst(entries: Entry[]) {
  const outOfOrder: string[] = [];
  for (let i = 1; i < entries.length; i++) {
    const [a, b] = [entries[i - 1], entries[i]];
    if (!(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)))
      outOfOrder.push(`position ${i}: ${a.id}@${a.created_at} before ${b.id}@${b.created_at}`);
  }
  expect(outOfOrder).toEqual([]);
}

/** Every field of spec §2.7 (problems collected, asserted once). */
function entryProblems(entry: Entry, team: SeededTeam): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${entry.id}: ${what}`);
  };
  const isStringOrNull = (v: unknown) => v === null || typeof v === "string";
  const now = nowSeconds();
  check(
    JSON.stringify(Object.keys(entry).sort()) ===
      JSON.stringify(["created_at", "credits_remaining", "credits_used", "id", "service", "user"]),
    `fields ${Object.keys(entry).join(",")}`,
  );
  check(Number.isInteger(entry.id), "id is an integer");
  check(Number.isInteger(entry.credits_used) && entry.credits_used >= 0, `credits_used ${entry.credits_used}`);
  check(Number.isInteger(entry.credits_remaining), `credits_remaining ${entry.credits_remaining}`);
  check(
    Number.isInteger(entry.created_at) && entry.created_at > now - 60 * DAY && entry.created_at <= now + 60,
    `created_at ${entry.created_at} is Unix seconds`,
  );
  check(
    JSON.stringify(Object.keys(entry.service ?? {}).sort()) === JSON.stringify(["id", "name", "type"]),
    `service ${JSON.stringify(entry.service)}`,
  );
  check(SERVICE_TYPES.includes(entry.service?.type), `service.type ${entry.service?.type}`);
  check(
    isStringOrNull(entry.service?.id) && isStringOrNull(entry.service?.name),
    "service id and name are strings or null",
  );
  check(
    JSON.stringify(Object.keys(entry.user ?? {}).sort()) === JSON.stringify(["email", "id"]),
    `user ${JSON.stringify(entry.user)}`,
  );
  if (entry.user?.id === null) check(entry.user.email === null, "a null user has a null email");
  else {
    const member = team.users.find((u) => u.id === entry.user?.id);
    check(
      !!member && entry.user?.email === member.email,
      `user ${JSON.stringify(entry.user)} is a team member with their email`,
    );
  }
  return problems;
}

async function expectBadRequest(api: APIRequestContext, path: string, params: Params, mentions: RegExp) {
  const res = await api.get(path, { params });
  const body = await res.json();
  expect(res.status(), `GET ${path} ${JSON.stringify(params)} → ${JSON.stringify(body)}`).toBe(400);
  expect(typeof body.detail, JSON.stringify(body)).toBe("string");
  expect(body.detail).toMatch(mentions);
}

function simulate(
  teamId: string,
  counts: { workflowRuns: number; mcpCalls?: number; agents?: number; copilot?: number; days: number; seed: number },
) {
  return cli(
    "activity",
    "simulate",
    "--team",
    teamId,
    "--workflow-runs",
    String(counts.workflowRuns),
    "--mcp-calls",
    String(counts.mcpCalls ?? 0),
    "--agent-conversations",
    String(counts.agents ?? 0),
    "--copilot-uses",
    String(counts.copilot ?? 0),
    "--days",
    String(counts.days),
    "--seed",
    String(counts.seed),
  );
}

test("credit endpoints require auth", async () => {
  const anon = await anonymous();
  const wrong = await apiAs({ key: "pb_live_notarealkey0000000000000000000000" });
  for (const client of [anon, wrong]) {
    for (const path of ["/v1/credits", "/v1/credits/logs"]) {
      const res = await client.get(path);
      expect(res.status(), path).toBe(401);
      expect(typeof (await res.json()).detail).toBe("string");
    }
  }
});

test.describe("a team with simulated activity", () => {
  test.describe.configure({ mode: "default" });

  let team: SeededTeam;
  let api: APIRequestContext;
  let simulated: { logs: number; ledger_entries: number };
  let ledger: Entry[];
  let logs: Log[];
  const CREDITS_LIMIT = 5_000;

  test.beforeAll(async () => {
    team = await seedTeam({ members: 2, creditsLimit: CREDITS_LIMIT });
    const sim = await simulate(team.id, { workflowRuns: 30, mcpCalls: 12, agents: 5, copilot: 4, days: 5, seed: 11 });
    expect(sim.code, JSON.stringify(sim.json)).toBe(0);
    simulated = sim.json;
    api = await apiAs(team.users[0]);
    ledger = await ledgerOf(api);
    logs = await logsOf(api);
  });

  test.afterAll(async () => {
    await api?.dispose();
  });

  test("the balance has the fields of spec §2.6 and matches the ledger", async () => {
    const balance = await balanceOf(api);
    expect(Object.keys(balance).sort()).toEqual([
      "billing_period_end",
      "credits_limit",
      "credits_remaining",
      "credits_used",
      "tier",
    ]);
    expect(balance.credits_limit).toBe(CREDITS_LIMIT);
    expect(balance.tier).toBe("team");
    expect(Number.isInteger(balance.credits_used)).toBe(true);
    expect(balance.credits_used).toBeGreaterThan(0);
    expect(balance.credits_used).toBe(sum(ledger));
    expect(balance.credits_remaining).toBe(balance.credits_limit - balance.credits_used);
    // Unix seconds in the future (not milliseconds), within about a period.
    const now = nowSeconds();
    expect(Number.isInteger(balance.billing_period_end)).toBe(true);
    expect(balance.billing_period_end!).toBeGreaterThan(now);
    expect(balance.billing_period_end!).toBeLessThan(now + 400 * DAY);
    // Another member's key sees the same team balance.
    const other = await apiAs(team.users[1]);
    expect(await balanceOf(other)).toEqual(balance);
    await other.dispose();
  });

  test("every ledger entry has the fields of spec §2.7", async () => {
    expect(ledger.length).toBe(simulated.ledger_entries);
    expect(ledger.flatMap((e) => entryProblems(e, team))).toEqual([]);
    expect(new Set(ids(ledger)).size).toBe(ledger.length);
    for (const type of SERVICE_TYPES)
      expect(
        ledger.some((e) => e.service.type === type),
        `some ${type} charges`,
      ).toBe(true);
    expect(
      ledger.some((e) => e.user.id === team.users[1].id),
      "charges of the second member are listed",
    ).toBe(true);
    expect(
      ledger.some((e) => e.user.id === null),
      "system-triggered charges have a null user",
    ).toBe(true);
    expect(ledger.filter((e) => e.created_at < nowSeconds() - 5 * DAY - 60)).toEqual([]);
  });

  test("each entry's credits_remaining is the balance right after that charge", async () => {
    const balance = await balanceOf(api);
    expect(ledger[0].credits_remaining).toBe(balance.credits_remaining);
    // Oldest first, each snapshot is the limit minus everything charged so far (no renewal yet).
    const mismatches: string[] = [];
    let used = 0;
    for (const entry of [...ledger].reverse()) {
      used += entry.credits_used;
      if (entry.credits_remaining !== CREDITS_LIMIT - used)
        mismatches.push(`${entry.id}: ${entry.credits_remaining} != ${CREDITS_LIMIT - used}`);
    }
    expect(mismatches).toEqual([]);
  });

  test("a workflow run writes one log per node but one ledger entry; a conversation one entry", async () => {
    const workflowLogs = logs.filter((l) => l.source.type === "workflow");
    const runs = new Set(workflowLogs.map((l) => l.source.run_id));
    expect(runs.size).toBe(30);
    expect(workflowLogs.length).toBeGreaterThan(runs.size);
    const workflowEntries = ledger.filter((e) => e.service.type === "workflow");
    expect(workflowEntries.length).toBe(runs.size);
    // Per workflow too, and the charged workflow ids are the ones the logs name.
    const workflowIds = new Set(workflowLogs.map((l) => l.source.id));
    for (const id of workflowIds) {
      const runsOf = new Set(workflowLogs.filter((l) => l.source.id === id).map((l) => l.source.run_id));
      expect(workflowEntries.filter((e) => e.service.id === id).length, `entries for ${id}`).toBe(runsOf.size);
    }
    expect(new Set(workflowEntries.map((e) => e.service.id))).toEqual(workflowIds);
    for (const entry of workflowEntries) expect(typeof entry.service.name).toBe("string");
    // Agent usage is charged per conversation.
    const conversations = new Set(logs.filter((l) => l.source.type === "agent").map((l) => l.source.id));
    expect(conversations.size).toBe(5);
    const agentEntries = ledger.filter((e) => e.service.type === "agent");
    expect(new Set(agentEntries.map((e) => e.service.id))).toEqual(conversations);
    expect(agentEntries.length).toBe(conversations.size);
  });

  test("the default page is 25 entries, newest first; limit 1000 is accepted", async () => {
    const page = await getJson<Page<Entry>>(api, "/v1/credits/logs");
    expect(page.data.length).toBe(25);
    expect(page.has_more).toBe(true);
    expect(typeof page.next_cursor).toBe("string");
    expect(page.data).toEqual(ledger.slice(0, 25));
    expectNewestFirst(ledger);
    const full = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 1000 });
    expect(full).toEqual({ data: ledger, has_more: false, next_cursor: null });
    expect((await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 1 })).data).toEqual(ledger.slice(0, 1));
  });

  test("validates limit, service_type and times (400 with a detail naming the parameter)", async () => {
    for (const limit of ["1001", "0", "abc", "-1", "2.5", ""])
      await expectBadRequest(api, "/v1/credits/logs", { limit }, /limit/);
    for (const service_type of ["workflows", "WORKFLOW", "operation"])
      await expectBadRequest(api, "/v1/credits/logs", { service_type }, /service_type/);
    for (const created_after of ["-1", "abc", "1.5"])
      await expectBadRequest(api, "/v1/credits/logs", { created_after }, /created_after/);
    for (const created_before of ["-1", "abc", "1e9"])
      await expectBadRequest(api, "/v1/credits/logs", { created_before }, /created_before/);
    expect((await getJson<Page<Entry>>(api, "/v1/credits/logs", { created_after: 0, created_before: 0 })).data).toEqual(
      [],
    );
  });

  test("each filter returns exactly the matching entries, newest first", async () => {
    const workflowId = ledger.find((e) => e.service.type === "workflow")!.service.id!;
    const mcpId = ledger.find((e) => e.service.type === "mcp")!.service.id!;
    const conversationId = ledger.find((e) => e.service.type === "agent")!.service.id!;
    const [newer, older] = [ledger[10].created_at, ledger[30].created_at];
    const cases: [Params, (e: Entry) => boolean][] = [
      ...SERVICE_TYPES.map((t): [Params, (e: Entry) => boolean] => [{ service_type: t }, (e) => e.service.type === t]),
      [{ service_id: workflowId }, (e) => e.service.id === workflowId],
      [{ service_id: mcpId }, (e) => e.service.id === mcpId],
      [{ service_id: conversationId }, (e) => e.service.id === conversationId],
      [{ user_id: team.users[0].id }, (e) => e.user.id === team.users[0].id],
      [{ user_id: team.users[1].id }, (e) => e.user.id === team.users[1].id],
      [{ created_after: older }, (e) => e.created_at >= older],
      [{ created_before: newer }, (e) => e.created_at <= newer],
      [{ created_after: older, created_before: newer }, (e) => e.created_at >= older && e.created_at <= newer],
      [{ created_after: older + 1, created_before: newer - 1 }, (e) => e.created_at > older && e.created_at < newer],
      [
        { service_type: "workflow", user_id: team.users[1].id },
        (e) => e.service.type === "workflow" && e.user.id === team.users[1].id,
      ],
    ];
    for (const [params, matches] of cases) {
      const expected = ledger.filter(matches);
      expect(expected.length, `${JSON.stringify(params)} matches something`).toBeGreaterThan(0);
      expect(expected.length, `${JSON.stringify(params)} does not match everything`).toBeLessThan(ledger.length);
      expect(ids(await ledgerOf(api, params)), JSON.stringify(params)).toEqual(ids(expected));
    }
    // The bounds are inclusive: the entries sitting exactly on them are returned.
    const bounded = ids(await ledgerOf(api, { created_after: older, created_before: newer }));
    expect(bounded).toContain(ledger[10].id);
    expect(bounded).toContain(ledger[30].id);
    const exact = await ledgerOf(api, { created_after: newer, created_before: newer });
    expect(ids(exact)).toEqual(ids(ledger.filter((e) => e.created_at === newer)));
    for (const params of [{ service_id: "wf_nope" }, { user_id: "user_nope" }] as Params[]) {
      expect(await getJson(api, "/v1/credits/logs", params)).toEqual({ data: [], has_more: false, next_cursor: null });
    }
  });

  test("a full walk with a small limit returns every entry exactly once, newest first", async () => {
    const { items, pages } = await walk<Entry>(api, "/v1/credits/logs", {}, 7);
    expect(items.length).toBe(simulated.ledger_entries);
    expect(new Set(ids(items)).size).toBe(items.length);
    expectNewestFirst(items);
    expect(items).toEqual(ledger);
    expect(pages.length).toBe(Math.ceil(items.length / 7));
    expect(pages[pages.length - 1].has_more).toBe(false);
    expect(pages[pages.length - 1].next_cursor).toBeNull();
    // The same with a filter kept unchanged.
    const workflow = await walk<Entry>(api, "/v1/credits/logs", { service_type: "workflow" }, 4);
    expect(workflow.items).toEqual(ledger.filter((e) => e.service.type === "workflow"));
  });

  test("invalid, tampered and forged cursors get 400", async () => {
    const first = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 5 });
    const second = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 5, cursor: first.next_cursor! });
    const cursor = first.next_cursor!;
    const [payload, mac] = cursor.split(".");
    expect(mac, "cursor has a payload and a signature").toBeTruthy();
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const bad = [
      "garbage",
      "abc.def",
      `${cursor}x`,
      flip(payload, 0) + "." + mac,
      flip(payload, Math.floor(payload.length / 2)) + "." + mac,
      payload + "." + flip(mac, 2),
      second.next_cursor!.split(".")[0] + "." + mac,
    ];
    for (const c of bad) await expectBadRequest(api, "/v1/credits/logs", { limit: 5, cursor: c }, /cursor/i);
    // A log cursor is not a ledger cursor.
    const logCursor = (await getJson<Page<Log>>(api, "/v1/logs", { limit: 1 })).next_cursor!;
    await expectBadRequest(api, "/v1/credits/logs", { limit: 1, cursor: logCursor }, /cursor/i);
  });

  test("a cursor reused with different filters gets 400 naming the filters", async () => {
    const unfiltered = (await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 3 })).next_cursor!;
    const workflows = (await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 3, service_type: "workflow" }))
      .next_cursor!;
    const mismatches: Params[] = [
      { cursor: unfiltered, service_type: "workflow" },
      { cursor: unfiltered, user_id: team.users[0].id },
      { cursor: unfiltered, created_after: 0 },
      { cursor: workflows },
      { cursor: workflows, service_type: "mcp" },
    ];
    for (const params of mismatches)
      await expectBadRequest(api, "/v1/credits/logs", { limit: 3, ...params }, /filter/i);
  });

  test("changing only limit while paging continues from the same position", async () => {
    const first = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 4 });
    const next = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 1000, cursor: first.next_cursor! });
    expect(next).toEqual({ data: ledger.slice(4), has_more: false, next_cursor: null });
    const small = await getJson<Page<Entry>>(api, "/v1/credits/logs", { limit: 2, cursor: first.next_cursor! });
    expect(small.data).toEqual(ledger.slice(4, 6));
  });

  test("another team's ledger never appears", async () => {
    const other = await seedTeam();
    expect(
      (await simulate(other.id, { workflowRuns: 4, mcpCalls: 2, agents: 1, copilot: 1, days: 5, seed: 5 })).code,
    ).toBe(0);
    const otherApi = await apiAs(other.users[0]);
    const otherLedger = await ledgerOf(otherApi);
    expect(otherLedger.length).toBe(8);
    const mine = new Set(ids(await ledgerOf(api)));
    expect(otherLedger.filter((e) => mine.has(e.id))).toEqual([]);
    expect(ids(await ledgerOf(api))).toEqual(ids(ledger));
    for (const id of new Set(otherLedger.map((e) => e.service.id).filter((s): s is string => s !== null))) {
      expect(await ledgerOf(api, { service_id: id })).toEqual([]);
    }
    expect(await ledgerOf(api, { user_id: other.users[0].id })).toEqual([]);
    expect(await ledgerOf(otherApi, { user_id: team.users[0].id })).toEqual([]);
    const otherBalance = await balanceOf(otherApi);
    expect(otherBalance.credits_used).toBe(sum(otherLedger));
    expect((await balanceOf(api)).credits_used).toBe(sum(ledger));
    await otherApi.dispose();
  });
});

test("time bounds accept the whole int64 range (spec §4.9: integer (int64), minimum 0)", async () => {
  const team = await seedTeam();
  const api = await apiAs(team.users[0]);
  const INT64_MAX = "9223372036854775807";
  for (const params of [{ created_before: INT64_MAX }, { created_after: INT64_MAX }] as Params[]) {
    const res = await api.get("/v1/credits/logs", { params });
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toEqual({ data: [], has_more: false, next_cursor: null });
  }
  await api.dispose();
});

test("tier follows the team's plan", async () => {
  const team = await seedTeam({ plan: "pro" });
  const api = await apiAs(team.users[0]);
  expect((await balanceOf(api)).tier).toBe("pro");
  expect((await cli("team", "set-plan", "--team", team.id, "--plan", "free")).code).toBe(0);
  expect((await balanceOf(api)).tier).toBe("free");
  await api.dispose();
});

test("credits_remaining goes negative when runs overshoot the limit", async () => {
  const team = await seedTeam({ creditsLimit: 5 });
  expect((await simulate(team.id, { workflowRuns: 6, days: 1, seed: 9 })).code).toBe(0);
  const api = await apiAs(team.users[0]);
  const ledger = await ledgerOf(api);
  const balance = await balanceOf(api);
  expect(ledger.length).toBe(6);
  expect(balance.credits_limit).toBe(5);
  expect(balance.credits_used).toBe(sum(ledger));
  expect(balance.credits_used).toBeGreaterThan(5);
  expect(balance.credits_remaining).toBe(5 - balance.credits_used);
  expect(balance.credits_remaining).toBeLessThan(0);
  expect(ledger[0].credits_remaining).toBe(balance.credits_remaining);
  await api.dispose();
});

test("the ledger is not truncated by plan while logs are", async () => {
  const team = await seedTeam({ plan: "free" });
  const sim = await simulate(team.id, { workflowRuns: 30, mcpCalls: 10, agents: 3, copilot: 3, days: 10, seed: 13 });
  expect(sim.code).toBe(0);
  const api = await apiAs(team.users[0]);
  const now = nowSeconds();
  const ledger = await ledgerOf(api, {}, 10);
  expect(ledger.length).toBe(sim.json.ledger_entries);
  expect(ids(await ledgerOf(api, { created_after: 0 }))).toEqual(ids(ledger));
  const older = ledger.filter((e) => e.created_at < now - DAY - 60);
  expect(older.length, "charges older than the one-day window are listed").toBeGreaterThan(0);
  expect(ledger.some((e) => e.created_at < now - 5 * DAY)).toBe(true);
  expect(ids(await ledgerOf(api, { created_before: now - DAY - 60 }))).toEqual(ids(older));

  const logs = await logsOf(api, { started_after: 0 });
  expect(logs.length).toBeLessThan(sim.json.logs);
  expect(logs.filter((l) => l.started_at < now - DAY - 60)).toEqual([]);
  expect(await logsOf(api, { started_before: now - DAY - 60 })).toEqual([]);
  // Runs whose logs aged out are still charged.
  const visibleRuns = new Set(logs.filter((l) => l.source.type === "workflow").map((l) => l.source.run_id));
  expect(ledger.filter((e) => e.service.type === "workflow").length).toBeGreaterThan(visibleRuns.size);
  expect((await balanceOf(api)).credits_used).toBe(sum(ledger));
  await api.dispose();
});

test("credits renew resets usage without writing a ledger entry", async () => {
  const team = await seedTeam({ creditsLimit: 1_000 });
  expect((await simulate(team.id, { workflowRuns: 5, mcpCalls: 3, days: 2, seed: 17 })).code).toBe(0);
  const api = await apiAs(team.users[0]);
  const before = await ledgerOf(api);
  const balanceBefore = await balanceOf(api);
  expect(balanceBefore.credits_used).toBe(sum(before));
  expect(balanceBefore.credits_used).toBeGreaterThan(0);

  const renewed = await cli("credits", "renew", "--team", team.id);
  expect(renewed.code, JSON.stringify(renewed.json)).toBe(0);
  const balance = await balanceOf(api);
  expect(balance).toEqual({
    credits_limit: 1_000,
    credits_used: 0,
    credits_remaining: 1_000,
    billing_period_end: renewed.json.billing_period_end,
    tier: "team",
  });
  expect(balance.billing_period_end!).toBeGreaterThan(nowSeconds());
  expect(balance.billing_period_end!).toBeLessThan(nowSeconds() + 400 * DAY);
  expect(await ledgerOf(api)).toEqual(before);

  // The next charge snapshots the renewed balance, so the ledger can show the balance rising.
  expect((await simulate(team.id, { workflowRuns: 1, days: 1, seed: 19 })).code).toBe(0);
  const after = await ledgerOf(api);
  const known = new Set(ids(before));
  const added = after.filter((e) => !known.has(e.id));
  expect(added.length).toBe(1);
  expect(added[0].credits_remaining).toBe(1_000 - added[0].credits_used);
  expect(added[0].credits_remaining).toBeGreaterThan(Math.min(...before.map((e) => e.credits_remaining)));
  expect(after.filter((e) => known.has(e.id))).toEqual(before);
  const balanceAfter = await balanceOf(api);
  expect(balanceAfter.credits_used).toBe(added[0].credits_used);
  expect(balanceAfter.credits_remaining).toBe(1_000 - added[0].credits_used);
  await api.dispose();
});
