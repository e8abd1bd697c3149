import type { APIRequestContext } from "@playwright/test";
import { test, expect, seed, seedTeam, apiAs, cli, expectError, type SeededUser } from "../fixtures";
import { mcpClient } from "../support/mcp";
import { sessionAs } from "../support/session";
import { startReceiver, waitFor, type Receiver } from "../support/webhook-receiver";
import { authorize, callback, createLink, paramsOf, start } from "../support/oauth-flow";

// Security review findings, each reproduced through the routes it was found on:
// 1. an owner's `allowed` write policy on a member's server could be extended by that member to
//    more connections; 2. a row deleted meanwhile (P2025 / P2003) and a forged approvals cursor
//    were 5xx; 3. a 409 from saving an auth link's connection was an internal error.

const PASSWORD = "review-pass-1";
type Result = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};
type Client = Awaited<ReturnType<typeof mcpClient>>;
const textOf = (r: Result) => r.content.map((c) => c.text).join("\n");
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const rand = () => Math.random().toString(36).slice(2, 10);

let receivers: Receiver[] = [];
test.afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  receivers = [];
});

async function connection(user: SeededUser, name: string) {
  const res = await (
    await apiAs(user)
  ).post("/v1/connections", {
    data: { connection_type: "sandbox_key", name, credentials: { api_key: `sk-${name.replace(/\W/g, "")}-${rand()}` } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string };
}

async function server(session: APIRequestContext, id: string) {
  const res = await session.get("/api/dashboard/mcp-servers");
  expect(res.status(), await res.text()).toBe(200);
  const found = ((await res.json()).data as { id: string; write_policy: string; connections: { id: string }[] }[]).find(
    (s) => s.id === id,
  );
  expect(found, `server ${id} listed`).toBeTruthy();
  return { writePolicy: found!.write_policy, connectionIds: found!.connections.map((c) => c.id).sort() };
}

/** A shared server made in the dashboard by `session`'s user, and one token of it. */
async function dashboardServer(
  session: APIRequestContext,
  name: string,
  connectionIds: string[],
  writePolicy: "off" | "approval" | "allowed" = "approval",
) {
  const made = await session.post("/api/dashboard/mcp-servers", {
    data: { name, connection_ids: connectionIds, write_policy: writePolicy },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { id } = (await made.json()) as { id: string };
  const token = await session.post(`/api/dashboard/mcp-servers/${id}/tokens`, { data: { name: `${name} token` } });
  expect(token.status(), await token.text()).toBe(200);
  return { id, client: await mcpClient(((await token.json()) as { token: string }).token) };
}

test.describe("1. `allowed` is an owner's consent for the connections the server had", () => {
  test("a member who owns an allowed server cannot add connections to it (403 saying what to do); removing stays open; an owner may add", async () => {
    const team = await seedTeam({ password: PASSWORD, members: 2 });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
    const a = await connection(team.users[0], "Allowed A");
    const b = await connection(team.users[0], "Not allowed B");
    const s = await dashboardServer(member, "Member's server", [a.id]);
    const allowed = await owner.patch(`/api/dashboard/mcp-servers/${s.id}`, { data: { write_policy: "allowed" } });
    expect(allowed.status(), await allowed.text()).toBe(200);

    // The repro: the member adds another shared connection to the server the owner allowed.
    const detail = await expectError(
      await member.patch(`/api/dashboard/mcp-servers/${s.id}`, { data: { connection_ids: [a.id, b.id] } }),
      403,
      "team owner",
      "approval",
    );
    expect(detail).toMatch(/ask a team owner/i);
    expect(await server(owner, s.id)).toEqual({ writePolicy: "allowed", connectionIds: [a.id] });
    // So the member's token cannot write to B without approval: B is not in the server's scope.
    const write = await call(s.client, "run_write_operation", {
      operation_id: "sandbox.set_note",
      connection_id: b.id,
      input: { note: "no consent for B" },
    });
    expect(write.isError, textOf(write)).toBe(true);
    expect(
      (await call(s.client, "sandbox_report", { connection_id: a.id, metric: "users", days: 1 })).structuredContent,
    ).toMatchObject({ note: null });

    // Taking a connection off stays open to the server's owner.
    const removed = await member.patch(`/api/dashboard/mcp-servers/${s.id}`, { data: { connection_ids: [] } });
    expect(removed.status(), await removed.text()).toBe(200);
    expect(await server(owner, s.id)).toEqual({ writePolicy: "allowed", connectionIds: [] });
    // A team owner may add to it.
    const ownerAdds = await owner.patch(`/api/dashboard/mcp-servers/${s.id}`, {
      data: { connection_ids: [a.id, b.id] },
    });
    expect(ownerAdds.status(), await ownerAdds.text()).toBe(200);
    expect(await server(owner, s.id)).toEqual({ writePolicy: "allowed", connectionIds: [a.id, b.id].sort() });
    // The member may add after setting writes to approval in the same request; writes then ask.
    const c = await connection(team.users[0], "Asked C");
    const withApproval = await member.patch(`/api/dashboard/mcp-servers/${s.id}`, {
      data: { write_policy: "approval", connection_ids: [a.id, b.id, c.id] },
    });
    expect(withApproval.status(), await withApproval.text()).toBe(200);
    expect(await server(owner, s.id)).toEqual({ writePolicy: "approval", connectionIds: [a.id, b.id, c.id].sort() });
    const asked = await call(s.client, "run_write_operation", {
      operation_id: "sandbox.set_note",
      connection_id: c.id,
      input: { note: "asks first" },
    });
    expect(asked.structuredContent, textOf(asked)).toMatchObject({ status: "pending" });
  });

  test("downgradeAllowedServersUsing puts every allowed server using a connection on approval, audited as Patchbay's, with the reason", async () => {
    const team = await seedTeam({ password: PASSWORD, members: 2 });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const a = await connection(team.users[0], "Re-posted A");
    const other = await connection(team.users[0], "Untouched");
    const using = await dashboardServer(owner, "Uses A", [a.id, other.id], "allowed");
    const notUsing = await dashboardServer(owner, "Does not use A", [other.id], "allowed");
    const off = await dashboardServer(owner, "Off, uses A", [a.id], "off");
    const reason = "A member posted new credentials for connection Re-posted A.";
    const out = await seed<{ servers: string[] }>("downgradeAllowedServers", {
      team: team.id,
      connection: a.id,
      reason,
    });
    expect(out.servers).toEqual([using.id]);
    expect((await server(owner, using.id)).writePolicy).toBe("approval");
    expect((await server(owner, notUsing.id)).writePolicy).toBe("allowed");
    expect((await server(owner, off.id)).writePolicy).toBe("off");
    const audit = await owner.get("/api/dashboard/audit?action=mcp_server.write_policy_change");
    expect(audit.status(), await audit.text()).toBe(200);
    const events = (
      (await audit.json()).data as {
        target: { id: string };
        actor: { kind: string };
        details: Record<string, unknown>;
      }[]
    ).filter((e) => e.target.id === using.id);
    expect(events[0]).toMatchObject({
      actor: { kind: "system" },
      details: { from: "allowed", to: "approval", changed_by: "Patchbay", reason, connection_id: a.id },
    });
    const asked = await call(using.client, "run_write_operation", {
      operation_id: "sandbox.set_note",
      connection_id: a.id,
      input: { note: "now asks" },
    });
    expect(asked.structuredContent, textOf(asked)).toMatchObject({ status: "pending" });
  });
});

test.describe("2. what a concurrent request deleted, and a forged cursor, are 4xx, never 5xx", () => {
  test("concurrent DELETEs of one workflow: one 200, the others 404 saying it was deleted meanwhile", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    for (let round = 0; round < 3; round++) {
      const wf = await seed<{ id: string }>("workflow", { team: team.id, active: false });
      const all = await Promise.all(Array.from({ length: 6 }, () => owner.delete(`/api/dashboard/workflows/${wf.id}`)));
      const statuses = all.map((r) => r.status());
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(statuses),
      ).toHaveLength(1);
      expect(
        statuses.every((s) => s === 200 || s === 404),
        JSON.stringify(statuses),
      ).toBe(true);
      for (const r of all.filter((r) => r.status() === 404)) {
        const detail = (await r.json()).detail as string;
        expect(detail).toMatch(/No workflow|deleted meanwhile/);
        expect(detail).not.toMatch(/prisma|P2025|invocation/i);
      }
    }
  });

  test("a connection deleted while a workflow using it is saved: the save is a 4xx, never a 5xx", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const api = await apiAs(team.users[0]);
    for (let round = 0; round < 4; round++) {
      const conn = await connection(team.users[0], `Racing ${round}`);
      const node = {
        id: "r",
        label: "R",
        operation_id: "sandbox.report",
        connection_id: conn.id,
        input: { metric: "sessions" },
      };
      const [saved, deleted] = await Promise.all([
        owner.post("/api/dashboard/workflows", { data: { name: `Race ${round}`, nodes: [node] } }),
        api.delete(`/v1/connections/${conn.id}`),
      ]);
      expect(deleted.status()).toBe(200);
      expect(saved.status(), await saved.text()).toBeLessThan(500);
      if (saved.status() === 409)
        expect((await saved.json()).detail).toBe("Something it refers to was deleted meanwhile; reload and try again.");
    }
  });

  test("a hostile approvals cursor (NUL, garbage, forged, tampered, other filters) is a 400 with detail", async () => {
    const team = await seedTeam({ password: PASSWORD });
    const owner = await sessionAs(team.users[0].email, PASSWORD, team.id);
    const conn = await connection(team.users[0], "Cursor notes");
    const s = await dashboardServer(owner, "Cursor server", [conn.id]);
    for (const note of ["one", "two", "three"]) {
      const asked = await call(s.client, "run_write_operation", {
        operation_id: "sandbox.set_note",
        connection_id: conn.id,
        input: { note },
      });
      expect(asked.structuredContent, textOf(asked)).toMatchObject({ status: "pending" });
    }
    const first = await owner.get("/api/dashboard/approvals?limit=1");
    expect(first.status(), await first.text()).toBe(200);
    const cursor = (await first.json()).next_cursor as string;
    expect(cursor).toBeTruthy();
    const second = await owner.get(`/api/dashboard/approvals?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(second.status(), await second.text()).toBe(200);

    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    const [payload, mac] = cursor.split(".");
    const flipped = payload.slice(0, -1) + (payload.endsWith("A") ? "B" : "A");
    const hostile = [
      b64("1:\0"),
      b64(`${Date.now() + 60_000}:\0apr`),
      b64(`${Date.now() + 60_000}:zzzzzzzz`), // the old format: a plausible position, unsigned
      "!!not-a-cursor!!",
      `${flipped}.${mac}`,
      `${payload}.${b64("x".repeat(16))}`,
      `${cursor}.extra`,
    ];
    for (const c of hostile)
      await expectError(
        await owner.get(`/api/dashboard/approvals?limit=1&cursor=${encodeURIComponent(c)}`),
        400,
        "cursor",
      );
    await expectError(
      await owner.get(`/api/dashboard/approvals?limit=1&status=pending&cursor=${encodeURIComponent(cursor)}`),
      400,
      "other filters",
    );
  });
});

test.describe("3. an auth link whose connection cannot be saved as asked", () => {
  test("a private link for an account that is a shared connection another member's MCP server uses: error redirect with the 409's reason, auth_link.failed, the link stays pending and retryable", async () => {
    const team = await seedTeam({ password: PASSWORD, members: 2 });
    const api = await apiAs(team.users[0]);
    const member = await sessionAs(team.users[1].email, PASSWORD, team.id);
    const hooks = await startReceiver();
    receivers.push(hooks);
    expect(
      (await cli("webhook", "create", "--team", team.id, "--url", hooks.url, "--events", "auth_link.failed")).code,
    ).toBe(0);
    const account = `shared-${rand()}`;
    const sharedLink = await createLink(api, {
      connection_type: "sandbox_oauth",
      redirect_url: "https://client.example.com/cb",
    });
    const done = paramsOf(await callback(await authorize(await start(sharedLink), { account })));
    const shared = done.connection_id;
    expect(done.status, JSON.stringify(done)).toBe("success");
    const s = await dashboardServer(member, "Member's server on the shared account", [shared]);

    const privateLink = await createLink(api, {
      connection_type: "sandbox_oauth",
      is_private: true,
      redirect_url: "https://client.example.com/cb?x=1",
    });
    const redirect = await callback(await authorize(await start(privateLink), { account }));
    expect(redirect.startsWith("https://client.example.com/cb?")).toBe(true);
    const params = paramsOf(redirect);
    expect(params).toMatchObject({
      x: "1",
      status: "error",
      error: "invalid_request",
      connection_type: "sandbox_oauth",
    });
    expect(params.error_description).toContain("cannot become private");
    expect(params.error_description).toContain("Member's server on the shared account");
    const status = await (await api.get(`/v1/connections/auth-links/${privateLink.id}/status`)).json();
    expect(status).toMatchObject({ status: "pending" });
    const failed = await waitFor(() =>
      hooks.received
        .map((r) => JSON.parse(r.body))
        .find((e) => e.type === "auth_link.failed" && e.data.auth_link.id === privateLink.id),
    );
    expect(failed.data).toMatchObject({
      error: "invalid_request",
      error_description: params.error_description,
      auth_link: { id: privateLink.id, status: "pending" },
    });
    // The shared connection is untouched.
    expect((await (await api.get(`/v1/connections/${shared}`)).json())[0].is_private).toBe(false);

    // Retryable: once the member's server no longer uses it, the same link connects it privately.
    const cleared = await member.patch(`/api/dashboard/mcp-servers/${s.id}`, { data: { connection_ids: [] } });
    expect(cleared.status(), await cleared.text()).toBe(200);
    const retried = paramsOf(await callback(await authorize(await start(privateLink), { account })));
    delete retried.x;
    expect(retried).toMatchObject({ status: "success", connection_id: shared });
    expect((await (await api.get(`/v1/connections/${shared}`)).json())[0].is_private).toBe(true);
  });
});
