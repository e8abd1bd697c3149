import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { connectionFacts } from "@/lib/connections/connection-facts";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The Connections list's columns and filters: health, last use, stale and duplicates of every visible connection. */
export const GET = withSession(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return connectionFacts(team.id, user.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
