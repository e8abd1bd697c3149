import type { APIRequestContext, APIResponse } from "@playwright/test";
import { test, expect, seedTeam, apiAs, cli, type SeededTeam } from "../fixtures";

// Spec §5.3: a key is scoped to its team. Connection endpoints reach shared team connections
// plus the key user's private ones; auth links and logs are team-wide. Another team's IDs are
// indistinguishable from unknown ones (404), and its data never shows up in a list.

type Conn = { id: string; type: string; display_name: string | null; external_id: string | null; is_private: boolean };
type Log = {
  id: string;
  source: { type: string; id: string | null; run_id: string | null };
  user: { id: string | null };
};
type CreditLog = { id: number; service: { type: string; id: string | null }; user: { id: string | null } };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies read untyped; a wrong shape fails the assertion
async function ok<T = any>(res: APIResponse, what = ""): Promise<T> {
  const text = await res.text();
  expect(res.status(), `${what} ${res.url()}: ${text.slice(0, 300)}`).toBe(200);
  return JSON.parse(text);
}

async function expect404(res: APIResponse, what: string) {
  const text = await res.text();
  expect(res.status(), `${what}: ${text.slice(0, 300)}`).toBe(404);
  expect(res.headers()["content-type"], what).toMatch(/^application\/json/);
  expect(JSON.parse(text), what).toHaveProperty("detail");
}

/** Every page of a cursor-paginated list. */
async function allPages<T>(api: APIRequestContext, path: string, limit: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const body: { data: T[]; has_more: boolean; next_cursor: string | null } = await ok(
      await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
    );
    out.push(...body.data);
    if (!body.has_more) {
      expect(body.next_cursor).toBeNull();
      return out;
    }
    cursor = body.next_cursor;
  }
  throw new Error(`${path}: more than 100 pages`);
}

const keyConn = (name: string, isPrivate?: boolean) => ({
  connection_type: "sandbox_key",
  name,
  credentials: { api_key: `sk_${name.replace(/\W/g, "_")}` },
  ...(isPrivate !== undefined && { is_private: isPrivate }),
});

type TeamData = {
  team: SeededTeam;
  api: APIRequestContext;
  shared: Conn;
  private: Conn;
  link: { id: string };
  externalId: string;
  logs: Log[];
  credits: CreditLog[];
};

async function teamWithData(label: string): Promise<TeamData> {
  const team = await seedTeam({ members: 2 });
  const api = await apiAs(team.users[0]);
  const externalId = `ext-${label}-${team.id}`;
  const sim = await cli(
    "activity",
    "simulate",
    "--team",
    team.id,
    "--workflow-runs",
    "5",
    "--mcp-calls",
    "5",
    "--agent-conversations",
    "1",
    "--copilot-uses",
    "1",
    "--days",
    "3",
  );
  const [shared, priv, link] = await Promise.all([
    api.post("/v1/connections", { data: keyConn(`${label} shared`) }).then((r) => ok<Conn>(r, "create shared")),
    api.post("/v1/connections", { data: keyConn(`${label} private`, true) }).then((r) => ok<Conn>(r, "create private")),
    api
      .post("/v1/connections/auth-link", { data: { connection_type: "sandbox_oauth", external_id: externalId } })
      .then((r) => ok<{ id: string }>(r, "create link")),
  ]);
  expect(sim.code, JSON.stringify(sim.json)).toBe(0);
  expect(sim.json.logs).toBeGreaterThan(0);
  expect(sim.json.ledger_entries).toBeGreaterThan(0);
  const logs = await allPages<Log>(api, "/v1/logs", 100);
  const credits = await allPages<CreditLog>(api, "/v1/credits/logs", 1000);
  expect(logs.length).toBe(sim.json.logs);
  expect(credits.length).toBe(sim.json.ledger_entries);
  return { team, api, shared, private: priv, link, externalId, logs, credits };
}

/** What team A's owner can see, compared before and after team B's attempts. */
async function snapshot(d: TeamData) {
  return {
    connections: (await ok<Conn[]>(await d.api.get("/v1/connections"))).map((c) => c.id).sort(),
    link: await ok(await d.api.get(`/v1/connections/auth-links/${d.link.id}/status`)),
    logs: (await allPages<Log>(d.api, "/v1/logs", 100)).map((l) => l.id),
    credits: (await allPages<CreditLog>(d.api, "/v1/credits/logs", 1000)).map((c) => c.id),
    balance: await ok(await d.api.get("/v1/credits")),
  };
}

