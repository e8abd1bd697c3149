import { withSession } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { bulkReplayBodySchema } from "@/lib/schemas/workflows";
import { replayFailedRuns } from "@/lib/workflows/replay";

/** Replays the failed and stopped runs of the workflow in [from, to) (Unix ms), each at most once. */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(bulkReplayBodySchema, req);
  return replayFailedRuns(team.id, params.id, { from: body.from, to: body.to }, user.id);
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
