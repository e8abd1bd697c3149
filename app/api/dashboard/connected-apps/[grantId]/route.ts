import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { revokeGrantAs } from "@/lib/mcp-servers/connected-apps";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Revokes a connected app: its tokens stop working on the next call, on every instance. */
export const DELETE = withSession<{ grantId: string }>(async ({ team, user, role, params, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return revokeGrantAs({ teamId: team.id, userId: user.id, role, email: user.email }, params.grantId);
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
