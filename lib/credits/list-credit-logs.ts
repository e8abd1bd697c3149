import "server-only";
import { prepared, read } from "@/lib/db/read";
import { decodeCursor, encodeCursor, toPage } from "@/lib/db/pagination";
import { badRequest } from "@/lib/errors/api-error";
import type { CreditLogJson, ListCreditLogsQuery } from "@/lib/schemas/credits";
import { agentSourceName } from "@/lib/text/conversation-name";

const selectEntries = () =>
  read
    .selectFrom("CreditLedgerEntry as e")
    // An agent entry's name is its conversation's title: read only by who may see the conversation.
    .leftJoin("AgentConversation as c", (j) =>
      j.onRef("c.id", "=", "e.serviceId").onRef("c.teamId", "=", "e.teamId").on("e.serviceType", "=", "agent"),
    )
    .select([
      "e.id",
      "e.creditsUsed",
      "e.creditsRemaining",
      "e.serviceType",
      "e.serviceId",
      "e.serviceName",
      "e.userId",
      "e.userEmail",
      "e.createdAt",
      "c.userId as conversationUserId",
      "c.shared as conversationShared",
    ]);

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>["executeTakeFirstOrThrow"]>>;

type PageArgs = {
  teamId: string;
  serviceType?: string;
  serviceId?: string;
  userId?: string;
  from?: number;
  to?: number;
  /** The keyset position after which the page starts. */
  afterAt?: number;
  afterId?: number;
  take: number;
};

const findPage = prepared((a: PageArgs) => {
  let q = selectEntries().where("e.teamId", "=", a.teamId);
  if (a.serviceType !== undefined) q = q.where("e.serviceType", "=", a.serviceType);
  if (a.serviceId !== undefined) q = q.where("e.serviceId", "=", a.serviceId);
  if (a.userId !== undefined) q = q.where("e.userId", "=", a.userId);
  if (a.from !== undefined) q = q.where("e.createdAt", ">=", a.from);
  if (a.to !== undefined) q = q.where("e.createdAt", "<=", a.to);
  if (a.afterAt !== undefined && a.afterId !== undefined) {
    const { afterAt, afterId } = a;
    // `createdAt <= at` bounds the index range; the OR only decides ties on that second.
    q = q
      .where("e.createdAt", "<=", afterAt)
      .where((eb) => eb.or([eb("e.createdAt", "<", afterAt), eb("e.id", "<", afterId)]));
  }
  return q.orderBy("e.createdAt", "desc").orderBy("e.id", "desc").limit(a.take);
});

function creditLogToJson(row: EntryRow, viewerId: string | null): CreditLogJson {
  const name = row.serviceType === "agent" ? agentSourceName(row.serviceName, row, viewerId) : row.serviceName;
  return {
    id: row.id,
    credits_used: row.creditsUsed,
    credits_remaining: row.creditsRemaining,
    service: { type: row.serviceType as CreditLogJson["service"]["type"], id: row.serviceId, name },
    user: { id: row.userId, email: row.userEmail },
    created_at: row.createdAt,
  };
}

/**
 * The whole ledger, newest first by (created_at, id); never truncated by plan. `viewerId`: the
 * key's or the session's user, who reads another member's unshared conversation by a neutral name.
 */
export async function listCreditLogs(teamId: string, viewerId: string, query: ListCreditLogsQuery) {
  const { limit, cursor, ...filters } = query;
  const after = cursor ? decodeCursor("credit-logs", filters, cursor) : undefined;
  const afterId = after?.id;
  if (typeof afterId === "string")
    throw badRequest("Invalid cursor: pass back next_cursor exactly as it was returned.");
  const rows = await findPage({
    teamId,
    serviceType: filters.service_type,
    serviceId: filters.service_id,
    userId: filters.user_id,
    from: filters.created_after,
    to: filters.created_before,
    afterAt: after?.at,
    afterId,
    take: limit + 1,
  });
  return toPage(
    rows,
    limit,
    (row) => creditLogToJson(row, viewerId),
    (r) => ({ at: r.createdAt, id: r.id }),
    (p) => encodeCursor("credit-logs", filters, p),
  );
}
