import { test, expect, seedTeam, apiAs, cli, expectError } from "../fixtures";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";

// Issue 45, "What a person approves is what runs": two pending note writes on one account, one
// approved, and the other's panel still said "replacing 'focus test'" while its write replaced
// "two tabs test 2". The detail now reads the before-state again, and an approval carries the
// fingerprint of the state the person saw: a mismatch runs nothing and answers 409 with both values.

const PASSWORD = "before-state-pass-1";
type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
type Client = Awaited<ReturnType<typeof mcpClient>>;
type Detail = {
  id: string;
  status: string;
  summary: string;
  before: unknown;
  current: unknown;
  changed: boolean;
  change: string | null;
  current_summary: string | null;
  current_fingerprint: string | null;
};

/** A team, its shared sandbox connection, an MCP server whose writes wait for approval, and the owner's dashboard session. */
async function setup() {
  const team = await seedTeam({ password: PASSWORD, members: 1 });
  const res = await (
    await apiAs(team.users[0])
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name: "Notes", credentials: { api_key: `sk-before-${Date.now()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const conn = (await res.json()) as { id: string };
  const made = await cli(
    "mcp",
    "create",
    "--team",
    team.id,
    "--user",
    team.users[0].id,
    "--name",
    "Writer",
    "--connections",
    conn.id,
    "--writes",
    "approval",
  );
  expect(made.code, JSON.stringify(made.json)).toBe(0);
  const client = await mcpClient(made.json.token);
  const session = await sessionAs(team.users[0].email, PASSWORD, team.id);
  return { team, conn, client, session };
}

async function ask(client: Client, connectionId: string, note: string): Promise<string> {
  const asked = (await client.callTool({
    name: "run_write_operation",
    arguments: { operation_id: "sandbox.set_note", connection_id: connectionId, input: { note } },
  })) as Result;
  expect(asked.isError, asked.content.map((c) => c.text).join("\n")).toBeFalsy();
  return (asked.structuredContent as { approval_id: string }).approval_id;
}

/** The account's note as the sandbox provider holds it now (a read through MCP). */
async function noteNow(client: Client, connectionId: string) {
  const report = (await client.callTool({
    name: "sandbox_report",
    arguments: { connection_id: connectionId, metric: "sessions", days: 1 },
  })) as Result;
  return (report.structuredContent as { note: string | null }).note;
}

test("two pending note writes on one account: once one is approved, the other's detail says its state changed, a stale approval is a 409 that writes nothing, and approving what is shown runs", async () => {
  const { team, conn, client, session } = await setup();
  const detail = async (id: string) => {
    const res = await session.get(`/api/dashboard/approvals/${id}`);
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as Detail;
  };
  // The account's note is "focus test"; then two requests are filed on it.
  const first = await ask(client, conn.id, "focus test");
  expect((await cli("approval", "approve", "--id", first, "--user", team.users[0].id)).json.status).toBe("succeeded");
  const a = await ask(client, conn.id, "two tabs test 2");
  const b = await ask(client, conn.id, "final note");

  const bFiled = await detail(b);
  expect(bFiled).toMatchObject({
    status: "pending",
    before: { note: "focus test" },
    current: { note: "focus test" },
    changed: false,
    change: null,
    current_summary: bFiled.summary,
  });
  expect(bFiled.summary).toContain("replacing “focus test”");
  expect(bFiled.current_fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);

  // A is approved as shown: it runs.
  const aShown = await detail(a);
  const approvedA = await session.post(`/api/dashboard/approvals/${a}/approve`, {
    data: { seen_before: aShown.current_fingerprint },
  });
  expect(approvedA.status(), await approvedA.text()).toBe(200);
  expect((await approvedA.json()).status).toBe("succeeded");

  // B's detail reads the account again: both states, and the summary of what approving does now.
  const bNow = await detail(b);
  expect(bNow).toMatchObject({
    status: "pending",
    before: { note: "focus test" },
    current: { note: "two tabs test 2" },
    changed: true,
  });
  expect(bNow.change).toBe(
    "The note changed since this request was filed: it was “focus test”, it is now “two tabs test 2”.",
  );
  expect(bNow.summary).toContain("replacing “focus test”");
  expect(bNow.current_summary).toContain("replacing “two tabs test 2”");
  expect(bNow.current_fingerprint).not.toBe(bFiled.current_fingerprint);

  // Approving B with what was shown before A ran: refused with both values, nothing written, still pending.
  await expectError(
    await session.post(`/api/dashboard/approvals/${b}/approve`, { data: { seen_before: bFiled.current_fingerprint } }),
    409,
    "The note changed since this request was filed: it was “focus test”, it is now “two tabs test 2”.",
    "Review it again, then approve.",
    "nothing was written",
  );
  // An approval that says nothing of what it saw is held to the state the request was filed with.
  await expectError(
    await session.post(`/api/dashboard/approvals/${b}/approve`, { data: {} }),
    409,
    "it was “focus test”, it is now “two tabs test 2”",
  );
  expect(await noteNow(client, conn.id)).toBe("two tabs test 2");
  expect((await detail(b)).status).toBe("pending");
  const listed = await cli("approval", "list", "--team", team.id, "--status", "pending");
  expect(listed.json.approvals.map((r: { id: string }) => r.id)).toEqual([b]);
  const logs = (await (await (await apiAs(team.users[0])).get("/v1/logs?operation_id=sandbox.set_note")).json())
    .data as { metadata: { approval_id?: string } }[];
  expect(logs.map((l) => l.metadata.approval_id)).not.toContain(b);

  // A fingerprint that is no fingerprint is a 400, before anything is read or run.
  await expectError(
    await session.post(`/api/dashboard/approvals/${b}/approve`, { data: { seen_before: "focus test" } }),
    400,
    "seen_before",
  );

  // Approving the state shown now runs it, over "two tabs test 2".
  const approvedB = await session.post(`/api/dashboard/approvals/${b}/approve`, {
    data: { seen_before: bNow.current_fingerprint },
  });
  expect(approvedB.status(), await approvedB.text()).toBe(200);
  expect(await approvedB.json()).toMatchObject({ id: b, status: "succeeded", changed: false, current: null });
  expect(await noteNow(client, conn.id)).toBe("final note");
});

test("the CLI, which shows no state, approves the account as it is when it runs: its output keeps CONTRACT §8's shape", async () => {
  const { team, conn, client, session } = await setup();
  const c = await ask(client, conn.id, "cli first");
  const d = await ask(client, conn.id, "cli second");
  expect(await cli("approval", "approve", "--id", c, "--user", team.users[0].id)).toEqual({
    code: 0,
    json: { id: c, status: "succeeded" },
  });
  const shown = (await (await session.get(`/api/dashboard/approvals/${d}`)).json()) as Detail;
  expect(shown).toMatchObject({ changed: true, before: { note: null }, current: { note: "cli first" } });
  expect(shown.change).toBe("The note changed since this request was filed: it was empty, it is now “cli first”.");
  expect(await cli("approval", "approve", "--id", d, "--user", team.users[0].id)).toEqual({
    code: 0,
    json: { id: d, status: "succeeded" },
  });
  expect(await noteNow(client, conn.id)).toBe("cli second");
});
