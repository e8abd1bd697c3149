import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getRun } from "@/lib/workflows/list-runs";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** One run: each node's status, duration, retries, credits, input and output. */
export const GET = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getRun(team.id, params.id, user.id);
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
