// Test data for the suites, through the same lib functions the product uses: called in the test
// worker's own process (e2e/fixtures.ts `seed`), or as a process with another environment
// (e2e/support/seed.ts <command> '<json>'; `hostWith` for many).
import { createTeam } from "@/lib/teams/create-team";
import { createUser } from "@/lib/users/create-user";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { db } from "@/lib/db/client";
import { freshCredentials } from "@/lib/connections/fresh-credentials";
import { decryptJson, encryptJson } from "@/lib/security/encryption";
import type { Plan } from "@/lib/teams/plans";
import { recordOperations, toLogRow, type OperationRecord } from "@/lib/logs/record-operations";
import { chargeCredits, type Charge } from "@/lib/credits/charge-credits";
import { transaction } from "@/lib/db/transaction";
import { newId } from "@/lib/security/ids";
import type { Db } from "@/lib/db/client";
import { saveConnection } from "@/lib/connection-changes/save-connection";
import { runSnapshot } from "@/lib/workflows/queue-run";
import { teamConcurrency } from "@/lib/workflows/config";
import { createMcpToken, downgradeAllowedServersUsing, revokeMcpToken } from "@/lib/mcp-servers/mcp-servers";
import { removeMember } from "@/lib/members/remove-member";
import { providerUrl } from "@/lib/platforms/kit/provider-fetch";
import { findConnectionType } from "@/lib/platforms/registry";
import { grantOf } from "@/lib/platforms/sandbox/sandbox-grants";
import { hashPassword } from "@/lib/security/hashing";

// A password's scrypt hash costs about 0.1 s of CPU, on purpose. The suites' users share a few
// passwords, so each process hashes each one once and stores that hash for every user it makes;
// signing in verifies it as it would any other.
const passwordHashes = new Map<string, Promise<string>>();
const passwordHash = (password: string) => {
  if (!passwordHashes.has(password)) passwordHashes.set(password, hashPassword(password));
  return passwordHashes.get(password)!;
};

async function writeRuns(teamId: string, runs: { logs: OperationRecord[]; charge: Charge }[]) {
  await transaction(async (tx) => {
    await (tx as unknown as Db).operationLog.createMany({
      data: runs.flatMap((r) => r.logs.map((l) => toLogRow(teamId, newId("log"), l))),
    });
    for (const r of runs) await chargeCredits(tx, r.charge);
  });
}

type Args = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data and CLI output of many shapes, read untyped