test.describe("between teams", () => {
  let a: TeamData;
  let b: TeamData;

  test.beforeAll(async () => {
    a = await teamWithData("A");
    b = await teamWithData("B");
  });

  test("B's lists never include A's connections, logs or ledger entries", async () => {
    const aConnIds = [a.shared.id, a.private.id];
    const aLogIds = new Set(a.logs.map((l) => l.id));
    const aCreditIds = new Set(a.credits.map((c) => c.id));

    for (const user of b.team.users) {
      const api = await apiAs(user);
      const conns = await ok<Conn[]>(await api.get("/v1/connections"));
      expect(conns.length).toBeGreaterThan(0);
      for (const c of conns) expect(aConnIds).not.toContain(c.id);
      for (const c of conns) expect([b.shared.id, b.private.id]).toContain(c.id);
      for (const c of await ok<Conn[]>(await api.get("/v1/connections?type=sandbox_key")))
        expect(aConnIds).not.toContain(c.id);
      expect(await ok(await api.get(`/v1/connections?external_id=${encodeURIComponent(a.externalId)}`))).toEqual([]);

      const logs = await allPages<Log>(api, "/v1/logs", 100);
      expect(logs.length).toBe(b.logs.length);
      for (const l of logs) expect(aLogIds.has(l.id), `A's log ${l.id} in B's list`).toBe(false);

      const credits = await allPages<CreditLog>(api, "/v1/credits/logs", 1000);
      expect(credits.length).toBe(b.credits.length);
      for (const c of credits) expect(aCreditIds.has(c.id), `A's ledger entry ${c.id} in B's list`).toBe(false);
    }
  });

  test("B's list filters with A's source, run and user ids come back empty", async () => {
    const api = await apiAs(b.team.users[0]);
    const workflowLog = a.logs.find((l) => l.source.type === "workflow" && l.source.run_id)!;
    const mcpLog = a.logs.find((l) => l.source.type === "mcp")!;
    expect(workflowLog && mcpLog).toBeTruthy();
    const empty = { data: [], has_more: false, next_cursor: null };
    for (const q of [
      `source_id=${workflowLog.source.id}`,
      `source_run_id=${workflowLog.source.run_id}`,
      `source_id=${mcpLog.source.id}`,
    ]) {
      expect(await ok(await api.get(`/v1/logs?${q}`)), q).toEqual(empty);
    }
    const aUser = a.credits.find((c) => c.user.id)?.user.id ?? a.team.users[0].id;
    for (const q of [`user_id=${aUser}`, `service_id=${workflowLog.source.id}`, `service_id=${mcpLog.source.id}`]) {
      expect(await ok(await api.get(`/v1/credits/logs?${q}`)), q).toEqual(empty);
    }
  });

  test("B's balance is B's own", async () => {
    const balanceA = await ok(await a.api.get("/v1/credits"));
    const balanceB = await ok(await b.api.get("/v1/credits"));
    const sum = (entries: CreditLog[]) =>
      entries.reduce((n, e) => n + (e as unknown as { credits_used: number }).credits_used, 0);
    expect(balanceA.credits_used).toBe(sum(a.credits));
    expect(balanceB.credits_used).toBe(sum(b.credits));
  });

  test("every by-id endpoint answers 404 to B for A's ids, and A's data is intact afterwards", async () => {
    const before = await snapshot(a);
    for (const user of b.team.users) {
      const api = await apiAs(user);
      for (const conn of [a.shared, a.private]) {
        await expect404(await api.get(`/v1/connections/${conn.id}`), `GET A's connection ${conn.display_name}`);
        await expect404(
          await api.get(`/v1/connections/${conn.id}?lookup_by=id`),
          `GET ?lookup_by=id A's connection ${conn.display_name}`,
        );
        await expect404(
          await api.get(`/v1/connections/${conn.id}?lookup_by=external_id`),
          `GET ?lookup_by=external_id with A's connection id`,
        );
        await expect404(await api.delete(`/v1/connections/${conn.id}`), `DELETE A's connection ${conn.display_name}`);
      }
      await expect404(
        await api.get(`/v1/connections/${encodeURIComponent(a.externalId)}?lookup_by=external_id`),
        "external_id lookup of A's external id",
      );
      await expect404(await api.get(`/v1/connections/auth-links/${a.link.id}/status`), "A's auth link status");
      for (const log of [a.logs[0], a.logs[a.logs.length - 1]]) {
        await expect404(await api.get(`/v1/logs/${log.id}`), "A's log");
      }
    }
    // The answer for another team's id is the same as for an id that never existed.
    const unknown = await b.api.get(`/v1/connections/conn_doesnotexist000000`);
    await expect404(unknown, "unknown id");

    expect(await snapshot(a)).toEqual(before);
    // And A can still read and delete what B could not.
    expect((await ok<Conn[]>(await a.api.get(`/v1/connections/${a.private.id}`))).map((c) => c.id)).toEqual([
      a.private.id,
    ]);
    expect((await ok(await a.api.get(`/v1/logs/${a.logs[0].id}`))).id).toBe(a.logs[0].id);
    const status = await ok(await a.api.get(`/v1/connections/auth-links/${a.link.id}/status`));
    expect(status).toMatchObject({
      id: a.link.id,
      status: "pending",
      external_id: a.externalId,
      connection_type: "sandbox_oauth",
    });
  });

  test("B's connections of the same type and name are separate from A's", async () => {
    // Same type, same name, same credentials in both teams: two unrelated connections.
    const [fromA, fromB] = await Promise.all([
      a.api.post("/v1/connections", { data: keyConn("same everywhere") }).then((r) => ok<Conn>(r)),
      b.api.post("/v1/connections", { data: keyConn("same everywhere") }).then((r) => ok<Conn>(r)),
    ]);
    expect(fromA.id).not.toBe(fromB.id);
    await expect404(await b.api.get(`/v1/connections/${fromA.id}`), "A's twin");
    await expect404(await a.api.get(`/v1/connections/${fromB.id}`), "B's twin");
    expect((await ok(await b.api.delete(`/v1/connections/${fromB.id}`))).id).toBe(fromB.id);
    expect((await ok<Conn[]>(await a.api.get(`/v1/connections/${fromA.id}`)))[0].id).toBe(fromA.id);
  });
});

