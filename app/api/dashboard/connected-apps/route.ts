import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { noParamsSchema } from "@/lib/schemas/common";
import { listMyGrants } from "@/lib/mcp-servers/connected-apps";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The apps the signed-in person allowed in this team, on any MCP server. */
export const GET = withSession(async ({ team, user, role, searchParams }) => {
  parseQuery(noParamsSchema, searchParams);
  return { data: await listMyGrants({ teamId: team.id, userId: user.id, role }) };
});

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
