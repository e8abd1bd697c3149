import "server-only";
import { read } from "@/lib/db/client";
import { decodeCursor, encodeCursor, toPage } from "@/lib/api/pagination";
import { badRequest } from "@/lib/api/errors";
import type { CreditLogJson, ListCreditLogsQuery } from "@/lib/schemas/credits";

const selectEntries = () =>
  read
    .selectFrom("CreditLedgerEntry")
    .select(["id", "creditsUsed", "creditsRemaining", "serviceType", "serviceId", "serviceName", "userId", "userEmail", "createdAt"]);

type EntryRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectEntries>["executeTakeFirst"]>>>;

export function creditLogToJson(row: EntryRow): CreditLogJson {
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
  let q = selectEntries().where("teamId", "=", teamId);
  if (filters.service_type !== undefined) q = q.where("serviceType", "=", filters.service_type);
  if (filters.service_id !== undefined) q = q.where("serviceId", "=", filters.service_id);
  if (filters.user_id !== undefined) q = q.where("userId", "=", filters.user_id);
  if (filters.created_after !== undefined) q = q.where("createdAt", ">=", filters.created_after);
  if (filters.created_before !== undefined) q = q.where("createdAt", "<=", filters.created_before);
  if (cursor) {
    const after = decodeCursor("credit-logs", filters, cursor);
    const id = after.id;
    if (typeof id !== "number") throw badRequest("Invalid cursor: pass back next_cursor exactly as it was returned.");
    // `createdAt <= at` bounds the index range; the OR only decides ties on that second.
    q = q.where("createdAt", "<=", after.at).where((eb) => eb.or([eb("createdAt", "<", after.at), eb("id", "<", id)]));
  }
  const rows = await q.orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit + 1).execute();
  return toPage(
    rows,
    limit,
    creditLogToJson,
    (r) => ({ at: r.createdAt, id: r.id }),
    (p) => encodeCursor("credit-logs", filters, p),
  );
}
