import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, seed, apiAs, expectError, type SeededTeam } from "../fixtures";

// GET /v1/logs?q=… (CONTRACT §12): words of the operation id, source name, error message, input
// and output; every other filter, the history window and the cursor hold with it; a hostile q is
// a 400 with detail or an empty page; a member never finds a log by text they may not read.

type Log = { id: string; operation_id: string; status: string; started_at: number; source: { name: string | null } };
type Page = { data: Log[]; has_more: boolean; next_cursor: string | null };
type Params = Record<string, string | number>;

const DAY = 86_400;
const ids = (logs: { id: string }[]) => logs.map((l) => l.id);
/** Ties on a second list by id descending: compare membership where seeds share a second. */
const sorted = (list: string[]) => [...list].sort();

async function search(api: APIRequestContext, params: Params): Promise<Page> {
  const res = await api.get("/v1/logs", { params });
  expect(res.status(), `GET /v1/logs ${JSON.stringify(params)}: ${await res.text()}`).toBe(200);
  return res.json();
}
const found = async (api: APIRequestContext, params: Params) => ids((await search(api, params)).data);

/** One log per call (seed "logs" makes one per entry of startedAgo). */
async function log(team: string, ago: number, fields: Record<string, unknown>): Promise<string> {
  const { ids: made } = await seed<{ ids: string[] }>("logs", { team, startedAgo: [ago], ...fields });
  return made[0];
}

