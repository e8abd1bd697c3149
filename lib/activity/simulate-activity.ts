import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { transaction } from "@/lib/db/transaction";
import { notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/security/ids";
import { recordOperations } from "@/lib/logs/record-operations";
import { chargeCredits } from "@/lib/credits/charge-credits";
import { recordFinishedRun, type StepState } from "@/lib/workflows/run-records";
import { parseNodes } from "@/lib/workflows/workflow-json";
import { WORKFLOW_TEMPLATES, instantiateTemplate } from "@/lib/workflows/workflow-templates";
import { DIRECT_TOOL_OPERATIONS, findOperation } from "@/lib/operations/registry";
import { findConnectionType } from "@/lib/platforms/registry";

// `activity simulate`: realistic operation logs and charges for a team, written through the
// same functions a real producer calls (a workflow run's records from lib/workflows/run-records,
// recordOperations, chargeCredits). Simulated workflows are made of catalogue operations.

export type SimulateOptions = {
  workflowRuns?: number;
  mcpCalls?: number;
  agentConversations?: number;
  copilotUses?: number;
  days?: number;
  seed?: number;
};

/** mulberry32: small, fast, deterministic for a given seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

/** The endpoint's own tools, so simulated calls look like real ones. */
const MCP_TOOLS = [
  {
    name: "list_connections",
    operationId: "mcp.list_connections",
    credits: 0,
    cacheable: false,
    types: [] as string[],
  },
  ...DIRECT_TOOL_OPERATIONS.map((op) => ({
    name: op.toolName!,
    operationId: op.id,
    credits: op.credits,
    cacheable: op.cacheTtlSeconds > 0,
    types: op.types,
  })),
];
const AGENT_STEPS = ["agent.plan", "agent.tool_call", "agent.retrieve", "agent.answer"];

export async function simulateActivity(teamId: string, options: SimulateOptions = {}) {
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: { id: true, memberships: { select: { user: { select: { id: true, email: true } } } } },
  });
  if (!team) throw notFound(`No team ${teamId}.`);
  const rand = prng(options.seed ?? Date.now());
  const days = options.days ?? 7;
  const now = Math.floor(Date.now() / 1000);
  const users = team.memberships.map((m) => m.user);
  const connections = await db.connection.findMany({
    where: { teamId, ownerUserId: null },
    select: { id: true, type: true },
  });
  // Some runs are system-triggered.
  const someUser = () => (users.length && !rand.chance(0.15) ? rand.pick(users) : null);
  const someTime = () => now - rand.int(0, days * 86_400 - 1);

  // Only active workflows run: one deactivated by deleting a connection it used (spec §4.5) stays quiet.
  const workflows = (await ensureWorkflows(teamId)).filter((wf) => wf.active);
  const mcpServer = await ensureMcpServer(teamId, users[0]?.id ?? null);
  // Events are generated first and written oldest first, so each charge's balance snapshot
  // follows the timeline as it would have in production.
  const events: { at: number; write: () => Promise<{ logs: number; ledger: number }> }[] = [];

  const workflowRuns = workflows.length ? (options.workflowRuns ?? 20) : 0;
  for (let i = 0; i < workflowRuns; i++) {
    const wf = rand.pick(workflows);
    const nodes = parseNodes(wf.nodes);
    // Some runs of several nodes are still going (always the last one made): their current node
    // reads `start` (see recordFinishedRun for their charge).
    const stillRunning = nodes.length > 1 && (i === workflowRuns - 1 || rand.chance(0.05));
    const failAt = !stillRunning && rand.chance(0.12) ? rand.int(0, nodes.length - 1) : -1;
    let t = (stillRunning ? now - rand.int(0, 300) : someTime()) * 1000;
    const steps: StepState[] = [];
    const io: { operationVersion: number | null; input?: unknown; output?: unknown }[] = [];
    for (const [index, node] of nodes.entries()) {
      const op = findOperation(node.operation_id);
      const operationVersion = op?.operationVersion ?? null;
      if (failAt >= 0 && index > failAt) {
        steps.push({
          node_id: node.id,
          log_id: "",
          status: "skipped",
          started_ms: t,
          completed_ms: t,
          retry_attempts: 0,
          credits: 0,
        });
        io.push({ operationVersion, output: { reason: `node ${nodes[failAt].id} failed` } });
        continue;
      }
      if (stillRunning && index === nodes.length - 1) {
        steps.push({
          node_id: node.id,
          log_id: "",
          status: "start",
          started_ms: t,
          completed_ms: null,
          retry_attempts: 0,
          credits: 0,
        });
        io.push({ operationVersion, input: node.input });
        break;
      }
      const duration = rand.int(200, 40_000);
      const failed = index === failAt;
      const cacheHit = !failed && (op?.cacheTtlSeconds ?? 0) > 0 && rand.chance(0.15);
      const error = "Could not reach the provider: it answered HTTP 503 three times (retried twice).";
      steps.push({
        node_id: node.id,
        log_id: "",
        status: failed ? "error" : "success",
        started_ms: t,
        completed_ms: t + duration,
        retry_attempts: failed ? 2 : rand.chance(0.1) ? 1 : 0,
        credits: cacheHit ? 0 : (op?.credits ?? 0),
        cache_hit: cacheHit,
        ...(failed && { error }),
      });
      io.push({ operationVersion, input: node.input, output: failed ? { error } : { rows: rand.int(0, 500) } });
      t += duration;
    }
    endByNow(steps, now * 1000);
    const user = someUser();
    events.push({
      at: Math.floor(steps[0].started_ms / 1000),
      write: async () => {
        const run = { id: newId("run"), teamId, workflowId: wf.id, workflowName: wf.name, user };
        const written = await recordFinishedRun(run, nodes, steps, io, "simulated");
        return { logs: written.logIds.length, ledger: 1 };
      },
    });
  }

  for (let i = 0; i < (options.mcpCalls ?? 30); i++) {
    const t = someTime();
    const tool = rand.pick(MCP_TOOLS);
    // Only a call that reaches a provider can fail there.
    const failed = tool.types.length > 0 && rand.chance(0.08);
    const cacheHit = !failed && tool.cacheable && rand.chance(0.25);
    // Priced as the endpoint prices a call (lib/mcp/call-tool.ts): the tool's credits when it
    // reached the provider and answered; nothing for a cache hit or an error.
    const credits = failed || cacheHit ? 0 : tool.credits;
    const user = someUser();
    const source = { type: "mcp" as const, id: mcpServer.id, name: mcpServer.name };
    // The team's own connection of the tool's type when it has one, as a real call would name.
    const connectionId = tool.types.length ? (connections.find((c) => tool.types.includes(c.type))?.id ?? null) : null;
    const write = () =>
      recordOperations(
        teamId,
        [
          {
            operationId: tool.operationId,
            operationVersion: 1,
            status: failed ? "error" : "success",
            source,
            user,
            startedAt: t,
            completedAt: Math.min(now, t + rand.int(0, 5)),
            creditsUsed: credits,
            cacheHit,
            input: tool.types.length ? { connection_id: connectionId, days: 7 } : {},
            output: failed
              ? {
                  error: {
                    message: `Could not reach ${findConnectionType(tool.types[0] ?? "")?.name ?? "the provider"}: no answer within 10 s.`,
                  },
                }
              : { rows: rand.int(1, 200) },
            metadata: { tool_name: tool.name },
            connectionId,
          },
        ],
        { credits, service: source, user, at: t, attribution: [{ connectionId, credits }] },
      );
    events.push({ at: t, write: async () => (await write(), { logs: 1, ledger: 1 }) });
  }

  for (let i = 0; i < (options.agentConversations ?? 5); i++) {
    const conversation = {
      id: newId("conv"),
      name: rand.pick(["Campaign audit", "Weekly KPI questions", "Budget planning", "Churn analysis"]),
    };
    const user = someUser();
    let t = someTime();
    const steps = rand.int(2, 6);
    const records = Array.from({ length: steps }, (_, s) => {
      const started = t;
      t += rand.int(1, 20);
      return {
        operationId: s === steps - 1 ? "agent.answer" : rand.pick(AGENT_STEPS.slice(0, 3)),
        operationVersion: 1,
        status: "success" as const,
        source: { type: "agent" as const, id: conversation.id, name: conversation.name },
        user,
        startedAt: started,
        completedAt: t,
        creditsUsed: 2,
        input: { step: s + 1 },
        output: { tokens: rand.int(100, 4000) },
        metadata: { step: s + 1 },
      };
    });
    endByNow(records, now);
    const charge = {
      credits: steps * 2,
      service: { type: "agent" as const, id: conversation.id, name: conversation.name },
      user,
      at: records[0].startedAt,
    };
    events.push({
      at: charge.at,
      write: async () => (await recordOperations(teamId, records, charge), { logs: steps, ledger: 1 }),
    });
  }

  for (let i = 0; i < (options.copilotUses ?? 5); i++) {
    const charge = {
      teamId,
      credits: rand.int(1, 4),
      service: { type: "copilot" as const, id: null, name: "Copilot" },
      user: someUser(),
      at: someTime(),
    };
    events.push({
      at: charge.at,
      write: async () => (await transaction((tx) => chargeCredits(tx, charge)), { logs: 0, ledger: 1 }),
    });
  }

  let logs = 0;
  let ledgerEntries = 0;
  for (const event of events.sort((a, b) => a.at - b.at)) {
    const written = await event.write();
    logs += written.logs;
    ledgerEntries += written.ledger;
  }
  return { logs, ledger_entries: ledgerEntries };
}

