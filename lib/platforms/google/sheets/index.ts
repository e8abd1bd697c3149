import "server-only";
import { z } from "zod";
import { googleAccessToken, googleType, listOf, stringOr, type ApiCheck } from "@/lib/platforms/google/google-provider";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import {
  PROVIDER,
  count,
  driveFileId,
  objectOr,
  quoted,
  text,
  workspaceApiCall,
} from "@/lib/platforms/google/workspace-common";
import { sheetsDocs } from "@/lib/platforms/google/sheets/sheets-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject } from "@/lib/platforms/kit/input-parts";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { OperationContext } from "@/lib/platforms/kit/operation-types";
import { ProviderRejection } from "@/lib/platforms/kit/types";

// Google Sheets (Sheets API v4): a spreadsheet's tabs, reading a range, appending rows and
// overwriting a range. One scope, spreadsheets: the Sheets API has no narrower one that writes.

const TYPE = "google_sheets";
const SHEETS_API = "https://sheets.googleapis.com/v4";
const SPREADSHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
/** Scopes that also let the Sheets API read and write every spreadsheet of the account. */
const SHEETS_SCOPES = [SPREADSHEETS_SCOPE, "https://www.googleapis.com/auth/drive"];

/**
 * Sheets has no "who am I" call: a manual post is proven by Google's tokeninfo answer for the
 * refreshed access token, which names the granted scopes (and the account's email when granted).
 * https://cloud.google.com/docs/authentication/token-types#access-contents
 */
const checkSheets: ApiCheck = async (type, accessToken) => {
  const info = await workspaceApiCall(
    type,
    `https://oauth2.googleapis.com/tokeninfo?access_token=${encodeURIComponent(accessToken)}`,
    accessToken,
    "the tokeninfo call",
  );
  const granted = String(info.scope ?? "")
    .split(/\s+/)
    .filter(Boolean);
  if (!granted.some((s) => SHEETS_SCOPES.includes(s)))
    throw new ProviderRejection(
      PROVIDER,
      `PERMISSION_DENIED: Request had insufficient authentication scopes: the refresh token does not grant ${SPREADSHEETS_SCOPE} (granted: ${granted.join(" ") || "none"}).`,
    );
  return { accountId: stringOr(info.sub) ?? stringOr(info.email), accountName: stringOr(info.email) };
};

const sheetsType = googleType({
  type: TYPE,
  name: "Google Sheets",
  logo: monogramLogo("#0F9D58", "Sh"),
  scopes: [
    {
      name: SPREADSHEETS_SCOPE,
      allows: "See, edit, create, and delete all your Google Sheets spreadsheets",
      changes: true,
    },
  ],
  credentialFields: ["client_id", "client_secret", "refresh_token"],
  docs: sheetsDocs,
  hosts: ["sheets.googleapis.com"],
  check: checkSheets,
});

const spreadsheetId = driveFileId("Sheets spreadsheet").describe(
  "The spreadsheet's ID (the long part after /d/ in its URL) or its whole URL.",
);
/** A1 notation: "Sheet1!A1:C10", "'My tab'!A:C", "Sheet1", or a named range. */
const a1Range = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((v) => ![...v].some((c) => c.charCodeAt(0) < 0x20), "must not contain control characters");
const cell = z.union([z.string().max(50_000), z.number(), z.boolean(), z.null()]);
const rows = z
  .array(z.array(cell).max(500))
  .min(1)
  .max(5000)
  .refine((r) => r.reduce((n, row) => n + row.length, 0) <= 200_000, "must hold at most 200,000 cells");
const valueInputOption = z
  .enum(["USER_ENTERED", "RAW"])
  .default("USER_ENTERED")
  .describe(
    "USER_ENTERED (default): values are parsed as if typed into the UI (numbers, dates, =formulas); RAW: stored exactly as given, as text.",
  );

const rangeUrl = (id: string, range: string, suffix = "") =>
  `${SHEETS_API}/spreadsheets/${id}/values/${encodeURIComponent(range)}${suffix}`;

async function token({ connection, credentials }: OperationContext) {
  return googleAccessToken(connection.type, credentials);
}

