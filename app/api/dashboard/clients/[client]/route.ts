import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { parseClientKey } from "@/lib/clients/parse-client-key";
import { getClientOrThrow } from "@/lib/clients/get-client-or-throw";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** A client page: its connections and their spend, credits per day, recent errors, workflows. */
export const GET = withSession<{ client: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return getClientOrThrow(team.id, user.id, parseClientKey(params.client));
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
