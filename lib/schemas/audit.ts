import { z } from "zod";
import { cursorParam, int64, limitParam } from "@/lib/schemas/common";
import { AUDIT_ACTIONS } from "@/lib/schemas/audit-actions";

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the schema is where AuditEventJson comes from
const AuditEventSchema = z.object({
  id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  actor: z.object({
    kind: z.string().describe("session | api_key | cli | auth_link | invite_link | system"),
    user_id: z.string().nullable(),
    email: z.string().nullable(),
    api_key_id: z.string().nullable(),
  }),
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: int64().describe("Unix milliseconds."),
});
export type AuditEventJson = z.infer<typeof AuditEventSchema>;

export const listAuditEventsQuerySchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional(),
    limit: limitParam(100, 50),
    cursor: cursorParam.optional(),
  })
  .strict();
export type ListAuditEventsQuery = z.infer<typeof listAuditEventsQuerySchema>;
