import { withSession } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { listAuditEventsQuerySchema } from "@/lib/schemas/audit";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { methodNotAllowed } from "@/lib/api/method-not-allowed";

/** The team's audit log, for owners: who did what to which key, connection, member or MCP server. */
export const GET = withSession(
  async ({ team, searchParams }) => listAuditEvents(team.id, parseQuery(listAuditEventsQuerySchema, searchParams)),
  { ownerOnly: true },
);

// Any other method: a JSON 405 naming the ones this route takes (not Next's empty one).
const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
