import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listMembers } from "@/lib/members/list-members";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

export const GET = withSession(async ({ team, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMembers(team.id) };
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