test.describe("search", () => {
  let team: SeededTeam;
  let owner: APIRequestContext;
  let member: APIRequestContext;
  const at: Record<string, string> = {};
  let bulk: string[] = [];
  let now = 0;

  test.beforeAll(async () => {
    team = await seedTeam({ members: 2 });
    const [u0] = team.users;
    owner = await apiAs(team.users[0]);
    member = await apiAs(team.users[1]);
    at.opId = await log(team.id, 100, {
      operationId: "ga4.run_report",
      sourceType: "workflow",
      sourceName: "Weekly digest",
      input: { property: "properties/123" },
      output: { rows: 3 },
    });
    at.error = await log(team.id, 200, {
      operationId: "slack.post_message",
      status: "error",
      sourceType: "mcp",
      sourceName: "Ops bridge",
      output: { error: "Channel zebrafish was not found" },
    });
    at.input = await log(team.id, 300, { operationId: "sandbox.echo", input: { text: "pelican migration" } });
    at.output = await log(team.id, 400, { operationId: "sandbox.echo", output: { summary: "Marmalade totals" } });
    // Ran on the owner's private connection: its body is the owner's alone.
    at.private = await log(team.id, 500, {
      operationId: "sheets.read_range",
      sourceType: "mcp",
      sourceName: "Finance bridge",
      input: { range: "kumquat!A1" },
      output: { values: [["kumquat ledger"]] },
      privateTo: u0.id,
    });
    // The owner's unshared agent conversation: its title (the source name) is hers alone.
    const conv = await seed<{ id: string }>("agentConversation", {
      team: team.id,
      user: u0.id,
      title: "Plan the narwhal launch",
    });
    at.agent = await log(team.id, 600, {
      operationId: "sandbox.report",
      sourceType: "agent",
      sourceId: conv.id,
      sourceName: "Plan the narwhal launch",
      output: { total: 7 },
    });
    // Twelve logs for paging: three seconds with ties, statuses and sources mixed.
    const made = await seed<{ ids: string[]; now: number }>("logs", {
      team: team.id,
      startedAgo: [1000, 1000, 1000, 1100, 1200, 1200, 1300, 1400, 1500, 1600, 1700, 1800],
      operationId: "bulk.step",
      output: { tag: "quillwort" },
    });
    bulk = made.ids;
    now = made.now;
    for (const [i, ago] of [2000, 2100, 2200].entries())
      await log(team.id, ago, {
        operationId: "bulk.step",
        status: "error",
        sourceType: "workflow",
        output: { tag: "quillwort", error: `failure ${i}` },
      });
  });

  test.afterAll(async () => {
    await owner.dispose();
    await member.dispose();
  });

  test("finds a log by a word of its operation id, source name, error message, input or output", async () => {
    expect(await found(owner, { q: "run_report" })).toEqual([at.opId]);
    expect(await found(owner, { q: "ga4" })).toEqual([at.opId]);
    expect(await found(owner, { q: "weekly digest" })).toEqual([at.opId]);
    expect(await found(owner, { q: "zebrafish" })).toEqual([at.error]);
    expect(await found(owner, { q: "channel zebra" }), "every word as a prefix").toEqual([at.error]);
    expect(await found(owner, { q: "pelican" })).toEqual([at.input]);
    expect(await found(owner, { q: "MARMALADE" }), "ASCII letters in any case").toEqual([at.output]);
    expect(await found(owner, { q: "marm" })).toEqual([at.output]);
    // Every word must match, in any field: one in the name, one in the body.
    expect(await found(owner, { q: "bridge zebrafish" })).toEqual([at.error]);
    expect(await found(owner, { q: "zebrafish pelican" })).toEqual([]);
    expect(await found(owner, { q: "nosuchwordanywhere" })).toEqual([]);
    // A word inside another is not a match: words match from their start.
    expect(await found(owner, { q: "ebrafish" })).toEqual([]);
  });

  test("combines with status, source, started_after and started_before", async () => {
    const all = await found(owner, { q: "quillwort", limit: 100 });
    expect(all).toHaveLength(15);
    const errors = await found(owner, { q: "quillwort", status: "error" });
    expect(errors).toHaveLength(3);
    expect(await found(owner, { q: "quillwort failure", status: "success" })).toEqual([]);
    expect(await found(owner, { q: "quillwort", source_type: "workflow" })).toEqual(errors);
    expect(sorted(await found(owner, { q: "quillwort", source_type: "agent", limit: 100 }))).toEqual(sorted(bulk));
    expect(sorted(await found(owner, { q: "quillwort", started_after: now - 1100, limit: 100 }))).toEqual(
      sorted(bulk.slice(0, 4)),
    );
    expect(await found(owner, { q: "quillwort", started_before: now - 1900, status: "error" })).toEqual(errors);
    expect(sorted(await found(owner, { q: "step", operation_id: "bulk.step", started_after: now - 1000 }))).toEqual(
      sorted(bulk.slice(0, 3)),
    );
  });

  test("cursor pages with q give the one-page answer; a cursor is bound to its q", async () => {
    const whole = await found(owner, { q: "quillwort", limit: 100 });
    const walked: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const page: Page = await search(owner, { q: "quillwort", limit: 4, ...(cursor ? { cursor } : {}) });
      walked.push(...ids(page.data));
      cursor = page.next_cursor;
      first ??= cursor;
    } while (cursor);
    expect(walked).toEqual(whole);
    expect(new Set(whole).size).toBe(15);
    for (const params of [{ q: "quillworts" }, { q: "QUILLWORT" }, {}] as Params[]) {
      const res = await owner.get("/v1/logs", { params: { ...params, limit: 4, cursor: first! } });
      await expectError(res, 400, "cursor");
    }
    // And a cursor of the unsearched list is refused with a q.
    const plain = await search(owner, { limit: 2 });
    await expectError(
      await owner.get("/v1/logs", { params: { q: "quillwort", limit: 2, cursor: plain.next_cursor! } }),
      400,
      "cursor",
    );
  });

  test("a member does not find another member's private log by its input or output", async () => {
    expect(await found(owner, { q: "kumquat" })).toEqual([at.private]);
    expect(await found(owner, { q: "sheets kumquat" })).toEqual([at.private]);
    expect(await found(member, { q: "kumquat" })).toEqual([]);
    expect(await found(member, { q: "ledger" })).toEqual([]);
    expect(await found(member, { q: "sheets kumquat" })).toEqual([]);
    // What the member reads of it still finds it: that it ran, and where.
    expect(await found(member, { q: "sheets read_range" })).toEqual([at.private]);
    expect(await found(member, { q: "finance bridge" })).toEqual([at.private]);
  });

  test("a member does not find another member's unshared conversation by its title", async () => {
    expect(await found(owner, { q: "narwhal" })).toEqual([at.agent]);
    expect(await found(owner, { q: "narwhal total" })).toEqual([at.agent]);
    expect(await found(member, { q: "narwhal" })).toEqual([]);
    expect(await found(member, { q: "narwhal total" })).toEqual([]);
    expect(await found(member, { q: "sandbox.report total" })).toEqual([at.agent]);
  });

  test("another team's logs are never found", async () => {
    const other = await seedTeam();
    await log(other.id, 50, { operationId: "ga4.run_report", output: { summary: "Marmalade" } });
    const api = await apiAs(other.users[0]);
    expect(await found(api, { q: "zebrafish" })).toEqual([]);
    expect(await found(api, { q: "marmalade" })).toHaveLength(1);
    expect(await found(owner, { q: "marmalade" })).toEqual([at.output]);
    await api.dispose();
  });

  test("a hostile q is a 400 with detail or an empty page, never a 5xx", async () => {
    const pageOrRefusal = [
      "a & b | !c",
      "zebrafish & !channel",
      '"unterminated',
      "NEAR(zebrafish",
      "zebrafish OR pelican",
      "{body}: zebrafish",
      "zebrafish:*",
      '\'; DROP TABLE "OperationLog"; --',
      "a\\b",
      "🦊 émoji ünïcode",
      "x".repeat(200),
      "%",
      "_",
    ];
    for (const q of pageOrRefusal) {
      const res = await owner.get("/v1/logs", { params: { q } });
      expect([200, 400], `q=${q}: ${res.status()} ${await res.text()}`).toContain(res.status());
      const body = await res.json();
      if (res.status() === 400) expect(typeof body.detail).toBe("string");
      else expect(Array.isArray(body.data)).toBe(true);
    }
    // Operators are separators: the words still search, and mean nothing more.
    expect(await found(owner, { q: "zebrafish & !channel" }), "`!` negates nothing").toEqual([at.error]);
    expect(await found(owner, { q: "zebrafish OR pelican" })).toEqual([]);
    expect(await found(owner, { q: '"zebrafish' })).toEqual([at.error]);
    expect(await found(owner, { q: "NEAR(zebrafish" })).toEqual([]);
    // Were `{body}:` an FTS5 column filter it would find the log; as words, `body` matches nothing.
    expect(await found(owner, { q: "{body}: zebrafish" })).toEqual([]);
    expect(await found(owner, { q: "🦊" })).toEqual([]);
    // Nothing to search for, too long, too many words, empty, NUL: a 400 that says why.
    for (const q of ["*", ":*", "'", "\\", "!!! ---", '"', " "])
      await expectError(await owner.get("/v1/logs", { params: { q } }), 400, "q", "word");
    await expectError(await owner.get("/v1/logs", { params: { q: "x".repeat(10_240) } }), 400, "q", "200");
    await expectError(await owner.get("/v1/logs", { params: { q: "a b c d e f g h i" } }), 400, "q", "8");
    await expectError(await owner.get("/v1/logs", { params: { q: "" } }), 400, "q", "empty");
    await expectError(await owner.get("/v1/logs?q=zebra%00fish"), 400, "NUL");
    await expectError(await owner.get("/v1/logs?q=a&q=b"), 400, "q");
  });

  test("a log's later output is what is found (a step's start log updated), and a deleted log is not", async () => {
    const id = await log(team.id, 700, { operationId: "flow.wait", status: "start", output: { state: "waiting" } });
    expect(await found(owner, { q: "waiting" })).toEqual([id]);
    await seed("rewriteLog", { id, status: "success", output: { state: "albatross landed" } });
    expect(await found(owner, { q: "waiting" })).toEqual([]);
    expect(await found(owner, { q: "albatross" })).toEqual([id]);
    await seed("rewriteLog", { id, delete: true });
    expect(await found(owner, { q: "albatross" })).toEqual([]);
  });
});

