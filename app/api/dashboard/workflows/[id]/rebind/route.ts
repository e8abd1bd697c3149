import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { rebindWorkflowBodySchema } from "@/lib/schemas/workflows";
import { rebindWorkflow } from "@/lib/workflows/save-workflow";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * Points every node using connection `from` at connection `to` (a replaced API-key connection);
 * answers {id, nodes_rebound}.
 */
export const POST = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(rebindWorkflowBodySchema, req);
  const { row, nodesRebound } = await rebindWorkflow(
    { teamId: team.id, userId: user.id },
    params.id,
    body.from,
    body.to,
  );
  return { id: row.id, nodes_rebound: nodesRebound };
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
