import "server-only";
import { db } from "@/lib/db/client";
import { badRequest, notFound } from "@/lib/errors/api-error";
import { hiddenRunSentence, runJsonFor } from "@/lib/workflows/run-json";
import { parseRunState } from "@/lib/workflows/run-records";
import { othersPrivateConnections } from "@/lib/workflows/workflow-consent";

// A workflow's run history (newest first, keyset-paged) and one run with each node's input and
// output from its log.

const parseCursor = (cursor: string | undefined) => {
  if (!cursor) return null;
  const m = /^(\d{1,16})_(run_[A-Za-z0-9]{1,64})$/.exec(cursor);
  if (!m) throw badRequest("cursor: not a cursor this list gave; start again without it");
  return { createdAt: BigInt(m[1]), id: m[2] };
};

/** The replay of each of these runs that has one (a run is replayed at most once). */
async function replaysOf(ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.workflowRun.findMany({
    where: { replayOf: { in: ids } },
    select: { id: true, replayOf: true },
  });
  return new Map(rows.map((r) => [r.replayOf!, r.id]));
}

export async function listRuns(
  teamId: string,
  workflowId: string,
  q: { cursor?: string; limit?: number },
  viewerUserId: string,
) {
  if (!(await db.workflow.findFirst({ where: { id: workflowId, teamId }, select: { id: true } })))
    throw notFound(`No workflow ${workflowId.slice(0, 255)} in this team.`);
  const limit = q.limit ?? 25;
  const after = parseCursor(q.cursor);
  const rows = await db.workflowRun.findMany({
    where: {
      teamId,
      workflowId,
      ...(after && {
        OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
      }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const replays = await replaysOf(page.map((r) => r.id));
  return {
    runs: page.map((r) => ({ ...runJsonFor(r, viewerUserId), replayed_by: replays.get(r.id) ?? null })),
    next_cursor: rows.length > limit && last ? `${last.createdAt}_${last.id}` : null,
  };
}

/**
 * One run with each node's input and output from its log. A run on a teammate's private
 * connection is that teammate's: others see its statuses, not what it read or wrote.
 */
export async function getRun(teamId: string, runId: string, viewerUserId: string) {
  const row = await db.workflowRun.findFirst({ where: { id: runId, teamId } });
  if (!row) throw notFound(`No workflow run ${runId.slice(0, 255)} in this team.`);
  const run = { ...runJsonFor(row, viewerUserId), replayed_by: (await replaysOf([runId])).get(runId) ?? null };
  // Runs queued before the snapshot named private owners: the connections as they are now.
  const snapshot = parseRunState(row.state);
  const legacy =
    snapshot.private_owners === undefined
      ? await othersPrivateConnections(
          teamId,
          (snapshot.nodes ?? []).map((n) => n.connection_id ?? ""),
          viewerUserId,
        )
      : [];
  const redacted = run.redacted ?? (legacy.length ? hiddenRunSentence(legacy.map((c) => c.type)) : null);
  if (redacted) return { ...run, redacted, nodes: run.nodes.map((n) => ({ ...n, input: null, output: null })) };
  const logs = await db.operationLog.findMany({
    where: { teamId, sourceRunId: runId },
    select: { id: true, input: true, output: true },
  });
  const byId = new Map(logs.map((l) => [l.id, l]));
  const parse = (text: string | null | undefined) => (text == null ? null : (JSON.parse(text) as unknown));
  return {
    ...run,
    redacted: null,
    nodes: run.nodes.map((n) => ({
      ...n,
      input: parse(byId.get(n.log_id)?.input),
      output: parse(byId.get(n.log_id)?.output),
    })),
  };
}
