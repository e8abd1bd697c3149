import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { signOutEverywhere } from "@/lib/users/sign-out-everywhere";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Sign out everywhere: every session of the signed-in user ends, this one included. */
export const DELETE = withSession(async ({ team, user, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return signOutEverywhere(user.id, team.id);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
