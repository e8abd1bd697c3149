import "server-only";
import { textCell } from "@/lib/text/csv-cell";
import { listCreditLogs } from "@/lib/credits/list-credit-logs";
import type { CreditLogJson, ListCreditLogsQuery } from "@/lib/schemas/credits";

const CREDIT_LOGS_CSV_HEADER = [
  "id",
  "created_at",
  "created_at_unix",
  "service_type",
  "service_id",
  "service_name",
  "user_id",
  "user_email",
  "credits_used",
  "credits_remaining",
];

// Each pull reads one keyset page, so memory stays at one page however long the ledger is.
const PAGE_SIZE = 500;

function csvLine(e: CreditLogJson) {
  return [
    String(e.id),
    new Date(e.created_at * 1000).toISOString(),
    String(e.created_at),
    textCell(e.service.type),
    textCell(e.service.id),
    textCell(e.service.name),
    textCell(e.user.id),
    textCell(e.user.email),
    String(e.credits_used),
    String(e.credits_remaining),
  ].join(",");
}

/** The whole filtered ledger as CSV, newest first, streamed page by page through the API's own listing. */
export function streamCreditLogsCsv(
  teamId: string,
  viewerId: string,
  filters: Omit<ListCreditLogsQuery, "limit" | "cursor">,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(CREDIT_LOGS_CSV_HEADER.join(",") + "\r\n"));
          return;
        }
        const page = await listCreditLogs(teamId, viewerId, { ...filters, limit: PAGE_SIZE, cursor });
        if (page.data.length) controller.enqueue(encoder.encode(page.data.map((e) => csvLine(e) + "\r\n").join("")));
        if (page.has_more && page.next_cursor) cursor = page.next_cursor;
        else controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
