import "server-only";
import { prepared, read } from "@/lib/db/read";
import { decodeCursor, encodeCursor, toPage } from "@/lib/db/pagination";
import { badRequest } from "@/lib/errors/api-error";
import type { CreditLogJson, ListCreditLogsQuery } from "@/lib/schemas/credits";

const selectEntries = () =>
  read
    .selectFrom("CreditLedgerEntry")
    .select([
      "id",
      "creditsUsed",
      "creditsRemaining",
      "serviceType",
      "serviceId",
      "serviceName",
      "userId",
      "userEmail",
      "createdAt",
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
  let q = selectEntries().where("teamId", "=", a.teamId);
  if (a.serviceType !== undefined) q = q.where("serviceType", "=", a.serviceType);
  if (a.serviceId !== undefined) q = q.where("serviceId", "=", a.serviceId);
  if (a.userId !== undefined) q = q.where("userId", "=", a.userId);
  if (a.from !== undefined) q = q.where("createdAt", ">=", a.from);
  if (a.to !== undefined) q = q.where("createdAt", "<=", a.to);
  if (a.afterAt !== undefined && a.afterId !== undefined) {
    const { afterAt, afterId } = a;
    // `createdAt <= at` bounds the index range; the OR only decides ties on that second.
    q = q
      .where("createdAt", "<=", afterAt)
      .where((eb) => eb.or([eb("createdAt", "<", afterAt), eb("id", "<", afterId)]));
  }
  return q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(a.take);
});

function creditLogToJson(row: EntryRow): CreditLogJson {
  return {
    id: row.id,
    credits_used: row.creditsUsed,
    credits_remaining: row.creditsRemaining,
    service: { type: row.serviceType as CreditLogJson["service"]["type"], id: row.serviceId, name: row.serviceName },
    user: { id: row.userId, email: row.userEmail },
    created_at: row.createdAt,
  };
}

/** The whole ledger, newest first by (created_at, id); never truncated by plan. */
export async function listCreditLogs(teamId: string, query: ListCreditLogsQuery) {
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
    creditLogToJson,
    (r) => ({ at: r.createdAt, id: r.id }),
    (p) => encodeCursor("credit-logs", filters, p),
  );
}