/** The spreadsheet's title, URL and tabs (spreadsheets.get with a field mask: no cell data). */
async function spreadsheetOf(ctx: OperationContext, id: string) {
  const what = "the spreadsheets.get call";
  const fields =
    "spreadsheetId,spreadsheetUrl,properties(title,locale,timeZone),sheets(properties(sheetId,title,index,sheetType,gridProperties(rowCount,columnCount)))";
  // https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets/get
  const body = await workspaceApiCall(
    ctx.connection.type,
    `${SHEETS_API}/spreadsheets/${id}?${new URLSearchParams({ fields })}`,
    await token(ctx),
    what,
  );
  const properties = objectOr(body.properties);
  return {
    spreadsheet_id: text(body.spreadsheetId) ?? id,
    title: text(properties.title),
    url: text(body.spreadsheetUrl) ?? `https://docs.google.com/spreadsheets/d/${id}/edit`,
    locale: text(properties.locale),
    time_zone: text(properties.timeZone),
    sheets: listOf(body, "sheets", what).map((s) => {
      const p = objectOr(s.properties);
      const grid = objectOr(p.gridProperties);
      return {
        sheet_id: p.sheetId ?? null,
        title: text(p.title),
        index: p.index ?? null,
        type: text(p.sheetType),
        row_count: grid.rowCount ?? null,
        column_count: grid.columnCount ?? null,
      };
    }),
  };
}

/** values.get of one range, as rows. */
async function valuesOf(
  ctx: OperationContext,
  id: string,
  range: string,
  render: "FORMATTED_VALUE" | "UNFORMATTED_VALUE" | "FORMULA" = "FORMATTED_VALUE",
) {
  // https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/get
  const body = await workspaceApiCall(
    ctx.connection.type,
    `${rangeUrl(id, range)}?${new URLSearchParams({ majorDimension: "ROWS", valueRenderOption: render })}`,
    await token(ctx),
    "the spreadsheets.values.get call",
  );
  const values = Array.isArray(body.values) ? body.values.filter(Array.isArray) : [];
  return { range: text(body.range) ?? range, values: values as unknown[][] };
}

/** An UpdateValuesResponse (values.update, or the `updates` of values.append) in our words. */
function updated(body: Record<string, unknown>) {
  return {
    updated_range: text(body.updatedRange),
    updated_rows: count(body.updatedRows) ?? 0,
    updated_columns: count(body.updatedColumns) ?? 0,
    updated_cells: count(body.updatedCells) ?? 0,
  };
}

/** spreadsheetOf's answer. */
const spreadsheetShape = {
  spreadsheet_id: z.string().describe("Spreadsheet ID"),
  title: z.string().nullable().describe("Spreadsheet title"),
  url: z.string().describe("Spreadsheet link"),
  locale: z.string().nullable().describe("Locale, e.g. en_US"),
  time_zone: z.string().nullable().describe("Time zone"),
  sheets: z
    .array(
      z.object({
        sheet_id: z.number().nullable().describe("Sheet (tab) ID"),
        title: z.string().nullable().describe("Tab name"),
        index: z.number().nullable().describe("Position (0 = first tab)"),
        type: z.string().nullable().describe("Tab type, e.g. GRID"),
        row_count: z.number().nullable().describe("Rows"),
        column_count: z.number().nullable().describe("Columns"),
      }),
    )
    .describe("Tabs"),
};

/** updated()'s fields. */
const updatedShape = {
  updated_range: z.string().nullable().describe("Range written, in A1 notation"),
  updated_rows: z.number().describe("Rows written"),
  updated_columns: z.number().describe("Columns written"),
  updated_cells: z.number().describe("Cells written"),
};

const title = (before: unknown) => (isObject(before) ? before.title : undefined);
const rowsWord = (n: number) => `${n} row${n === 1 ? "" : "s"}`;
/** Rows as a person reads them in a sentence: "92; 88", cells joined by ", ", cut after 120 characters. */
const shown = (values: unknown[][]) => {
  const all = values.map((row) => (Array.isArray(row) ? row : []).map((v) => String(v ?? "")).join(", ")).join("; ");
  return all.length > 120 ? `${all.slice(0, 119)}…` : all;
};

