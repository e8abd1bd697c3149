import { test, expect, seed, seedTeam, apiAs, cli, expectError, type SeededTeam } from "../fixtures";
import { listedIds, mcpClient, rawMcp } from "../support/mcp";

// Spec §4.13 and §5.6: /mcp over Streamable HTTP with the official SDK's client, its bearer
// MCP token, per-request narrowing, and every tool call as one log and one ledger entry.

type Conn = { id: string };

async function connection(team: SeededTeam, name: string, extra: object = {}, user = team.users[0]): Promise<Conn> {
  const api = await apiAs(user);
  const res = await api.post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name}` }, ...extra },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A team with connections A, B, C, and an MCP server (created by the CLI) allowed A and B. */
async function setup() {
  const team = await seedTeam({ name: "MCP Co", members: 2 });
  const [a, b, c] = [await connection(team, "alpha"), await connection(team, "beta"), await connection(team, "gamma")];
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Claude Desktop",
    "--connections",
    `${a.id},${b.id}`,
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  expect(made.json).toEqual({
    id: expect.stringMatching(/^mcp_/),
    token: expect.stringMatching(/^pbm_[0-9A-Za-z]{40}$/),
  });
  return { team, a, b, c, server: made.json.id as string, token: made.json.token as string };
}

test.describe("authentication", () => {
  test("a missing, malformed or unknown token, or an API key, is a 401 with {detail}", async () => {
    const { team } = await setup();
    await expectError(await wrap(rawMcp({})), 401, "Missing Authorization header");
    await expectError(await wrap(rawMcp({ authorization: "Token abc" })), 401, "Malformed Authorization header");
    await expectError(await wrap(rawMcp({ authorization: `Bearer pbm_${"x".repeat(40)}` })), 401, "Invalid MCP token");
    await expectError(await wrap(rawMcp({ authorization: `Bearer ${team.users[0].key}` })), 401, "That is an API key");
    const res = await rawMcp({});
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("the SDK's client connects with a valid token; a revoked token is refused from then on", async () => {
    const { token, team, server } = await setup();
    const client = await mcpClient(token);
    expect(client.getServerVersion()?.name).toBe("patchbay");
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain("list_connections");
    await client.close();

    await seed("revokeMcpTokens", { team: team.id, server });
    await expectError(await wrap(rawMcp({ authorization: `Bearer ${token}` })), 401, "revoked");
    await expect(mcpClient(token)).rejects.toThrow();
  });

  test("GET and DELETE are refused with 405 once authenticated (stateless endpoint)", async () => {
    const { token } = await setup();
    const get = await fetch(new URL("/mcp", process.env.BASE_URL), { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await get.json()).detail).toContain("stateless");
  });
});

test.describe("narrowing (spec §4.13)", () => {
  test("with neither header nor query, the saved permissions apply", async () => {
    const { token, a, b } = await setup();
    expect(await listedIds(await mcpClient(token))).toEqual([a.id, b.id]);
  });

  test("the X-Service-Context header narrows to its connection_ids", async () => {
    const { token, a } = await setup();
    expect(
      await listedIds(await mcpClient(token, { serviceContext: JSON.stringify({ connection_ids: [a.id] }) })),
    ).toEqual([a.id]);
  });

  test("the connection_ids query narrows to its comma-separated ids", async () => {
    const { token, a, b } = await setup();
    expect(await listedIds(await mcpClient(token, { query: `?connection_ids=${b.id}` }))).toEqual([b.id]);
    expect(await listedIds(await mcpClient(token, { query: `?connection_ids=${b.id},${a.id}` }))).toEqual([a.id, b.id]);
  });

  test("when both are given the header wins", async () => {
    const { token, a, b } = await setup();
    const client = await mcpClient(token, {
      serviceContext: JSON.stringify({ connection_ids: [a.id] }),
      query: `?connection_ids=${b.id}`,
    });
    expect(await listedIds(client)).toEqual([a.id]);
  });

  test("an empty array or an empty query value allows no connection", async () => {
    const { token } = await setup();
    const viaHeader = await mcpClient(token, { serviceContext: JSON.stringify({ connection_ids: [] }) });
    expect(await listedIds(viaHeader)).toEqual([]);
    // No provider tool has anything to run on; the catalogue's discovery tools stay (CONTRACT §8).
    expect((await viaHeader.listTools()).tools.map((t) => t.name)).toEqual([
      "list_connections",
      "find_operations",
      "get_operation_inputs",
      "run_operation",
      "run_write_operation",
      "get_operation_result",
    ]);
    expect(await listedIds(await mcpClient(token, { query: "?connection_ids=" }))).toEqual([]);
  });

  test("ids outside the saved permissions are never reachable: narrowing only narrows", async () => {
    const { token, a, c } = await setup();
    expect(
      await listedIds(await mcpClient(token, { serviceContext: JSON.stringify({ connection_ids: [c.id] }) })),
    ).toEqual([]);
    expect(await listedIds(await mcpClient(token, { query: `?connection_ids=${a.id},${c.id},conn_unknown` }))).toEqual([
      a.id,
    ]);
  });

  for (const [header, why] of [
    ["not json", "not valid JSON"],
    ["", "not valid JSON"],
    [JSON.stringify([]), "must be a JSON object"],
    ["null", "must be a JSON object"],
    [JSON.stringify({}), "has no connection_ids"],
    [JSON.stringify({ connectionIds: ["conn_x"] }), "has no connection_ids"],
    [JSON.stringify({ connection_ids: "conn_x" }), "must be an array"],
    [JSON.stringify({ connection_ids: [1] }), "connection_ids[0] must be a non-empty string"],
  ]) {
    test(`a malformed X-Service-Context (${header || "empty"}) is a 400, never a silent widening`, async () => {
      const { token } = await setup();
      await expectError(
        await wrap(rawMcp({ authorization: `Bearer ${token}`, "x-service-context": header })),
        400,
        why,
      );
    });
  }
});

test.describe("tool calls", () => {
  test("list_connections is one log (source mcp, tool_name) and one ledger entry (service mcp) per call", async () => {
    const { team, token, server, a, b } = await setup();
    const client = await mcpClient(token);
    await client.callTool({ name: "list_connections", arguments: {} });
    const api = await apiAs(team.users[0]);
    const logs = (await (await api.get(`/v1/logs?source_id=${server}`)).json()).data;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      operation_id: "mcp.list_connections",
      status: "success",
      source: { type: "mcp", id: server, name: "Claude Desktop", run_id: null },
      user: { id: team.users[0].id, email: team.users[0].email },
      cache_hit: false,
      metadata: { tool_name: "list_connections" },
    });
    const full = await (await api.get(`/v1/logs/${logs[0].id}`)).json();
    expect(full.output.connections.map((c: Conn) => c.id)).toEqual([a.id, b.id]);
    const ledger = (await (await api.get(`/v1/credits/logs?service_id=${server}`)).json()).data;
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      service: { type: "mcp", id: server, name: "Claude Desktop" },
      user: { id: team.users[0].id },
    });
  });

  test("deleting a connection removes it from every MCP server's permissions", async () => {
    const { team, token, a, b } = await setup();
    const api = await apiAs(team.users[0]);
    expect((await api.delete(`/v1/connections/${a.id}`)).status()).toBe(200);
    expect(await listedIds(await mcpClient(token))).toEqual([b.id]);
    expect(
      await listedIds(await mcpClient(token, { serviceContext: JSON.stringify({ connection_ids: [a.id, b.id] }) })),
    ).toEqual([b.id]);
  });

  test("another member's private connection cannot be saved on a server; the owner's own private one can", async () => {
    const team = await seedTeam({ name: "MCP Private Co", members: 2 });
    const [owner, other] = team.users;
    const mine = await connection(team, "mine", { is_private: true }, owner);
    const theirs = await connection(team, "theirs", { is_private: true }, other);
    const refused = await cli(
      "mcp",
      "create",
      "--team",
      team.id,
      "--user",
      owner.id,
      "--name",
      "X",
      "--connections",
      theirs.id,
    );
    expect(refused.code).toBe(1);
    expect(refused.json.error).toContain(theirs.id);
    const made = await cli(
      "mcp",
      "create",
      "--team",
      team.id,
      "--user",
      owner.id,
      "--name",
      "Mine",
      "--connections",
      mine.id,
      "--private",
    );
    expect(made.code, JSON.stringify(made.json)).toBe(0);
    expect(await listedIds(await mcpClient(made.json.token))).toEqual([mine.id]);
  });
});

test("a token someone else minted on a server never reaches its owner's private connections; when the owner leaves the team, the owner's own tokens stop", async () => {
  const team = await seedTeam({ name: "MCP Leaver Co", members: 2 });
  const [admin, leaver] = team.users;
  const shared = await connection(team, "shared", {}, admin);
  const privateOne = await connection(team, "leaver-private", { is_private: true }, leaver);
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    leaver.id,
    "--name",
    "Leaver's agent",
    "--connections",
    `${shared.id},${privateOne.id}`,
  );
  expect(await listedIds(await mcpClient(made.json.token))).toEqual([shared.id, privateOne.id]);
  // A team owner may mint tokens on a shared server, but theirs act without the owner's private connections.
  const adminToken = (await seed("mcpToken", { team: team.id, user: admin.id, server: made.json.id })).token;
  expect(await listedIds(await mcpClient(adminToken))).toEqual([shared.id]);
  await seed("removeMember", { team: team.id, by: admin.id, user: leaver.id });
  expect(await listedIds(await mcpClient(adminToken))).toEqual([shared.id]);
  await expectError(await wrap(rawMcp({ authorization: `Bearer ${made.json.token}` })), 401, "no longer a member");
});

test.describe("provider tools through the framework", () => {
  type Log = {
    id: string;
    operation_id: string;
    status: string;
    cache_hit: boolean;
    credits_used: number;
    metadata: Record<string, unknown>;
    output?: unknown;
  };
  const logsOf = async (team: SeededTeam, server: string): Promise<Log[]> =>
    (await (await (await apiAs(team.users[0])).get(`/v1/logs?source_id=${server}&limit=100`)).json()).data;
  const ledgerOf = async (team: SeededTeam, server: string) =>
    (await (await (await apiAs(team.users[0])).get(`/v1/credits/logs?service_id=${server}&limit=100`)).json()).data as {
      credits_used: number;
      credits_remaining: number;
    }[];
  const report = { metric: "sessions", days: 3, end_date: "2026-11-01" };

  test("a read writes one log and one charge; the same call again is a cache hit that costs nothing", async () => {
    const { team, token, server, a } = await setup();
    const client = await mcpClient(token);
    const first = await client.callTool({ name: "sandbox_report", arguments: { connection_id: a.id, ...report } });
    expect(first.isError).toBeFalsy();
    const answer = first.structuredContent as { metric: string; total: number; rows: unknown[] };
    expect(answer).toMatchObject({ metric: "sessions" });
    expect(answer.rows).toHaveLength(3);
    let logs = await logsOf(team, server);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      operation_id: "sandbox.report",
      status: "success",
      cache_hit: false,
      credits_used: 2,
      metadata: { tool_name: "sandbox_report", connection_id: a.id },
    });
    expect((await ledgerOf(team, server)).map((e) => e.credits_used)).toEqual([2]);

    // Same connection, same arguments (in another order): answered from the cache.
    const again = await client.callTool({
      name: "sandbox_report",
      arguments: { end_date: report.end_date, days: 3, metric: "sessions", connection_id: a.id },
    });
    expect(again.structuredContent).toEqual(answer);
    logs = await logsOf(team, server);
    expect(logs).toHaveLength(2);
    expect(logs.map((l) => [l.cache_hit, l.credits_used])).toEqual(
      expect.arrayContaining([
        [true, 0],
        [false, 2],
      ]),
    );
    expect((await ledgerOf(team, server)).map((e) => e.credits_used).sort()).toEqual([0, 2]);

    // Other arguments reach the provider again.
    await client.callTool({ name: "sandbox_report", arguments: { connection_id: a.id, ...report, days: 4 } });
    expect((await logsOf(team, server)).filter((l) => !l.cache_hit)).toHaveLength(2);
    const balance = await (await (await apiAs(team.users[0])).get("/v1/credits")).json();
    expect(balance.credits_used).toBe(4);
  });

  test("a connection outside the request's scope fails with an error that says so, and is logged", async () => {
    const { team, token, server, a, b, c } = await setup();
    const narrowed = await mcpClient(token, { query: `?connection_ids=${a.id}` });
    for (const id of [b.id, c.id, "conn_doesnotexist"]) {
      const res = await narrowed.callTool({ name: "sandbox_report", arguments: { connection_id: id, ...report } });
      expect(res.isError).toBe(true);
      expect((res.content as { text: string }[])[0].text).toContain(
        `Connection ${id} is not available to this request`,
      );
    }
    const logs = await logsOf(team, server);
    expect(logs).toHaveLength(3);
    for (const l of logs) expect(l).toMatchObject({ status: "error", credits_used: 0, cache_hit: false });
    // With no connection in scope the read tools are not even offered.
    const none = await mcpClient(token, { query: "?connection_ids=" });
    const res = await none.callTool({ name: "sandbox_report", arguments: { connection_id: a.id, ...report } });
    expect(res.isError).toBe(true);
  });

  test("invalid arguments are refused by the tool's schema before anything reaches the provider", async () => {
    const { team, token, server, a } = await setup();
    const client = await mcpClient(token);
    const res = await client.callTool({
      name: "sandbox_report",
      arguments: { connection_id: a.id, metric: "nonsense", days: 0 },
    });
    expect(res.isError).toBe(true);
    expect((res.content as { text: string }[])[0].text).toMatch(/metric|days/);
    expect(await logsOf(team, server)).toHaveLength(0);
  });

  test("a call that overshoots is not rolled back; with no credits left the next call is refused with a clear message", async () => {
    const team = await seedTeam({ name: "MCP Broke Co", creditsLimit: 1 });
    const a = await connection(team, "only");
    const made = await cli(
      "mcp",
      "create",
      "--team",
      team.id,
      "--user",
      team.users[0].id,
      "--name",
      "Agent",
      "--connections",
      a.id,
    );
    const client = await mcpClient(made.json.token);
    const first = await client.callTool({ name: "sandbox_report", arguments: { connection_id: a.id, ...report } });
    expect(first.isError).toBeFalsy();
    const api = await apiAs(team.users[0]);
    expect(await (await api.get("/v1/credits")).json()).toMatchObject({
      credits_limit: 1,
      credits_used: 2,
      credits_remaining: -1,
    });

    const refused = await client.callTool({
      name: "sandbox_report",
      arguments: { connection_id: a.id, ...report, days: 5 },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0].text).toContain("This team has no credits left");
    const list = await client.callTool({ name: "list_connections", arguments: {} });
    expect(list.isError).toBe(true);
    const logs = await logsOf(team, made.json.id);
    expect(logs.filter((l) => l.status === "error")).toHaveLength(2);
    expect(await (await api.get("/v1/credits")).json()).toMatchObject({ credits_used: 2, credits_remaining: -1 });
  });
});

/** fetch's Response as the APIResponse shape expectError reads. */
async function wrap(res: Promise<Response>) {
  const r = await res;
  const text = await r.text();
  return {
    status: () => r.status,
    text: async () => text,
    json: async () => JSON.parse(text),
    headers: () => Object.fromEntries(r.headers),
  } as never;
}
