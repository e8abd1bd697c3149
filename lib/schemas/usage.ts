import { z } from "zod";
import { cursorParam, limitParam, unixSecondsParam } from "@/lib/schemas/common";

// GET /v1/usage (CONTRACT §12): credits, operations and errors per client or per connection.

const USAGE_GROUPS = ["external_id", "connection_id"] as const;

/** The longest range one request may ask for. */
export const USAGE_MAX_DAYS = 400;

const UsageRowSchema = z
  .object({
    key: z
      .string()
      .nullable()
      .describe(
        "The external_id or connection id of the group; null groups what has no external_id (or no connection).",
      ),
    credits: z
      .number()
      .int()
      .describe(
        "Credits attributed to the group in [from, to): a workflow run's entry split by its nodes (the run's own credit to its first node's connection), an agent turn's credit to its first operation's connection, an MCP call's to its connection.",
      ),
    operations: z.number().int().describe("Operation logs in [from, to) that ran on the group's connections."),
    errors: z.number().int().describe("Those of them with status error."),
  })
  .meta({ id: "UsageRow" });
export type UsageRow = z.infer<typeof UsageRowSchema>;

export const UsagePageSchema = z
  .object({ data: z.array(UsageRowSchema), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: "UsagePage" });

export const usageQuerySchema = z
  .object({
    group_by: z
      .enum(USAGE_GROUPS, { error: `must be one of ${USAGE_GROUPS.join(", ")}` })
      .describe("external_id (one row per client) or connection_id."),
    from: unixSecondsParam.describe("Start of the range, Unix seconds (included)."),
    to: unixSecondsParam.describe(
      `End of the range, Unix seconds (excluded); at most ${USAGE_MAX_DAYS} days after from.`,
    ),
    limit: limitParam(1000, 100).describe("1 to 1000, default 100."),
    cursor: cursorParam.optional().describe("next_cursor of the previous page."),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
    else if (q.to - q.from > USAGE_MAX_DAYS * 86_400)
      ctx.addIssue({ code: "custom", path: ["to"], message: `is more than ${USAGE_MAX_DAYS} days after from` });
  });
export type UsageQuery = z.infer<typeof usageQuerySchema>;
