import { withAuth } from "@/lib/api/with-auth";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";

/** Revokes one of this team's keys; another team's key id is not found. */
export const DELETE = withAuth<{ id: string }>(async ({ team, params }) => revokeApiKey(params.id, team.id), { ownerOnly: true });