test.describe("within a team", () => {
  test("private connections are reachable only by their owner; shared ones by every member", async () => {
    const team = await seedTeam({ members: 2 });
    const [api0, api1] = await Promise.all(team.users.map((u) => apiAs(u)));
    const shared0 = await ok<Conn>(await api0.post("/v1/connections", { data: keyConn("u0 shared", false) }));
    const private0 = await ok<Conn>(await api0.post("/v1/connections", { data: keyConn("u0 private", true) }));
    const private1 = await ok<Conn>(await api1.post("/v1/connections", { data: keyConn("u1 private", true) }));
    expect([shared0.is_private, private0.is_private, private1.is_private]).toEqual([false, true, true]);

    // Lists: each member sees the shared one plus their own private one.
    const ids = async (api: APIRequestContext, q = "") =>
      (await ok<Conn[]>(await api.get(`/v1/connections${q}`))).map((c) => c.id).sort();
    expect(await ids(api0)).toEqual([shared0.id, private0.id].sort());
    expect(await ids(api1)).toEqual([shared0.id, private1.id].sort());
    expect(await ids(api1, "?type=sandbox_key")).toEqual([shared0.id, private1.id].sort());

    // By id: the other member's private connection is 404 for GET and DELETE.
    await expect404(await api1.get(`/v1/connections/${private0.id}`), "u1 GET u0's private");
    await expect404(await api1.delete(`/v1/connections/${private0.id}`), "u1 DELETE u0's private");
    await expect404(await api0.get(`/v1/connections/${private1.id}`), "u0 GET u1's private");
    await expect404(await api0.delete(`/v1/connections/${private1.id}`), "u0 DELETE u1's private");

    // The shared one is visible to both, with the same body.
    const seen0 = await ok<Conn[]>(await api0.get(`/v1/connections/${shared0.id}`));
    const seen1 = await ok<Conn[]>(await api1.get(`/v1/connections/${shared0.id}`));
    expect(seen1).toEqual(seen0);
    expect(seen1).toHaveLength(1);
    expect(seen1[0]).toMatchObject({ id: shared0.id, display_name: "u0 shared", is_private: false });

    // The private ones survived the other member's attempts.
    expect((await ok<Conn[]>(await api0.get(`/v1/connections/${private0.id}`)))[0]).toMatchObject({
      id: private0.id,
      is_private: true,
    });
    expect((await ok<Conn[]>(await api1.get(`/v1/connections/${private1.id}`)))[0]).toMatchObject({
      id: private1.id,
      is_private: true,
    });

    // A member may delete a shared connection created by someone else.
    expect(await ok<Conn>(await api1.delete(`/v1/connections/${shared0.id}`))).toMatchObject({
      id: shared0.id,
      display_name: "u0 shared",
    });
    await expect404(await api0.get(`/v1/connections/${shared0.id}`), "deleted shared");
    expect(await ids(api0)).toEqual([private0.id]);
  });

  test("auth links and logs are team-wide: every member sees the others'", async () => {
    const team = await seedTeam({ members: 2 });
    const [api0, api1] = await Promise.all(team.users.map((u) => apiAs(u)));
    const link = await ok<{ id: string }>(
      await api0.post("/v1/connections/auth-link", {
        data: { connection_type: "sandbox_oauth", is_private: true, external_id: "private-link" },
      }),
    );
    expect(await ok(await api1.get(`/v1/connections/auth-links/${link.id}/status`))).toMatchObject({
      id: link.id,
      status: "pending",
      external_id: "private-link",
    });

    const sim = await cli(
      "activity",
      "simulate",
      "--team",
      team.id,
      "--workflow-runs",
      "3",
      "--mcp-calls",
      "3",
      "--agent-conversations",
      "0",
      "--copilot-uses",
      "0",
      "--days",
      "2",
    );
    expect(sim.code).toBe(0);
    const logs0 = await allPages<Log>(api0, "/v1/logs", 100);
    const logs1 = await allPages<Log>(api1, "/v1/logs", 100);
    expect(logs0.length).toBe(sim.json.logs);
    expect(logs1.map((l) => l.id)).toEqual(logs0.map((l) => l.id));
    expect((await allPages<CreditLog>(api1, "/v1/credits/logs", 1000)).length).toBe(sim.json.ledger_entries);
  });
});
