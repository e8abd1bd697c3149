import type { Condition, WorkflowNode } from "@/lib/schemas/workflows";

// Ready workflows a team instantiates with its own connections (Workflows → New from a
// template). Data, not code: the editor lists them, fills `connections` and `fields` from the
// form, and saves the result like any workflow. Pure: shared by the page and the demo.

type TemplateField = {
  key: string;
  label: string;
  placeholder: string;
  hint?: string;
  /** A number: a string that is exactly its `<<key>>` becomes the number (a condition's threshold). */
  numeric?: true;
};
export type WorkflowTemplate = {
  id: string;
  name: string;
  description: string;
  schedule: string | null;
  timezone: string | null;
  /** Events that start it (CONTRACT §13), for a template that is not on a schedule. */
  events?: string[];
  /** Connections the team picks, by the slot's key; `types` it may be. */
  connections: { key: string; label: string; types: string[] }[];
  fields: TemplateField[];
  /**
   * Nodes with `connection_id` naming a slot key, and `<<field>>` where a field's value goes (in
   * `input` and `when`).
   */
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
    id: "weekly_ga4_to_sheet",
    name: "Weekly GA4 totals appended to a Google Sheet",
    description:
      "Every Monday at 07:00: last week's sessions, users and conversions from Google Analytics 4, appended as one row (week start, week end, the three totals) to a tab of a Google Sheet, so the sheet keeps a week-by-week history.",
    schedule: "0 7 * * 1",
    timezone: "UTC",
    connections: [
      { key: "ga4", label: "Google Analytics 4 connection", types: ["ga4"] },
      { key: "sheets", label: "Google Sheets connection", types: ["google_sheets"] },
    ],
    fields: [
      { key: "property_id", label: "GA4 property ID", placeholder: "123456789" },
      {
        key: "spreadsheet_id",
        label: "Spreadsheet ID",
        placeholder: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
        hint: "The long ID in the sheet's URL, between /d/ and /edit.",
      },
      { key: "tab", label: "Tab", placeholder: "Weekly", hint: "The rows go after the table on this tab." },
    ],
    nodes: [
      {
        id: "totals",
        label: "Totals, last 7 days",
        operation_id: "ga4.run_report",
        connection_id: "ga4",
        input: {
          property_id: "<<property_id>>",
          metrics: ["sessions", "totalUsers", "conversions"],
          start_date: "{{run.date.last_7_days_start}}",
          end_date: "{{run.date.yesterday}}",
        },
      },
      {
        id: "append",
        label: "Append the week's row",
        operation_id: "google_sheets.values.append",
        connection_id: "sheets",
        input: {
          spreadsheet_id: "<<spreadsheet_id>>",
          range: "<<tab>>",
          values: [
            [
              "{{run.date.last_7_days_start}}",
              "{{run.date.yesterday}}",
              "{{nodes.totals.output.rows.0.sessions}}",
              "{{nodes.totals.output.rows.0.totalUsers}}",
              "{{nodes.totals.output.rows.0.conversions}}",
            ],
          ],
        },
      },
    ],
  },
  {
    id: "monthly_ga4_slides_deck",
    name: "Monthly client deck from a Slides template",
    description:
      "On the 1st of every month at 06:00: last month's sessions and users from Google Analytics 4, filled into a copy of your Google Slides template ({{sessions}}, {{users}}, {{period}} placeholders), ready to send to the client.",
    schedule: "0 6 1 * *",
    timezone: "UTC",
    connections: [
      { key: "ga4", label: "Google Analytics 4 connection", types: ["ga4"] },
      { key: "slides", label: "Google Slides connection", types: ["google_slides"] },
    ],
    fields: [
      { key: "property_id", label: "GA4 property ID", placeholder: "123456789" },
      {
        key: "template_id",
        label: "Template presentation ID",
        placeholder: "1EAYk18WDjIG-zp_0vLm3CsfQh_i8eXc67Jo2O9C6Vuc",
        hint: "The deck whose {{sessions}}, {{users}} and {{period}} text is replaced in each copy.",
      },
      { key: "client", label: "Client name", placeholder: "Acme", hint: "Goes in each copy's title." },
    ],
    nodes: [
      {
        id: "totals",
        label: "Totals, last 28 days",
        operation_id: "ga4.run_report",
        connection_id: "ga4",
        input: {
          property_id: "<<property_id>>",
          metrics: ["sessions", "totalUsers"],
          start_date: "28daysAgo",
          end_date: "{{run.date.yesterday}}",
        },
      },
      {
        id: "deck",
        label: "Copy the template and fill it in",
        operation_id: "google_slides.presentation.create_from_template",
        connection_id: "slides",
        input: {
          template_id: "<<template_id>>",
          title: "<<client>> — report to {{run.date.yesterday}}",
          replacements: {
            sessions: "{{nodes.totals.output.rows.0.sessions}} sessions",
            users: "{{nodes.totals.output.rows.0.totalUsers}} users",
            period: "the 28 days to {{run.date.yesterday}}",
          },
        },
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
  // The three below rehearse, on the sandbox alone, what issue 48's conditions, loops, stop and
  // approval step are for. The sandbox has one account, a daily report and a note, and no
  // campaigns, Slack or sheet: each says what stands in for what, in its description and labels.
  {
    id: "sandbox_days_over_threshold_with_approval",
    name: "Pause each campaign over a threshold, with approval (sandbox)",
    description:
      "Rehearses “pause each campaign whose cost passed a threshold, with a manager's yes” on the sandbox, which has days, not campaigns: every Monday at 08:00, each day of last week whose revenue is over your threshold asks a person to approve a write, one request at a time, and only a yes writes it (the account's note, where an ads platform would pause the campaign). Days under the threshold are skipped. In the editor, swap in your ads platform's campaign report and its pause operation.",
    schedule: "0 8 * * 1",
    timezone: "UTC",
    connections: [
      { key: "sandbox", label: "Sandbox connection", types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"] },
    ],
    fields: [
      {
        key: "threshold",
        label: "Revenue threshold (USD)",
        placeholder: "25000",
        hint: "A day whose revenue is over this asks for an approval.",
        numeric: true,
      },
    ],
    nodes: [
      {
        id: "report",
        label: "Revenue per day, last 7 days",
        operation_id: "sandbox.report",
        connection_id: "sandbox",
        input: { metric: "revenue", days: 7, end_date: "{{run.date.yesterday}}" },
      },
      {
        id: "flag",
        label: "Flag the day in the note, once approved",
        operation_id: "sandbox.set_note",
        connection_id: "sandbox",
        for_each: "{{nodes.report.output.rows}}",
        when: { left: "{{item.value}}", op: "gt", right: "<<threshold>>" },
        approval: "required",
        input: {
          note: "Over the threshold on {{item.date}}: {{item.value}} USD of revenue (threshold <<threshold>> USD)",
        },
      },
    ],
  },
  {
    id: "sandbox_alert_when_metric_drops",
    name: "Alert only when a metric drops (sandbox)",
    description:
      "Rehearses “a Slack alert only when a metric drops” on the sandbox: every day at 08:00, yesterday's sessions against the day before's. When they did not drop, the run stops with “nothing to report” and writes nothing; when they did, the alert is written as the account's note (where a team would post to Slack: swap the note for slack.post_message in the editor).",
    schedule: "0 8 * * *",
    timezone: "UTC",
    connections: [
      { key: "sandbox", label: "Sandbox connection", types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"] },
    ],
    fields: [],
    nodes: [
      {
        id: "report",
        label: "Sessions, yesterday and the day before",
        operation_id: "sandbox.report",
        connection_id: "sandbox",
        input: { metric: "sessions", days: 2, end_date: "{{run.date.yesterday}}" },
      },
      {
        id: "no_drop",
        label: "Stop when sessions did not drop",
        operation_id: "flow.stop",
        when: {
          left: "{{nodes.report.output.rows.1.value}}",
          op: "gte",
          right: "{{nodes.report.output.rows.0.value}}",
        },
        input: { reason: "Sessions did not drop: nothing to report." },
      },
      {
        id: "alert",
        label: "Write the alert as the account's note",
        operation_id: "sandbox.set_note",
        connection_id: "sandbox",
        input: {
          note: "Sessions dropped on {{nodes.report.output.rows.1.date}}: {{nodes.report.output.rows.1.value}}, down from {{nodes.report.output.rows.0.value}} the day before.",
        },
      },
    ],
  },
  {
    id: "sandbox_weekly_row_per_day",
    name: "A weekly row per client account (sandbox)",
    description:
      "Rehearses “a weekly sheet row per client account” on the sandbox, which has one account and no sheet: every Monday at 07:00, one write for each row of last week's sessions report (a day each, 7 writes), each the account's note (so the note ends on the last day's row). A row that fails is logged and the others are still written. In the editor, loop over your client accounts' report rows and swap the note for google_sheets.values.append.",
    schedule: "0 7 * * 1",
    timezone: "UTC",
    connections: [
      { key: "sandbox", label: "Sandbox connection", types: ["sandbox_oauth", "sandbox_whitelabel", "sandbox_key"] },
    ],
    fields: [],
    nodes: [
      {
        id: "week",
        label: "Sessions per day, last 7 days",
        operation_id: "sandbox.report",
        connection_id: "sandbox",
        input: { metric: "sessions", days: 7, end_date: "{{run.date.yesterday}}" },
      },
      {
        id: "row",
        label: "Write each day's row as the note",
        operation_id: "sandbox.set_note",
        connection_id: "sandbox",
        for_each: "{{nodes.week.output.rows}}",
        continue_on_error: true,
        input: { note: "Week to {{run.date.yesterday}} · {{item.date}} · {{item.value}} sessions" },
      },
    ],
  },
  {
    id: "reauth_link_to_slack",
    name: "Re-authorization link to Slack",
    description:
      "When one of your clients' connections needs re-authorization (the provider refused its access), makes a new auth link for that platform and that client (the connection's external_id) and posts it to a Slack channel, so someone can send it to the client at once.",
    schedule: null,
    timezone: null,
    events: ["connection.needs_reauth"],
    connections: [{ key: "slack", label: "Slack connection", types: ["slack"] }],
    fields: [
      {
        key: "channel",
        label: "Slack channel",
        placeholder: "client-success",
        hint: "A channel the Patchbay app's bot is a member of.",
      },
    ],
    nodes: [
      {
        id: "link",
        label: "A new auth link for the same platform and client",
        operation_id: "patchbay.create_auth_link",
        input: {
          connection_type: "{{trigger.event.data.connection.type}}",
          external_id: "{{trigger.event.data.connection.external_id}}",
        },
      },
      {
        id: "post",
        label: "Post it to Slack",
        operation_id: "slack.post_message",
        connection_id: "slack",
        input: {
          channel: "<<channel>>",
          text: "{{trigger.event.data.connection.display_name}} ({{trigger.event.data.connection.type}}, client {{trigger.event.data.connection.external_id}}) needs re-authorization: {{trigger.event.data.reason}}. Send them this link (valid 24 h): {{nodes.link.output.url}}",
        },
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
  const numeric = new Set(template.fields.filter((f) => f.numeric).map((f) => f.key));
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      // A threshold compared with gt/lt stays a number (the editor's condition shows 25000, not "25000").
      const whole = /^<<([a-z_]+)>>$/.exec(value)?.[1];
      const given = whole !== undefined ? fields[whole]?.trim() : undefined;
      if (whole && numeric.has(whole) && given && Number.isFinite(Number(given))) return Number(given);
      return value.replace(/<<([a-z_]+)>>/g, (_, key: string) => fields[key] ?? "");
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return template.nodes.map((n) => ({
    ...n,
    ...(n.connection_id && { connection_id: connections[n.connection_id] ?? "" }),
    input: fill(n.input) as Record<string, unknown>,
    ...(n.when !== undefined && { when: fill(n.when) as Condition }),
  }));
}
