import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { revokeInvite } from "@/lib/members/invites";

export const DELETE = withAuth<{ id: string }>(
  async ({ team, params, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return revokeInvite(team.id, params.id);
  },
  { ownerOnly: true },
);
