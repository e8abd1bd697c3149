import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { updateWorkflowBodySchema } from "@/lib/schemas/workflows";
import { getWorkflow } from "@/lib/workflows/list-workflows";
import { deleteWorkflow, updateWorkflow } from "@/lib/workflows/save-workflow";
import { workflowJson } from "@/lib/workflows/workflow-json";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** One workflow, each node with its operation, its connection and what is wrong with that connection. */
export const GET = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getWorkflow(team.id, user.id, params.id);
});

/** Changes a workflow: its name, nodes, schedule or whether it is active, checked like a new one. */
export const PATCH = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(updateWorkflowBodySchema, req);
  return workflowJson(await updateWorkflow({ teamId: team.id, userId: user.id }, params.id, body));
});

/** Deletes a workflow and its run history; its logs and ledger entries stay. */
export const DELETE = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return workflowJson(await deleteWorkflow({ teamId: team.id, userId: user.id }, params.id));
});

const notAllowed = methodNotAllowed("GET, PATCH, DELETE");
export { notAllowed as POST, notAllowed as PUT };
