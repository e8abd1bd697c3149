import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listServerGrants } from "@/lib/mcp-servers/connected-apps";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The AI clients signed in to this server by OAuth (CONTRACT §10): who allowed each, when, last used. */
export const GET = withSession<{ id: string }>(async ({ team, user, role, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listServerGrants({ teamId: team.id, userId: user.id, role }, params.id) };
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
