import { z } from "zod";
import { cursorParam, idParam, limitParam, LogUserSchema, unixSecondsParam, int64 } from "@/lib/schemas/common";

export const SERVICE_TYPES = ["workflow", "agent", "copilot", "mcp"] as const;

export const CreditBalanceSchema = z
  .object({
    credits_limit: z.number().int().describe("Credits included in the plan for the period."),
    credits_used: z.number().int().describe("Consumed so far this period."),
    credits_remaining: z.number().int().describe("credits_limit minus credits_used; may be negative."),
    billing_period_end: int64().nullable().optional().describe("Unix seconds when the period ends and usage resets."),
    tier: z.string().describe("Current plan: free, pro or team."),
  })
  .meta({ id: "CreditBalance" });

const CreditServiceSchema = z
  .object({
    type: z.enum(SERVICE_TYPES),
    id: z.string().nullable().describe("The workflow, conversation or MCP server charged."),
    name: z.string().nullable().describe("Name at the time of the charge."),
  })
  .meta({ id: "CreditService" });

const CreditLogSchema = z
  .object({
    id: z.number().int(),
    credits_used: z.number().int(),
    credits_remaining: z.number().int().describe("Balance right after this charge (a snapshot)."),
    service: CreditServiceSchema,
    user: LogUserSchema,
    created_at: int64().describe("Unix seconds."),
  })
  .meta({ id: "CreditLog" });
export type CreditLogJson = z.infer<typeof CreditLogSchema>;

export const CreditLogPageSchema = z
  .object({ data: z.array(CreditLogSchema), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .meta({ id: "CreditLogPage" });

export const listCreditLogsQuerySchema = z
  .object({
    service_type: z.enum(SERVICE_TYPES, { error: `must be one of ${SERVICE_TYPES.join(", ")}` }).optional(),
    service_id: idParam("service_id").optional(),
    user_id: idParam("user_id").optional(),
    created_after: unixSecondsParam.optional().describe("Charges at or after this Unix second."),
    created_before: unixSecondsParam.optional().describe("Charges at or before this Unix second."),
    limit: limitParam(1000, 25).describe("1 to 1000, default 25."),
    cursor: cursorParam.optional().describe("next_cursor of the previous page."),
  })
  .strict();
export type ListCreditLogsQuery = z.infer<typeof listCreditLogsQuerySchema>;