test("a log outside the plan's history window is not found", async () => {
  const team = await seedTeam({ plan: "free", historyDays: 3 });
  const inside = await log(team.id, 2 * DAY, { output: { note: "fossil record" } });
  await log(team.id, 4 * DAY, { output: { note: "fossil record" } });
  const api = await apiAs(team.users[0]);
  expect(await found(api, { q: "fossil" })).toEqual([inside]);
  expect(await found(api, { q: "fossil", started_after: 0 })).toEqual([inside]);
  await api.dispose();
});

test("a rare word is found newest first across many months, behind a thousand newer logs without it, and pages in order", async () => {
  const team = await seedTeam({ historyDays: 800 });
  const api = await apiAs(team.users[0]);
  // 40 matches, one every 9 days from 20 days back (over 12 months, so over as many monthly
  // partitions on PostgreSQL; all younger than LOG_RETENTION_DAYS, 400, or the history job may
  // retire the oldest mid-test), and the newest thousand logs without the word: the search's first
  // tries (the newest logs) find nothing, and it reads the index's answer a stretch at a time.
  const ages = Array.from({ length: 40 }, (_, k) => (20 + 9 * k) * DAY);
  const { ids: matches, now } = await seed<{ ids: string[]; now: number }>("logs", {
    team: team.id,
    startedAgo: ages,
    together: true,
    output: { note: "heliotrope campaign" },
  });
  await seed("logs", {
    team: team.id,
    startedAgo: Array.from({ length: 1000 }, (_, k) => 60 + k),
    together: true,
    output: { note: "nothing to see" },
  });
  const first = await search(api, { q: "heliotrope", limit: 25 });
  expect(ids(first.data)).toEqual(matches.slice(0, 25));
  expect(first.has_more).toBe(true);
  const second = await search(api, { q: "heliotrope", limit: 25, cursor: first.next_cursor! });
  expect(ids(second.data)).toEqual(matches.slice(25));
  expect(second.has_more).toBe(false);
  // Within a window that ends in the middle of a month: the matches of its last 205 days.
  const recent = await found(api, { q: "heliotrope", started_after: now - 205 * DAY, limit: 100 });
  expect(recent).toEqual(matches.slice(0, 21));
  expect(await found(api, { q: "heliotrope", started_before: now - 305 * DAY, limit: 5 })).toEqual(
    matches.slice(32, 37),
  );
  await api.dispose();
});
