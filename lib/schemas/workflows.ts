import { z } from "zod";
import { NODES_CEILING } from "@/lib/config/limits";

// Workflows (CONTRACT §9): what a member saves, through the dashboard API and the CLI alike.

export const NODE_ID = /^[a-z0-9_]{1,40}$/;

/** The operators of a condition's leaf (CONTRACT §13): `exists` and `not_exists` take no `right`. */
export const CONDITION_OPS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "contains",
  "not_contains",
  "exists",
  "not_exists",
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** Levels of `all` / `any` / `not` a condition may have above a leaf. */
export const CONDITION_MAX_DEPTH = 5;

export type Condition =
  | { left: unknown; op: ConditionOp; right?: unknown }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

const CONDITION_SHAPE =
  'must be a condition: {"left", "op", "right"}, {"all": [conditions]}, {"any": [conditions]} or {"not": condition}';

// Its depth and a leaf's missing `right` are checked when the workflow is saved (lib/workflows/conditions.ts),
// naming the place; the shape is checked here.
const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union(
    [
      z
        .object({
          left: z.unknown().describe("A value or a {{…}} reference, e.g. {{nodes.report.output.total}}."),
          op: z.enum(CONDITION_OPS, { error: `must be one of ${CONDITION_OPS.join(", ")}` }),
          right: z.unknown().optional().describe("The value compared with; left out for exists and not_exists."),
        })
        .strict(),
      z.object({ all: z.array(conditionSchema).min(1, "must hold at least one condition").max(20) }).strict(),
      z.object({ any: z.array(conditionSchema).min(1, "must hold at least one condition").max(20) }).strict(),
      z.object({ not: conditionSchema }).strict(),
    ],
    { error: CONDITION_SHAPE },
  ),
);

const workflowNodeSchema = z
  .object({
    id: z.string({ error: "must be a string" }).regex(NODE_ID, "must be 1-40 characters of a-z, 0-9 and _"),
    label: z.string({ error: "must be a string" }).trim().min(1, "is empty").max(200, "must be at most 200 characters"),
    operation_id: z.string({ error: "must be a string" }).min(1, "is empty").max(200, "must be at most 200 characters"),
    connection_id: z
      .string({ error: "must be a string" })
      .min(1, "is empty")
      .max(255, "must be at most 255 characters")
      .nullish(),
    input: z.record(z.string(), z.unknown(), { error: "must be a JSON object" }).default({}),
    when: conditionSchema
      .optional()
      .describe("The node runs only when this holds; otherwise it is skipped and later nodes still run."),
    for_each: z
      .string({ error: "must be one {{…}} reference to a list" })
      .max(500, "must be at most 500 characters")
      .optional()
      .describe(
        "Runs the node once per item of this list, e.g. {{nodes.report.output.rows}}; {{item}}, {{item.<field>}} and {{item_index}} then stand in its input and condition.",
      ),
    continue_on_error: z
      .boolean({ error: "must be true or false" })
      .optional()
      .describe("When the node fails, the run goes on; later nodes read {error} as its output."),
    approval: z
      .literal("required", { error: 'must be "required" or left out' })
      .optional()
      .describe("A write node that waits for a person's approval before it writes (each item of a loop apart)."),
  })
  .strict();

export const workflowNodesSchema = z
  .array(workflowNodeSchema, { error: "must be a JSON array of nodes" })
  .min(1, "must hold at least one node")
  // The bound of any WORKFLOW_MAX_NODES; the setting itself is checked when the workflow is saved, naming it.
  .max(NODES_CEILING, `must hold at most ${NODES_CEILING} nodes`);

export type WorkflowNode = z.infer<typeof workflowNodeSchema>;

const name = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "is empty")
  .max(200, "must be at most 200 characters");
const schedule = z.string({ error: "must be a string" }).max(200, "must be at most 200 characters").nullable();
const timezone = z.string({ error: "must be a string" }).max(100, "must be at most 100 characters").nullable();
const trigger = z
  .enum(["manual", "schedule", "webhook", "event"], { error: "must be one of manual, schedule, webhook, event" })
  .describe("What starts it; a schedule when schedule is set.");
const events = z
  .array(z.string({ error: "must be an event type" }).max(100, "must be at most 100 characters"), {
    error: "must be a list of event types",
  })
  .max(20, "must hold at most 20 event types")
  .nullable()
  .describe("An event trigger's event types.");

export const createWorkflowBodySchema = z
  .object({
    name,
    nodes: workflowNodesSchema,
    schedule: schedule.optional(),
    timezone: timezone.optional(),
    trigger: trigger.optional(),
    events: events.optional(),
    active: z.boolean({ error: "must be true or false" }).optional(),
  })
  .strict();

/** A node's control fields (CONTRACT §13), only those it sets: what a save, a snapshot and the editor carry over. */
export const nodeControls = (n: Pick<WorkflowNode, "when" | "for_each" | "continue_on_error" | "approval">) => ({
  ...(n.when !== undefined && { when: n.when }),
  ...(n.for_each !== undefined && { for_each: n.for_each }),
  ...(n.continue_on_error !== undefined && { continue_on_error: n.continue_on_error }),
  ...(n.approval !== undefined && { approval: n.approval }),
});

