import { withSession } from "@/lib/api/with-auth";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listVersions } from "@/lib/workflows/versions";

/** The workflow's versions, newest first, each whole (nodes and trigger), who saved it and when. */
export const GET = withSession<{ id: string }>(async ({ team, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { versions: await listVersions(team.id, params.id) };
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
