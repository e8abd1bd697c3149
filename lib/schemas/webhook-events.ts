import { z } from "zod";
import { CONNECTION_HEALTHS, ConnectionSchema } from "@/lib/schemas/connections";
import { AuthLinkStatusSchema } from "@/lib/schemas/auth-links";
import { CreditBalanceSchema } from "@/lib/schemas/credits";
import { ApprovalSchema } from "@/lib/schemas/approvals";
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from "@/lib/schemas/webhook-event-types";

// The bodies webhooks carry (CONTRACT §6), described once: the emitter is typed by them, the
// OpenAPI document lists them under `webhooks`, and the client's verifyWebhook returns them.

const lowCredits = z.object({
  balance: CreditBalanceSchema,
  low_credits_percent: z.number().int().min(0).max(100).describe("The team's threshold, in percent of credits_limit."),
});

/** `data` of each event type. */
const webhookEventDataSchemas = {
  "connection.created": z.object({ connection: ConnectionSchema }),
  "connection.updated": z.object({ connection: ConnectionSchema }),
  "connection.deleted": z.object({
    connection: ConnectionSchema,
    deactivated_workflow_ids: z.array(z.string()).describe("The team's active workflows the deletion deactivated."),
  }),
  "connection.needs_reauth": z.object({
    connection: ConnectionSchema,
    reason: z.string().describe("What the provider answered."),
  }),
  "connection.health_changed": z.object({
    connection: ConnectionSchema,
    health: z.enum(CONNECTION_HEALTHS).describe("What the connection's health is now."),
    previous: z.enum(CONNECTION_HEALTHS).describe("What it was."),
    error: z.string().nullable().describe("Why it is unreachable, or what the provider answered; null when healthy."),
  }),
  "auth_link.connected": z.object({ auth_link: AuthLinkStatusSchema, connection: ConnectionSchema }),
  "auth_link.failed": z.object({
    auth_link: AuthLinkStatusSchema,
    error: z
      .enum(["access_denied", "provider_error", "invalid_request"])
      .describe(
        "The error redirect's `error`: `invalid_request` when Patchbay refused to save the account the provider returned (`error_description` says why).",
      ),
    error_description: z.string().describe("The error redirect's `error_description`."),
  }),
  "credits.low": lowCredits,
  "credits.exhausted": lowCredits,
  "approval.requested": z.object({ approval: ApprovalSchema }),
  "approval.resolved": z.object({ approval: ApprovalSchema }),
  "workflow.run_failed": z.object({
    workflow: z.object({ id: z.string(), name: z.string().describe("The workflow's name when the run started.") }),
    run_id: z.string().describe("The run: its node logs have this source.run_id."),
    failed_node_id: z.string().describe("The node that failed after its retries."),
    error: z
      .string()
      .describe(
        "Why it failed, as its log's output says; for a node on a private connection only that it failed there (its owner reads the error in the logs).",
      ),
  }),
  "workflow.deactivated": z.object({
    workflow: z.object({ id: z.string(), name: z.string() }),
    reason: z.string().describe("Why Patchbay deactivated it, as its page shows."),
  }),
  [WEBHOOK_TEST_EVENT]: z.object({
    endpoint_id: z.string().describe("The endpoint the test was sent to."),
    message: z.string(),
  }),
} satisfies Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, z.ZodObject>;

export type WebhookEventName = keyof typeof webhookEventDataSchemas;
export type WebhookEventData = { [T in WebhookEventName]: z.infer<(typeof webhookEventDataSchemas)[T]> };

/** "connection.created" → "ConnectionCreatedEvent": the component each body is registered as. */
export const webhookEventSchemaId = (type: WebhookEventName) =>
  `${type.replace(/(^|[._])(\w)/g, (_, __, c: string) => c.toUpperCase())}Event`;

const DESCRIPTIONS: Record<WebhookEventName, string> = {
  ...WEBHOOK_EVENT_DESCRIPTIONS,
  [WEBHOOK_TEST_EVENT]: "Sent by *Send test event* in Settings → Webhooks to one endpoint, whatever it subscribed to.",
};

function bodySchema<T extends WebhookEventName>(type: T) {
  return z
    .object({
      id: z
        .string()
        .describe(
          "The event's id (`msg_…`), equal to the `webhook-id` header: the same at every attempt and every endpoint. Deduplicate on it.",
        ),
      type: z.literal(type),
      created_at: z.number().int().meta({ format: "int64" }).describe("Unix seconds when the event happened."),
      team_id: z.string(),
      data: webhookEventDataSchemas[type],
    })
    .meta({ id: webhookEventSchemaId(type), description: DESCRIPTIONS[type] });
}

/** The whole body of each event type, as every attempt sends it. */
export const webhookEventSchemas = Object.fromEntries(
  (Object.keys(webhookEventDataSchemas) as WebhookEventName[]).map((type) => [type, bodySchema(type)]),
) as { [T in WebhookEventName]: ReturnType<typeof bodySchema<T>> };

export const webhookEventDescription = (type: WebhookEventName) => DESCRIPTIONS[type];
