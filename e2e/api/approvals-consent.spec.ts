import type { APIRequestContext } from "@playwright/test";
import { test, expect, seedTeam, apiAs, cli, expectError, type SeededTeam, type SeededUser } from "../fixtures";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";
import { inDatabase } from "../support/in-database";

// Penetration test finding 4 ("Consent that holds"), each sub-finding reproduced through the
// routes it was found on: a pending request still ran when approved after its server's write
// policy went to off, after its connection left the server, after the server was deleted, after
// its token was revoked or its requester left; get_operation_result answered another server's
// token; a team could not ask for a second person; a private connection's request was shown to,
// and decidable by, every member.

const PASSWORD = "consent-pass-1";
type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};
type Client = Awaited<ReturnType<typeof mcpClient>>;
const textOf = (r: Result) => r.content.map((c) => c.text).join("\n");
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

async function connection(user: SeededUser, name: string, isPrivate = false) {
  const res = await (
    await apiAs(user)
  ).post("/v1/connections", {
    data: {
      connection_type: "sandbox_key",
      name,
      credentials: { api_key: `sk-${name.replace(/\W/g, "")}-${Date.now()}` },
      is_private: isPrivate,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string };
}

/** An MCP server made in the dashboard by `session`'s user, with writes under approval, and one token of it. */
async function dashboardServer(
  session: APIRequestContext,
  name: string,
  connectionIds: string[],
  writePolicy: "approval" | "allowed" = "approval",
) {
  const made = await session.post("/api/dashboard/mcp-servers", {
    data: { name, connection_ids: connectionIds, write_policy: writePolicy },
  });
  expect(made.status(), await made.text()).toBe(200);
  const server = (await made.json()) as { id: string };
  const token = await session.post(`/api/dashboard/mcp-servers/${server.id}/tokens`, {
    data: { name: `${name} token` },
  });
  expect(token.status(), await token.text()).toBe(200);
  const t = (await token.json()) as { id: string; token: string };
  return { id: server.id, tokenId: t.id, token: t.token, client: await mcpClient(t.token) };
}

async function ask(client: Client, connectionId: string, note: string): Promise<string> {
  const asked = await call(client, "run_write_operation", {
    operation_id: "sandbox.set_note",
    connection_id: connectionId,
    input: { note },
  });
  expect(asked.isError, textOf(asked)).toBeFalsy();
  expect(asked.structuredContent).toMatchObject({ status: "pending" });
  return (asked.structuredContent as { approval_id: string }).approval_id;
}

/** A team of two (owner, member), a webhook receiver for approval.resolved, the owner's shared sandbox connection and dashboard sessions. */
async function setup() {
  const team = await seedTeam({ password: PASSWORD, members: 2 });
  const hooks = await startReceiver();
  receivers.push(hooks);
  expect(
    (await cli("webhook", "create", "--team", team.id, "--url", hooks.url, "--events", "approval.resolved")).code,
  ).toBe(0);
  const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
  const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
  const conn = await connection(team.users[0], "Shared notes");
  return { team, hooks, owner, member, conn };
}

/** The request as the dashboard shows it to `session`. */
async function detail(session: APIRequestContext, id: string) {
  const res = await session.get(`/api/dashboard/approvals/${id}`);
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** What cancelled it is stored, announced and reported; nothing ran, nothing was charged. */
async function expectCancelled(
  ctx: { team: SeededTeam; hooks: Receiver; owner: APIRequestContext },
  id: string,
  reason: string,
) {
  const shown = await detail(ctx.owner, id);
  expect(shown).toMatchObject({ status: "cancelled", decided_by: null, decided_at: expect.any(Number) });
  expect(shown.error).toContain(reason);
  expect(shown.error).toMatch(/nothing was written/i);
  const listed = await cli("approval", "list", "--team", ctx.team.id, "--status", "cancelled");
  expect(listed.json.approvals.map((a: { id: string }) => a.id)).toContain(id);
  const hook = await waitFor(
    () => ctx.hooks.received.find((r) => JSON.parse(r.body).data.approval.id === id),
    10_000,
    `approval.resolved for ${id}`,
  );
  expect(JSON.parse(hook.body)).toMatchObject({
    type: "approval.resolved",
    data: { approval: { id, status: "cancelled" } },
  });
  expect(ctx.hooks.received.filter((r) => JSON.parse(r.body).data.approval.id === id)).toHaveLength(1);
  const logs = (await (await (await apiAs(ctx.team.users[0])).get("/v1/logs?operation_id=sandbox.set_note")).json())
    .data as { status: string; credits_used: number }[];
  expect(logs.filter((l) => l.status === "success")).toEqual([]);
}

test("approving after the server's write policy went to off: the change cancels the request, and approving it is a 409 saying why", async () => {
  const ctx = await setup();
  const server = await dashboardServer(ctx.owner, "Policy server", [ctx.conn.id]);
  const id = await ask(server.client, ctx.conn.id, "policy then off");
  const off = await ctx.owner.patch(`/api/dashboard/mcp-servers/${server.id}`, { data: { write_policy: "off" } });
  expect(off.status(), await off.text()).toBe(200);
  await expectCancelled(ctx, id, "writes were turned off");
  await expectError(
    await ctx.member.post(`/api/dashboard/approvals/${id}/approve`, { data: {} }),
    409,
    "cancelled",
    "writes were turned off",
  );
  const cliApprove = await cli("approval", "approve", "--id", id, "--user", ctx.team.users[1].id);
  expect(cliApprove.code).toBe(1);
  expect(cliApprove.json.error).toContain("cancelled");
  // The agent learns why.
  const result = await call(server.client, "get_operation_result", { approval_id: id });
  expect(result.structuredContent).toMatchObject({
    approval_id: id,
    status: "cancelled",
    error: expect.stringContaining("writes were turned off"),
  });
  expect(
    (await call(server.client, "sandbox_report", { connection_id: ctx.conn.id, metric: "users", days: 1 }))
      .structuredContent,
  ).toMatchObject({ note: null });
});

test("approving re-checks the moment: a policy or permission changed behind the request's back cancels it with a 409 instead of running it", async () => {
  const ctx = await setup();
  const server = await dashboardServer(ctx.owner, "Recheck server", [ctx.conn.id]);
  const policyId = await ask(server.client, ctx.conn.id, "policy recheck");
  const bindingId = await ask(server.client, ctx.conn.id, "binding recheck");
  // Stored changes that bypass the cancelling paths (as a change racing the approval would): the re-check alone must stop the run.
  await inDatabase(`await db.mcpServer.update({ where: { id: args.server }, data: { writePolicy: "off" } });`, {
    server: server.id,
  });
  await expectError(
    await ctx.member.post(`/api/dashboard/approvals/${policyId}/approve`, { data: {} }),
    409,
    "cancelled",
    "no longer allows writes",
  );
  await expectCancelled(ctx, policyId, "no longer allows writes");
  await inDatabase(
    `await db.mcpServer.update({ where: { id: args.server }, data: { writePolicy: "approval" } });
     await db.mcpServerConnection.deleteMany({ where: { mcpServerId: args.server } });`,
    { server: server.id },
  );
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${bindingId}/approve`, { data: {} }),
    409,
    "cancelled",
    "no longer among the MCP server",
  );
  await expectCancelled(ctx, bindingId, "no longer among the MCP server");
  // Nothing reached the provider.
  const report = await inDatabase<{ count: number }>(
    `return { count: await db.approval.count({ where: { id: { in: args.ids }, status: "cancelled" } }) };`,
    { ids: [policyId, bindingId] },
  );
  expect(report.count).toBe(2);
});

test("approving after the connection left the server, or was deleted: both changes cancel the request", async () => {
  const ctx = await setup();
  const other = await connection(ctx.team.users[0], "Other notes");
  const server = await dashboardServer(ctx.owner, "Binding server", [ctx.conn.id, other.id]);
  const unbound = await ask(server.client, ctx.conn.id, "connection leaves");
  const deleted = await ask(server.client, other.id, "connection deleted");
  const patched = await ctx.owner.patch(`/api/dashboard/mcp-servers/${server.id}`, {
    data: { connection_ids: [other.id] },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  await expectCancelled(ctx, unbound, "taken off the MCP server");
  // The other request, on a connection still bound, waits.
  expect((await detail(ctx.owner, deleted)).status).toBe("pending");
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${unbound}/approve`, { data: {} }),
    409,
    "cancelled",
    "taken off",
  );
  const gone = await (await apiAs(ctx.team.users[0])).delete(`/v1/connections/${other.id}`);
  expect(gone.status(), await gone.text()).toBe(200);
  await expectCancelled(ctx, deleted, "was deleted");
  // A deleted connection no longer says whether it was private: its requests stay with the member who filed them.
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${deleted}/approve`, { data: {} }),
    409,
    "cancelled",
    "was deleted",
  );
});

test("approving after the server was deleted: the delete cancels the request", async () => {
  const ctx = await setup();
  const server = await dashboardServer(ctx.owner, "Doomed server", [ctx.conn.id]);
  const id = await ask(server.client, ctx.conn.id, "server deleted");
  const del = await ctx.owner.delete(`/api/dashboard/mcp-servers/${server.id}`);
  expect(del.status(), await del.text()).toBe(200);
  await expectCancelled(ctx, id, "was deleted");
  await expectError(
    await ctx.member.post(`/api/dashboard/approvals/${id}/approve`, { data: {} }),
    409,
    "cancelled",
    "Doomed server",
  );
});

test("approving after the token that filed it was revoked: the revocation cancels what it left pending, not the other token's", async () => {
  const ctx = await setup();
  const server = await dashboardServer(ctx.owner, "Token server", [ctx.conn.id]);
  const second = await ctx.owner.post(`/api/dashboard/mcp-servers/${server.id}/tokens`, { data: { name: "second" } });
  const secondClient = await mcpClient(((await second.json()) as { token: string }).token);
  const revokedOne = await ask(server.client, ctx.conn.id, "token revoked");
  const kept = await ask(secondClient, ctx.conn.id, "other token");
  const revoke = await ctx.owner.delete(`/api/dashboard/mcp-servers/${server.id}/tokens/${server.tokenId}`);
  expect(revoke.status(), await revoke.text()).toBe(200);
  await expectCancelled(ctx, revokedOne, "was revoked");
  await expectError(
    await ctx.member.post(`/api/dashboard/approvals/${revokedOne}/approve`, { data: {} }),
    409,
    "cancelled",
    "revoked",
  );
  expect((await detail(ctx.owner, kept)).status).toBe("pending");
  const approved = await ctx.member.post(`/api/dashboard/approvals/${kept}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  expect((await approved.json()).status).toBe("succeeded");
});

test("approving after the requester was removed from the team: the removal cancels their requests", async () => {
  const ctx = await setup();
  // The member's own server on the team's shared connection, and their token.
  const server = await dashboardServer(ctx.member, "Member's server", [ctx.conn.id]);
  const id = await ask(server.client, ctx.conn.id, "requester leaves");
  const removed = await ctx.owner.delete(`/api/dashboard/members/${ctx.team.users[1].id}`);
  expect(removed.status(), await removed.text()).toBe(200);
  await expectCancelled(ctx, id, "is no longer in the team");
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${id}/approve`, { data: {} }),
    409,
    "cancelled",
    ctx.team.users[1].email,
  );
  const cliApprove = await cli("approval", "approve", "--id", id, "--user", ctx.team.users[0].id);
  expect(cliApprove.code).toBe(1);
  expect(cliApprove.json.error).toContain("cancelled");
});

test("get_operation_result answers only the server that filed the request: another server's token of the team is told it is unknown", async () => {
  const ctx = await setup();
  const filer = await dashboardServer(ctx.owner, "Filing server", [ctx.conn.id]);
  const bystander = await dashboardServer(ctx.owner, "Other server", [ctx.conn.id]);
  const id = await ask(filer.client, ctx.conn.id, "secret plan");
  const approved = await ctx.owner.post(`/api/dashboard/approvals/${id}/approve`, { data: {} });
  expect(approved.status(), await approved.text()).toBe(200);
  const own = await call(filer.client, "get_operation_result", { approval_id: id });
  expect(own.structuredContent).toEqual({
    approval_id: id,
    status: "succeeded",
    result: { note: "secret plan", previous_note: null },
  });

  const foreign = await call(bystander.client, "get_operation_result", { approval_id: id });
  const unknown = await call(bystander.client, "get_operation_result", { approval_id: "apr_doesnotexist" });
  expect(foreign.isError).toBe(true);
  expect(unknown.isError).toBe(true);
  expect(textOf(foreign)).not.toContain("secret plan");
  expect(textOf(foreign).replace(id, "ID")).toBe(textOf(unknown).replace("apr_doesnotexist", "ID"));
  // Another token of the filing server still reads it.
  const sameServer = await ctx.owner.post(`/api/dashboard/mcp-servers/${filer.id}/tokens`, {
    data: { name: "same server" },
  });
  const sameClient = await mcpClient(((await sameServer.json()) as { token: string }).token);
  expect((await call(sameClient, "get_operation_result", { approval_id: id })).structuredContent).toMatchObject({
    status: "succeeded",
  });
});

test("a team may forbid approving your own request: owners set it (audited), the requester gets 403 in the dashboard and an error from the CLI, and may still reject", async () => {
  const ctx = await setup();
  const settings = await ctx.member.get("/api/dashboard/team");
  expect(await settings.json()).toEqual({ low_credits_percent: 10, forbid_self_approval: false });
  await expectError(
    await ctx.member.patch("/api/dashboard/team", { data: { forbid_self_approval: true } }),
    403,
    "owners",
  );
  await expectError(
    await ctx.owner.patch("/api/dashboard/team", { data: { forbid_self_approval: "yes" } }),
    400,
    "forbid_self_approval",
  );
  await expectError(await ctx.owner.patch("/api/dashboard/team", { data: {} }), 400, "forbid_self_approval");
  // An API key never changes it: the dashboard's routes take the session only.
  const byKey = await (
    await apiAs(ctx.team.users[0])
  ).patch("/api/dashboard/team", { data: { forbid_self_approval: true }, headers: { "x-patchbay-team": ctx.team.id } });
  expect(byKey.status()).toBe(401);

  const server = await dashboardServer(ctx.owner, "Owner's server", [ctx.conn.id]);
  const first = await ask(server.client, ctx.conn.id, "self one");
  const second = await ask(server.client, ctx.conn.id, "self two");
  const third = await ask(server.client, ctx.conn.id, "self three");
  // Off (the default, CONTRACT §8): the requester may approve their own.
  expect((await detail(ctx.owner, first)).can_approve).toBe(true);

  const on = await ctx.owner.patch("/api/dashboard/team", { data: { forbid_self_approval: true } });
  expect(on.status(), await on.text()).toBe(200);
  expect(await on.json()).toEqual({ id: ctx.team.id, low_credits_percent: 10, forbid_self_approval: true });
  expect(await (await ctx.member.get("/api/dashboard/team")).json()).toEqual({
    low_credits_percent: 10,
    forbid_self_approval: true,
  });
  const audit = await (await ctx.owner.get("/api/dashboard/audit?action=team.self_approval_change")).json();
  expect(audit.data).toHaveLength(1);
  expect(audit.data[0].details).toMatchObject({ from: false, to: true });

  const shown = await detail(ctx.owner, first);
  expect(shown).toMatchObject({
    status: "pending",
    can_approve: false,
    can_reject: true,
    cannot_approve_reason: expect.stringContaining("your own"),
  });
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${first}/approve`, { data: {} }),
    403,
    "your own",
    "another member",
  );
  const cliSelf = await cli("approval", "approve", "--id", first, "--user", ctx.team.users[0].id);
  expect(cliSelf.code).toBe(1);
  expect(Object.keys(cliSelf.json)).toEqual(["error"]);
  expect(cliSelf.json.error).toContain("your own");
  expect((await detail(ctx.owner, first)).status).toBe("pending");

  // Rejecting your own request stays allowed.
  const rejected = await ctx.owner.post(`/api/dashboard/approvals/${first}/reject`, {
    data: { note: "changed my mind" },
  });
  expect(rejected.status(), await rejected.text()).toBe(200);
  expect((await rejected.json()).status).toBe("rejected");
  // A second person approves, in the dashboard and the CLI.
  expect((await detail(ctx.member, second)).can_approve).toBe(true);
  const byMember = await ctx.member.post(`/api/dashboard/approvals/${second}/approve`, { data: {} });
  expect(byMember.status(), await byMember.text()).toBe(200);
  expect((await byMember.json()).status).toBe("succeeded");
  expect(await cli("approval", "approve", "--id", third, "--user", ctx.team.users[1].id)).toEqual({
    code: 0,
    json: { id: third, status: "succeeded" },
  });
});

