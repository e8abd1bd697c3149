import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { parseClientKey } from "@/lib/clients/parse-client-key";
import { checkClient } from "@/lib/clients/check-client";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** *Check now* for a whole client: each of its connections' identity call, now. */
export const POST = withSession<{ client: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return checkClient(team.id, user.id, parseClientKey(params.client));
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