/**
 * The team's workflows; a team without any gets the ready templates (lib/workflows/workflow-templates),
 * manual and bound to its connections of the types their nodes run on (left out where it has none).
 */
async function ensureWorkflows(teamId: string) {
  const existing = await db.workflow.findMany({ where: { teamId }, orderBy: { createdAt: "asc" } });
  if (existing.length) return existing;
  const connections = await db.connection.findMany({
    where: { teamId, ownerUserId: null },
    select: { id: true, type: true },
    orderBy: { createdAt: "asc" },
  });
  const created = [];
  for (const template of WORKFLOW_TEMPLATES.slice(0, 3)) {
    const bound = Object.fromEntries(
      template.connections.flatMap((slot) =>
        connections
          .filter((c) => slot.types.includes(c.type))
          .slice(0, 1)
          .map((c) => [slot.key, c.id]),
      ),
    );
    const nodes = instantiateTemplate(
      template,
      bound,
      Object.fromEntries(template.fields.map((f) => [f.key, f.placeholder])),
    ).map((n) => (n.connection_id ? n : { ...n, connection_id: undefined }));
    const connectionIds = [...new Set(nodes.map((n) => n.connection_id).filter((c): c is string => !!c))];
    created.push(
      await db.workflow.create({
        data: {
          id: newId("wf"),
          teamId,
          name: template.name,
          active: true,
          nodes: nodes.map(({ connection_id, ...n }) =>
            connection_id ? { ...n, connection_id } : n,
          ) as Prisma.InputJsonValue,
          connections: { create: connectionIds.map((connectionId) => ({ connectionId })) },
        },
      }),
    );
  }
  return created;
}

async function ensureMcpServer(teamId: string, ownerUserId: string | null) {
  const existing = await db.mcpServer.findFirst({ where: { teamId }, orderBy: { createdAt: "asc" } });
  return existing ?? db.mcpServer.create({ data: { id: newId("mcp"), teamId, name: "Claude Desktop", ownerUserId } });
}

/**
 * A run or conversation that began shortly before now would otherwise have later steps in the
 * future: move all of its steps back together so the last one ends by now.
 */
function endByNow(steps: { startedAt: number; completedAt: number | null }[] | StepState[], now: number) {
  const times = steps.map((s) =>
    "started_ms" in s ? { start: s.started_ms, end: s.completed_ms } : { start: s.startedAt, end: s.completedAt },
  );
  const end = Math.max(...times.map((t) => t.end ?? t.start));
  if (end <= now) return;
  for (const s of steps) {
    if ("started_ms" in s) {
      s.started_ms -= end - now;
      if (s.completed_ms !== null) s.completed_ms -= end - now;
    } else {
      s.startedAt -= end - now;
      if (s.completedAt !== null) s.completedAt -= end - now;
    }
  }
}
