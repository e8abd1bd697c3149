// The webhook event catalogue (CONTRACT §6). Shared by the server, the dashboard's pickers and
// the docs page, so it holds no server code.

export const WEBHOOK_EVENT_TYPES = [
  "connection.created",
  "connection.updated",
  "connection.deleted",
  "connection.needs_reauth",
  "connection.health_changed",
  "auth_link.connected",
  "auth_link.failed",
  "credits.low",
  "credits.exhausted",
  "approval.requested",
  "approval.resolved",
  "workflow.run_failed",
  "workflow.deactivated",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event" to one endpoint, whatever it subscribed to; never subscribable. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
/** The `message` of a test event's data: {endpoint_id, message}. */
export const WEBHOOK_TEST_MESSAGE = "A test event from Patchbay: this endpoint receives and verifies webhooks.";

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "connection.created": "A connection was created, from posted credentials or through an auth link.",
  "connection.updated":
    "A connection's credentials were replaced in place: the same account posted again, or re-authorized through an auth link.",
  "connection.deleted": "A connection was deleted; carries the workflows its deletion deactivated.",
  "connection.needs_reauth":
    "The provider refused a connection's access (revoked, or a refresh was refused); sent once when it enters that state.",
  "connection.health_changed":
    "A connection's health changed (healthy, needs_reauth, unreachable): found by its scheduled identity check, Check now, a refused use, or a re-authorization.",
  "auth_link.connected": "An auth link was used to connect an account.",
  "auth_link.failed":
    "An auth link's sign-in was denied or failed at the provider, or Patchbay refused to save the account it returned; the link stays pending and can be retried.",
  "credits.low": "A charge left the balance at or below the team's low-credits threshold (once per billing period).",
  "credits.exhausted": "A charge left the balance at or below zero (once per billing period).",
  "approval.requested":
    "An agent asked for a write that needs a person's approval (in the Agent, or through an MCP server whose policy is approval); it waits on the Approvals page.",
  "approval.resolved":
    "An approval request ended: rejected, expired, cancelled (the permission it was filed under went away), or approved and then succeeded or failed.",
  "workflow.run_failed":
    "A workflow run ended with a node that failed after its retries; the nodes after it were skipped.",
  "workflow.deactivated":
    "Patchbay stopped a workflow because the consent it ran on is gone: a member whose private connection it used left the team, or a connection it writes to was replaced by someone else. It carries the reason; an owner activates it again.",
};

type EventFamily = WebhookEventType extends `${infer F}.${string}` ? F : never;

/** What each family of event types is about, in the words of a list ("connections, auth links, …"). */
const FAMILY_WORDS: Record<EventFamily, string> = {
  connection: "connections",
  auth_link: "auth links",
  credits: "credits",
  approval: "approvals",
  workflow: "workflow runs",
};

/**
 * The families of the catalogue's event types in catalogue order, as words: what an endpoint can
 * receive, derived so a new family shows up wherever it is listed (a new prefix fails to compile
 * until it has its words).
 */
export const WEBHOOK_EVENT_FAMILIES: readonly string[] = [
  ...new Set(WEBHOOK_EVENT_TYPES.map((t) => FAMILY_WORDS[t.slice(0, t.indexOf(".")) as EventFamily])),
];

/** "*" (every type) or the subscribed types, as stored and as `webhook list` prints them. */
export const ALL_EVENTS = "*";

export function parseEventFilter(stored: string): string[] {
  return stored === ALL_EVENTS ? [ALL_EVENTS] : stored.split(",").filter(Boolean);
}

export function subscribes(stored: string, type: string): boolean {
  return stored === ALL_EVENTS || stored.split(",").includes(type);
}
