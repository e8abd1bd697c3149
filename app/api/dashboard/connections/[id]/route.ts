import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { renameConnectionBodySchema } from "@/lib/schemas/connection-page";
import { getConnectionPage } from "@/lib/connection-pages/get-connection-page";
import { renameConnection } from "@/lib/connection-changes/rename-connection";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The connection page: its facts, consent words and what uses it. */
export const GET = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getConnectionPage(team.id, user.id, params.id);
});

/** Rename: a new display name. */
export const PATCH = withSession<{ id: string }>(async ({ team, user, params, req, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  const body = await parseJsonBody(renameConnectionBodySchema, req);
  await renameConnection(team.id, user.id, params.id, body.display_name);
  return getConnectionPage(team.id, user.id, params.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET, PATCH");
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
