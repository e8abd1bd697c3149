import { nodeControls, type Condition, type WorkflowNode } from "@/lib/schemas/workflows";
import { triggerJson, webhookUrl } from "@/lib/workflows/triggers";

// How workflows and their runs read outside: the CLI of CONTRACT §9 and the dashboard API.

/** The stored nodes; rows written before workflows ran (simulated ones) lack inputs. */
export function parseNodes(stored: unknown): WorkflowNode[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((n): n is Record<string, unknown> => !!n && typeof n === "object")
    .map((n) => ({
      id: String(n.id ?? ""),
      label: String(n.label ?? n.id ?? ""),
      operation_id: String(n.operation_id ?? ""),
      ...(typeof n.connection_id === "string" && { connection_id: n.connection_id }),
      input:
        n.input && typeof n.input === "object" && !Array.isArray(n.input) ? (n.input as Record<string, unknown>) : {},
      ...nodeControls({
        when: n.when && typeof n.when === "object" ? (n.when as Condition) : undefined,
        for_each: typeof n.for_each === "string" ? n.for_each : undefined,
        continue_on_error: typeof n.continue_on_error === "boolean" ? n.continue_on_error : undefined,
        approval: n.approval === "required" ? "required" : undefined,
      }),
    }));
}

const seconds = (ms: bigint | number | null) => (ms === null ? null : Math.floor(Number(ms) / 1000));

type WorkflowRow = {
  id: string;
  name: string;
  active: boolean;
  schedule: string | null;
  timezone: string | null;
  nextRunAt: bigint | null;
  version: number;
  triggerType: string;
  events: string | null;
};

/**
 * `workflow create` / `workflow list` (CONTRACT §9, §13): next_run_at in Unix seconds, null for a
 * manual or inactive workflow; its version and trigger (never a webhook's URL).
 */
export function workflowSummaryJson(row: WorkflowRow) {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    schedule: row.schedule,
    timezone: row.schedule ? row.timezone : null,
    next_run_at: row.active ? seconds(row.nextRunAt) : null,
    version: row.version,
    trigger: triggerJson(row),
  };
}

export function workflowJson(
  row: WorkflowRow & {
    nodes: unknown;
    createdByUserId: string | null;
    deactivatedReason: string | null;
    createdAt: Date;
    updatedAt: Date;
    /** A webhook trigger's token when this save made one: its URL is shown this once. */
    webhookToken?: string | null;
  },
) {
  return {
    ...workflowSummaryJson(row),
    ...(row.webhookToken && { webhook_url: webhookUrl(row.webhookToken) }),
    nodes: parseNodes(row.nodes),
    created_by_user_id: row.createdByUserId,
    deactivated_reason: row.deactivatedReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
