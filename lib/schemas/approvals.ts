import { z } from "zod";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";

// The Approval object of CONTRACT §8: `approval list`, the approval.* webhooks and the dashboard.

export const ApprovalSchema = z
  .object({
    id: z.string().describe("The request's id (`apr_…`)."),
    status: z
      .enum(APPROVAL_STATUS_VALUES)
      .describe(
        "pending until a member decides or it expires; running while an approved write runs; then succeeded or failed. cancelled when the permission it was filed under went away first (its server's writes turned off, its server, token or connection removed, its requester out of the team); nothing was written.",
      ),
    operation_id: z.string().describe("The write's operation, e.g. `google_ads.campaign.pause`."),
    connection_id: z.string(),
    summary: z.string().describe("What the write does, in plain language."),
    mcp_server_id: z.string().nullable().describe("The MCP server whose agent asked; null for a Patchbay agent's."),
    conversation_id: z
      .string()
      .optional()
      .describe("The Patchbay agent conversation that asked (CONTRACT §11); absent for an MCP server's request."),
    requested_by: z.string().nullable().describe("The user whose MCP token, app or conversation asked."),
    created_at: z.number().int().meta({ format: "int64" }).describe("Unix seconds."),
    expires_at: z
      .number()
      .int()
      .meta({ format: "int64" })
      .describe("Unix seconds; APPROVAL_TTL_MINUTES after created_at."),
    decided_by: z
      .string()
      .nullable()
      .optional()
      .describe("Once decided: the user who approved or rejected; null for a cancelled request, which nobody decided."),
    decided_at: z
      .number()
      .int()
      .meta({ format: "int64" })
      .optional()
      .describe("Once decided or cancelled: Unix seconds."),
  })
  .meta({ id: "Approval" });
