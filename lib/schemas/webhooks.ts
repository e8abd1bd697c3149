import { z } from "zod";
import { cursorParam, limitParam } from "@/lib/schemas/common";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from "@/lib/schemas/webhook-event-types";

// Shapes of Settings → Webhooks (dashboard-only endpoints under /api/dashboard/webhooks).

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `each event type must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
  .min(1, "events is empty: leave it out to receive every type")
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe("The event types to receive; leave out for all.");

export const createWebhookEndpointBodySchema = z
  .object({
    url: z.string().trim().min(1, "url is empty").max(2048, "url is longer than 2048 characters"),
    events: eventsField.optional(),
    description: z.string().trim().max(200, "description is longer than 200 characters").optional(),
  })
  .strict();

export const updateWebhookEndpointBodySchema = z
  .object({
    url: z.string().trim().min(1, "url is empty").max(2048, "url is longer than 2048 characters").optional(),
    /** null: every type. */
    events: eventsField.nullable().optional(),
    description: z.string().trim().max(200, "description is longer than 200 characters").nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "Nothing to change: send url, events, description or enabled.");

export const DELIVERY_OUTCOMES = ["succeeded", "failed", "pending"] as const;

export const listWebhookDeliveriesQuerySchema = z
  .object({
    event_type: z
      .enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT], {
        error: `must be one of ${[...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].join(", ")}`,
      })
      .optional(),
    outcome: z.enum(DELIVERY_OUTCOMES, { error: `must be one of ${DELIVERY_OUTCOMES.join(", ")}` }).optional(),
    limit: limitParam(100, 50),
    cursor: cursorParam.optional(),
  })
  .strict();
export type ListWebhookDeliveriesQuery = z.infer<typeof listWebhookDeliveriesQuerySchema>;

export type WebhookEndpointJson = {
  id: string;
  url: string;
  description: string | null;
  /** ["*"] for every type. */
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  /** Who turned it off: a team owner, or the dispatcher after 3 days of failures (the banner's case). */
  disabled_by: "owner" | "failures" | null;
  /** Unix ms: since when every attempt has failed, or null. */
  failing_since: number | null;
  /** Unix ms until which the rotated-out secret still signs, or null. */
  previous_secret_expires_at: number | null;
  created_at: number;
  updated_at: number;
};

export type WebhookAttemptJson = {
  number: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
};

export type WebhookDeliveryJson = {
  id: string;
  event_id: string;
  event_type: string;
  /** pending | delivering | succeeded | failed */
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  created_at: number;
  completed_at: number | null;
  attempts: WebhookAttemptJson[];
  /** The body every attempt sends. */
  payload: unknown;
};
