import { z } from "zod";
import { cursorParam, idParam, limitParam, LogUserSchema, unixSecondsParam, int64 } from "@/lib/schemas/common";
import { SEARCH_MAX_CHARS, SEARCH_MAX_WORDS, searchProblem } from "@/lib/text/search-words";

export const LOG_STATUSES = ["success", "error", "skipped", "stop", "start"] as const;
export const LOG_SOURCE_TYPES = ["mcp", "agent", "workflow"] as const;

const LogSourceSchema = z
  .object({
    type: z.enum(LOG_SOURCE_TYPES),
    id: z.string().nullable().describe("The MCP server, agent conversation or workflow."),
    run_id: z.string().nullable().describe("Single execution; set on workflow logs, null otherwise."),
    name: z.string().nullable().describe("Current parent name, falling back to the name recorded at log time."),
  })
  .meta({ id: "LogSource" });

export const LogSchema = z
  .object({
    id: z.string(),
    operation_id: z.string(),
    operation_version: z.number().int().nullable().optional(),
    status: z.enum(LOG_STATUSES),
    source: LogSourceSchema,
    user: LogUserSchema,
    started_at: int64().describe("Unix seconds."),
    completed_at: int64().nullable().optional().describe("Unix seconds; null while running."),
    credits_used: z.number().int(),
    cache_hit: z.boolean(),
    input: z
      .any()
      .optional()
      .describe("What the operation was given; null to other members when it ran on a member's private connection."),
    output: z
      .any()
      .optional()
      .describe(
        'Operation result, or the error payload when status is `error`. To other members, a log of a member\'s private connection reads `{"redacted": "…"}`; a body over LOG_BODY_MAX_BYTES is stored as `{"truncated": true, "original_bytes", "limit_bytes", "preview"}`.',
      ),
    metadata: z.record(z.string(), z.any()),
  })
  .meta({ id: "Log" });
export type LogJson = z.infer<typeof LogSchema>;

/** GET /v1/logs/{log_id}'s 404: a string for an unknown id; for an aged-out log, an object (spec §7). */
export const AgedOutDetailSchema = z
  .object({ message: z.string(), history_days: z.number().int().describe("The plan's history window in days.") })
  .meta({ id: "AgedOutDetail", description: "The log exists but is older than the plan's history window." });
export const LogNotFoundSchema = z.object({ detail: z.union([z.string(), AgedOutDetailSchema]) }).meta({
  id: "LogNotFoundError",
  description: "`detail` is a string for an unknown id, an AgedOutDetail for a log older than the history window.",
});

export const LogPageSchema = z
  .object({ data: z.array(LogSchema), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: "LogPage" });

const enumParam = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

export const listLogsQuerySchema = z
  .object({
    source_type: enumParam(LOG_SOURCE_TYPES).optional(),
    status: enumParam(LOG_STATUSES).optional(),
    operation_id: idParam("operation_id").optional(),
    source_id: idParam("source_id").optional(),
    source_run_id: idParam("source_run_id").optional(),
    started_after: unixSecondsParam
      .optional()
      .describe("Started at or after this Unix second; cannot reach past the history window."),
    started_before: unixSecondsParam.optional().describe("Started at or before this Unix second."),
    q: z
      .string()
      .min(1, "q is empty; omit it to list every log")
      // The length is checked by searchProblem, whose sentence names the limit; this only documents it.
      .meta({ maxLength: SEARCH_MAX_CHARS })
      .superRefine((q, ctx) => {
        const problem = searchProblem(q);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .optional()
      .describe(
        `Search (an extension, CONTRACT §12): logs whose operation id, source name (as recorded when it ran), or the first 2,000 characters of their input or output (the JSON text; an error's message is in its output) hold every word of q, each as the beginning of a word. A word is a run of letters and digits (ASCII; any other non-ASCII character belongs to a word too); spaces, punctuation, quotes and operators only separate words, so ga4.run_report is the three words ga4, run and report. ASCII letters match without regard to case. At most ${SEARCH_MAX_CHARS} characters and ${SEARCH_MAX_WORDS} words; a q with no word is a 400. Combines with every other filter and the history window; the cursor is bound to q. The input and output of a log that ran on another member's private connection, and the title of another member's unshared agent conversation, are not searched for you.`,
      ),
    limit: limitParam(100, 25).describe("1 to 100, default 25."),
    cursor: cursorParam.optional().describe("next_cursor of the previous page."),
  })
  .strict();
export type ListLogsQuery = z.infer<typeof listLogsQuerySchema>;
