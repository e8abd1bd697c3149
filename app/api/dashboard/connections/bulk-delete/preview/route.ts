import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { bulkDeleteConnectionsBodySchema } from "@/lib/schemas/connection-page";
import { previewConnectionsDelete } from "@/lib/connections/preview-connections-delete";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** What a bulk delete would do (nothing is deleted): the connections and the active workflows it would deactivate. */
export const POST = withSession(async ({ team, user, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(bulkDeleteConnectionsBodySchema, req);
  return previewConnectionsDelete(team.id, user.id, body.connection_ids);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
