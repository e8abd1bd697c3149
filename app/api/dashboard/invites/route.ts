import { withSession } from "@/lib/api/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { createInviteBodySchema } from "@/lib/schemas/dashboard";
import { noParamsSchema } from "@/lib/schemas/common";
import { json } from "@/lib/http/json";
import { createInvite, listInvites } from "@/lib/members/invites";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession(
  async ({ team, searchParams }) => {
    parseQuery(noParamsSchema, searchParams);
    return { data: await listInvites(team.id) };
  },
  { ownerOnly: true },
);

export const POST = withSession(
  async ({ team, user, req }) => {
    const body = await parseJsonBody(createInviteBodySchema, req);
    return json(await createInvite(team.id, user, body), { status: 201 });
  },
  { ownerOnly: true },
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET, POST");
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
