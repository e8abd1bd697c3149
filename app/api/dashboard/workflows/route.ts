import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { createWorkflowBodySchema } from "@/lib/schemas/workflows";
import { listWorkflows } from "@/lib/workflows/list-workflows";
import { createWorkflow } from "@/lib/workflows/save-workflow";
import { workflowJson } from "@/lib/workflows/workflow-json";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The team's workflows with their schedule, next and last run and credits this period. Every member sees them. */
export const GET = withSession(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return listWorkflows(team.id, user.id);
});

/** Saves a new workflow; every problem of its nodes, references and schedule is named in one 400. */
export const POST = withSession(async ({ team, user, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(createWorkflowBodySchema, req);
  const row = await createWorkflow(
    { teamId: team.id, userId: user.id },
    {
      name: body.name,
      nodes: body.nodes,
      schedule: body.schedule ?? null,
      timezone: body.timezone ?? null,
      active: body.active ?? true,
      trigger: body.trigger,
      events: body.events,
    },
  );
  return workflowJson(row);
});

const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
