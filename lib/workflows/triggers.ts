import "server-only";
import { randomBytes } from "node:crypto";
import { appUrl } from "@/lib/config/env";
import { sha256Hex } from "@/lib/security/hashing";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";
import type { WorkflowNode } from "@/lib/schemas/workflows";

// What starts a workflow (CONTRACT §13 triggers): by hand only (manual), its schedule, a POST to
// its webhook URL, or events of its team. Any workflow can also be run by hand and through
// `POST /v1/workflows/{id}/runs`. The definition a version records is its nodes and its trigger.

const TRIGGER_TYPES = ["manual", "schedule", "webhook", "event"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The events a workflow can start on: every event of the webhook catalogue (§6, §8, §9). */
export const TRIGGER_EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_TYPES;

/** The part of a workflow a version records: its nodes and what starts it. */
export type Definition = {
  nodes: WorkflowNode[];
  triggerType: TriggerType;
  schedule: string | null;
  timezone: string | null;
  /** An event trigger's types as stored (a JSON array), else null. */
  events: string | null;
};

export const parseEvents = (stored: string | null): string[] | null => {
  if (!stored) return null;
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === "string") : null;
  } catch {
    return null;
  }
};

type DraftTrigger = {
  schedule: string | null;
  timezone: string | null;
  trigger?: string;
  events?: string[] | null;
};

const triggerTypeOf = (d: DraftTrigger): TriggerType =>
  d.schedule !== null ? "schedule" : ((d.trigger as TriggerType | undefined) ?? "manual");

/** Why a draft's trigger cannot be saved, each naming its field; [] when it can. */
export function triggerProblems(d: DraftTrigger): string[] {
  const problems: string[] = [];
  const type = d.trigger ?? (d.schedule !== null ? "schedule" : "manual");
  if (!(TRIGGER_TYPES as readonly string[]).includes(type)) {
    problems.push(`trigger: must be one of ${TRIGGER_TYPES.join(", ")}`);
    return problems;
  }
  if (type === "schedule" && d.schedule === null)
    problems.push("schedule: a schedule trigger needs a cron expression (5 fields, e.g. 0 8 * * 1)");
  if (type !== "schedule" && d.schedule !== null)
    problems.push(`schedule: a ${type} workflow has no schedule; leave it out or choose the schedule trigger`);
  if (type === "event") {
    const events = d.events ?? [];
    if (!events.length)
      problems.push(`events: an event trigger needs at least one event type: ${TRIGGER_EVENT_TYPES.join(", ")}`);
    for (const e of events)
      if (!TRIGGER_EVENT_TYPES.includes(e))
        problems.push(
          `events: there is no event type ${JSON.stringify(e.slice(0, 100))}; choose among ${TRIGGER_EVENT_TYPES.join(", ")}`,
        );
  } else if (d.events?.length) problems.push(`events: only an event trigger has events; this one is ${type}`);
  return problems;
}

/** The definition a draft (or a row) saves. */
export function definitionOf(d: DraftTrigger & { nodes: WorkflowNode[] }): Definition {
  const triggerType = triggerTypeOf(d);
  const events = triggerType === "event" ? [...new Set(d.events ?? [])] : null;
  return {
    nodes: d.nodes,
    triggerType,
    schedule: triggerType === "schedule" ? d.schedule : null,
    timezone: triggerType === "schedule" ? d.timezone : null,
    events: events ? JSON.stringify(events) : null,
  };
}

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

/** Whether two definitions run the same (key order aside): a save of the same one is no new version. */
export const sameDefinition = (a: Definition, b: Definition) =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * Since when an event trigger's events count: set to now when a save leaves it active on events
 * it was not active on before; kept otherwise; null for any other trigger or an inactive workflow.
 */
export function eventsSince(
  before: { active: boolean; triggerType: string; events: string | null; eventsSince: bigint | null } | null,
  after: Definition & { active: boolean },
  now: number,
): bigint | null {
  if (after.triggerType !== "event" || !after.active) return null;
  if (before?.active && before.triggerType === "event" && before.events === after.events && before.eventsSince)
    return before.eventsSince;
  return BigInt(now);
}

/** A webhook trigger's URL token: 32 random bytes, base64url; stored as its SHA-256 only. */
export function newWebhookToken() {
  const token = `pbwh_${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashWebhookToken(token) };
}

export const hashWebhookToken = (token: string) => sha256Hex(token);

/** The URL a webhook trigger is posted to (absolute, under APP_URL). */
export const webhookUrl = (token: string) => `${appUrl()}/hooks/workflows/${token}`;

/** `trigger` of `workflow create` / `workflow list` and the dashboard (never the URL). */
export function triggerJson(row: {
  triggerType: string;
  schedule: string | null;
  timezone: string | null;
  events: string | null;
}) {
  const type = row.triggerType as TriggerType;
  return {
    type,
    ...(type === "schedule" && { schedule: row.schedule, timezone: row.timezone }),
    ...(type === "event" && { events: parseEvents(row.events) ?? [] }),
  };
}
