import "server-only";
import { db, type Prisma } from "@/lib/db/client";
import { decodeCursor, encodeCursor, toPage } from "@/lib/api/pagination";
import { badRequest } from "@/lib/api/errors";
import type { CreditLogJson, ListCreditLogsQuery } from "@/lib/schemas/credits";
import type { CreditLedgerEntry } from "@/lib/db/generated/sqlite/client";

export function creditLogToJson(row: CreditLedgerEntry): CreditLogJson {
  return {
    id: row.id,
    credits_used: row.creditsUsed,
    credits_remaining: row.creditsRemaining,
    service: { type: row.serviceType as CreditLogJson["service"]["type"], id: row.serviceId, name: row.serviceName },
    user: { id: row.userId, email: row.userEmail },
    created_at: Number(row.createdAt),
  };
}

/** The whole ledger, newest first by (created_at, id); never truncated by plan. */
export async function listCreditLogs(teamId: string, query: ListCreditLogsQuery) {
  const { limit, cursor, ...filters } = query;
  const where: Prisma.CreditLedgerEntryWhereInput = {
    teamId,
    serviceType: filters.service_type,
    serviceId: filters.service_id,
    userId: filters.user_id,
    createdAt: {
      ...(filters.created_after !== undefined && { gte: BigInt(filters.created_after) }),
      ...(filters.created_before !== undefined && { lte: BigInt(filters.created_before) }),
    },
  };
  if (cursor) {
    const after = decodeCursor("credit-logs", filters, cursor);
    if (typeof after.id !== "number") throw badRequest("Invalid cursor: pass back next_cursor exactly as it was returned.");
    const at = BigInt(after.at);
    where.AND = [{ createdAt: { lte: at } }, { OR: [{ createdAt: { lt: at } }, { id: { lt: after.id } }] }];
  }
  const rows = await db.creditLedgerEntry.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  return toPage(
    rows,
    limit,
    creditLogToJson,
    (r) => ({ at: Number(r.createdAt), id: r.id }),
    (p) => encodeCursor("credit-logs", filters, p),
  );
}
