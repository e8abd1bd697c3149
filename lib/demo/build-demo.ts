import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { db } from "@/lib/db/client";
import { createConnectionFromCredentials } from "@/lib/connection-changes/create-connection-from-credentials";
import type { Principal } from "@/lib/api-keys/authenticate-api-key";
import { createWorkflow } from "@/lib/workflows/save-workflow";
import { findWorkflowTemplate, instantiateTemplate } from "@/lib/workflows/workflow-templates";
import type { WorkflowNode } from "@/lib/schemas/workflows";
import { enqueueRun } from "@/lib/workflows/queue-run";
import { runAndWait, scheduleDueWorkflows } from "@/lib/workflows/runner";
import { createMcpServer, createMcpToken } from "@/lib/mcp-servers/mcp-servers";
import { authenticateMcpToken } from "@/lib/mcp-tokens/authenticate-mcp-token";
import { resolveScope } from "@/lib/mcp/request-scope";
import { buildMcpServer } from "@/lib/mcp/build-server";
import { approveApproval, rejectApproval } from "@/lib/approvals/decide-approval";
import { realNow, setClock } from "@/lib/demo/past-clock";
import { prng } from "@/lib/activity/simulate-activity";
import { createConversation } from "@/lib/agents/conversations";
import { resumeTurn } from "@/lib/agents/run-turn";

// The demo's history, made by the product itself: connections verified by the sandbox provider,
// workflow runs through the runner, MCP calls through the MCP server (a client in this process),
// approvals filed by those calls and decided by the owner, agent conversations through the agent
// loop on the sandbox model (a write of theirs approved, then continued). Only the clock is set: to each day of
// the past weeks in turn (lib/demo/past-clock.ts), so the history spreads over them. Nothing is
// left running, every node runs on its connection, and the demo never writes on its own later:
// its scheduled workflows are reads; the one that writes is inactive and ran only when the owner
// ran it by hand.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

export type DemoPeople = { teamId: string; ownerId: string; teammateId: string };

/** Day `-days` at 10:00 UTC: when the workspace is made. */
export const demoStart = (now: number, days: number) => Math.floor(now / DAY) * DAY - days * DAY + 10 * HOUR;

/**
 * Makes the workspace's connections, workflows and MCP server at the clock's time (the first day),
 * then lives `days` days: each day the scheduler runs each slot at its time, the teammate's
 * assistant asks a few questions over MCP, and now and then asks to write the note, which the
 * owner approves or declines; the owner runs the note workflow by hand on three days. Ends on the
 * day before today.
 */
export async function populateDemo(people: DemoPeople, firstDay: number, days: number) {
  const { teamId, ownerId, teammateId } = people;
  // A fixed sequence, so every demo tells the same story.
  const random = prng(42).next;
  const owner = await db.user.findUniqueOrThrow({ where: { id: ownerId }, select: { id: true, email: true } });
  const team = await db.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { id: true, name: true, plan: true, historyDays: true },
  });
  const principal: Principal = { team, user: owner, apiKeyId: null, role: "owner" };

  const { id: analyticsId } = await createConnectionFromCredentials(principal, {
    connection_type: "sandbox_key",
    name: "Sandbox analytics key",
    credentials: { api_key: "demo-key-1" },
  });
  const { id: whiteLabelId } = await createConnectionFromCredentials(principal, {
    connection_type: "sandbox_whitelabel",
    name: "Acme white-label app",
    credentials: { client_id: "acme-app", client_secret: "s3cret", refresh_token: "demo-refresh" },
  });
  const { id: modelId } = await createConnectionFromCredentials(principal, {
    connection_type: "sandbox_model",
    name: "Sandbox model",
    credentials: {},
  });
  if (!analyticsId || !whiteLabelId || !modelId) throw new Error("The demo's connections were not saved.");

  const actor = { teamId, userId: ownerId };
  const noteTemplate = findWorkflowTemplate("sandbox_daily_note")!;
  // Writes: saved inactive; only the owner's Run now runs it.
  const noteWorkflow = await createWorkflow(actor, {
    name: noteTemplate.name,
    nodes: instantiateTemplate(noteTemplate, { sandbox: analyticsId }, {}),
    schedule: noteTemplate.schedule,
    timezone: noteTemplate.timezone,
    active: false,
  });
  // Reads, on a schedule: they run every day (and every week) of the demo's history.
  await createWorkflow(actor, {
    name: "Daily sessions report",
    nodes: reportNodes(analyticsId, "sessions", 1, "Sessions yesterday"),
    schedule: "0 9 * * *",
    timezone: "UTC",
    active: true,
  });
  await createWorkflow(actor, {
    name: "Weekly signups (Acme)",
    nodes: reportNodes(whiteLabelId, "signups", 7, "Signups, last 7 days"),
    schedule: "30 8 * * 1",
    timezone: "UTC",
    active: true,
  });

  const assistant = await createMcpServer({
    teamId,
    ownerUserId: teammateId,
    name: "Claude Desktop",
    connectionIds: [analyticsId, whiteLabelId],
    writePolicy: "approval",
  });
  const { token } = await createMcpToken({ teamId, userId: teammateId, role: "member" }, assistant.id, "Laptop");

  const metrics = ["sessions", "users", "signups", "revenue"];
  const handRuns = new Set([3, 9, 16]);
  const noteAsks: Record<number, "approve" | "reject"> = { 5: "approve", 12: "reject", 18: "approve" };
  // The owner's questions to the agent (shared with the team); the note is a write, approved.
  const agentAsks: Record<number, string> = {
    2: "How many sessions did we have in the last 7 days? A report, please.",
    8: "Weekly report on sessions",
    14: "note: Agent check-in: sessions steady week over week",
  };
  // Each move of the clock first lives the scheduled slots on the way, each at its own time (as
  // the scheduler starts them: within a few seconds), never all at once at the next event.
  const at = async (time: number) => {
    await runSchedulesUntil(teamId, time);
    setClock(time);
  };
  for (let day = 1; day < days; day++) {
    const morning = firstDay + day * DAY - 10 * HOUR;

    // Late morning, after the 08:30 and 09:00 slots: the assistant's questions.
    await at(morning + 10 * HOUR + Math.floor(random() * 90) * MINUTE);
    await withMcp(token, async (mcp) => {
      if (random() < 0.5) await mcp.callTool({ name: "list_connections", arguments: {} });
      const asks = 1 + Math.floor(random() * 3);
      for (let i = 0; i < asks; i++) {
        await mcp.callTool({
          name: "sandbox_report",
          arguments: {
            connection_id: random() < 0.7 ? analyticsId : whiteLabelId,
            metric: metrics[Math.floor(random() * metrics.length)],
            days: [7, 14, 28][Math.floor(random() * 3)],
          },
        });
      }
    });

    const decision = noteAsks[day];
    if (decision) {
      await at(morning + 14 * HOUR + Math.floor(random() * 60) * MINUTE);
      const filed = await withMcp(token, (mcp) =>
        mcp.callTool({
          name: "run_write_operation",
          arguments: {
            operation_id: "sandbox.set_note",
            connection_id: analyticsId,
            input: {
              note:
                decision === "approve"
                  ? `Weekly review ${new Date().toISOString().slice(0, 10)}: sessions steady`
                  : "TODO",
            },
          },
        }),
      );
      const approvalId = approvalIdOf(filed);
      // A few minutes later (within the request's lifetime), the owner decides it.
      await at(Date.now() + (3 + Math.floor(random() * 20)) * MINUTE);
      if (decision === "approve") await approveApproval(actor, approvalId, "Fine, go ahead.");
      else await rejectApproval(actor, approvalId, "Not a useful note: keep the current one.");
    }

    const question = agentAsks[day];
    if (question) {
      await at(morning + 11 * HOUR + Math.floor(random() * 60) * MINUTE);
      const { turn } = await createConversation(principal, {
        model_connection_id: modelId,
        connection_ids: [analyticsId],
        shared: true,
        message: question,
      });
      const waiting = turn.steps.find((s) => s.status === "pending")?.approval_id;
      if (waiting) {
        await at(Date.now() + (2 + Math.floor(random() * 10)) * MINUTE);
        await approveApproval(actor, waiting, "Yes, save it.");
        await resumeTurn(turn.id); // the demo's server runs no jobs: the agent goes on here
      }
    }

    if (handRuns.has(day)) {
      await at(morning + 16 * HOUR + Math.floor(random() * 120) * MINUTE);
      const { run_id } = await enqueueRun(teamId, noteWorkflow.id, { userId: ownerId });
      await runAndWait(run_id);
    }
  }
}

