import { withSession } from "@/lib/api/with-auth";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** Revokes one of this team's keys; another team's key id is not found. */
export const DELETE = withSession<{ id: string }>(async ({ team, params }) => revokeApiKey(params.id, team.id), {
  ownerOnly: true,
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("DELETE");
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