export const seedCommands: Record<string, (a: Args) => Promise<unknown>> = {
  /** A team with `members` users (the first an owner), each with an API key. */
  async team(a) {
    const team = await createTeam({
      name: a.name ?? "Test team",
      plan: (a.plan ?? "team") as Plan,
      creditsLimit: a.creditsLimit,
      historyDays: a.historyDays,
    });
    const users = [];
    for (let i = 0; i < (a.members ?? 1); i++) {
      const email = `u${i}-${team.id.slice(5).toLowerCase()}@test.patchbay.dev`;
      const user = await createUser({ teamId: team.id, email, role: i === 0 ? "owner" : "member" });
      if (a.password)
        await db.user.update({ where: { id: user.id }, data: { passwordHash: await passwordHash(a.password) } });
      const key = await createApiKey({ teamId: team.id, userId: user.id, requireTeamPlan: false });
      users.push({ id: user.id, email, key: key.key, keyId: key.id });
    }
    return { id: team.id, users };
  },
  /** Moves the current billing period to have started `startedDaysAgo` days ago (usage kept). */
  async billingPeriod(a) {
    const start = new Date(Date.now() - a.startedDaysAgo * 86_400_000);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    await db.team.update({ where: { id: a.team }, data: { billingPeriodStart: start, billingPeriodEnd: end } });
    return { start: Math.floor(start.getTime() / 1000), end: Math.floor(end.getTime() / 1000) };
  },
  /** An MCP server row without tokens (the product creates them through lib/mcp-servers/mcp-servers.ts; tests of listing need only the row). */
  async mcpServer(a) {
    const row = await db.mcpServer.create({
      data: {
        id: `mcp_${Math.random().toString(36).slice(2, 14)}`,
        teamId: a.team,
        name: a.name,
        ownerUserId: a.owner ?? null,
        isPrivate: a.isPrivate ?? false,
      },
    });
    return { id: row.id };
  },
  /** Ledger charges through chargeCredits: [{credits, type, ago (seconds before now), name?}]. */
  async charges(a) {
    const now = Math.floor(Date.now() / 1000);
    for (const c of a.charges as {
      credits: number;
      type: "workflow" | "agent" | "copilot" | "mcp";
      ago?: number;
      name?: string;
      /** Which connections the charge paid for (CONTRACT §12). */
      attribution?: { connectionId: string | null; credits: number }[];
    }[]) {
      await transaction((tx) =>
        chargeCredits(tx, {
          teamId: a.team,
          credits: c.credits,
          service: { type: c.type, id: null, name: c.name ?? `Test ${c.type}` },
          user: null,
          at: now - (c.ago ?? 0),
          attribution: c.attribution,
        }),
      );
    }
    return { now };
  },
  /** A workflow row joined to `connections` (what deleting a connection deactivates), without the save checks. */
  async workflow(a) {
    const wf = await db.workflow.create({
      data: {
        id: newId("wf"),
        teamId: a.team,
        name: a.name ?? "Test workflow",
        active: a.active ?? true,
        nodes: [{ id: "node_1", label: "Step", operation_id: "utility.format_text", input: { template: "Hello" } }],
        connections: { create: ((a.connections ?? []) as string[]).map((connectionId) => ({ connectionId })) },
      },
    });
    return { id: wf.id };
  },
  /** A workflow holding `nodes` as given, written around the save checks (a row from before a rule existed). */
  async workflowWithNodes(a) {
    const nodes = a.nodes as { connection_id?: string }[];
    const connectionIds = [...new Set(nodes.map((n) => n.connection_id).filter((c): c is string => !!c))];
    const wf = await db.workflow.create({
      data: {
        id: newId("wf"),
        teamId: a.team,
        name: a.name ?? "Written around the checks",
        active: a.active ?? true,
        nodes: a.nodes,
        createdByUserId: a.createdBy ?? null,
        connections: { create: connectionIds.map((connectionId) => ({ connectionId })) },
      },
    });
    return { id: wf.id };
  },
  /** Puts connections in an MCP server's saved permissions. */
  async mcpServerConnections(a) {
    await db.mcpServerConnection.createMany({
      data: (a.connections as string[]).map((connectionId) => ({ mcpServerId: a.server, connectionId })),
    });
    return {};
  },
  /**
   * A run queued as Run now would (`user` pressed it), due in `dueInMs`; `writesBy` overrides
   * who allowed its writes (null: nobody, as a schedule of a workflow no owner activated);
   * `trigger: "schedule"` makes it a run its schedule queued (no user).
   */
  async queuedRun(a) {
    const wf = await db.workflow.findUniqueOrThrow({ where: { id: a.workflow } });
    const now = Date.now();
    const id = newId("run");
    const writesBy = a.writesBy !== undefined ? a.writesBy : (wf.activatedByUserId ?? a.user ?? null);
    await db.workflowRun.create({
      data: {
        id,
        teamId: a.team,
        workflowId: wf.id,
        workflowName: wf.name,
        trigger: a.trigger ?? "manual",
        userId: a.user ?? null,
        status: "queued",
        dueAt: BigInt(now + (a.dueInMs ?? 0)),
        createdAt: BigInt(now),
        state: await runSnapshot(a.team, wf, writesBy),
      },
    });
    return { run_id: id };
  },
  /**
   * Takes every place of the team under WORKFLOW_TEAM_CONCURRENCY with runs "running" on no
   * instance (leased for an hour, on a workflow of their own): no instance's runner claims
   * another run of the team until that workflow is deleted (deleteWorkflow), while `workflow run
   * --wait` still claims its own run (it claims it by ID). → {workflow, runs}
   */
  async occupyTeamRuns(a) {
    const wf = await db.workflow.create({
      data: {
        id: newId("wf"),
        teamId: a.team,
        name: "Occupying the team's runs",
        active: false,
        nodes: [{ id: "node_1", label: "Step", operation_id: "utility.format_text", input: { template: "Hello" } }],
      },
    });
    const now = Date.now();
    const runs: string[] = [];
    for (let i = 0; i < teamConcurrency(); i++) {
      const id = newId("run");
      await db.workflowRun.create({
        data: {
          id,
          teamId: a.team,
          workflowId: wf.id,
          workflowName: wf.name,
          trigger: "manual",
          status: "running",
          claims: 1,
          dueAt: BigInt(now),
          startedAt: BigInt(now),
          leaseUntil: BigInt(now + 3_600_000),
          createdAt: BigInt(now),
        },
      });
      runs.push(id);
    }
    return { workflow: wf.id, runs };
  },
  /**
   * Moves a scheduled workflow's next slot to `at` (ms) without touching its `updatedAt`: as if
   * every instance had been stopped since that slot.
   */
  async missSlot(a) {
    const wf = await db.workflow.findUniqueOrThrow({ where: { id: a.workflow }, select: { updatedAt: true } });
    await db.workflow.update({ where: { id: a.workflow }, data: { nextRunAt: BigInt(a.at), updatedAt: wf.updatedAt } });
    return {};
  },
  /** Deletes a workflow, and its runs with it. */
  async deleteWorkflow(a) {
    await db.workflow.delete({ where: { id: a.id } });
    return {};
  },
  /** A run's stored state: the definition it was queued with, and its steps. */
  async runState(a) {
    const run = await db.workflowRun.findUniqueOrThrow({ where: { id: a.id }, select: { state: true } });
    return JSON.parse(run.state);
  },
  /** A workflow run as stored (status, claims, its end), or null. */
  async workflowRun(a) {
    const run = await db.workflowRun.findUnique({
      where: { id: a.id },
      select: {
        id: true,
        status: true,
        claims: true,
        nodeIndex: true,
        credits: true,
        error: true,
        failedNodeId: true,
        leaseUntil: true,
        reservedCredits: true,
        trigger: true,
        triggerKey: true,
        userId: true,
        version: true,
        replayOf: true,
      },
    });
    return run && { ...run, leaseUntil: run.leaseUntil === null ? null : Number(run.leaseUntil) };
  },
  /** A workflow's runs, newest first. */
  async workflowRuns(a) {
    return db.workflowRun.findMany({
      where: { workflowId: a.workflow },
      select: { id: true, status: true, claims: true, trigger: true, triggerKey: true, state: true },
      orderBy: { createdAt: "desc" },
    });
  },
  /** Sets a connection's facts as time and checks would have: `externalId`, `lastUsedAgo` / `createdAgo` (seconds), `health`, `healthError`. */
  async connectionState(a) {
    const now = Date.now();
    await db.connection.update({
      where: { id: a.connection },
      data: {
        ...(a.externalId !== undefined && { externalId: a.externalId }),
        ...(a.lastUsedAgo !== undefined && {
          lastUsedAt: a.lastUsedAgo === null ? null : BigInt(Math.floor(now / 1000) - a.lastUsedAgo),
        }),
        ...(a.createdAgo !== undefined && { createdAt: new Date(now - a.createdAgo * 1000) }),
        ...(a.health !== undefined && { health: a.health, healthError: a.healthError ?? null }),
      },
    });
    return {};
  },
  /** An agent conversation row (no turns): what logs of `source: agent` name, for pages that list them. */
  async agentConversation(a) {
    const now = BigInt(Date.now());
    const row = await db.agentConversation.create({
      data: {
        id: newId("conv"),
        teamId: a.team,
        userId: a.user,
        userEmail: a.email ?? "agent@test.patchbay.dev",
        title: a.title ?? "A conversation",
        modelConnectionId: a.modelConnection ?? "conn_none",
        model: "sandbox-model",
        connectionIds: JSON.stringify(a.connections ?? []),
        shared: a.shared ?? false,
        createdAt: now,
        updatedAt: now,
      },
    });
    return { id: row.id };
  },
  /**
   * `count` turns of the conversation waiting for a write request that is still pending (for a
   * day), as a conversation leaves them while nobody decides: the backlog behind which a decided
   * request's turn must still continue (lib/agents/resume-turns.ts).
   */
  async pendingAgentTurns(a) {
    const now = Date.now();
    // Ids that sort before any random one: whatever order a scan takes (the id's, or the rows'), these come first.
    const batch = newId("msg").slice(4, 12);
    const ids = Array.from({ length: a.count as number }, (_, i) => [
      `msg_00000${String(i).padStart(4, "0")}${batch}`,
      newId("apr"),
    ]);
    await db.approval.createMany({
      data: ids.map(([turnId, id]) => ({
        id,
        teamId: a.team,
        status: "pending",
        operationId: "sandbox.set_note",
        operationVersion: 1,
        connectionId: "conn_none",
        connectionType: "sandbox_key",
        input: JSON.stringify({ note: "waiting" }),
        summary: "Set the note to waiting",
        conversationId: a.conversation,
        agentTurnId: turnId,
        createdAtMs: BigInt(now),
        expiresAt: BigInt(Math.floor(now / 1000) + 86_400),
      })),
    });
    await db.agentTurn.createMany({
      data: ids.map(([id, approvalId], i) => ({
        id,
        conversationId: a.conversation,
        teamId: a.team,
        seq: i,
        userId: a.user,
        userEmail: "agent@test.patchbay.dev",
        message: "note: waiting",
        status: "waiting_approval",
        waitingApprovalId: approvalId,
        waitingToolCallId: `call_${i}`,
        startedAt: BigInt(Math.floor(now / 1000)),
      })),
    });
    return { turns: ids.length };
  },
  /** Marks a connection as needing re-authorization, as a refused refresh does. */
  async needsReauth(a) {
    await db.connection.update({ where: { id: a.connection }, data: { needsReauthAt: new Date() } });
    return {};
  },
  async workflowState(a) {
    const wf = await db.workflow.findUniqueOrThrow({ where: { id: a.id }, select: { active: true } });
    return wf;
  },
  /** A token for an MCP server, created as `user` acting with `role` (the dashboard's create). */
  async mcpToken(a) {
    const t = await createMcpToken({ teamId: a.team, userId: a.user, role: a.role ?? "owner" }, a.server);
    return { id: t.id, token: t.token };
  },
  /** lib/mcp-servers/mcp-servers.ts's downgradeAllowedServersUsing in its own transaction, as save-connection would call it. */
  async downgradeAllowedServers(a) {
    return { servers: await transaction((tx) => downgradeAllowedServersUsing(tx, a.team, a.connection, a.reason)) };
  },
  /** Takes a member out of the team as an owner would (lib/members/remove-member.ts). */
  async removeMember(a) {
    const by = await db.user.findUniqueOrThrow({ where: { id: a.by }, select: { id: true, email: true } });
    return removeMember(
      { team: { id: a.team, name: "", plan: "team", historyDays: null }, user: by, apiKeyId: null, role: "owner" },
      a.user,
    );
  },
  /** Revokes every token of an MCP server (as the dashboard's revoke does, one by one). */
  async revokeMcpTokens(a) {
    const server = await db.mcpServer.findFirstOrThrow({
      where: { id: a.server, teamId: a.team },
      select: { ownerUserId: true, tokens: { select: { id: true } } },
    });
    for (const t of server.tokens)
      await revokeMcpToken({ teamId: a.team, userId: server.ownerUserId!, role: "owner" }, a.server, t.id);
    return { revoked: server.tokens.length };
  },
  /** Moves an invite's expiry into the past (the 7 days have passed). */
  async expireInvite(a) {
    await db.invite.update({ where: { id: a.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    return { id: a.id };
  },
  /** Moves an auth link's expiry into the past (the 24 hours have passed). */
  async expireAuthLink(a) {
    await db.authLink.update({ where: { id: a.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    return { ok: true };
  },
  /** Moves the start of every Continue pressed on an auth link `minutes` into the past (their cookie's time ran out). */
  async ageOAuthAttempts(a) {
    const attempts = await db.oAuthAttempt.findMany({
      where: { authLinkId: a.authLink },
      select: { id: true, createdAt: true },
    });
    for (const t of attempts)
      await db.oAuthAttempt.update({
        where: { id: t.id },
        data: { createdAt: new Date(t.createdAt.getTime() - a.minutes * 60_000) },
      });
    return { aged: attempts.length };
  },
  /** Stored OAuth tokens of a connection, optionally edited first (expiry in the past, another refresh or access token). */
  async oauthTokens(a) {
    const row = await db.connection.findUniqueOrThrow({ where: { id: a.id } });
    const stored = decryptJson<{ oauth: Record<string, unknown> }>(row.credentials, `connection:${row.id}`);
    if (a.expire || a.refreshToken || a.accessToken || a.expiresInMs) {
      if (a.expire) stored.oauth.expiresAt = Date.now() - 1000;
      if (a.expiresInMs) stored.oauth.expiresAt = Date.now() + a.expiresInMs;
      if (a.refreshToken) stored.oauth.refreshToken = a.refreshToken;
      if (a.accessToken) stored.oauth.accessToken = a.accessToken;
      await db.connection.update({
        where: { id: a.id },
        data: {
          credentials: encryptJson(stored, `connection:${row.id}`),
          tokenExpiresAt: typeof stored.oauth.expiresAt === "number" ? BigInt(stored.oauth.expiresAt) : null,
        },
      });
    }
    return { ...stored.oauth, needsReauthAt: row.needsReauthAt };
  },
  /** What the connection's health fields hold (CONTRACT §12), times as numbers. */
  async connectionHealth(a) {
    const row = await db.connection.findUniqueOrThrow({
      where: { id: a.id },
      select: {
        health: true,
        healthError: true,
        checkedAt: true,
        nextCheckAt: true,
        lastUsedAt: true,
        tokenExpiresAt: true,
      },
    });
    const n = (v: bigint | null) => (v === null ? null : Number(v));
    return {
      health: row.health,
      healthError: row.healthError,
      checkedAt: n(row.checkedAt),
      nextCheckAt: n(row.nextCheckAt),
      lastUsedAt: n(row.lastUsedAt),
      tokenExpiresAt: n(row.tokenExpiresAt),
    };
  },
  /** Makes the connection's scheduled check due now. */
  async checkDueNow(a) {
    await db.connection.update({ where: { id: a.id }, data: { nextCheckAt: BigInt(Date.now() - 1) } });
    return { ok: true };
  },
  /** How many times the sandbox's token endpoint refreshed the grant behind an OAuth connection. */
  async sandboxRefreshes(a) {
    const row = await db.connection.findUniqueOrThrow({ where: { id: a.id } });
    const stored = decryptJson<{ oauth: { refreshToken: string } }>(row.credentials, `connection:${row.id}`);
    const counted = await db.sandboxRefresh.findUnique({ where: { grant: grantOf(stored.oauth.refreshToken) } });
    return { count: counted?.count ?? 0 };
  },
  /**
   * The plain SQL aggregation GET /v1/usage must equal: the team's attribution rows and logs in
   * [from, to) by connection (every connection, as the operator sees them).
   */
  async usageByConnectionSql(a) {
    const credits = await db.$queryRaw<{ key: string | null; credits: unknown }[]>`
      SELECT "connectionId" AS "key", SUM("credits") AS "credits" FROM "UsageAttribution"
      WHERE "teamId" = ${a.team} AND "createdAt" >= ${BigInt(a.from)} AND "createdAt" < ${BigInt(a.to)}
      GROUP BY "connectionId"`;
    const logs = await db.$queryRaw<{ key: string | null; operations: unknown; errors: unknown }[]>`
      SELECT "connectionId" AS "key", COUNT(*) AS "operations",
        SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END) AS "errors"
      FROM "OperationLog"
      WHERE "teamId" = ${a.team} AND "startedAt" >= ${BigInt(a.from)} AND "startedAt" < ${BigInt(a.to)}
      GROUP BY "connectionId"`;
    const rows: Record<string, { credits: number; operations: number; errors: number }> = {};
    const row = (k: string | null) => (rows[k ?? "null"] ??= { credits: 0, operations: 0, errors: 0 });
    for (const c of credits) row(c.key).credits += Number(c.credits);
    for (const l of logs) {
      row(l.key).operations += Number(l.operations);
      row(l.key).errors += Number(l.errors ?? 0);
    }
    return rows;
  },
  /**
   * A team's logs counted per UTC hour and connection two ways: from the hour counts the triggers
   * keep (LogHour, summed over its batches) and from the logs themselves; and how many rows of
   * counts are still per transaction (batch other than 0).
   */
  async logHoursAndLogs(a) {
    const counted = await db.$queryRaw<{ hour: unknown; cid: string; operations: unknown; errors: unknown }[]>`
      SELECT "hour" AS "hour", "connectionId" AS "cid", SUM("operations") AS "operations", SUM("errors") AS "errors"
      FROM "LogHour" WHERE "teamId" = ${a.team} GROUP BY "hour", "connectionId"`;
    const logs = await db.$queryRaw<{ hour: unknown; cid: string; operations: unknown; errors: unknown }[]>`
      SELECT "startedAt" / 3600 AS "hour", COALESCE("connectionId", '') AS "cid", COUNT(*) AS "operations",
        SUM(CASE WHEN "status" = 'error' THEN 1 ELSE 0 END) AS "errors"
      FROM "OperationLog" WHERE "teamId" = ${a.team} GROUP BY "startedAt" / 3600, COALESCE("connectionId", '')`;
    const [batches] = await db.$queryRaw<{ n: unknown }[]>`
      SELECT COUNT(*) AS "n" FROM "LogHour" WHERE "teamId" = ${a.team} AND "batch" <> 0`;
    const byKey = (rows: typeof logs) =>
      Object.fromEntries(
        rows
          .filter((r) => Number(r.operations) !== 0 || Number(r.errors) !== 0)
          .map((r) => [`${Number(r.hour)}|${r.cid}`, [Number(r.operations), Number(r.errors)]]),
      );
    return { counted: byKey(counted), logs: byKey(logs), batches: Number(batches.n) };
  },
  /** A team's attribution rows with their entries' service types, and its day rollup (UsageDay), as stored. */
  async usageDaysAndRows(a) {
    const rows = await db.$queryRaw<{ at: unknown; type: string; connectionId: string | null; credits: unknown }[]>`
      SELECT a."createdAt" AS "at", e."serviceType" AS "type", a."connectionId" AS "connectionId", a."credits" AS "credits"
      FROM "UsageAttribution" a JOIN "CreditLedgerEntry" e ON e."id" = a."ledgerEntryId"
      WHERE a."teamId" = ${a.team}`;
    const days = await db.usageDay.findMany({ where: { teamId: a.team } });
    return {
      rows: rows.map((r) => ({
        at: Number(r.at),
        type: r.type,
        connectionId: r.connectionId,
        credits: Number(r.credits),
      })),
      days: days.map((d) => ({
        day: d.day,
        type: d.serviceType,
        connectionId: d.connectionId,
        credits: Number(d.credits),
      })),
    };
  },
  /** The credentials a provider call would use now (refreshing an expiring OAuth token), or the error. */
  async freshCredentials(a) {
    try {
      return { ok: await freshCredentials(a.team, a.id) };
    } catch (e) {
      return { error: { status: (e as { status?: number }).status, detail: (e as { detail?: unknown }).detail } };
    }
  },
  /** Where a provider call of `type` to each of `urls` would go (lib/platforms/kit/provider-fetch.ts), or why it is refused. */
  async providerUrls(a) {
    const def = findConnectionType(a.type);
    if (!def) return { error: `no type ${a.type}` };
    return (a.urls as string[]).map((url) => {
      try {
        return { url, to: providerUrl(def, url) };
      } catch (e) {
        return { url, refused: (e as Error).message };
      }
    });
  },
  /** One log per entry of `startedAgo` (seconds before now), so tests control times exactly. */
  async logs(a) {
    const now = Math.floor(Date.now() / 1000);
    const ids: string[] = [];
    // `together`: all in one write (a thousand logs in one transaction), else one write each.
    const batches = a.together ? [a.startedAgo as number[]] : (a.startedAgo as number[]).map((ago) => [ago]);
    for (const batch of batches) {
      const r = await recordOperations(
        a.team,
        batch.map((ago) => ({
          operationId: a.operationId ?? "test.op",
          status: a.status ?? "success",
          source: {
            type: a.sourceType ?? "agent",
            id: a.sourceId ?? null,
            runId: a.runId ?? null,
            name: a.sourceName ?? null,
          },
          user: null,
          startedAt: now - ago,
          completedAt: now - ago + 1,
          connectionId: a.connectionId ?? null,
          input: a.input,
          output: a.output,
          metadata: {},
          privateTo: a.privateTo ?? null,
        })),
      );
      ids.push(...r.logIds);
    }
    return { ids, now };
  },
  /**
   * A log's output replaced, as a workflow's `start` log is when its step ends (run-workflow.ts),
   * or with `delete` the log removed, as retention does: what the search index must follow.
   */
  async rewriteLog(a) {
    if (a.delete) await db.operationLog.delete({ where: { id: a.id } });
    else
      await db.operationLog.update({
        where: { id: a.id },
        data: { status: a.status, output: JSON.stringify(a.output) },
      });
    return {};
  },
  /**
   * `count` logs for the explorers, one "run" of 4 steps every 40 seconds going back from now:
   * half the runs are workflow runs (of one real workflow, sharing a run id,
   * each with a single workflow charge), the others MCP and agent steps with their own charge.
   * Every 10th step fails and every 10th+7 is skipped; the oldest log's operation is
   * `bulk.oldest` so a test can recognise the end of the list. Written with the same row
   * mapping and charge function as recordOperations, 250 runs per transaction (5,000 logs in
   * a few seconds).
   */
  /** A charge whose transaction then fails: everything it wrote (a webhook event too) rolls back. */
  async rolledBackCharge(a) {
    const boom = new Error("rolled back on purpose");
    try {
      await transaction(async (tx) => {
        await chargeCredits(tx, {
          teamId: a.team,
          credits: a.credits,
          service: { type: "workflow", id: null, name: "Rolled back" },
          user: null,
          at: Math.floor(Date.now() / 1000),
        });
        throw boom;
      });
    } catch (e) {
      if (e !== boom) throw e;
    }
    const team = await db.team.findUniqueOrThrow({ where: { id: a.team }, select: { creditsUsed: true } });
    return { creditsUsed: team.creditsUsed, events: await db.webhookEvent.count({ where: { teamId: a.team } }) };
  },
  /** `count` API-key connections through saveConnection, one transaction each (one connection.created each). */
  async connections(a) {
    const ids: string[] = [];
    for (let i = 0; i < a.count; i++) {
      const { row } = await saveConnection({
        teamId: a.team,
        type: "sandbox_key",
        typeName: "Sandbox key",
        displayName: `${a.prefix ?? "Bulk"} ${i}`,
        ownerUserId: null,
        actingUserId: null,
        credentials: { api_key: `bulk-${i}` },
        rotationKey: null,
        via: { kind: "credentials" },
      });
      ids.push(row.id);
    }
    return { ids };
  },
  /**
   * A client's connections and their calls (CONTRACT §12): `clients` [{external_id (null: none),
   * connections}] as sandbox_key connections, then per connection `calls` MCP-like calls (credits
   * 2, every third an error with 0), each logged on it and charged with its attribution.
   */
  async clientCalls(a) {
    const now = Math.floor(Date.now() / 1000);
    const source = { type: "mcp" as const, id: null, name: "Client calls" };
    const made: { id: string; external_id: string | null }[] = [];
    for (const [c, client] of (a.clients as { external_id: string | null; connections: number }[]).entries())
      for (let i = 0; i < client.connections; i++) {
        const { row } = await saveConnection({
          teamId: a.team,
          type: "sandbox_key",
          typeName: "Sandbox key",
          displayName: `${client.external_id ?? "No client"} ${i}`,
          externalId: client.external_id,
          ownerUserId: null,
          actingUserId: null,
          credentials: { api_key: `client-${c}-${i}` },
          rotationKey: null,
          via: { kind: "credentials" },
        });
        made.push({ id: row.id, external_id: client.external_id });
      }
    for (const connection of made)
      for (let i = 0; i < (a.calls ?? 3); i++) {
        const failed = i % 3 === 2;
        const credits = failed ? 0 : 2;
        await recordOperations(
          a.team,
          [
            {
              operationId: "sandbox.report",
              operationVersion: 1,
              status: failed ? "error" : "success",
              source,
              user: null,
              startedAt: now - 60 * (i + 1),
              completedAt: now - 60 * (i + 1),
              creditsUsed: credits,
              connectionId: connection.id,
            },
          ],
          {
            credits,
            service: source,
            user: null,
            at: now - 60 * (i + 1),
            attribution: [{ connectionId: connection.id, credits }],
          },
        );
      }
    return { now, connections: made };
  },
  /** Backdates an endpoint's failing streak (the 3-day disable rule without waiting 3 days). */
  async webhookFailingSince(a) {
    await db.webhookEndpoint.update({
      where: { id: a.endpoint },
      data: { failingSince: new Date(Date.now() - a.msAgo) },
    });
    return {};
  },
  /** The outbox as stored: events of a team, and every attempt (delivery, number) recorded. */
  async webhookOutbox(a) {
    const events = await db.webhookEvent.findMany({ where: { teamId: a.team }, select: { id: true, type: true } });
    const attempts = await db.webhookAttempt.findMany({
      where: { delivery: { teamId: a.team } },
      select: { deliveryId: true, number: true, statusCode: true, error: true },
    });
    const deliveries = await db.webhookDelivery.findMany({
      where: { teamId: a.team },
      select: { id: true, status: true, attempts: true },
    });
    return { events, attempts, deliveries };
  },
  async bulkActivity(a) {
    const count: number = a.count ?? 5000;
    const now = Math.floor(Date.now() / 1000);
    const users = await db.membership.findMany({
      where: { teamId: a.team },
      select: { user: { select: { id: true, email: true } } },
    });
    const user = users[0]?.user ?? null;
    const wf = await db.workflow.create({
      data: {
        id: newId("wf"),
        teamId: a.team,
        name: "Nightly report",
        active: true,
        nodes: [{ id: "node_1", label: "Step", operation_id: "utility.format_text", input: { template: "Hello" } }],
      },
    });
    const runs = Math.ceil(count / 4);
    let written = 0;
    const charges = { workflow: 0, mcp: 0, agent: 0 };
    const pending: { logs: OperationRecord[]; charge: Charge }[] = [];
    // Oldest run first, so each charge's balance snapshot follows the timeline.
    for (let r = runs - 1; r >= 0; r--) {
      const kind = r % 4 < 2 ? "workflow" : r % 4 === 2 ? "mcp" : "agent";
      const runStart = now - 60 - r * 40;
      const logs: OperationRecord[] = [];
      for (let s = 0; s < 4 && r * 4 + s < count; s++, written++) {
        const i = r * 4 + s;
        const status = i % 10 === 3 ? "error" : i % 10 === 7 ? "skipped" : "success";
        logs.push({
          operationId: r === runs - 1 && s === 0 ? "bulk.oldest" : `${kind}.step_${s + 1}`,
          operationVersion: 1,
          status,
          source: {
            type: kind,
            id: kind === "workflow" ? wf.id : kind === "mcp" ? "mcp_bulkserver" : `conv_bulk${r}`,
            runId: kind === "workflow" ? `run_bulk${String(r).padStart(5, "0")}` : null,
            name: kind === "workflow" ? wf.name : kind === "mcp" ? "Bulk MCP" : "Agent chat",
          },
          user,
          // Steps of a run run one after another, 5 seconds apart.
          startedAt: runStart + s * 5,
          completedAt: runStart + s * 5 + 4,
          creditsUsed: status === "skipped" ? 0 : 1,
          input: { step: s + 1, index: i },
          output:
            status === "error" ? { error: "provider_error", message: "Rate limit exceeded (429)" } : { rows: i % 97 },
          metadata: { node_label: `Step ${s + 1}`, retry_attempts: status === "error" ? 2 : 0 },
        });
      }
      charges[kind]++;
      pending.push({
        logs,
        charge: {
          teamId: a.team,
          credits: logs.length,
          service: { type: kind, id: logs[0].source.id, name: logs[0].source.name },
          user,
          at: runStart,
        },
      });
      if (pending.length >= 250 || r === 0) await writeRuns(a.team, pending.splice(0));
    }
    return { workflowId: wf.id, logs: written, charges, now };
  },
};
