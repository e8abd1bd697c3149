import { z } from "zod";
import { APPROVAL_STATUS_VALUES } from "@/lib/schemas/approval-statuses";

export const listApprovalsQuerySchema = z
  .object({
    status: z.enum(APPROVAL_STATUS_VALUES, { error: `must be one of ${APPROVAL_STATUS_VALUES.join(", ")}` }).optional(),
    operation_id: z.string().max(200, "must be at most 200 characters").optional(),
    mcp_server_id: z.string().max(255, "must be at most 255 characters").optional(),
    cursor: z.string().max(500, "must be at most 500 characters").optional(),
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(200, "must be at most 200")
      .optional(),
  })
  .strict();

export const decideApprovalBodySchema = z
  .object({ note: z.string({ error: "must be a string" }).max(1000, "must be at most 1000 characters").optional() })
  .strict();

/**
 * Approving: the note, and `seen_before`, the fingerprint of the before-state the person was shown
 * (the detail's `current_fingerprint`). Without it the request's state at filing is what was seen.
 */
export const approveApprovalBodySchema = z
  .object({
    note: z.string({ error: "must be a string" }).max(1000, "must be at most 1000 characters").optional(),
    seen_before: z
      .string({ error: "must be a string" })
      .max(100, "must be at most 100 characters")
      .regex(/^sha256:[0-9a-f]{64}$/, "must be the current_fingerprint the approval's detail answered")
      .optional(),
  })
  .strict();