const getSpreadsheet = defineRead({
  id: "google_sheets.spreadsheet.get",
  title: "List the tabs of a Google Sheets spreadsheet",
  consent: "See your Google Sheets spreadsheets and their contents",
  description:
    "Reads a Google Sheets spreadsheet's metadata (Sheets API spreadsheets.get): its title, URL, locale, time zone and every sheet (tab) with its title, sheet ID, position and size in rows and columns. " +
    "No cell values: use google_sheets.values.get to read cells. Use it first to learn the tab names for A1 ranges such as 'Sheet1'!A1:D20.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms" },
  input: { spreadsheet_id: spreadsheetId },
  output: spreadsheetShape,
  run: (ctx, args) => spreadsheetOf(ctx, args.spreadsheet_id),
});

const getValues = defineRead({
  id: "google_sheets.values.get",
  title: "Read a range of cells from a Google Sheets spreadsheet",
  consent: "See your Google Sheets spreadsheets and their contents",
  description:
    "Reads the cell values of one range of a Google Sheets spreadsheet (Sheets API spreadsheets.values.get), row by row: read, get, fetch or export rows, a table, a column or a tab. " +
    "range is A1 notation: 'Sheet1!A1:D20', 'Sheet1!A:C' (whole columns), 'Sheet1' (the whole tab) or a named range. Returns the range Google read and `values` as an array of rows (trailing empty cells and rows are left out), " +
    "plus `rows` as objects keyed by the first row's headers when header_row is true.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 60,
  example: { spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", range: "Sheet1!A1:D20" },
  input: {
    spreadsheet_id: spreadsheetId,
    range: a1Range.describe("The range in A1 notation, e.g. Sheet1!A1:D20, 'My tab'!A:C or Sheet1."),
    value_render: z
      .enum(["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"])
      .default("FORMATTED_VALUE")
      .describe(
        "FORMATTED_VALUE (default): as shown in the UI ('$1.50'); UNFORMATTED_VALUE: raw numbers (1.5); FORMULA: formulas instead of their results.",
      ),
    header_row: z
      .boolean()
      .default(false)
      .describe("Treat the range's first row as column headers and also return the other rows as objects."),
  },
  output: {
    spreadsheet_id: z.string().describe("Spreadsheet ID"),
    range: z.string().describe("Range read, in A1 notation"),
    row_count: z.number().describe("Rows read"),
    values: z.array(z.array(z.unknown())).describe("Cell values, row by row (trailing empty cells left out)"),
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .describe(
        "With header_row: the rows after the first as objects keyed by the first row's headers (the columns depend on the sheet)",
      ),
  },
  async run(ctx, args) {
    const { range, values } = await valuesOf(ctx, args.spreadsheet_id, args.range, args.value_render);
    const result: Record<string, unknown> = {
      spreadsheet_id: args.spreadsheet_id,
      range,
      row_count: values.length,
      values,
    };
    if (args.header_row) {
      const [header = [], ...rest] = values;
      const names = header.map((h, i) => (h === null || h === undefined || h === "" ? `column_${i + 1}` : String(h)));
      result.rows = rest.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? null])));
    }
    return result;
  },
});

