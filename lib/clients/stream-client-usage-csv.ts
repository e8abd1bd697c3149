import "server-only";
import { textCell } from "@/lib/text/csv-cell";
import { db } from "@/lib/db/client";
import { usageRows } from "@/lib/credits/usage-days";
import { logCountRows } from "@/lib/logs/log-hours";
import { placeholders } from "@/lib/jobs/claim";

const HEADER = [
  "day",
  "day_unix",
  "external_id",
  "connection_id",
  "connection_name",
  "connection_type",
  "credits",
  "operations",
  "errors",
];

type Num = bigint | number | string | null;
type CreditRow = { cid: string | null; day: Num; credits: Num };
type LogRow = { cid: string | null; day: Num; operations: Num; errors: Num };

// Rows per chunk written to the response.
const CHUNK = 500;

/**
 * A client's usage per connection and per UTC day in [from, to) as CSV (externalId null: the No
 * client group, whose rows without a connection have an empty connection_id): credits from the
 * attribution rows by the ledger's created_at, operations and errors from the logs by started_at
 * (whole hours from their counts), as GET /v1/usage counts them; days without either are left
 * out. Aggregated in the database, then written a chunk of rows at a time.
 */
export function streamClientUsageCsv(
  teamId: string,
  userId: string,
  externalId: string | null,
  range: { from: number; to: number },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lines: string[] | null = null;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (lines === null) {
          lines = await usageLines(teamId, userId, externalId, range);
          controller.enqueue(encoder.encode(HEADER.join(",") + "\r\n"));
          return;
        }
        const chunk = lines.slice(sent, sent + CHUNK);
        sent += chunk.length;
        if (chunk.length) controller.enqueue(encoder.encode(chunk.map((l) => l + "\r\n").join("")));
        if (sent >= lines.length) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

async function usageLines(
  teamId: string,
  userId: string,
  externalId: string | null,
  range: { from: number; to: number },
): Promise<string[]> {
  // Rows of a source summed per connection and day, over the client's connections the user sees.
  const perDay = <T>(source: { sql: string; params: unknown[] }, sums: string) =>
    db.$queryRawUnsafe<T[]>(
      placeholders(`SELECT s."connectionId" AS "cid", s."at" / 86400 AS "day", ${sums}
        FROM ${source.sql} s LEFT JOIN "Connection" c ON c."id" = s."connectionId"
        WHERE ${
          externalId === null
            ? `(s."connectionId" IS NULL OR (c."id" IS NOT NULL AND c."externalId" IS NULL AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?)))`
            : `(c."externalId" = ? AND (c."ownerUserId" IS NULL OR c."ownerUserId" = ?))`
        }
        GROUP BY s."connectionId", s."at" / 86400`),
      ...source.params,
      ...(externalId === null ? [userId] : [externalId, userId]),
    );
  const [connections, credits, logs] = await Promise.all([
    db.connection.findMany({
      where: { teamId, externalId, OR: [{ ownerUserId: null }, { ownerUserId: userId }] },
      select: { id: true, displayName: true, type: true },
    }),
    perDay<CreditRow>(usageRows(teamId, range.from, range.to, { need: "connection" }), `SUM(s."credits") AS "credits"`),
    perDay<LogRow>(
      logCountRows(teamId, range.from, range.to),
      `SUM(s."operations") AS "operations", SUM(s."errors") AS "errors"`,
    ),
  ]);
  const byId = new Map(connections.map((c) => [c.id, c]));
  const cells = new Map<
    string,
    { day: number; cid: string | null; credits: number; operations: number; errors: number }
  >();
  const cellOf = (cid: string | null, day: number) => {
    const key = `${day}:${cid ?? ""}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { day, cid, credits: 0, operations: 0, errors: 0 }));
    return cell;
  };
  for (const r of credits) cellOf(r.cid, Number(r.day)).credits += Number(r.credits ?? 0);
  for (const r of logs) {
    const cell = cellOf(r.cid, Number(r.day));
    cell.operations += Number(r.operations ?? 0);
    cell.errors += Number(r.errors ?? 0);
  }
  const nameOf = (cid: string | null) => (cid === null ? "" : (byId.get(cid)?.displayName ?? ""));
  return [...cells.values()]
    .sort(
      (a, b) => a.day - b.day || nameOf(a.cid).localeCompare(nameOf(b.cid)) || (a.cid ?? "").localeCompare(b.cid ?? ""),
    )
    .map((c) => {
      const connection = c.cid === null ? null : byId.get(c.cid);
      return [
        new Date(c.day * 86_400_000).toISOString().slice(0, 10),
        String(c.day * 86_400),
        textCell(externalId),
        textCell(c.cid),
        textCell(connection?.displayName ?? null),
        textCell(connection?.type ?? null),
        String(c.credits),
        String(c.operations),
        String(c.errors),
      ].join(",");
    });
}