/**
 * Lives the team's scheduled slots up to `until`, in order, each at its own time: the clock is set
 * to a second or two after the slot (the scheduler polls every second; the contract allows 15),
 * the scheduler starts the run and it runs to its end here (the demo's server runs no jobs).
 * Never sets the clock back, nor past the real time.
 */
export async function runSchedulesUntil(teamId: string, until: number) {
  for (;;) {
    const next = await db.workflow.findFirst({
      where: { teamId, active: true, nextRunAt: { lte: BigInt(until) } },
      orderBy: { nextRunAt: "asc" },
      select: { nextRunAt: true },
    });
    if (!next) return;
    const slot = Number(next.nextRunAt);
    // The same pick-up delay the slot's own minute gives, so every demo tells the same story.
    const pickedUp = slot + 1_000 + ((slot / MINUTE) % 7) * 150;
    setClock(Math.max(Date.now(), Math.min(pickedUp, realNow())));
    await scheduleDueWorkflows(Date.now(), teamId);
    const queued = await db.workflowRun.findMany({
      where: { teamId, status: "queued" },
      select: { id: true },
      orderBy: { dueAt: "asc" },
    });
    for (const run of queued) await runAndWait(run.id);
  }
}

function reportNodes(connectionId: string, metric: string, days: number, label: string): WorkflowNode[] {
  return [
    {
      id: "report",
      label,
      operation_id: "sandbox.report",
      connection_id: connectionId,
      input: { metric, days, end_date: "{{run.date.yesterday}}" },
    },
    {
      id: "summary",
      label: "Summary line",
      operation_id: "utility.format_text",
      input: {
        template:
          days === 1
            ? `{{nodes.report.output.total}} ${metric} on {{run.date.yesterday}}`
            : `{{nodes.report.output.total}} ${metric} in the ${days} days to {{run.date.yesterday}}`,
      },
    },
  ];
}

/** One MCP session of the assistant: its token, its saved connections, the server a request gets. */
async function withMcp<T>(token: string, work: (client: Client) => Promise<T>): Promise<T> {
  const principal = await authenticateMcpToken(`Bearer ${token}`);
  const scope = await resolveScope(principal, { source: "saved" });
  const server = buildMcpServer({ principal, scope });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "Claude Desktop", version: "1.0.0" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return await work(client);
  } finally {
    await client.close();
    await server.close();
  }
}

function approvalIdOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  for (const part of content) {
    const found = part.type === "text" ? /"approval_id":\s*"([^"]+)"/.exec(part.text ?? "") : null;
    if (found) return found[1];
  }
  throw new Error(`The demo's write was not filed for approval: ${JSON.stringify(result).slice(0, 500)}`);
}
