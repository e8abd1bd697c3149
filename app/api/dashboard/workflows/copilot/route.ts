import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { copilotBodySchema } from "@/lib/schemas/workflows";
import { draftWorkflow } from "@/lib/agents/copilot";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/**
 * The workflow Copilot: a message in, a draft workflow out (checked as a save checks it, nothing
 * saved), with the model's reply; one `copilot` ledger entry of 1 credit per message.
 */
export const POST = withSession(async ({ team, user, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return draftWorkflow({ team, user }, await parseJsonBody(copilotBodySchema, req));
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
