import "server-only";
import { z } from "zod";
import { sandboxApiCall, sandboxAuthHeaders } from "@/lib/platforms/sandbox/sandbox-provider";
import { SANDBOX_NOTE_MAX, SANDBOX_REPORT_METRICS } from "@/lib/platforms/sandbox/sandbox-server";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { isObject, isoDate } from "@/lib/platforms/kit/input-parts";
import type { Operation } from "@/lib/platforms/kit/operation-types";

const SANDBOX_TYPES = ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"];

const sandboxReport = defineRead({
  toolName: "sandbox_report",
  title: "Sandbox daily report",
  consent: "Read your sandbox account's daily reports and its note",
  description:
    "Daily values of one metric (sessions, users, signups or revenue in USD) of the connected sandbox account, for the `days` days ending on end_date, with their total. " +
    "The sandbox is Patchbay's built-in demo provider: the numbers are made up but stable (the same question always gets the same answer).",
  types: SANDBOX_TYPES,
  id: "sandbox.report",
  credits: 2,
  cacheTtlSeconds: 300,
  example: { metric: "sessions", days: 7 },
  input: {
    metric: z.enum(SANDBOX_REPORT_METRICS).describe("What to report: sessions, users, signups or revenue (USD)."),
    days: z.number().int().min(1).max(366).default(7).describe("How many days, ending on end_date (1-366, default 7)."),
    end_date: isoDate.optional().describe("The last day, YYYY-MM-DD (default: today, UTC)."),
  },
  output: {
    metric: z.enum(SANDBOX_REPORT_METRICS).describe("Metric reported"),
    unit: z.enum(["count", "USD"]).describe("Unit: count, or USD for revenue"),
    total: z.number().describe("Total over the days"),
    rows: z
      .array(
        z.object({
          date: z.string().describe("Day (YYYY-MM-DD)"),
          value: z.number().describe("Value of the day"),
        }),
      )
      .describe("One row per day, oldest first"),
    note: z.string().nullable().describe("The account's note (null until one is set)"),
  },
  async run({ connection, credentials }, args) {
    const query = new URLSearchParams({
      metric: args.metric,
      days: String(args.days),
      ...(args.end_date && { end_date: args.end_date }),
    });
    const headers = await sandboxAuthHeaders(connection.type, credentials);
    const body = await sandboxApiCall(connection.type, `/sandbox/api/report?${query}`, headers, "the report call");
    return { metric: body.metric, unit: body.unit, total: body.total, rows: body.rows, note: body.note ?? null };
  },
});

const sandboxSetNote = defineWrite({
  id: "sandbox.set_note",
  idempotent: true,
  title: "Set the sandbox account's note",
  consent: "Set a note on your sandbox account",
  description:
    "Writes (replaces) the note of the connected sandbox account, its one writable field, and returns the new note and the one it replaced. " +
    "sandbox_report shows the note afterwards. Use it to try a write and its approval end to end: save, store, update or change a note.",
  types: SANDBOX_TYPES,
  credits: 1,
  example: { note: "Campaign review on Monday" },
  input: {
    note: z
      .string()
      .min(1, "must not be empty")
      .max(SANDBOX_NOTE_MAX, `must be at most ${SANDBOX_NOTE_MAX} characters`)
      .describe(`The new note, 1-${SANDBOX_NOTE_MAX} characters.`),
  },
  summarize: (input, connection, before) =>
    `Set the note of ${connection.externalId ? `sandbox account ${connection.externalId}${connection.name ? ` (${connection.name})` : ""}` : `the sandbox account of “${connection.name ?? connection.id}”`} to “${input.note}”${isObject(before) && typeof before.note === "string" ? `, replacing “${before.note}”` : ""}.`,
  async before({ connection, credentials }) {
    const headers = await sandboxAuthHeaders(connection.type, credentials);
    const body = await sandboxApiCall(
      connection.type,
      "/sandbox/api/report?metric=sessions&days=1",
      headers,
      "the report call",
    );
    return { note: body.note ?? null };
  },
  output: {
    note: z.string().describe("Note now"),
    previous_note: z.string().nullable().describe("Note it replaced (null when there was none)"),
  },
  async run({ connection, credentials }, input) {
    const headers = await sandboxAuthHeaders(connection.type, credentials);
    const body = await sandboxApiCall(connection.type, "/sandbox/api/note", headers, "the note call", {
      note: input.note,
    });
    return { note: body.note, previous_note: body.previous_note ?? null };
  },
});

export const operations: Operation[] = [sandboxReport, sandboxSetNote];
