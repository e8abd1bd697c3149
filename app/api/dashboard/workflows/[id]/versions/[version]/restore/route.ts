import { withSession } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { badRequest } from "@/lib/errors/api-error";
import { noParamsSchema } from "@/lib/schemas/common";
import { restoreVersion } from "@/lib/workflows/versions";
import { workflowJson } from "@/lib/workflows/workflow-json";

/** Restore: saves an earlier version as the next one, under the rules of any save. */
export const POST = withSession<{ id: string; version: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const version = /^[1-9][0-9]{0,8}$/.test(params.version) ? Number(params.version) : null;
  if (version === null) throw badRequest(`version: ${params.version.slice(0, 20)} is not a version number`);
  return workflowJson(await restoreVersion({ teamId: team.id, userId: user.id }, params.id, version));
});

const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