/**
 * A saved workflow (or its detail, whose nodes carry their operation and connection) as the body
 * that would save it again: what the editor starts from and what the Copilot is shown.
 */
export const workflowBody = (w: {
  name: string;
  nodes: WorkflowNode[];
  schedule: string | null;
  timezone: string | null;
  active: boolean;
}) => ({
  name: w.name,
  nodes: w.nodes.map((n) => ({
    id: n.id,
    label: n.label,
    operation_id: n.operation_id,
    ...(n.connection_id && { connection_id: n.connection_id }),
    input: n.input,
    ...nodeControls(n),
  })),
  schedule: w.schedule,
  timezone: w.timezone,
  active: w.active,
});

export const updateWorkflowBodySchema = z
  .object({
    name: name.optional(),
    nodes: workflowNodesSchema.optional(),
    schedule: schedule.optional(),
    timezone: timezone.optional(),
    trigger: trigger.optional(),
    events: events.optional(),
    active: z.boolean({ error: "must be true or false" }).optional(),
  })
  .strict()
  .refine(
    (b) => Object.keys(b).length > 0,
    "send at least one of name, nodes, schedule, timezone, trigger, events, active",
  );

export const rebindWorkflowBodySchema = z
  .object({
    from: z.string({ error: "must be a connection id" }).min(1, "is empty").max(255),
    to: z.string({ error: "must be a connection id" }).min(1, "is empty").max(255),
  })
  .strict();

export const schedulePreviewQuerySchema = z
  .object({ schedule: z.string().min(1, "is empty").max(200), timezone: z.string().max(100).optional() })
  .strict();

export const listRunsQuerySchema = z
  .object({
    cursor: z.string().max(500, "must be at most 500 characters").optional(),
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(100, "must be at most 100")
      .optional(),
  })
  .strict();

const COPILOT_MESSAGE_MAX = 4000;

/**
 * The line of the Copilot's instructions that carries the editor's workflow as JSON; the sandbox
 * model's script reads the workflow back from it.
 */
export const COPILOT_CURRENT_PREFIX =
  "The workflow as it stands in the editor (change what the member asks, keep the rest): ";

/**
 * The workflow Copilot's request: what the member wants, on one of their model connections, for
 * a new workflow or workflow `workflow_id`; `current` is the editor's state as it stands (unsaved
 * and perhaps incomplete, so only bounded, not checked).
 */
export const copilotBodySchema = z
  .object({
    model_connection_id: z.string({ error: "must be a connection id" }).min(1, "is empty").max(255),
    model: z.string({ error: "must be a string" }).trim().min(1, "is empty").max(200).optional(),
    message: z
      .string({ error: "must be a string: what you want the workflow to do" })
      .trim()
      .min(1, "is empty")
      .max(COPILOT_MESSAGE_MAX, `must be at most ${COPILOT_MESSAGE_MAX} characters`),
    workflow_id: z.string({ error: "must be a workflow id" }).min(1, "is empty").max(255).optional(),
    current: z
      .object({
        name: z.string().max(200).optional(),
        nodes: z.array(z.record(z.string(), z.unknown())).max(NODES_CEILING).optional(),
        schedule: schedule.optional(),
        timezone: timezone.optional(),
        active: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** `POST /v1/workflows/{id}/runs` (CONTRACT §13): `input` is `{{trigger.input…}}` in every node. */
export const startWorkflowRunBodySchema = z
  .object({
    input: z
      .record(z.string(), z.unknown(), { error: "must be a JSON object" })
      .optional()
      .describe("What the run's nodes read as {{trigger.input…}}."),
  })
  .strict();

const RUN_STATUSES = ["queued", "running", "waiting_approval", "success", "error", "stopped", "refused"] as const;
export const RUN_TRIGGER_TYPES = ["manual", "schedule", "webhook", "event", "api", "replay"] as const;

export const StartedWorkflowRunSchema = z
  .object({ run_id: z.string().describe("The run's ID (`run_…`)."), status: z.literal("queued") })
  .meta({ id: "StartedWorkflowRun" });

export const WorkflowRunStatusSchema = z
  .object({
    run_id: z.string(),
    workflow_id: z.string(),
    version: z.number().int().nullable().describe("The workflow version the run executes."),
    status: z.enum(RUN_STATUSES),
    trigger: z.object({ type: z.enum(RUN_TRIGGER_TYPES) }).describe("What started the run."),
    started_at: z.number().int().nullable().describe("Unix seconds; null while queued."),
    completed_at: z.number().int().nullable().describe("Unix seconds; null until it ends."),
    credits: z.number().int().nullable().describe("Its ledger entry's credits; null until it ends."),
    replay_of: z.string().nullable().describe("The run this one replays, if any."),
  })
  .meta({ id: "WorkflowRun" });

/** Retry from this step: the node to start at (default: the failed or stopped one). */
export const replayRunBodySchema = z
  .object({ from: z.string({ error: "must be a node id" }).regex(NODE_ID, "must be a node id").optional() })
  .strict();

/** Replay the failed runs of one workflow that were queued in [from, to) (Unix ms). */
export const bulkReplayBodySchema = z
  .object({
    from: z.number({ error: "must be Unix milliseconds" }).int().min(0),
    to: z.number({ error: "must be Unix milliseconds" }).int().min(0),
  })
  .strict();