test("a private connection's request is its owner's: other members (the team owner too) see it redacted, do not count it, and cannot approve or reject it", async () => {
  const ctx = await setup();
  const secretName = `Private diary ${Date.now()}`;
  const priv = await connection(ctx.team.users[1], secretName, true);
  const server = await dashboardServer(ctx.member, "Member's private writes", [priv.id]);
  const id = await ask(server.client, priv.id, "TOP-SECRET-NOTE");

  // The team owner: listed, redacted, not counted as waiting for them.
  const page = await (await ctx.owner.get("/api/dashboard/approvals?status=pending")).json();
  expect(page.pending).toBe(0);
  const row = page.data.find((a: { id: string }) => a.id === id);
  expect(row).toMatchObject({
    id,
    status: "pending",
    operation_id: "sandbox.set_note",
    connection: { id: priv.id, type: "sandbox_key", name: null, account: null },
    input: null,
    before: null,
    result: null,
    error: null,
    note: null,
    mcp_server_name: null,
    private: true,
    redacted: true,
    can_approve: false,
    can_reject: false,
  });
  expect(row.summary).toContain("private");
  const shown = await detail(ctx.owner, id);
  for (const body of [JSON.stringify(page), JSON.stringify(shown)]) {
    expect(body).not.toContain("TOP-SECRET-NOTE");
    expect(body).not.toContain(secretName);
    expect(body).not.toContain("Member's private writes");
  }
  expect(shown.cannot_approve_reason).toContain("owner");
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${id}/approve`, { data: {} }),
    403,
    "private connection",
    "owner",
  );
  await expectError(
    await ctx.owner.post(`/api/dashboard/approvals/${id}/reject`, { data: {} }),
    403,
    "private connection",
    "owner",
  );
  const cliOther = await cli("approval", "approve", "--id", id, "--user", ctx.team.users[0].id);
  expect(cliOther.code).toBe(1);
  expect(cliOther.json.error).toContain("owner");
  expect((await detail(ctx.member, id)).status).toBe("pending");

  // The connection's owner sees it in full, counts it, and decides it (here through the CLI as --user).
  const mine = await (await ctx.member.get("/api/dashboard/approvals?status=pending")).json();
  expect(mine.pending).toBe(1);
  const full = await detail(ctx.member, id);
  expect(full).toMatchObject({
    redacted: false,
    private: true,
    can_approve: true,
    can_reject: true,
    connection: { name: secretName },
    input: { note: "TOP-SECRET-NOTE" },
    before: { note: null },
  });
  expect(full.summary).toContain("TOP-SECRET-NOTE");
  expect(await cli("approval", "approve", "--id", id, "--user", ctx.team.users[1].id)).toEqual({
    code: 0,
    json: { id, status: "succeeded" },
  });

  // Decided, still redacted for the others: no result.
  const after = await detail(ctx.owner, id);
  expect(after).toMatchObject({ status: "succeeded", result: null, redacted: true });
  expect(JSON.stringify(after)).not.toContain("TOP-SECRET-NOTE");
  // The team's webhook (a Slack channel, say) hears that it ended, not what it wrote.
  const resolved = await waitFor(() => ctx.hooks.received.find((r) => JSON.parse(r.body).data.approval.id === id));
  const approval = JSON.parse(resolved.body).data.approval;
  expect(approval).toMatchObject({ id, status: "succeeded", connection_id: priv.id });
  expect(approval.summary).toMatch(/^A write to a private .* connection/);
  expect(resolved.body).not.toContain("TOP-SECRET-NOTE");
  expect((await detail(ctx.member, id)).result).toEqual({ note: "TOP-SECRET-NOTE", previous_note: null });
});
