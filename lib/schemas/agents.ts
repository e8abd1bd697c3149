import { z } from "zod";
import { int64 } from "@/lib/schemas/common";

// The agent API (CONTRACT §11, an extension of the spec): a conversation on the team's own model
// connection whose tools are the operations catalogue, limited to the connections picked for it.

export const MAX_AGENT_MESSAGE = 20_000;
export const TITLE_MAX = 60;

/** A string field's message when it is missing, or not a string. */
const notAString = (issue: { input: unknown }) => (issue.input === undefined ? "is required" : "must be a string");

const message = z
  .string({ error: (i) => `${notAString(i)}: what you ask the agent` })
  .trim()
  .min(1, "must not be empty")
  .max(MAX_AGENT_MESSAGE, `must be at most ${MAX_AGENT_MESSAGE} characters`)
  .describe("What the member asks.");

const id = (what: string) =>
  z.string({ error: notAString }).min(1, "must not be empty").max(255, "must be at most 255 characters").describe(what);

export const createConversationBodySchema = z
  .object({
    model_connection_id: id("An `openai`, `anthropic` or `sandbox_model` connection the caller can see."),
    model: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe("The model's name at that provider; the connection type's default when left out."),
    connection_ids: z
      .array(id("A connection id."))
      .max(1000, "at most 1000 connection ids")
      .optional()
      .describe(
        "The connections the agent may use. Left out: every connection the caller can see; `[]`: none. An id the caller cannot see is a 403 and nothing is created.",
      ),
    shared: z
      .boolean({ error: "must be true or false" })
      .optional()
      .describe("Whether the team's other members see the conversation (default false: only its creator)."),
    message,
  })
  .strict();

export const postMessageBodySchema = z.object({ message }).strict();

const AGENT_TURN_STATUSES = ["completed", "waiting_approval", "failed", "refused"] as const;
const AGENT_STEP_STATUSES = ["success", "error", "pending", "rejected", "expired"] as const;

const AgentStepSchema = z
  .object({
    operation_id: z.string(),
    connection_id: z.string(),
    status: z
      .enum(AGENT_STEP_STATUSES)
      .describe(
        "The run's log status (success, error); for a write under approval pending, rejected or expired until it runs.",
      ),
    log_id: z.string().nullable().describe("The step's operation log; null until a write under approval runs."),
    approval_id: z.string().optional().describe("For a write under approval: its request."),
  })
  .meta({ id: "AgentStep" });
export type AgentStep = z.infer<typeof AgentStepSchema>;

const AgentTurnSchema = z
  .object({
    id: z.string(),
    message: z.string().describe("The member's message."),
    status: z
      .enum([...AGENT_TURN_STATUSES, "running"])
      .describe(
        "completed, waiting_approval (a write waits for a person; the agent continues once it is decided), failed, refused (no credits: no model call); running while it runs.",
      ),
    reply: z.string().nullable().describe("The agent's answer; for a failed or refused turn, a sentence saying why."),
    steps: z.array(AgentStepSchema).describe("The operations it ran or asked to run, in order."),
    credits: z
      .number()
      .int()
      .nullable()
      .describe("1 + the credits of the operations it ran; null until it ends; 0 when refused."),
    usage: z
      .object({ input_tokens: z.number().int(), output_tokens: z.number().int(), model_calls: z.number().int() })
      .describe("The model's tokens this turn: the team's own model bill."),
    started_at: int64().describe("Unix seconds."),
    completed_at: int64().nullable().describe("Unix seconds; null while it runs or waits."),
  })
  .meta({ id: "AgentTurn" });
export type AgentTurnJson = z.infer<typeof AgentTurnSchema>;

const conversationFields = {
  id: z.string().describe("`conv_…`"),
  title: z.string().describe(`The first message cut to at most ${TITLE_MAX} characters.`),
};

export const AgentTurnResultSchema = z
  .object({ ...conversationFields, turn: AgentTurnSchema })
  .meta({ id: "AgentTurnResult" });

export const AgentConversationSummarySchema = z
  .object({
    ...conversationFields,
    model_connection_id: z.string(),
    model: z.string(),
    connection_ids: z.array(z.string()),
    shared: z.boolean(),
    user: z.object({ id: z.string(), email: z.string() }).describe("Who started it."),
    created_at: int64().describe("Unix seconds."),
    updated_at: int64().describe("Unix seconds."),
  })
  .meta({ id: "AgentConversationSummary" });

export const AgentConversationSchema = AgentConversationSummarySchema.extend({
  turns: z.array(AgentTurnSchema),
}).meta({ id: "AgentConversation" });

export const listConversationsQuerySchema = z
  .object({
    q: z.string().max(200, "must be at most 200 characters").optional().describe("Words in the title or a message."),
  })
  .strict();

export const patchConversationBodySchema = z
  .object({
    shared: z.boolean({ error: "must be true or false" }).describe("Whether the team's other members see it."),
  })
  .strict();
