import type { UsagePage, UsageRow } from "@patchbay/client";
import { test, expect, baseURL, cli, seed, seedTeam, type SeededTeam } from "../../../e2e/fixtures";
import { clientFor, failure } from "./support";

// Usage per client and per connection through @patchbay/client (CONTRACT §12): usage.list gives
// exactly the pages GET /v1/usage sends, usage.iterate every group of them in order, and the
// groups' credits add up to the ledger of the range.

const DAY = 86_400;

/** Three clients' connections (one without external_id) with calls, beside simulated activity. */
async function seededTeam(): Promise<{ team: SeededTeam; from: number; to: number }> {
  const team = await seedTeam({ name: "Client usage Co" });
  const { now } = await seed<{ now: number }>("clientCalls", {
    team: team.id,
    clients: [
      { external_id: "acme", connections: 2 },
      { external_id: "globex", connections: 1 },
      { external_id: null, connections: 1 },
    ],
    calls: 3,
  });
  const simulated = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "6",
    "--mcp-calls",
    "12",
    "--agent-conversations",
    "2",
    "--copilot-uses",
    "2",
    "--days",
    "3",
    "--seed",
    "50",
  );
  expect(simulated.code, JSON.stringify(simulated.json)).toBe(0);
  return { team, from: now - 30 * DAY, to: now + 3600 };
}

/** Every page of GET /v1/usage as the server sends it, following next_cursor. */
async function rawPages(key: string, query: Record<string, string | number>): Promise<UsagePage[]> {
  const pages: UsagePage[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    if (cursor) params.set("cursor", cursor);
    const res = await fetch(`${baseURL()}/v1/usage?${params}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = (await res.json()) as UsagePage;
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

test("usage.list gives GET /v1/usage's pages and usage.iterate every group of them, per client and per connection", async () => {
  const { team, from, to } = await seededTeam();
  const patchbay = clientFor(team.users[0]);
  const key = team.users[0].key;

  for (const group_by of ["external_id", "connection_id"] as const) {
    const pages = await rawPages(key, { group_by, from, to, limit: 2 });
    expect(pages.length, group_by).toBeGreaterThan(1);
    // The same pages through the client, cursor by cursor.
    let cursor: string | undefined;
    for (const page of pages) {
      expect(await patchbay.usage.list({ group_by, from, to, limit: 2, ...(cursor && { cursor }) })).toEqual(page);
      cursor = page.next_cursor ?? undefined;
    }
    const all = pages.flatMap((p) => p.data);
    const walked: UsageRow[] = [];
    for await (const row of patchbay.usage.iterate({ group_by, from, to, limit: 2 })) walked.push(row);
    expect(walked).toEqual(all);
    // One page of the default size holds them all, in the same order: null first, then by key.
    const whole = await patchbay.usage.list({ group_by, from, to });
    expect(whole).toEqual({ data: all, has_more: false, next_cursor: null });
    expect(all[0].key).toBeNull();
    const keys = all.slice(1).map((r) => r.key!);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(all.map((r) => r.key)).size).toBe(all.length);

    // Exact: the groups' credits are the ledger's credits_used in [from, to).
    let ledger = 0;
    for await (const entry of patchbay.ledger.iterate({ limit: 1000 }))
      if (entry.created_at >= from && entry.created_at < to) ledger += entry.credits_used;
    expect(all.reduce((sum, r) => sum + r.credits, 0)).toBe(ledger);
    expect(ledger).toBeGreaterThan(0);
  }

  // Per client: globex's one connection made 3 calls, 2 of 2 credits and an error.
  const clients = await patchbay.usage.list({ group_by: "external_id", from, to });
  expect(clients.data.find((r) => r.key === "globex")).toEqual({ key: "globex", credits: 4, operations: 3, errors: 1 });
  const acme = clients.data.find((r) => r.key === "acme")!;
  expect(acme.operations).toBeGreaterThanOrEqual(6);
  expect(acme.credits).toBeGreaterThanOrEqual(8);
});

test("a range the server refuses is a PatchbayError 400 with its detail; the walk asks for nothing more", async () => {
  const team = await seedTeam();
  const patchbay = clientFor(team.users[0]);
  const now = Math.floor(Date.now() / 1000);
  const backwards = await failure(patchbay.usage.list({ group_by: "external_id", from: now, to: now - DAY }));
  expect(backwards.status).toBe(400);
  expect(String(backwards.detail)).toContain("from");
  const tooLong = await failure(
    (async () => {
      for await (const row of patchbay.usage.iterate({ group_by: "connection_id", from: now - 401 * DAY, to: now }))
        void row;
    })(),
  );
  expect(tooLong.status).toBe(400);
  expect(String(tooLong.detail)).toContain("400 days");
  // An empty range of a team without activity: one empty page.
  expect(await patchbay.usage.list({ group_by: "external_id", from: now - DAY, to: now })).toEqual({
    data: [],
    has_more: false,
    next_cursor: null,
  });
});
