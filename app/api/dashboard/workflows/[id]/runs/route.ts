import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listRunsQuerySchema } from "@/lib/schemas/workflows";
import { listRuns } from "@/lib/workflows/list-runs";
import { enqueueRun } from "@/lib/workflows/queue-run";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The workflow's runs, newest first: status, trigger, duration, credits and each node. */
export const GET = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  const q = parseQuery(listRunsQuerySchema, searchParams);
  return listRuns(team.id, params.id, q, user.id);
});

/** Run now: queues a run, which an instance starts within a second; answers {run_id}. */
export const POST = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const { run_id } = await enqueueRun(team.id, params.id, { userId: user.id });
  return { run_id };
});

const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
