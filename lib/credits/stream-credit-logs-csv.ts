import "server-only";
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

const FORMULA_SIGN = "[\\s\\u3000]*[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20]";
/** A separator followed by what a spreadsheet reads as the start of a formula; and the same at the start. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`([,;\\t\\r\\n])(?=${FORMULA_SIGN})`, "g");
const FORMULA_AT_START = new RegExp(`^${FORMULA_SIGN}`);

/**
 * A text cell that no spreadsheet reads as a formula, whatever separator it splits on. A
 * spreadsheet set to split on ";" (or tabs) ignores our quotes in mid-cell and cuts
 * "Acme;=HYPERLINK(…)" into a second cell that starts a formula; so every part of the text
 * that would start a cell under any separator (the start, and after each , ; tab or line
 * break) gets an apostrophe before a formula sign (= + - @, their full-width forms, after
 * blanks), which spreadsheets read as "this is text". Then the cell is quoted when it holds a
 * separator, a quote or a line break.
 */
function textCell(value: string | null) {
  if (value === null) return "";
  const parts = value.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  const safe = FORMULA_AT_START.test(parts) ? `'${parts}` : parts;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

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
