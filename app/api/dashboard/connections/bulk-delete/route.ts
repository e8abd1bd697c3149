import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { bulkDeleteConnectionsBodySchema } from "@/lib/schemas/connection-page";
import { deleteConnections } from "@/lib/connection-changes/delete-connections";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Deletes the selected connections together (all or none), deactivating the workflows that use them. */
export const POST = withSession(async ({ team, user, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(bulkDeleteConnectionsBodySchema, req);
  return deleteConnections(team.id, user.id, body.connection_ids);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
