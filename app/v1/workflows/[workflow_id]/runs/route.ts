import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { json } from "@/lib/http/json";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { badRequest } from "@/lib/errors/api-error";
import { noParamsSchema } from "@/lib/schemas/common";
import { startWorkflowRunBodySchema } from "@/lib/schemas/workflows";
import { startApiRun } from "@/lib/workflows/api-runs";

/** Starts a run of an active workflow (CONTRACT §13 API trigger): 201 {run_id, status: "queued"}. */
export const POST = withAuth<{ workflow_id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const empty = req.headers.get("content-length") === "0" || req.body === null;
  const body = empty ? {} : await parseJsonBody(startWorkflowRunBodySchema, req);
  const key = req.headers.get("idempotency-key")?.trim() || null;
  if (key !== null && key.length > 255) throw badRequest("Idempotency-Key: must be at most 255 characters");
  return json(await startApiRun(team.id, user.id, params.workflow_id, body.input, key), { status: 201 });
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
