import "server-only";
import { db } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/api/errors";
import { runJson } from "@/lib/workflows/run-json";

// A workflow's run history (newest first, keyset-paged) and one run with each node's input and
// output from its log.

const parseCursor = (cursor: string | undefined) => {
  if (!cursor) return null;
  const m = /^(\d{1,16})_(run_[A-Za-z0-9]{1,64})$/.exec(cursor);
  if (!m) throw badRequest("cursor: not a cursor this list gave; start again without it");
  return { createdAt: BigInt(m[1]), id: m[2] };
};

export async function listRuns(teamId: string, workflowId: string, q: { cursor?: string; limit?: number }) {
  if (!(await db.workflow.findFirst({ where: { id: workflowId, teamId }, select: { id: true } }))) throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  const limit = q.limit ?? 25;
  const after = parseCursor(q.cursor);
  const rows = await db.workflowRun.findMany({
    where: { teamId, workflowId, ...(after && { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { runs: page.map(runJson), next_cursor: rows.length > limit && last ? `${last.createdAt}_${last.id}` : null };
}

export async function getRun(teamId: string, runId: string) {
  const row = await db.workflowRun.findFirst({ where: { id: runId, teamId } });
  if (!row) throw notFound(`No workflow run ${runId.slice(0, 255)} in this team.`);
  const run = runJson(row);
  const logs = await db.operationLog.findMany({ where: { teamId, sourceRunId: runId }, select: { id: true, input: true, output: true } });
  const byId = new Map(logs.map((l) => [l.id, l]));
  const parse = (text: string | null | undefined) => (text == null ? null : (JSON.parse(text) as unknown));
  return { ...run, nodes: run.nodes.map((n) => ({ ...n, input: parse(byId.get(n.log_id)?.input), output: parse(byId.get(n.log_id)?.output) })) };
}
