import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { decodeCursor, encodeCursor, toPage } from "@/lib/db/pagination";
import type { AuditEventJson, ListAuditEventsQuery } from "@/lib/schemas/audit";
import type { AuditAction } from "@/lib/schemas/audit-actions";

type Row = Awaited<ReturnType<typeof db.auditEvent.findMany>>[number];

const toJson = (r: Row): AuditEventJson => ({
  id: r.id,
  action: r.action as AuditAction,
  actor: { kind: r.actorKind, user_id: r.actorUserId, email: r.actorEmail, api_key_id: r.actorKeyId },
  target: { type: r.targetType, id: r.targetId },
  details: JSON.parse(r.details) as Record<string, unknown>,
  ip: r.ip,
  request_id: r.requestId,
  created_at: r.createdAt.getTime(),
});

/** A team's audit events, newest first by (createdAt, id), optionally of one action. */
export async function listAuditEvents(teamId: string, query: ListAuditEventsQuery) {
  const { limit, cursor, ...filters } = query;
  const where: Prisma.AuditEventWhereInput = { teamId, action: filters.action };
  if (cursor) {
    const after = decodeCursor("audit", filters, cursor);
    const at = new Date(after.at);
    where.AND = [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: String(after.id) } }] }];
  }
  const rows = await db.auditEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  return toPage(
    rows,
    limit,
    toJson,
    (r) => ({ at: r.createdAt.getTime(), id: r.id }),
    (p) => encodeCursor("audit", filters, p),
  );
}
