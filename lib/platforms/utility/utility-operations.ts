import "server-only";
import { z } from "zod";
import { defineUtility, utilityOutputTooLarge } from "@/lib/platforms/kit/define-operation";
import { jsonBytesWithin, utf8Bytes, utilityMaxOutputBytes } from "@/lib/config/limits";
import type { Operation } from "@/lib/platforms/kit/operation-types";

// Built-in utilities of workflows: they need no connection, reach no provider and cost nothing.
// Their inputs usually hold template references to earlier nodes' outputs (lib/workflows/templates.ts),
// e.g. {"rows": "{{nodes.report.output.rows}}", "field": "channel", "equals": "Paid Search"}.

const MAX_ROWS = 10_000;
const rows = z
  .array(z.record(z.string(), z.unknown()), { error: "must be a list of objects (rows)" })
  .max(MAX_ROWS, `must hold at most ${MAX_ROWS} rows`);
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** `{{name}}` placeholders of format_text's template: a field of `values`, dots for nested ones. */
const PLACEHOLDER = /\{\s*([A-Za-z0-9_.-]+)\s*\}/g;

const formatText = defineUtility({
  id: "utility.format_text",
  title: "Format a text",
  description:
    "Builds a text, e.g. the message a later node posts to Slack. In a workflow the template usually holds references such as {{nodes.report.output.total}} and {{run.date.yesterday}}, " +
    "filled in before this node runs; `values` may add named values that `{name}` placeholders in the template pick up. Returns {text}.",
  example: { template: "Sessions yesterday: {total}", values: { total: 1234 } },
  input: {
    template: z
      .string()
      .min(1, "must not be empty")
      .max(40_000, "must be at most 40,000 characters")
      .describe("The text, with {name} placeholders for fields of `values` (optional)."),
    values: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Named values for the template's {name} placeholders; nested fields as {a.b}."),
  },
  output: {
    text: z.string().describe("The text"),
  },
  run: ({ template, values }) => {
    if (!values) return { text: template };
    // Counted as it grows: a short template that repeats a large value stops at the cap instead of being built.
    const limit = utilityMaxOutputBytes();
    let size = 0;
    const count = (piece: string) => {
      size += piece.length > limit - size ? piece.length : utf8Bytes(piece);
      if (size > limit) throw utilityOutputTooLarge("utility.format_text", size, limit);
      return piece;
    };
    let last = 0;
    const text = template.replace(PLACEHOLDER, (whole, path: string, at: number) => {
      count(template.slice(last, at));
      last = at + whole.length;
      const value = path
        .split(".")
        .reduce<unknown>(
          (v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
          values,
        );
      if (value === undefined || typeof value === "string") return count(value ?? whole);
      size += jsonBytesWithin(value, limit - size);
      if (size > limit) throw utilityOutputTooLarge("utility.format_text", size, limit);
      return JSON.stringify(value);
    });
    return { text };
  },
});

const filterRows = defineUtility({
  id: "utility.filter_rows",
  title: "Filter rows",
  description:
    "Keeps the rows (a list of objects, e.g. a report's rows) whose `field` equals `equals` (a number and its text count as equal). Returns {rows}.",
  example: {
    rows: [
      { channel: "Paid Search", sessions: 120 },
      { channel: "Email", sessions: 40 },
    ],
    field: "channel",
    equals: "Paid Search",
  },
  input: {
    rows: rows.describe("The rows to filter: a list of objects, usually {{nodes.<id>.output.rows}}."),
    field: z.string().min(1, "must not be empty").max(200).describe("The field compared in each row."),
    equals: scalar.describe("The value the field must equal (string, number, true/false or null)."),
  },
  output: {
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .describe("The rows kept, as given (their fields are those of the input rows)"),
  },
  run: ({ rows, field, equals }) => {
    const kept = rows.filter(
      (row) =>
        row[field] === equals ||
        (typeof equals !== "object" &&
          row[field] !== undefined &&
          row[field] !== null &&
          String(row[field]) === String(equals)),
    );
    return { rows: kept };
  },
});

const pickFields = defineUtility({
  id: "utility.pick_fields",
  title: "Pick fields",
  description:
    "Keeps only the named fields of each row (a list of objects), in that order; a field a row lacks is null. Returns {rows}.",
  example: { rows: [{ date: "2026-11-01", sessions: 120, users: 80 }], fields: ["date", "sessions"] },
  input: {
    rows: rows.describe("The rows: a list of objects, usually {{nodes.<id>.output.rows}}."),
    fields: z
      .array(z.string().min(1).max(200))
      .min(1, "must name at least one field")
      .max(100)
      .describe("The fields to keep."),
  },
  output: {
    rows: z
      .array(z.record(z.string(), z.unknown()))
      .describe("The rows with only the fields asked for, in that order (a missing field is null)"),
  },
  run: ({ rows, fields }) => {
    // 10,000 rows × 100 long field names make far more than they take: counted row by row.
    const limit = utilityMaxOutputBytes();
    let size = 0;
    const picked = rows.map((row) => {
      const out = Object.fromEntries(fields.map((f) => [f, row[f] ?? null]));
      size += jsonBytesWithin(out, limit - size) + 1;
      if (size > limit) throw utilityOutputTooLarge("utility.pick_fields", size, limit);
      return out;
    });
    return { rows: picked };
  },
});

/** The operation that ends a run early (CONTRACT §13); the runner gives its log the status `stop`. */
export const FLOW_STOP = "flow.stop";

const flowStop = defineUtility({
  id: FLOW_STOP,
  title: "Stop the run",
  description:
    "Ends the run here, usually with a condition (`when`): its log reads `stop` with the reason, every later node is skipped, and the run ends `stopped` (not failed). In a loop it ends the whole run at that item.",
  example: { reason: "Sessions did not drop: nothing to report." },
  input: {
    reason: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(500, "must be at most 500 characters")
      .describe("Why the run stops, as its log and run view show it."),
  },
  output: {
    reason: z.string().describe("Why the run stopped"),
  },
  run: ({ reason }) => ({ reason }),
});

export const operations: Operation[] = [formatText, filterRows, pickFields, flowStop];
