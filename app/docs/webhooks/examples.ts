import type { ConnectionJson } from "@/lib/schemas/connections";
import type { WebhookEventData as EventData, WebhookEventName } from "@/lib/schemas/webhook-events";
import { WEBHOOK_TEST_EVENT, WEBHOOK_TEST_MESSAGE, type WebhookEventType } from "@/lib/schemas/webhook-event-types";

// One example event per type for the docs page, typed by the event schemas the emitter is typed
// by (lib/schemas/webhook-events.ts) with every field made required, so an example cannot lose
// or invent a field, and a type added to the catalogue fails the build until it has one.

type Complete<T> = T extends (infer U)[] ? Complete<U>[] : T extends object ? { [K in keyof T]-?: Complete<T[K]> } : T;
type Connection = Complete<ConnectionJson>;

type WebhookEventData = { [T in WebhookEventName]: Complete<EventData[T]> };

export type ExampleEventType = keyof WebhookEventData;

/** The body every attempt sends, keys in the contract's order. */
export type WebhookEventBody<T extends ExampleEventType> = {
  id: string;
  type: T;
  created_at: number;
  team_id: string;
  data: WebhookEventData[T];
};

const TEAM_ID = "team_IVPM76xV3Ksz3czmVccF";
const EXAMPLE_ENDPOINT_ID = "we_dZwmGpTXG0CCDKiXgSBf";

// Tuesday 24 November 2026, 14:05:12 UTC, and the moments around it.
const NOW_S = 1795529112;
const ms = (secondsBeforeNow: number) => (NOW_S - secondsBeforeNow) * 1000;

const stripeConnection: Connection = {
  id: "conn_4PodCEMp6Bwz5aZlJqHJ",
  type: "stripe",
  display_name: "Stripe (live)",
  external_id: null,
  is_private: false,
  created_at: ms(2),
  updated_at: ms(2),
};

const ga4Connection: Connection = {
  id: "conn_tynRbx1qQtxvBfLDtU1l",
  type: "ga4",
  display_name: "marketing@northwind-outdoor.com",
  external_id: "cust_4821",
  is_private: false,
  created_at: ms(41 * 86400 + 3600),
  updated_at: ms(1),
};

const shopifyConnection: Connection = {
  id: "conn_oOt4KzFmvlWdxpQePeCk",
  type: "shopify",
  display_name: "northwind-outdoor.myshopify.com",
  external_id: "cust_4821",
  is_private: false,
  created_at: ms(96 * 86400),
  updated_at: ms(12 * 86400),
};

const hubspotConnection: Connection = {
  id: "conn_8fTq2LmZrY0cKx4WbN1s",
  type: "hubspot",
  display_name: "northwind-outdoor.com",
  external_id: "cust_4821",
  is_private: false,
  created_at: ms(1),
  updated_at: ms(1),
};

const creditsBalance = (used: number): WebhookEventData["credits.low"]["balance"] => ({
  credits_limit: 20000,
  credits_used: used,
  credits_remaining: 20000 - used,
  billing_period_end: 1796083200, // 1 December 2026, 00:00 UTC
  tier: "pro",
});

const event = <T extends ExampleEventType>(
  id: string,
  type: T,
  secondsBeforeNow: number,
  data: WebhookEventData[T],
): WebhookEventBody<T> => ({
  id,
  type,
  created_at: NOW_S - secondsBeforeNow,
  team_id: TEAM_ID,
  data,
});

const exampleApproval = {
  id: "apr_7HkV2mQp9WzL3xNc0RtB",
  status: "pending" as const,
  operation_id: "google_ads.campaign.pause",
  connection_id: "conn_G5tR8wLq2ZpX7vNk3HmB",
  summary: "Pause Google Ads campaign 21467093 “Brand — US” in account 999-888-7777.",
  mcp_server_id: "mcp_Jd4sW9qLx2Nv7KpR0ZcT",
  requested_by: "user_8Lp3Xq0WvN5sKd2HmJ7R",
  created_at: NOW_S - 600,
  expires_at: NOW_S - 600 + 3600,
};

