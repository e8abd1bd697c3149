import type { WorkflowNode } from "@/lib/schemas/workflows";

// Ready workflows a team instantiates with its own connections (Workflows → New from a
// template). Data, not code: the editor lists them, fills `connections` and `fields` from the
// form, and saves the result like any workflow. Pure: shared by the page and the demo.

type TemplateField = { key: string; label: string; placeholder: string; hint?: string };
export type WorkflowTemplate = {
  id: string;
  name: string;
  description: string;
  schedule: string | null;
  timezone: string | null;
  /** Connections the team picks, by the slot's key; `types` it may be. */
  connections: { key: string; label: string; types: string[] }[];
  fields: TemplateField[];
  /** Nodes with `connection_id` naming a slot key, and `<<field>>` where a field's value goes. */
  nodes: WorkflowNode[];
};

export const WORKFLOW_TEMPLATES: WorkflowTemplate[] = [
  {
    id: "weekly_ga4_traffic_to_slack",
    name: "Weekly GA4 traffic to Slack",
    description:
      "Every Monday at 09:00: last week's sessions and users by channel from Google Analytics 4, posted to a Slack channel.",
    schedule: "0 9 * * 1",
    timezone: "UTC",
    connections: [
      { key: "ga4", label: "Google Analytics 4 connection", types: ["ga4"] },
      { key: "slack", label: "Slack connection", types: ["slack"] },
    ],
    fields: [
      { key: "property_id", label: "GA4 property ID", placeholder: "123456789" },
      {
        key: "channel",
        label: "Slack channel",
        placeholder: "marketing",
        hint: "A channel the Patchbay app's bot is a member of.",
      },
    ],
    nodes: [
      {
        id: "report",
        label: "Sessions by channel, last 7 days",
        operation_id: "ga4.run_report",
        connection_id: "ga4",
        input: {
          property_id: "<<property_id>>",
          metrics: ["sessions", "totalUsers"],
          dimensions: ["sessionDefaultChannelGroup"],
          start_date: "{{run.date.last_7_days_start}}",
          end_date: "{{run.date.yesterday}}",
          order_by: "sessions",
        },
      },
      {
        id: "message",
        label: "Write the message",
        operation_id: "utility.format_text",
        input: {
          template:
            "Traffic {{run.date.last_7_days_start}} to {{run.date.yesterday}} ({{nodes.report.output.row_count}} channels): {{nodes.report.output.rows}}",
        },
      },
      {
        id: "post",
        label: "Post to Slack",
        operation_id: "slack.post_message",
        connection_id: "slack",
        input: { channel: "<<channel>>", text: "{{nodes.message.output.text}}" },
      },
    ],
  },
  {
    id: "daily_ads_spend_to_slack",
    name: "Daily Google Ads spend to Slack",
    description:
      "Every day at 08:00: yesterday's cost, clicks and conversions per campaign from Google Ads, posted to a Slack channel.",
    schedule: "0 8 * * *",
    timezone: "UTC",
    connections: [
      { key: "ads", label: "Google Ads connection", types: ["gads"] },
      { key: "slack", label: "Slack connection", types: ["slack"] },
    ],
    fields: [
      { key: "customer_id", label: "Google Ads customer ID", placeholder: "1234567890" },
      {
        key: "channel",
        label: "Slack channel",
        placeholder: "marketing",
        hint: "A channel the Patchbay app's bot is a member of.",
      },
    ],
    nodes: [
      {
        id: "spend",
        label: "Yesterday's spend per campaign",
        operation_id: "google_ads.search",
        connection_id: "ads",
        input: {
          customer_id: "<<customer_id>>",
          query:
            "SELECT campaign.name, metrics.cost_micros, metrics.clicks, metrics.conversions FROM campaign WHERE segments.date = '{{run.date.yesterday}}' ORDER BY metrics.cost_micros DESC",
        },
      },
      {
        id: "message",
        label: "Write the message",
        operation_id: "utility.format_text",
        input: { template: "Google Ads spend on {{run.date.yesterday}}: {{nodes.spend.output.rows}}" },
      },
      {
        id: "post",
        label: "Post to Slack",
        operation_id: "slack.post_message",
        connection_id: "slack",
        input: { channel: "<<channel>>", text: "{{nodes.message.output.text}}" },
      },
    ],
  },
  {
    id: "shopify_refunds_digest",
    name: "Shopify refunds digest",
    description:
      "Every day at 07:00: the orders refunded in the last 7 days (name, total, customer), posted to a Slack channel.",
    schedule: "0 7 * * *",
    timezone: "UTC",
    connections: [
      { key: "shop", label: "Shopify connection", types: ["shopify"] },
      { key: "slack", label: "Slack connection", types: ["slack"] },
    ],
    fields: [
      {
        key: "channel",
        label: "Slack channel",
        placeholder: "support",
        hint: "A channel the Patchbay app's bot is a member of.",
      },
    ],
    nodes: [
      {
        id: "orders",
        label: "Refunded orders, last 7 days",
        operation_id: "shopify.list_orders",
        connection_id: "shop",
        input: { created_at_min: "{{run.date.last_7_days_start}}", financial_status: "refunded", limit: 50 },
      },
      {
        id: "fields",
        label: "Keep name, total and customer",
        operation_id: "utility.pick_fields",
        input: { rows: "{{nodes.orders.output.orders}}", fields: ["name", "total_price", "email"] },
      },
      {
        id: "message",
        label: "Write the digest",
        operation_id: "utility.format_text",
        input: { template: "Refunds since {{run.date.last_7_days_start}}: {{nodes.fields.output.rows}}" },
      },
      {
        id: "post",
        label: "Post to Slack",
        operation_id: "slack.post_message",
        connection_id: "slack",
        input: { channel: "<<channel>>", text: "{{nodes.message.output.text}}" },
      },
    ],
  },
  {
    id: "sandbox_daily_note",
    name: "Sandbox sessions to a note",
    description:
      "Every hour: the sandbox account's sessions of the last 7 days, written as its note. Runs on the built-in sandbox provider: a safe way to try workflows.",
    schedule: "0 * * * *",
    timezone: "UTC",
    connections: [
      { key: "sandbox", label: "Sandbox connection", types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"] },
    ],
    fields: [],
    nodes: [
      {
        id: "report",
        label: "Sessions, last 7 days",
        operation_id: "sandbox.report",
        connection_id: "sandbox",
        input: { metric: "sessions", days: 7, end_date: "{{run.date.yesterday}}" },
      },
      {
        id: "message",
        label: "Write the note",
        operation_id: "utility.format_text",
        input: { template: "{{nodes.report.output.total}} sessions in the 7 days to {{run.date.yesterday}}" },
      },
      {
        id: "note",
        label: "Save it as the account's note",
        operation_id: "sandbox.set_note",
        connection_id: "sandbox",
        input: { note: "{{nodes.message.output.text}}" },
      },
    ],
  },
];

export const findWorkflowTemplate = (id: string) => WORKFLOW_TEMPLATES.find((t) => t.id === id);

/** A template's nodes with the team's connections (by slot key) and field values put in. */
export function instantiateTemplate(
  template: WorkflowTemplate,
  connections: Record<string, string>,
  fields: Record<string, string>,
): WorkflowNode[] {
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") return value.replace(/<<([a-z_]+)>>/g, (_, key: string) => fields[key] ?? "");
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return template.nodes.map((n) => ({
    ...n,
    ...(n.connection_id && { connection_id: connections[n.connection_id] ?? "" }),
    input: fill(n.input) as Record<string, unknown>,
  }));
}
