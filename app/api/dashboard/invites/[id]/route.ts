import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { revokeInvite } from "@/lib/members/invites";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const DELETE = withSession<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return revokeInvite(team.id, params.id);
  },
  { ownerOnly: true },
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