export const EXAMPLE_EVENTS: { [T in ExampleEventType]: WebhookEventBody<T> } = {
  "connection.created": event("msg_u4yxkCxvsigMgbeF326T", "connection.created", 2, { connection: stripeConnection }),
  "connection.updated": event("msg_i65GkrHsp5NTqgpVqcmZ", "connection.updated", 1, { connection: ga4Connection }),
  "connection.deleted": event("msg_lNGynZW64qJCOmmS5vpf", "connection.deleted", 0, {
    connection: shopifyConnection,
    deactivated_workflow_ids: ["wf_NWPWEh3tFT7cRnexKZu6", "wf_hmH4OelfdX3dbWzf6LQS"],
  }),
  "connection.needs_reauth": event("msg_PAmWMKB0MNQGtYMbZGGh", "connection.needs_reauth", 3 * 86400, {
    connection: { ...ga4Connection, updated_at: ms(3 * 86400) },
    reason: "invalid_grant: Token has been expired or revoked.",
  }),
  "connection.health_changed": event("msg_Hq3zVd1XKc7RtLw9PyNe", "connection.health_changed", 2 * 86400, {
    connection: { ...ga4Connection, updated_at: ms(2 * 86400) },
    health: "unreachable",
    previous: "healthy",
    error: "Google did not answer within 10 s.",
  }),
  "auth_link.connected": event("msg_sjCvtVgjIK3fAbfwSDui", "auth_link.connected", 1, {
    auth_link: {
      id: "al_YNQGmgxWkz7I4Bk2Ws5x",
      status: "connected",
      connection_type: "hubspot",
      connection_id: hubspotConnection.id,
      external_id: "cust_4821",
      expires_at: ms(-23 * 3600 - 1740),
      consumed_at: ms(1),
      created_at: ms(1860),
      updated_at: ms(1),
      connections: [hubspotConnection],
    },
    connection: hubspotConnection,
  }),
  "auth_link.failed": event("msg_Vp1FFSlEwx27An3VR2Kk", "auth_link.failed", 0, {
    auth_link: {
      id: "al_oqxB9Wpz2FXokLZ0Ppeu",
      status: "pending",
      connection_type: "ga4",
      connection_id: null,
      external_id: "cust_5310",
      expires_at: ms(-22 * 3600),
      consumed_at: null,
      created_at: ms(2 * 3600),
      updated_at: ms(2 * 3600),
      connections: [],
    },
    error: "access_denied",
    error_description: "Access was not granted at Google: access_denied",
  }),
  "credits.low": event("msg_vhYV1nidtnFrdDcBkf6T", "credits.low", 0, {
    balance: creditsBalance(18040),
    low_credits_percent: 10,
  }),
  "credits.exhausted": event("msg_1CXA7RuWQ0iUCf0DhvEq", "credits.exhausted", 0, {
    balance: creditsBalance(20012),
    low_credits_percent: 10,
  }),
  // A pending request has no decided_by / decided_at yet: the one example with fields left out.
  "approval.requested": event("msg_Qm3v8TzK1pLw0aXc5RbN", "approval.requested", 600, {
    approval: exampleApproval as WebhookEventData["approval.requested"]["approval"],
  }),
  "approval.resolved": event("msg_Vb7nW2kHq9Zc4LsD0ePy", "approval.resolved", 0, {
    // Resolved: an agent conversation's request (mcp_server_id null, its conversation_id), decided.
    approval: {
      ...exampleApproval,
      mcp_server_id: null,
      conversation_id: "conv_8sK2vN6qT1wR4mX9bL3c",
      status: "succeeded",
      decided_by: "user_2Wq9hJ3bN8sKd5LmPx0R",
      decided_at: NOW_S - 12,
    },
  }),
  "workflow.run_failed": event("msg_Wf4kR9pLs2Qx7VbN0cTz", "workflow.run_failed", 0, {
    workflow: { id: "wf_3Kd9sLq2Vx8NbT5mPz1R", name: "Weekly GA4 traffic to Slack" },
    run_id: "run_8Hs2kQp4Lx9VbN3mTz0W",
    failed_node_id: "post",
    error:
      "Slack refused the call: not_in_channel (the app's bot is not a member of #marketing; invite it with /invite).",
  }),
  "workflow.deactivated": event("msg_Dx5mQ8rTv2Kp9LsW1bNc", "workflow.deactivated", 0, {
    workflow: { id: "wf_3Kd9sLq2Vx8NbT5mPz1R", name: "Weekly GA4 traffic to Slack" },
    reason:
      "Deactivated because dana@example.com left the team, and a private connection of theirs it used (ga4) is theirs alone; rebind its nodes to a shared connection, then an owner activates it.",
  }),
  [WEBHOOK_TEST_EVENT]: event("msg_Ru3E2aTgWKiWswLgWLlQ", WEBHOOK_TEST_EVENT, 0, {
    endpoint_id: EXAMPLE_ENDPOINT_ID,
    // The text lib/webhooks/endpoints.ts sendTestEvent() sends.
    message: WEBHOOK_TEST_MESSAGE,
  }),
};

/** Compile-time check: the catalogue's every type has an example. */
const EXAMPLE_FOR: Record<WebhookEventType, WebhookEventBody<ExampleEventType>> = EXAMPLE_EVENTS;

/** The example body of an event type. */
export const exampleOf = (type: WebhookEventType) => EXAMPLE_FOR[type];

/** A made-up signing secret for the worked example (never one Patchbay issued). */
export const EXAMPLE_SECRET = "whsec_dWHerrMA5InQcSjsoTTSEVbrS1lYGGX4+Y1syrVLx3s=";
