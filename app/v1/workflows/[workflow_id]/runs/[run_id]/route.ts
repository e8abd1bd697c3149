import { withAuth } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { getApiRun } from "@/lib/workflows/api-runs";

/** A run's progress (CONTRACT §13 API trigger): status, trigger, version, times and credits. */
export const GET = withAuth<{ workflow_id: string; run_id: string }>(async ({ team, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getApiRun(team.id, params.workflow_id, params.run_id);
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
