import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { checkVisibleConnection } from "@/lib/connections/check-visible-connection";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Check now: the connection's identity call, run now (CONTRACT §12 `connection check`). */
export const POST = withSession<{ id: string }>(async ({ team, user, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return checkVisibleConnection(team.id, user.id, params.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("POST");
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
