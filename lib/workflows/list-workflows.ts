import "server-only";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors/api-error";
import { findOperation } from "@/lib/operations/registry";
import { workflowJson, parseNodes } from "@/lib/workflows/workflow-json";
import { runJsonFor } from "@/lib/workflows/run-json";
import { connectionProblems } from "@/lib/workflows/connection-problems";

// Reading workflows: the CLI's list, and the dashboard's list and page.

export async function teamOfWorkflow(id: string): Promise<string> {
  const row = await db.workflow.findUnique({ where: { id }, select: { teamId: true } });
  if (!row) throw notFound(`No workflow ${id.slice(0, 255)}.`);
  return row.teamId;
}

export async function listWorkflowsForCli(teamId: string) {
  if (!(await db.team.findUnique({ where: { id: teamId }, select: { id: true } })))
    throw notFound(`No team ${teamId.slice(0, 255)}.`);
  return db.workflow.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** What the Workflows page lists: schedule, next run, last run, credits this billing period, whether a node writes. */
export async function listWorkflows(teamId: string, viewerUserId: string) {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { billingPeriodStart: true } });
  const rows = await db.workflow.findMany({ where: { teamId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
  const ids = rows.map((r) => r.id);
  const periodStart = BigInt(Math.floor(team.billingPeriodStart.getTime() / 1000));
  const [credits, lastRuns, problems] = await Promise.all([
    db.creditLedgerEntry.groupBy({
      by: ["serviceId"],
      where: { teamId, serviceType: "workflow", serviceId: { in: ids }, createdAt: { gte: periodStart } },
      _sum: { creditsUsed: true },
    }),
    Promise.all(
      ids.map((id) =>
        db.workflowRun.findFirst({
          where: { workflowId: id, status: { not: "queued" } },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        }),
      ),
    ),
    connectionProblems(
      teamId,
      rows.flatMap((r) =>
        parseNodes(r.nodes)
          .map((n) => n.connection_id)
          .filter((c): c is string => !!c),
      ),
      viewerUserId,
    ),
  ]);
  const creditsOf = new Map(credits.map((c) => [c.serviceId, c._sum.creditsUsed ?? 0]));
  return {
    workflows: rows.map((row, i) => {
      const nodes = parseNodes(row.nodes);
      return {
        ...workflowJson(row),
        writes: nodes.some((n) => findOperation(n.operation_id)?.kind === "write"),
        last_run: lastRuns[i] ? runJsonFor(lastRuns[i], viewerUserId) : null,
        credits_this_period: creditsOf.get(row.id) ?? 0,
        connection_problems: nodes.flatMap(
          (n): { node_id: string; connection_id: string | null; problem: string }[] => {
            if (n.connection_id)
              return problems.has(n.connection_id)
                ? [{ node_id: n.id, connection_id: n.connection_id, problem: problems.get(n.connection_id)! }]
                : [];
            const op = findOperation(n.operation_id);
            return op && op.types.length
              ? [
                  {
                    node_id: n.id,
                    connection_id: null,
                    problem: `no connection chosen: ${op.id} needs a ${op.types.join(" or ")} connection`,
                  },
                ]
              : [];
          },
        ),
      };
    }),
  };
}

/**
 * One workflow with its nodes (each with its operation and connection) for its page and the
 * editor. A node on another member's private connection names no more of it than its type.
 */
export async function getWorkflow(teamId: string, viewerUserId: string, id: string) {
  const row = await db.workflow.findFirst({ where: { id, teamId } });
  if (!row) throw notFound(`No workflow ${id.slice(0, 255)} in this team.`);
  const nodes = parseNodes(row.nodes);
  const ids = nodes.map((n) => n.connection_id).filter((c): c is string => !!c);
  const [connections, problems] = await Promise.all([
    ids.length
      ? db.connection.findMany({
          where: { teamId, id: { in: ids } },
          select: { id: true, type: true, displayName: true, externalId: true, ownerUserId: true },
        })
      : [],
    connectionProblems(teamId, ids, viewerUserId),
  ]);
  const byId = new Map(connections.map((c) => [c.id, c]));
  return {
    ...workflowJson(row),
    nodes: nodes.map((n) => {
      const op = findOperation(n.operation_id);
      const c = n.connection_id ? byId.get(n.connection_id) : undefined;
      return {
        ...n,
        operation: op ? { id: op.id, title: op.title, kind: op.kind, credits: op.credits, types: op.types } : null,
        connection: c
          ? c.ownerUserId === null || c.ownerUserId === viewerUserId
            ? { id: c.id, type: c.type, display_name: c.displayName, external_id: c.externalId }
            : { id: c.id, type: c.type, display_name: "A teammate's private connection", external_id: null }
          : null,
        connection_problem: n.connection_id
          ? (problems.get(n.connection_id) ?? null)
          : op && op.types.length
            ? `no connection chosen: ${op.id} needs a ${op.types.join(" or ")} connection`
            : null,
      };
    }),
  };
}