const appendRows = defineWrite({
  id: "google_sheets.values.append",
  idempotent: false,
  title: "Append rows to a Google Sheets spreadsheet",
  consent: "Add rows to and change cells in your Google Sheets spreadsheets",
  description:
    "Appends rows after the last row of the table found in a range of a Google Sheets spreadsheet (Sheets API spreadsheets.values.append): add rows, insert records, log entries, append data to a sheet or tab. " +
    "range names where the table is, e.g. 'Sheet1' or 'Sheet1!A:D'; the rows go below its last non-empty row, starting at its first column. " +
    "insert_data_option INSERT_ROWS (default) inserts new rows so nothing below is overwritten; OVERWRITE writes into the empty cells after the table. Returns the range that was written and how many rows and cells.",
  types: [TYPE],
  credits: 1,
  example: {
    spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
    range: "Sheet1!A:C",
    values: [
      ["2026-11-27", "Acme", 1200],
      ["2026-11-27", "Globex", 800],
    ],
  },
  input: {
    spreadsheet_id: spreadsheetId,
    range: a1Range.describe("Where the table is, in A1 notation: Sheet1, Sheet1!A:D or 'My tab'!A1:D1."),
    values: rows.describe(
      "The rows to append: an array of rows, each an array of cell values (text, number, true/false or null).",
    ),
    value_input_option: valueInputOption,
    insert_data_option: z
      .enum(["INSERT_ROWS", "OVERWRITE"])
      .default("INSERT_ROWS")
      .describe(
        "INSERT_ROWS (default): insert new rows for the data; OVERWRITE: write over the cells after the table.",
      ),
  },
  summarize: (args, _connection, before) =>
    `Append ${rowsWord(args.values.length)} to range ${args.range} of Google Sheets spreadsheet${quoted(title(before))} (${args.spreadsheet_id})`,
  before: async (ctx, args) => {
    const s = await spreadsheetOf(ctx, args.spreadsheet_id);
    return { spreadsheet_id: s.spreadsheet_id, title: s.title, sheets: s.sheets.map((t) => t.title) };
  },
  output: {
    spreadsheet_id: z.string().describe("Spreadsheet ID"),
    table_range: z.string().nullable().describe("Range of the table the rows were appended to"),
    ...updatedShape,
  },
  async run(ctx, args) {
    const query = new URLSearchParams({
      valueInputOption: args.value_input_option,
      insertDataOption: args.insert_data_option,
      includeValuesInResponse: "false",
    });
    // https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/append
    const body = await workspaceApiCall(
      ctx.connection.type,
      `${rangeUrl(args.spreadsheet_id, args.range, ":append")}?${query}`,
      await token(ctx),
      "the spreadsheets.values.append call",
      { body: { range: args.range, majorDimension: "ROWS", values: args.values } },
    );
    return {
      spreadsheet_id: text(body.spreadsheetId) ?? args.spreadsheet_id,
      table_range: text(body.tableRange),
      ...updated(objectOr(body.updates)),
    };
  },
});

const updateRange = defineWrite({
  id: "google_sheets.values.update",
  idempotent: true,
  title: "Update a range of cells in a Google Sheets spreadsheet",
  consent: "Add rows to and change cells in your Google Sheets spreadsheets",
  description:
    "Writes values into one range of a Google Sheets spreadsheet, replacing what the cells held (Sheets API spreadsheets.values.update): update, overwrite, set, change or edit cells, a row or a block. " +
    "range is A1 notation such as 'Sheet1!B2:D3' (or just its top-left cell, 'Sheet1!B2'); values are rows of cell values written from its top-left corner. Cells of the range not covered by values are left as they are. " +
    "Returns the range that was written and how many rows and cells changed.",
  types: [TYPE],
  credits: 1,
  example: {
    spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
    range: "Sheet1!B2:C2",
    values: [["Acme", 1500]],
  },
  input: {
    spreadsheet_id: spreadsheetId,
    range: a1Range.describe("The cells to write, in A1 notation: Sheet1!B2:C3, or the top-left cell Sheet1!B2."),
    values: rows.describe(
      "The rows to write: an array of rows, each an array of cell values (text, number, true/false or null).",
    ),
    value_input_option: valueInputOption,
  },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const now = Array.isArray(state.current_values)
      ? ` (now ${state.current_values.length ? shown(state.current_values as unknown[][]) : "empty"})`
      : "";
    return `Overwrite range ${args.range} of Google Sheets spreadsheet${quoted(state.title)} (${args.spreadsheet_id}) with ${shown(args.values)}${now}`;
  },
  before: async (ctx, args) => {
    const s = await spreadsheetOf(ctx, args.spreadsheet_id);
    const current = await valuesOf(ctx, args.spreadsheet_id, args.range);
    return { spreadsheet_id: s.spreadsheet_id, title: s.title, range: current.range, current_values: current.values };
  },
  output: {
    spreadsheet_id: z.string().describe("Spreadsheet ID"),
    ...updatedShape,
  },
  async run(ctx, args) {
    const query = new URLSearchParams({ valueInputOption: args.value_input_option, includeValuesInResponse: "false" });
    // https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/update
    const body = await workspaceApiCall(
      ctx.connection.type,
      `${rangeUrl(args.spreadsheet_id, args.range)}?${query}`,
      await token(ctx),
      "the spreadsheets.values.update call",
      { method: "PUT", body: { range: args.range, majorDimension: "ROWS", values: args.values } },
    );
    return { spreadsheet_id: text(body.spreadsheetId) ?? args.spreadsheet_id, ...updated(body) };
  },
});

export const sheets: GoogleProduct = {
  types: [sheetsType],
  operations: [getSpreadsheet, getValues, appendRows, updateRange],
};
