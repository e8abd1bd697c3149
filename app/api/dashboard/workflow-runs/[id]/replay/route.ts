import { withSession } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { replayRunBodySchema } from "@/lib/schemas/workflows";
import { replayRun } from "@/lib/workflows/replay";

/** Retry from this step: replays a failed or stopped run from its failed node (or `from`). */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(replayRunBodySchema, req);
  return replayRun(params.id, { teamId: team.id, from: body.from, viewerUserId: user.id });
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
