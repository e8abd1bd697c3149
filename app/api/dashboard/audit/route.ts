import { withAuth } from "@/lib/api/with-auth";
import { parseQuery } from "@/lib/api/parse";
import { listAuditEventsQuerySchema } from "@/lib/schemas/audit";
import { listAuditEvents } from "@/lib/audit/list-audit-events";

/** The team's audit log, for owners: who did what to which key, connection, member or MCP server. */
export const GET = withAuth(async ({ team, searchParams }) => listAuditEvents(team.id, parseQuery(listAuditEventsQuerySchema, searchParams)), { ownerOnly: true });
