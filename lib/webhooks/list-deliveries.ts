import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { decodeCursor, encodeCursor, toPage } from "@/lib/db/pagination";
import { notFound } from "@/lib/errors/api-error";
import type { ListWebhookDeliveriesQuery, WebhookDeliveryJson } from "@/lib/schemas/webhooks";

const OPEN = ["pending", "delivering"];

/** The delivery log of one endpoint, newest first, each delivery with all its attempts. */
export async function listWebhookDeliveries(teamId: string, endpointId: string, query: ListWebhookDeliveriesQuery) {
  if (!(await db.webhookEndpoint.findFirst({ where: { id: endpointId, teamId }, select: { id: true } })))
    throw notFound(`No webhook endpoint ${endpointId} in this team.`);
  const { limit, cursor, ...filters } = query;
  const where: Prisma.WebhookDeliveryWhereInput = {
    endpointId,
    eventType: filters.event_type,
    status: filters.outcome === undefined ? undefined : filters.outcome === "pending" ? { in: OPEN } : filters.outcome,
  };
  if (cursor) {
    const after = decodeCursor(`webhook-deliveries:${endpointId}`, filters, cursor);
    const at = BigInt(after.at);
    where.AND = [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: String(after.id) } }] }];
  }
  const rows = await db.webhookDelivery.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: { log: { orderBy: { number: "asc" } }, event: { select: { payload: true } } },
  });
  return toPage(
    rows,
    limit,
    (r): WebhookDeliveryJson => ({
      id: r.id,
      event_id: r.eventId,
      event_type: r.eventType,
      status: r.status,
      attempt_count: r.attempts,
      next_attempt_at: OPEN.includes(r.status) ? Number(r.nextAttemptAt) : null,
      created_at: Number(r.createdAt),
      completed_at: r.completedAt === null ? null : Number(r.completedAt),
      attempts: r.log.map((a) => ({
        number: a.number,
        started_at: Number(a.startedAt),
        duration_ms: a.durationMs,
        status_code: a.statusCode,
        error: a.error,
        response_body: a.responseBody,
      })),
      payload: JSON.parse(r.event.payload),
    }),
    (r) => ({ at: Number(r.createdAt), id: r.id }),
    (p) => encodeCursor(`webhook-deliveries:${endpointId}`, filters, p),
  );
}
