import type { Metadata } from "next";
import { findOperation, OPERATIONS } from "@/lib/operations/registry";
import { operationJson } from "@/lib/operations/operation-json";
import { findConnectionType } from "@/lib/platforms/registry";
import { TEAM_HEADER } from "@/lib/auth/authenticate-session";
import {
  CONDITION_MAX_DEPTH,
  CONDITION_OPS,
  NODE_ID,
  nodeControls,
  type Condition,
  type WorkflowNode,
} from "@/lib/schemas/workflows";
import { workflowMaxIterations, workflowMaxNodes } from "@/lib/config/limits";
import { MAX_RETRIES, POLL_MS } from "@/lib/workflows/config";
import {
  resolveInput,
  resolveList,
  RUN_VARIABLES,
  TemplateError,
  templateProblems,
  type RunContext,
} from "@/lib/workflows/templates";
import { evaluateCondition } from "@/lib/workflows/conditions";
import { FLOW_STOP } from "@/lib/platforms/kit/flow-stop";
import { WORKFLOW_TEMPLATES } from "@/lib/workflows/workflow-templates";
import { C, H3, link, Pre, Section, Table } from "@/components/docs/doc-parts";
import Link from "next/link";
import { DocsBar } from "@/components/docs/docs-bar";
import { CopyButton } from "@/components/ui/copy-button";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-event-types";
import { MAX_CHAIN } from "@/lib/workflows/trigger-chain";
import { signatureHeader } from "@/lib/webhooks/signature";
import { operations } from "@/lib/openapi/operations";
import { codeSamples } from "@/lib/openapi/code-samples";
import { EXAMPLE_EVENTS, EXAMPLE_SECRET } from "@/app/docs/webhooks/examples";

export const metadata: Metadata = { title: "Workflows guide · Docs · Patchbay" };

// The catalogues on this page (run variables, utilities, templates, writes safe to repeat) are
// read from lib/workflows and lib/operations, and the worked example is filled in by the same
// template code a run uses, so the page cannot drift from what the runner does.

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const nodeIdPattern = NODE_ID.source.replace(/^\^|\$$/g, "");
const opLink = (id: string) => (
  <a key={id} className={`${link} font-mono text-[0.9em]`} href={`/docs/operations#op-${id}`}>
    {id}
  </a>
);
const typeName = (type: string) => findConnectionType(type)?.name ?? type;

const CONTENTS: [string, string][] = [
  ["nodes", "Nodes"],
  ["references", "References in node inputs"],
  ["conditions", "Conditions"],
  ["loops", "Loops"],
  ["stop", "Stopping a run"],
  ["errors", "When a node fails"],
  ["credit-holds", "Credits a run holds"],
  ["approval-step", "The approval step"],
  ["schedules", "Schedules"],
  ["triggers", "Triggers: webhook, API, events"],
  ["replay", "Replaying a failed run"],
  ["versions", "Versions"],
  ["runs", "Runs, logs and credits"],
  ["reliability", "Reliability across instances"],
  ["writes", "Writes and owners"],
  ["connections", "When a connection changes"],
  ["templates", "Ready-made templates"],
  ["cli", "Command line"],
  ["dashboard-api", "Dashboard API"],
  ["configuration", "Configuration"],
];

// ---- The worked example: sandbox report → format_text → set_note, filled in by lib/workflows/templates ----

const EXAMPLE_NODES: WorkflowNode[] = [
  {
    id: "report",
    label: "Sessions, last 3 days",
    operation_id: "sandbox.report",
    connection_id: "conn_sandbox",
    input: { metric: "sessions", days: 3, end_date: "{{run.date.yesterday}}" },
  },
  {
    id: "message",
    label: "Write the note",
    operation_id: "utility.format_text",
    input: {
      template:
        "{{nodes.report.output.total}} sessions from {{nodes.report.output.rows.0.date}} to {{run.date.yesterday}}",
    },
  },
  {
    id: "note",
    label: "Save it as the sandbox note",
    operation_id: "sandbox.set_note",
    connection_id: "conn_sandbox",
    input: { note: "{{nodes.message.output.text}}" },
  },
];
const EXAMPLE_ZONE = "Europe/Paris";
const EXAMPLE_STARTED_AT = new Date("2026-03-10T08:00:02Z");
const EXAMPLE_ROWS = [
  { date: "2026-03-07", value: 912 },
  { date: "2026-03-08", value: 1064 },
  { date: "2026-03-09", value: 839 },
];
/** What the sandbox answers for the report node (its numbers are made up, like the sandbox's own). */
const EXAMPLE_REPORT_OUTPUT = {
  metric: "sessions",
  unit: "count",
  total: EXAMPLE_ROWS.reduce((s, r) => s + r.value, 0),
  rows: EXAMPLE_ROWS,
  note: null,
};

const exampleContext = (outputs: Record<string, unknown>): RunContext => ({
  startedAt: EXAMPLE_STARTED_AT,
  timezone: EXAMPLE_ZONE,
  outputs,
});

async function workedExample() {
  const outputs: Record<string, unknown> = {};
  const reportInput = resolveInput(EXAMPLE_NODES[0].input, exampleContext(outputs));
  outputs.report = EXAMPLE_REPORT_OUTPUT;
  const messageInput = resolveInput(EXAMPLE_NODES[1].input, exampleContext(outputs)) as Record<string, unknown>;
  // The utility itself turns the filled-in template into its output.
  outputs.message = await findOperation("utility.format_text")!.run(null as never, messageInput);
  const noteInput = resolveInput(EXAMPLE_NODES[2].input, exampleContext(outputs)) as { note: string };
  const steps = [
    { node: EXAMPLE_NODES[0], input: reportInput, output: EXAMPLE_REPORT_OUTPUT },
    { node: EXAMPLE_NODES[1], input: messageInput, output: outputs.message },
    { node: EXAMPLE_NODES[2], input: noteInput, output: { note: noteInput.note, previous_note: null } },
  ];
  // How a value is written in: whole-string references keep their type, text gets text.
  const ctx = exampleContext(outputs);
  const typing = [
    "{{nodes.report.output.rows}}",
    "Rows: {{nodes.report.output.rows}}",
    "{{nodes.report.output.total}}",
    "Total: {{nodes.report.output.total}}",
    "{{nodes.report.output.rows.0.date}}",
    "{{run.started_at}}",
  ].map((text) => ({ text, value: resolveInput(text, ctx) }));
  let missing = "";
  try {
    resolveInput({ note: "{{nodes.report.output.totl}}" }, ctx);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    missing = e.message;
  }
  const refused = templateProblems([
    { id: "report", input: { end_date: "{{run.date.tomorrow}}" } },
    { id: "message", input: { template: "{{nodes.note.output.text}}" } },
    { id: "note", input: {} },
  ]);
  return { steps, typing, missing, refused };
}

const kindOf = (value: unknown) =>
  Array.isArray(value) ? "list" : value === null ? "null" : typeof value === "object" ? "object" : typeof value;

// ---- Deciding, looping, stopping, recovering, holding credits, asking (CONTRACT §13) ----
// Each example's conditions, lists and inputs are evaluated by the runner's own functions
// (lib/workflows/conditions.ts, templates.ts) on the worked example's report; the logs are
// written out as a run writes them.

const oneLine = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");

/**
 * A log as the Logs page and GET /v1/logs show it, with the fields these examples are about (an
 * output they are not about, such as the report's, which is the worked example's above, is left out).
 */
function shownLog(
  node: WorkflowNode,
  status: "start" | "success" | "error" | "skipped" | "stop",
  at: {
    input?: unknown;
    output?: unknown;
    credits?: number;
    iteration?: [number, number];
    approval?: { id: string; by?: string };
  } = {},
) {
  // Spaced like prose, so a narrow screen wraps it between fields.
  return oneLine({
    status,
    ...(at.input !== undefined && { input: at.input }),
    ...(at.output !== undefined && { output: at.output }),
    credits_used: status === "success" ? (at.credits ?? findOperation(node.operation_id)?.credits ?? 0) : 0,
    metadata: {
      node_id: node.id,
      node_label: node.label,
      retry_attempts: 0,
      ...(node.connection_id && { connection_id: node.connection_id }),
      ...(at.iteration && { iteration: at.iteration[0], iterations: at.iteration[1] }),
      ...(at.approval && { approval_id: at.approval.id }),
      ...(at.approval?.by && { approved_by: at.approval.by }),
    },
  });
}

const REPORT_NODE = EXAMPLE_NODES[0];
const creditsOf = (id: string) => findOperation(id)?.credits ?? 0;
const reportLog = () => shownLog(REPORT_NODE, "success");
const withReport = (extra: Partial<RunContext> = {}): RunContext => ({
  ...exampleContext({ report: EXAMPLE_REPORT_OUTPUT }),
  ...extra,
});

/** Leaves of conditions on the report above, each with what it comes to. */
const CONDITION_CASES: [Condition, string][] = [
  [{ left: "{{nodes.report.output.total}}", op: "gte", right: 2815 }, "numbers compare as numbers"],
  [
    { left: "{{nodes.report.output.total}}", op: "gt", right: " 2000 " },
    "a string that is a number (spaces allowed) counts as its number",
  ],
  [
    { left: "{{nodes.report.output.total}}", op: "eq", right: "2815" },
    'eq and ne compare types too: 2815 is not "2815"',
  ],
  [
    { left: "{{nodes.report.output.metric}}", op: "gt", right: 5 },
    "a value that is not a number makes gt, gte, lt, lte false",
  ],
  [{ left: "{{nodes.report.output.metric}}", op: "contains", right: "sess" }, "a string containing a string"],
  [
    { left: "{{nodes.report.output.rows}}", op: "contains", right: { value: 1064, date: "2026-03-08" } },
    "a list with a member equal to it (key order ignored)",
  ],
  [{ left: "{{nodes.report.output.note}}", op: "not_exists" }, "null counts as not existing"],
  [{ left: "{{nodes.report.output.channel}}", op: "exists" }, "a field the output lacks is missing, never an error"],
  [
    {
      any: [
        { left: "{{nodes.report.output.total}}", op: "lt", right: 1000 },
        { not: { left: "{{nodes.report.output.unit}}", op: "eq", right: "USD" } },
      ],
    },
    "any, all and not combine conditions",
  ],
];

const CONDITION_NODE: WorkflowNode = {
  id: "note",
  label: "Note a quiet stretch",
  operation_id: "sandbox.set_note",
  connection_id: "conn_sandbox",
  when: {
    all: [
      { left: "{{nodes.report.output.total}}", op: "lt", right: 2500 },
      { left: "{{nodes.report.output.note}}", op: "not_exists" },
    ],
  },
  input: { note: "Only {{nodes.report.output.total}} sessions in 3 days" },
};

const LOOP_NODE: WorkflowNode = {
  id: "busy",
  label: "Note each busy day",
  operation_id: "sandbox.set_note",
  connection_id: "conn_sandbox",
  for_each: "{{nodes.report.output.rows}}",
  when: { left: "{{item.value}}", op: "gt", right: 1000 },
  input: { note: "Busy day {{item_index}}: {{item.date}} had {{item.value}} sessions" },
};

const STOP_NODE: WorkflowNode = {
  id: "quiet",
  label: "Stop when the days were quiet",
  operation_id: FLOW_STOP,
  when: { left: "{{nodes.report.output.total}}", op: "lt", right: 5000 },
  input: { reason: "Fewer than 5000 sessions: nothing worth a note." },
};

const ERRORS_NODE: WorkflowNode = {
  id: "lines",
  label: "Note each client's line",
  operation_id: "sandbox.set_note",
  connection_id: "conn_sandbox",
  for_each: "{{trigger.input.clients}}",
  continue_on_error: true,
  input: { note: "{{item.name}}: {{item.line}}" },
};
const ERRORS_INPUT = {
  clients: [{ name: "Acme", line: "Renewal in May" }, { name: "Beta" }, { name: "Cyan", line: "New brief on Monday" }],
};

const APPROVAL_NODE: WorkflowNode = { ...LOOP_NODE, approval: "required" };

/** One node of a loop, item by item: its `when` and input as the runner fills them in. */
function iterate(node: WorkflowNode, ctx: RunContext) {
  const list = resolveList(node.for_each!, ctx) as unknown[];
  return list.map((value, index) => {
    const itemCtx = { ...ctx, item: { value, index } };
    if (node.when !== undefined && !evaluateCondition(node.when, itemCtx)) return { index, runs: false as const };
    try {
      return { index, runs: true as const, input: resolveInput(node.input, itemCtx) as { note: string } };
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      return { index, runs: true as const, error: e.message };
    }
  });
}

function decisionExamples() {
  const ctx = withReport();
  const conditions = CONDITION_CASES.map(([condition, why]) => ({
    condition,
    why,
    holds: evaluateCondition(condition, ctx),
  }));
  const conditionHolds = evaluateCondition(CONDITION_NODE.when!, ctx);
  const conditionLogs = [
    reportLog(),
    conditionHolds
      ? shownLog(CONDITION_NODE, "success", { input: resolveInput(CONDITION_NODE.input, ctx) })
      : shownLog(CONDITION_NODE, "skipped", { output: { reason: "condition" } }),
  ];

  const loopItems = iterate(LOOP_NODE, ctx);
  let previous: string | null = null;
  const loopOutputs: unknown[] = [];
  const loopLogs = [reportLog()];
  for (const it of loopItems) {
    const iteration: [number, number] = [it.index, loopItems.length];
    if (!it.runs) {
      loopOutputs.push(null);
      loopLogs.push(shownLog(LOOP_NODE, "skipped", { output: { reason: "condition" }, iteration }));
      continue;
    }
    const output = { note: it.input!.note, previous_note: previous };
    previous = it.input!.note;
    loopOutputs.push(output);
    loopLogs.push(shownLog(LOOP_NODE, "success", { input: it.input, output, iteration }));
  }
  const loopCredits =
    1 + creditsOf("sandbox.report") + loopItems.filter((i) => i.runs).length * creditsOf("sandbox.set_note");

  const stops = evaluateCondition(STOP_NODE.when!, ctx);
  const stopLogs = [
    reportLog(),
    stops
      ? shownLog(STOP_NODE, "stop", { input: STOP_NODE.input, output: { reason: STOP_NODE.input.reason } })
      : shownLog(STOP_NODE, "skipped", { output: { reason: "condition" } }),
    ...EXAMPLE_NODES.slice(1).map((n) => shownLog(n, stops ? "skipped" : "success", { output: null })),
  ];
  const stopCredits = 1 + creditsOf("sandbox.report");

  const errorsCtx = withReport({ trigger: { input: ERRORS_INPUT } });
  const errorItems = iterate(ERRORS_NODE, errorsCtx);
  let before: string | null = null;
  const errorOutputs: unknown[] = [];
  const errorLogs = errorItems.map((it) => {
    const iteration: [number, number] = [it.index, errorItems.length];
    if (it.error) {
      const error = `The input could not be filled in: ${it.error}.`;
      errorOutputs.push({ error });
      return shownLog(ERRORS_NODE, "error", { input: ERRORS_NODE.input, output: { error }, iteration });
    }
    const output = { note: it.input!.note, previous_note: before };
    before = it.input!.note;
    errorOutputs.push(output);
    return shownLog(ERRORS_NODE, "success", { input: it.input, output, iteration });
  });

  // Holds: one run of report → note on a team with 3 credits left, nothing else running.
  const remaining = 3;
  let held = 1;
  const holdSteps = EXAMPLE_NODES.map((node) => {
    const price = creditsOf(node.operation_id);
    if (price === 0) return { node, price, left: null, runs: true, holds: held };
    const left = remaining - held;
    const runs = left > 0;
    if (runs) held += price;
    return { node, price, left, runs, holds: held };
  });
  const holdLogs = holdSteps.map(({ node, runs }) =>
    runs
      ? shownLog(node, "success")
      : shownLog(node, "error", {
          output: {
            error: `Out of credits: this team has ${remaining} credits left this period, and running workflow runs and agent turns hold ${held} of them (this run's spending so far included), so this operation was not run. …`,
          },
        }),
  );

  const busy = loopItems.filter((i) => i.runs);
  const approvalLogs = {
    waiting: shownLog(APPROVAL_NODE, "start", {
      input: busy[0]?.input,
      iteration: [busy[0]?.index ?? 0, loopItems.length],
      approval: { id: "apr_…" },
    }),
    approved: shownLog(APPROVAL_NODE, "success", {
      input: busy[0]?.input,
      output: { note: busy[0]?.input?.note, previous_note: null },
      iteration: [busy[0]?.index ?? 0, loopItems.length],
      approval: { id: "apr_…", by: "user_…" },
    }),
    rejected: shownLog(APPROVAL_NODE, "stop", {
      input: busy[0]?.input,
      output: { reason: "rejected" },
      iteration: [busy[0]?.index ?? 0, loopItems.length],
      approval: { id: "apr_…" },
    }),
  };

  let notAList = "";
  try {
    notAList = JSON.stringify(resolveList("{{nodes.report.output.total}}", ctx));
  } catch (e) {
    notAList = String(e);
  }
  return {
    conditions,
    conditionLogs,
    loopLogs,
    loopOutputs,
    loopCredits,
    stopLogs,
    stopCredits,
    stops,
    errorLogs,
    errorOutputs,
    holdSteps,
    holdLogs,
    held,
    approvalLogs,
    notAList,
  };
}

// ---- Triggers, replay and versions (CONTRACT §13) ----
// The limits below are the server's (lib/workflows/webhook-trigger.ts, queue-run.ts, the rate
// limit's default in lib/rate-limit/limits.ts), written out: those modules open the database.

const WEBHOOK_MAX_BYTES = 262_144;
const WEBHOOK_PER_MINUTE_DEFAULT = 60;
const EXAMPLE_BASE = "https://patchbay.example.com";
const EXAMPLE_HOOK = `${EXAMPLE_BASE}/hooks/workflows/pbwh_Qm8Rk2…`;

/** What a webhook or an API call hands the nodes, and how a node reads it (filled in by the runner's own code). */
const TRIGGER_EXAMPLE_BODY = { order: { id: "ord_1042", total: 129.5, email: "ada@example.com" } };
const TRIGGER_NODE: WorkflowNode = {
  id: "thanks",
  label: "Thank the customer",
  operation_id: "utility.format_text",
  input: {
    template: "Order {{trigger.body.order.id}} ({{trigger.body.order.total}} €) from {{trigger.body.order.email}}",
  },
};

const WEBHOOK_CURL = `curl -X POST '${EXAMPLE_HOOK}' \\
  -H 'content-type: application/json' \\
  -H 'Idempotency-Key: order-ord_1042' \\
  -d '${JSON.stringify(TRIGGER_EXAMPLE_BODY)}'
# 202 {"run_id": "run_…"}`;

/** A Standard Webhooks sender's request (Svix, a Patchbay webhook endpoint, any library), signed with its secret. */
function standardWebhooksRequest() {
  const id = "msg_2vXzQ7pLk4Rt9BnW1cYs";
  const timestamp = 1795529112;
  const body = JSON.stringify(TRIGGER_EXAMPLE_BODY);
  return `POST /hooks/workflows/pbwh_Qm8Rk2… HTTP/1.1
content-type: application/json
webhook-id: ${id}
webhook-timestamp: ${timestamp}
webhook-signature: ${signatureHeader([EXAMPLE_SECRET], id, timestamp, body)}

${body}`;
}

const WEBHOOK_CHECKS: [string, string][] = [
  ["404", "The token is unknown, or was rotated: the old URL stops at once."],
  ["409", "The workflow is inactive: its URL starts nothing until it is switched on."],
  ["413", `The body is larger than ${WEBHOOK_MAX_BYTES.toLocaleString("en")} bytes (256 KiB).`],
  ["400", "The body is not a JSON object (a list, a string, bad JSON). An empty body is {}."],
  [
    "429",
    `More than WORKFLOW_WEBHOOK_PER_MINUTE (default ${WEBHOOK_PER_MINUTE_DEFAULT}) runs of this workflow in a minute, whoever sends them: wait Retry-After seconds.`,
  ],
];

const RUNS_OPERATION = operations.find((op) => op.method === "post" && op.path === "/v1/workflows/{workflow_id}/runs")!;
const API_CURL = `curl -X POST ${EXAMPLE_BASE}/v1/workflows/wf_…/runs \\
  -H "Authorization: Bearer $PATCHBAY_API_KEY" \\
  -H 'content-type: application/json' \\
  -H 'Idempotency-Key: order-ord_1042' \\
  -d '{"input": {"order_id": "ord_1042", "amount": 129.5}}'
# 201 {"run_id": "run_…", "status": "queued"}

curl ${EXAMPLE_BASE}/v1/workflows/wf_…/runs/run_… \\
  -H "Authorization: Bearer $PATCHBAY_API_KEY"
# {"run_id": "run_…", "workflow_id": "wf_…", "version": 3, "status": "success", "trigger": {"type": "api"},
#  "started_at": 1795529113, "completed_at": 1795529114, "credits": 1, "replay_of": null}`;

const EVENT_EXAMPLE = EXAMPLE_EVENTS["workflow.run_failed"];
const EVENT_NODE: WorkflowNode = {
  id: "alert",
  label: "Say which run failed",
  operation_id: "utility.format_text",
  input: {
    template:
      "{{trigger.event.type}}: {{trigger.event.data.workflow.name}} stopped at {{trigger.event.data.failed_node_id}} ({{trigger.event.data.error}})",
  },
};

const CLI_TRIGGERS = `npm run --silent cli -- workflow create --team team_… --user user_… --name "Order hook" \\
  --trigger webhook --nodes '[…]'
# {"id": "wf_…", "name": "Order hook", "active": true, "next_run_at": null, "version": 1,
#  "trigger": {"type": "webhook"}, "webhook_url": "${EXAMPLE_HOOK}"}
npm run --silent cli -- workflow create --team team_… --user user_… --name "Failure alert" \\
  --trigger event --events workflow.run_failed,connection.needs_reauth --nodes '[…]'
# {"id": "wf_…", …, "trigger": {"type": "event", "events": ["workflow.run_failed", "connection.needs_reauth"]}}`;

const CLI_REPLAY = `npm run --silent cli -- workflow replay --run run_…
# {"run_id": "run_…", "replay_of": "run_…"}
npm run --silent cli -- workflow replay --run run_… --from message --wait
# {"run_id": "run_…", "status": "success", "logs": 2, "credits": ${1 + creditsOf("utility.format_text") + creditsOf("sandbox.set_note")}, "replay_of": "run_…"}`;

const CLI_VERSIONS = `npm run --silent cli -- workflow versions --id wf_…
# {"versions": [{"version": 3, "created_at": 1795529112, "created_by": "user_…", "nodes": 3},
#               {"version": 2, "created_at": 1795442712, "created_by": null, "nodes": 3},
#               {"version": 1, "created_at": 1795356312, "created_by": "user_…", "nodes": 2}]}`;

function triggerExamples() {
  const at = { startedAt: EXAMPLE_STARTED_AT, timezone: null, outputs: {} };
  const webhook = resolveInput(TRIGGER_NODE.input, { ...at, trigger: { body: TRIGGER_EXAMPLE_BODY } });
  const event = resolveInput(EVENT_NODE.input, { ...at, trigger: { event: EVENT_EXAMPLE } });
  const client = codeSamples(RUNS_OPERATION, EXAMPLE_BASE)[0].source;
  return { webhook, event, client, standard: standardWebhooksRequest() };
}

// ---- Command line ----

const CLI_CREATE = `npm run --silent cli -- workflow create --team team_… --user user_… \\
  --name "Sessions note" --schedule "0 9 * * *" --timezone ${EXAMPLE_ZONE} \\
  --nodes '${JSON.stringify(EXAMPLE_NODES.map((n) => ({ ...n, ...(n.connection_id && { connection_id: "conn_…" }) })))}'
# {"id": "wf_…", "name": "Sessions note", "active": true, "next_run_at": 1773216000}`;

/** 1 for the run plus each node's credits (no cache hits): what the example's run is charged. */
const EXAMPLE_CREDITS = 1 + EXAMPLE_NODES.reduce((sum, n) => sum + (findOperation(n.operation_id)?.credits ?? 0), 0);

const CLI_RUN = `npm run --silent cli -- workflow run --id wf_…
# {"run_id": "run_…"}
npm run --silent cli -- workflow run --id wf_… --wait
# {"run_id": "run_…", "status": "success", "logs": ${EXAMPLE_NODES.length}, "credits": ${EXAMPLE_CREDITS}}`;

const CLI_LIST = `npm run --silent cli -- workflow list --team team_…
# {"workflows": [{"id": "wf_…", "name": "Sessions note", "active": true, "schedule": "0 9 * * *", "timezone": "${EXAMPLE_ZONE}", "next_run_at": 1773216000},
#                {"id": "wf_…", "name": "Ad hoc export", "active": true, "schedule": null, "timezone": null, "next_run_at": null}]}`;

const CLI_REBIND = `npm run --silent cli -- workflow rebind --id wf_… --from conn_old… --to conn_new…
# {"id": "wf_…", "nodes_rebound": 2}`;

const RUN_STATUS: [string, string][] = [
  ["queued", "Waiting for an instance: a due slot of its schedule, or Run now / workflow run."],
  ["running", "An instance claimed it and runs its nodes, in order."],
  [
    "waiting_approval",
    "A write with an approval step waits for a person's decision; the run holds no worker meanwhile and goes on once it is decided.",
  ],
  ["success", "Every node succeeded (or failed with continue_on_error, or was skipped by its condition)."],
  [
    "stopped",
    "A flow.stop node ran, or an approval step was rejected, expired or cancelled: the later nodes were skipped. Not a failure.",
  ],
  [
    "error",
    "A node failed after its retries (or ran out of credits); the nodes after it were logged skipped. error and failed_node_id say which and why.",
  ],
  [
    "refused",
    "The team had no credits left when the run started: nothing ran, no log was written, nothing was charged.",
  ],
];

const DASHBOARD_ROUTES: [string, string, string][] = [
  [
    "GET",
    "/api/dashboard/workflows",
    "The team's workflows, each with its nodes, schedule, next_run_at, last run, credits this billing period, whether a node writes, and its connection problems (deleted, needs re-authorization).",
  ],
  [
    "POST",
    "/api/dashboard/workflows",
    "Saves a new workflow: {name, nodes, schedule?, timezone?, trigger?, events?, active?} (active defaults to true; trigger manual, schedule, webhook or event). A webhook workflow's answer carries its webhook_url, once. Every problem is named in one 400.",
  ],
  [
    "GET",
    "/api/dashboard/workflows/{id}",
    "One workflow; each node with its operation, its connection and what is wrong with that connection.",
  ],
  [
    "PATCH",
    "/api/dashboard/workflows/{id}",
    "Changes any of name, nodes, schedule, timezone, active, checked like a new workflow. A new schedule or a reactivation counts from now; an unchanged schedule keeps its next slot.",
  ],
  [
    "DELETE",
    "/api/dashboard/workflows/{id}",
    "Deletes the workflow and its run history; its operation logs and ledger entries stay.",
  ],
  [
    "GET",
    "/api/dashboard/workflows/{id}/runs",
    "Its runs, newest first ({runs, next_cursor}; ?limit 1–100, default 25, and ?cursor): status, trigger, who started it, duration, credits, each node.",
  ],
  ["POST", "/api/dashboard/workflows/{id}/runs", "Run now: queues a run and answers {run_id}."],
  [
    "POST",
    "/api/dashboard/workflows/{id}/rebind",
    "{from, to}: points every node on connection from at connection to; answers {id, nodes_rebound}.",
  ],
  [
    "GET",
    "/api/dashboard/workflow-runs/{id}",
    "One run: each node's status, duration, retry_attempts, credits, cache_hit, error, and the input and output of its log.",
  ],
  [
    "POST",
    "/api/dashboard/workflows/{id}/webhook-token",
    "A webhook workflow's new URL: answers {webhook_url} once; the old URL is 404 from then on.",
  ],
  [
    "GET",
    "/api/dashboard/workflows/{id}/versions",
    "Its versions, newest first: each with who saved it and when, and its whole definition (nodes, trigger).",
  ],
  [
    "POST",
    "/api/dashboard/workflows/{id}/versions/{n}/restore",
    "Saves version n's nodes and trigger as the next version, under the rules of any save.",
  ],
  [
    "POST",
    "/api/dashboard/workflow-runs/{id}/replay",
    "{from?}: replays a run that ended error or stopped, from node from (default: the failed one); answers {run_id, replay_of}.",
  ],
  [
    "POST",
    "/api/dashboard/workflows/{id}/replays",
    "{from, to} (Unix ms): replays each failed or stopped run queued in [from, to), once; answers {replayed, skipped}, each skipped run with the reason.",
  ],
  [
    "GET",
    "/api/dashboard/workflow-schedule",
    "?schedule=…&timezone=…: the next five runs (Unix ms) as {next_runs}, or a 400 saying what is wrong. The editor's preview.",
  ],
];

export default async function WorkflowsDocsPage() {
  const utilities = OPERATIONS.filter((op) => op.types.length === 0).map(operationJson);
  const writes = OPERATIONS.filter((op) => op.kind === "write");
  const repeatable = writes.filter((op) => op.idempotent === true);
  const notRepeatable = writes.filter((op) => op.idempotent !== true);
  const example = await workedExample();
  const decisions = decisionExamples();
  const triggers = triggerExamples();
  const runVariables = Object.entries(RUN_VARIABLES);

  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6">
      <DocsBar current="/docs/workflows" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">Workflows</h1>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        Operations run in order, by hand or on a schedule ·{" "}
        <Link className={link} href="/docs/operations">
          Operations
        </Link>{" "}
        ·{" "}
        <Link className={link} href="/docs/webhooks">
          Webhooks
        </Link>{" "}
        ·{" "}
        <Link className={link} href="/docs/api">
          API reference
        </Link>
      </p>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        A workflow is a list of steps Patchbay runs for a team: read a report, turn it into a message, post it to Slack;
        every Monday at 09:00 or when someone clicks <strong>Run now</strong>. Each step is an operation of the
        catalogue, run on the server through the same path as an agent&apos;s calls, logged and charged the same way. A
        run survives the loss of the instance running it, and a write is never sent twice.
      </p>

      <nav aria-label="On this page" className="mt-6 text-sm">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">On this page</h2>
        <ol className="mt-2 grid list-inside list-decimal gap-x-6 gap-y-1 sm:grid-cols-2">
          {CONTENTS.map(([id, title]) => (
            <li key={id}>
              <a className={link} href={`#${id}`}>
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <Section id="nodes" title="Nodes">
        <p>
          A workflow is an ordered list of 1 to {workflowMaxNodes()} <strong>nodes</strong> (
          <code>WORKFLOW_MAX_NODES</code>). Each node is one operation of the{" "}
          <Link className={link} href="/docs/operations#reference">
            operations catalogue
          </Link>{" "}
          with the connection it runs on and its input:
        </p>
        <Table
          head={["Field", "What it is"]}
          rows={[
            [
              <C key="f">id</C>,
              <>
                Unique in the workflow, <C>{nodeIdPattern}</C>. Later nodes refer to its output by it.
              </>,
            ],
            [
              <C key="f">label</C>,
              "What the node does, in words (1–200 characters); shown in the run history and in its log's metadata.",
            ],
            [
              <C key="f">operation_id</C>,
              <>
                An operation of the catalogue, e.g. <C>sandbox.report</C> or <C>slack.post_message</C>.
              </>,
            ],
            [
              <C key="f">connection_id</C>,
              "A connection of the team of a type the operation runs on; left out for a utility. A private connection can only be used in its owner's workflows.",
            ],
            [
              <C key="f">input</C>,
              <>
                The operation&apos;s input (a JSON object), whose strings may hold{" "}
                <a className={link} href="#references">
                  references
                </a>{" "}
                to earlier nodes&apos; outputs and to the run.
              </>,
            ],
            [
              <C key="f">when</C>,
              <>
                Optional: a{" "}
                <a className={link} href="#conditions">
                  condition
                </a>
                ; the node runs only when it holds.
              </>,
            ],
            [
              <C key="f">for_each</C>,
              <>
                Optional: one reference to a list; the node{" "}
                <a className={link} href="#loops">
                  runs once per item
                </a>
                .
              </>,
            ],
            [
              <C key="f">continue_on_error</C>,
              <>
                Optional, <C>true</C>: when the node fails, the run{" "}
                <a className={link} href="#errors">
                  goes on
                </a>
                .
              </>,
            ],
            [
              <C key="f">approval</C>,
              <>
                Optional, <C>&quot;required&quot;</C> on a write: each write waits for{" "}
                <a className={link} href="#approval-step">
                  a person&apos;s yes
                </a>
                .
              </>,
            ],
          ]}
        />
        <p>
          Saving a workflow (dashboard, API or command line) checks everything a run could trip over that is known then,
          and names every problem in one answer: each node&apos;s operation (an unknown id gets the closest ones), its
          connection (this team&apos;s, one the person saving may use, of a type the operation runs on), its input
          against the operation&apos;s schema (a field holding a reference is checked when the node runs, once its value
          is known), the references, the cron expression and the time zone.
        </p>
        <H3 id="utilities">Utilities</H3>
        <p>
          Besides the operations on connected platforms, workflows have built-in utilities that shape data between
          nodes. They need no connection (leave <C>connection_id</C> out), reach no provider and cost 0 credits.
        </p>
        <Table
          head={["Utility", "What it does", "Input", "Example input"]}
          rows={utilities.map((op) => [
            <span key="id" id={`utility-${op.id}`}>
              <C>{op.id}</C>
              <span className="block text-xs text-zinc-500 dark:text-zinc-400">{op.title}</span>
            </span>,
            <span key="d" className="block min-w-64 text-sm">
              {op.description}
            </span>,
            <span key="f" className="block min-w-56 text-xs">
              {op.fields.map((f) => (
                <span key={f.name} className="block">
                  <C>{f.name}</C>
                  {f.required ? "" : "?"} <span className="text-zinc-500 dark:text-zinc-400">({f.type})</span>
                  {f.description ? ` ${f.description}` : ""}
                </span>
              ))}
            </span>,
            <code key="e" className="block min-w-56 break-all font-mono text-xs">
              {JSON.stringify(op.example)}
            </code>,
          ])}
        />
      </Section>

      <Section id="references" title="References in node inputs">
        <p>
          Any string in a node&apos;s input (and in its <C>when</C> and <C>for_each</C>) may hold references between{" "}
          <C>{"{{"}</C> and <C>{"}}"}</C>, filled in just before the node runs:
        </p>
        <Table
          head={["Reference", "Its value"]}
          rows={[
            [
              <C key="r">{"{{nodes.<id>.output.<path>}}"}</C>,
              <>
                A field of an <strong>earlier</strong> node&apos;s output (<C>{"{{nodes.<id>.output}}"}</C> is the whole
                output). The path&apos;s parts are separated by dots; a number indexes a list:{" "}
                <C>{"{{nodes.report.output.rows.0.date}}"}</C>.
              </>,
            ],
            ...runVariables.map(([name, meaning]) => [<C key="r">{`{{${name}}}`}</C>, meaning]),
            [
              <C key="r">{"{{trigger.body…}} {{trigger.input…}} {{trigger.event…}}"}</C>,
              "What started the run: a webhook's body, the API's input, an event's type and data; null when the run has none.",
            ],
            [
              <C key="r">{"{{item}} {{item.<path>}} {{item_index}}"}</C>,
              <>
                In a node with <C>for_each</C> only: the{" "}
                <a className={link} href="#loops">
                  loop&apos;s
                </a>{" "}
                current item, a field of it, its position from 0.
              </>,
            ],
          ]}
        />
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>A whole string that is one reference keeps the value&apos;s type</strong>: a list of rows stays a
            list, a number stays a number, so <C>{'"rows": "{{nodes.report.output.rows}}"'}</C> hands{" "}
            <C>utility.filter_rows</C> the rows themselves.
          </li>
          <li>
            <strong>Inside a text</strong>, the value is written in: a string as it is, anything else (numbers, lists,
            objects) as JSON.
          </li>
          <li>
            Dates are those of the moment the run starts, in the workflow&apos;s time zone (UTC for a workflow without a
            schedule, or with a schedule and no zone).
          </li>
          <li>
            <strong>Checked when the workflow is saved</strong>: anything else between <C>{"{{ }}"}</C>, a node that
            does not exist, the node itself or a later one, or an unclosed <C>{"{{"}</C> is refused, with where and why.
          </li>
          <li>
            <strong>Filled in when the node runs</strong>: a field the earlier output does not have fails the node, with
            the reason in its log and in the run; the nodes after it are skipped. A skipped node&apos;s output, and any
            path inside it, reads <C>null</C>.
          </li>
        </ul>
        <H3 id="example">A worked example</H3>
        <p>
          A sandbox report, turned into a sentence, saved as the sandbox account&apos;s note (<C>sandbox.set_note</C>).
          These are the nodes as saved:
        </p>
        <Pre label="The example workflow's nodes">{pretty(EXAMPLE_NODES)}</Pre>
        <p>
          A run that starts at <C>{EXAMPLE_STARTED_AT.toISOString()}</C> in <C>{EXAMPLE_ZONE}</C> fills in each
          node&apos;s input from the run and the outputs before it (computed below by the runner&apos;s own code):
        </p>
        {example.steps.map(({ node, input, output }) => (
          <div key={node.id}>
            <p className="mt-4">
              <C>{node.id}</C> · {node.label} · {opLink(node.operation_id)}
            </p>
            <Pre
              label={`${node.id}: input and output`}
              wrap
            >{`input  ${JSON.stringify(input)}\noutput ${JSON.stringify(output)}`}</Pre>
          </div>
        ))}
        <p>How a value is written in, with the outputs above:</p>
        <Table
          head={["String in the input", "Becomes", "Type"]}
          rows={example.typing.map(({ text, value }) => [
            <C key="t">{text}</C>,
            <code key="v" className="block break-all font-mono text-xs">
              {JSON.stringify(value)}
            </code>,
            kindOf(value),
          ])}
        />
        <p>
          A path the output lacks, e.g. <C>{"{{nodes.report.output.totl}}"}</C>, fails the node when it runs:
        </p>
        <Pre label="A missing field" wrap>
          {example.missing}
        </Pre>
        <p>
          And a workflow whose first node uses <C>{"{{run.date.tomorrow}}"}</C> and whose second refers to the third is
          refused when saved, with these reasons:
        </p>
        <Pre label="References refused when saving" wrap>
          {example.refused.join("\n")}
        </Pre>
      </Section>

      <Section id="conditions" title="Conditions">
        <p>
          Any node may carry <C>when</C>, a condition: the node runs only when it holds. Otherwise its log is{" "}
          <C>skipped</C> with <C>{'{"reason": "condition"}'}</C> as its output, it costs nothing, and the nodes after it
          still run (a later node reading its output reads <C>null</C>).
        </p>
        <Table
          head={["Condition", "Holds when"]}
          rows={[
            [
              <C key="c">{'{"left", "op", "right"}'}</C>,
              <>
                <C>left</C> compared with <C>right</C> by <C>op</C>, one of{" "}
                {CONDITION_OPS.map((op, i) => (
                  <span key={op}>
                    {i > 0 && ", "}
                    <C>{op}</C>
                  </span>
                ))}
                ; <C>exists</C> and <C>not_exists</C> take no <C>right</C>. Either side may be a value or a reference.
              </>,
            ],
            [<C key="c">{'{"all": [conditions]}'}</C>, "every one of them holds"],
            [<C key="c">{'{"any": [conditions]}'}</C>, "at least one of them holds"],
            [<C key="c">{'{"not": condition}'}</C>, "it does not hold"],
          ]}
        />
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <C>eq</C> and <C>ne</C> compare JSON values exactly, types included (<C>1</C> is not <C>&quot;1&quot;</C>),
            object keys in any order.
          </li>
          <li>
            <C>gt</C>, <C>gte</C>, <C>lt</C>, <C>lte</C> compare numbers; a string that is a number counts as that
            number; anything else makes the comparison false.
          </li>
          <li>
            <C>contains</C>: a string containing the string <C>right</C>, or a list with a member equal to it;{" "}
            <C>not_contains</C>: a string or a list that does not; both are false for anything else.
          </li>
          <li>
            <C>exists</C>: <C>left</C> is there and not null; <C>not_exists</C>: null or missing. A field an output
            lacks is never an error in a condition, as it would be in an input.
          </li>
          <li>
            At most {CONDITION_MAX_DEPTH} levels of <C>all</C>/<C>any</C>/<C>not</C> above a comparison. A malformed
            condition is refused when the workflow is saved, naming where.
          </li>
        </ul>
        <H3 id="conditions-example">Worked example</H3>
        <p>With the report of the worked example above, these conditions come to:</p>
        <Table
          head={["Condition", "Comes to", "Why"]}
          rows={decisions.conditions.map(({ condition, why, holds }) => [
            <code key="c" className="block min-w-48 whitespace-normal break-all font-mono text-xs">
              {oneLine(condition)}
            </code>,
            <C key="h">{String(holds)}</C>,
            <span key="w" className="block min-w-40">
              {why}
            </span>,
          ])}
        />
        <p>A node that notes a quiet stretch only when the total is under 2500 and no note is set yet:</p>
        <Pre label="A node with a condition">{pretty(CONDITION_NODE)}</Pre>
        <p>
          The total is {EXAMPLE_REPORT_OUTPUT.total}, so the run logs the following, one line per log (here and below,
          the report&apos;s output is left out: it is the one above):
        </p>
        <Pre label="What the run logs" wrap>
          {decisions.conditionLogs.join("\n")}
        </Pre>
      </Section>

      <Section id="loops" title="Loops">
        <p>
          A node with <C>for_each</C>, exactly one reference to a list (an earlier node&apos;s output, or the
          trigger&apos;s body, input or event), runs once per item, in order. In its <C>input</C> and <C>when</C>,{" "}
          <C>{"{{item}}"}</C> is the item, <C>{"{{item.<path>}}"}</C> a field of it and <C>{"{{item_index}}"}</C> its
          position from 0. A <C>when</C> filters items: an item it does not hold for is logged <C>skipped</C> with{" "}
          <C>{'{"reason": "condition"}'}</C>.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            One log per item, in item order; its <C>metadata</C> adds <C>iteration</C> (from 0) and <C>iterations</C>{" "}
            (the list&apos;s length). Each item that succeeds costs the operation&apos;s credits.
          </li>
          <li>
            Later nodes read the node&apos;s output as the list of its items&apos; outputs, <C>null</C> for a skipped
            item.
          </li>
          <li>
            An empty list writes one <C>skipped</C> log with <C>{'{"reason": "empty"}'}</C> and outputs <C>[]</C>.
          </li>
          <li>
            A list longer than {workflowMaxIterations()} items (<C>WORKFLOW_MAX_ITERATIONS</C>), or a reference that is
            not a list (<C>{"{{nodes.report.output.total}}"}</C> is the number {decisions.notAList}), fails the node
            before any item runs: one <C>error</C> log, without <C>iteration</C>, saying the length or the type.
          </li>
        </ul>
        <H3 id="loops-example">Worked example</H3>
        <p>A note for each day of the report with more than 1000 sessions:</p>
        <Pre label="A loop node">{pretty(LOOP_NODE)}</Pre>
        <p>The run logs the report, then one log per day:</p>
        <Pre label="What the run logs" wrap>
          {decisions.loopLogs.join("\n")}
        </Pre>
        <p>
          A later node reading <C>{"{{nodes.busy.output}}"}</C> gets <C>{JSON.stringify(decisions.loopOutputs)}</C>. The
          run costs {decisions.loopCredits} credits: 1, the report&apos;s {creditsOf("sandbox.report")} and{" "}
          {creditsOf("sandbox.set_note")} for the one day noted.
        </p>
      </Section>

      <Section id="stop" title="Stopping a run">
        <p>
          The built-in operation {opLink(FLOW_STOP)} (input <C>{'{"reason"}'}</C>, no connection, 0 credits) ends a run
          where it stands, usually with a <C>when</C>. When it runs, its log reads <C>stop</C> with{" "}
          <C>{'{"reason"}'}</C> as its output, every later node is logged <C>skipped</C> with a <C>null</C> output, and
          the run ends <C>stopped</C>: not a failure, so no <C>workflow.run_failed</C> webhook. It is charged 1 plus the
          nodes that succeeded. In a loop, a stop ends the whole run at that item.
        </p>
        <H3 id="stop-example">Worked example</H3>
        <p>
          Between the worked example&apos;s report and its message, a node that stops the run when the days were quiet:
        </p>
        <Pre label="A stop node">{pretty(STOP_NODE)}</Pre>
        <p>
          The total is {EXAMPLE_REPORT_OUTPUT.total}, so the run {decisions.stops ? "stops" : "goes on"}; it logs:
        </p>
        <Pre label="What the run logs" wrap>
          {decisions.stopLogs.join("\n")}
        </Pre>
        <p>
          The run&apos;s status is <C>stopped</C> and it costs {decisions.stopCredits} credits (1 and the report).
        </p>
      </Section>

      <Section id="errors" title="When a node fails">
        <p>
          A node that fails (after its{" "}
          <a className={link} href="#runs">
            retries
          </a>
          ) ends the run: the nodes after it are logged <C>skipped</C> and the run is <C>error</C>; in a loop, the
          remaining items write no log. With <C>&quot;continue_on_error&quot;: true</C>, a node that fails is logged{" "}
          <C>error</C> and the run goes on: later nodes read <C>{'{"error": "<the sentence>"}'}</C> as its output, and
          in a loop the other items go on too, the failed item&apos;s entry in the output list being that{" "}
          <C>{'{"error"}'}</C>. The run then ends <C>success</C>, unless a node without the flag failed. Running out of
          credits fails a node whatever the flag says (see{" "}
          <a className={link} href="#credit-holds">
            credits a run holds
          </a>
          ).
        </p>
        <H3 id="errors-example">Worked example</H3>
        <p>
          A workflow started through the API with <C>{JSON.stringify({ input: ERRORS_INPUT })}</C> notes each
          client&apos;s line; Beta has none:
        </p>
        <Pre label="A node that goes on after a failure">{pretty(ERRORS_NODE)}</Pre>
        <Pre label="What the run logs" wrap>
          {decisions.errorLogs.join("\n")}
        </Pre>
        <p>
          The run ends <C>success</C>, and a later node reading <C>{"{{nodes.lines.output}}"}</C> gets:
        </p>
        <Pre label="The loop's output" wrap>
          {JSON.stringify(decisions.errorOutputs)}
        </Pre>
      </Section>

      <Section id="credit-holds" title="Credits a run holds">
        <p>
          While a run is running or waiting for an approval it <strong>holds</strong> 1 credit plus the credits of its
          nodes that succeeded. Before each node or loop item that costs credits, the runner takes the team&apos;s{" "}
          <C>credits_remaining</C> less what every running run holds, this one included: if that is 0 or less, the node
          fails with <strong>out of credits</strong> (whatever <C>continue_on_error</C> says), the later nodes are
          skipped and the run ends <C>error</C>. So a team ends at most one operation&apos;s price below zero for each
          run going at once, never a whole run&apos;s. When the run ends, its ledger entry replaces its hold.
        </p>
        <H3 id="credit-holds-example">Worked example</H3>
        <p>
          The worked example&apos;s workflow, run by a team with 3 credits left and nothing else running. The run holds
          1 as it starts:
        </p>
        <Table
          head={["Before", "Price", "Left (remaining − holds)", "Then"]}
          rows={decisions.holdSteps.map(({ node, price, left, runs, holds }) => [
            <C key="n">{node.id}</C>,
            String(price),
            left === null ? "not counted (it costs nothing)" : String(left),
            !runs ? (
              <span key="t">
                fails with out of credits (<C>error</C>); a later node would be <C>skipped</C>
              </span>
            ) : price ? (
              `runs; the run now holds ${holds}`
            ) : (
              "runs"
            ),
          ])}
        />
        <p>It logs:</p>
        <Pre label="What the run logs" wrap>
          {decisions.holdLogs.join("\n")}
        </Pre>
        <p>
          The run ends <C>error</C> and is charged {decisions.held} credits (1 and the report), leaving the team at{" "}
          {3 - decisions.held}.
        </p>
      </Section>

      <Section id="approval-step" title="The approval step">
        <p>
          A write node may carry <C>&quot;approval&quot;: &quot;required&quot;</C> (a read with it is refused when
          saved). When the run reaches it, an{" "}
          <Link className={link} href="/docs/operations#approvals">
            approval request
          </Link>{" "}
          is filed with the write as it would be sent (its input filled in, with the run&apos;s <C>workflow_id</C> and{" "}
          <C>run_id</C>), and the run waits without holding a worker: status <C>waiting_approval</C>, the node&apos;s
          log <C>start</C>. The request is in the Approvals page, <C>approval list</C> and the{" "}
          <Link className={link} href="/docs/webhooks#approval.requested">
            <C>approval.requested</C>
          </Link>{" "}
          webhook, like an agent&apos;s.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Approved</strong>: the write runs; the node&apos;s log is completed with <C>approval_id</C> and{" "}
            <C>approved_by</C> in its metadata, and the rest of the run goes on, in any instance, within 15 seconds.
          </li>
          <li>
            <strong>Rejected, expired or cancelled</strong> (cancelled: the workflow was deactivated or deleted, or the
            connection deleted, while it waited): the node&apos;s log reads <C>stop</C> with{" "}
            <C>{'{"reason": "rejected"}'}</C> (or <C>expired</C>, <C>cancelled</C>), later nodes are skipped, the
            remaining items of a loop write no log, and the run ends <C>stopped</C>, charged 1 plus what succeeded.
          </li>
          <li>
            In a loop, each item is its own request, filed after the previous one is decided: the approver sees the item
            the write is for.
          </li>
          <li>
            A member may build, activate and run a workflow whose every write has an approval step: nothing is written
            without a person&apos;s yes. A write without one still needs an owner to activate the workflow (see{" "}
            <a className={link} href="#writes">
              writes and owners
            </a>
            ).
          </li>
        </ul>
        <H3 id="approval-step-example">Worked example</H3>
        <p>The loop above, each note waiting for a person:</p>
        <Pre label="A write node with an approval step">{pretty(APPROVAL_NODE)}</Pre>
        <p>The run reaches the first busy day, files its request and waits; the day&apos;s log reads:</p>
        <Pre label="While it waits" wrap>
          {decisions.approvalLogs.waiting}
        </Pre>
        <p>Approved, the same log becomes:</p>
        <Pre label="Once approved" wrap>
          {decisions.approvalLogs.approved}
        </Pre>
        <p>
          and the run goes on to the next day. Rejected instead, it becomes the following, and the run ends{" "}
          <C>stopped</C>:
        </p>
        <Pre label="Once rejected" wrap>
          {decisions.approvalLogs.rejected}
        </Pre>
      </Section>

      <Section id="schedules" title="Schedules">
        <p>
          A workflow runs by hand (<strong>Run now</strong>, <C>workflow run</C>), and on a schedule when it has one and
          is active. A schedule is a five-field cron expression — minute, hour, day of month, month, day of week, e.g.{" "}
          <C>0 9 * * 1</C> for Mondays at 09:00 — read in an IANA time zone such as <C>Europe/Paris</C> (UTC when none
          is given). The editor previews the next five runs with the scheduler&apos;s own code.
        </p>
        <p>Across daylight-saving changes a schedule does what cron does:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            a time the spring-forward skips runs once, at the same time after the jump (<C>02:30</C> → <C>03:30</C>);
          </li>
          <li>a time the fall-back repeats runs once,</li>
          <li>
            except that a schedule for every hour (hour field <C>*</C>) runs in both of the repeated hours, as an hourly
            job must.
          </li>
        </ul>
        <p>
          A due slot starts within 15 seconds: every instance looks for due slots every {POLL_MS / 1000} second
          {POLL_MS === 1000 ? "" : "s"}, and each slot runs exactly once across all instances (moving the workflow to
          its next slot is a conditional update only one instance wins, and a run is unique per workflow and slot). A
          slot an instance finds more than a minute after its time was missed (no instance was running then), and{" "}
          <C>WORKFLOW_MISSED_SLOTS</C> decides: <C>run_once</C> (the default) runs the oldest missed slot once, when an
          instance is back; <C>skip</C> runs none. Missed slots are never all made up, and either way the schedule goes
          on from its next slot after now. Taking a slot is bookkeeping, not an edit: the <em>changed</em> time of a
          workflow moves only when someone saves it.
        </p>
      </Section>

      <Section id="triggers" title="Triggers: webhook, API, events">
        <p>
          A workflow&apos;s <strong>trigger</strong> says what starts it: <C>manual</C> (by hand only), a{" "}
          <C>schedule</C> (above), a <C>webhook</C> or an <C>event</C>. Whatever its trigger, any workflow can also be
          run by hand and through the API. Each run records what started it (<C>trigger.type</C>: <C>manual</C>,{" "}
          <C>schedule</C>, <C>webhook</C>, <C>event</C>, <C>api</C> or <C>replay</C>), and its nodes read what the
          trigger brought: <C>{"{{trigger.body…}}"}</C> (a webhook&apos;s body), <C>{"{{trigger.input…}}"}</C> (an API
          call&apos;s input) and <C>{"{{trigger.event…}}"}</C> (an event). These references are accepted in any workflow
          and read <C>null</C> when the run has none, so one workflow can be run by hand and by its trigger.
        </p>

        <H3 id="webhook-trigger">Webhook</H3>
        <p>
          <C>workflow create … --trigger webhook</C> (or a dashboard save with <C>{'"trigger": "webhook"'}</C>) gives
          the workflow a URL under <C>APP_URL</C> that carries an unguessable token; it is shown <strong>once</strong>,
          when it is made. The token is the secret: anyone holding the URL can start the workflow, so keep it where you
          keep API keys. Rotating it in the dashboard (<C>POST …/webhook-token</C>, below) makes a new URL, and the old
          one answers 404 at once.
        </p>
        <p>
          A <C>POST</C> with a JSON object body (empty means <C>{"{}"}</C>) starts a run of the active workflow and
          answers <C>202 {'{"run_id"}'}</C> at once. The body is <C>{"{{trigger.body…}}"}</C> in every node. The run is
          the workflow creator&apos;s (its logs&apos; <C>user</C> too). The checks, in this order, each answering{" "}
          <C>{'{"detail"}'}</C>:
        </p>
        <Table
          head={["Status", "When"]}
          rows={WEBHOOK_CHECKS.map(([status, when]) => [<C key="s">{status}</C>, when])}
        />
        <p>
          An <C>Idempotency-Key</C> header, or a Standard Webhooks <C>webhook-id</C>, seen again for the same workflow
          within 24 hours answers <C>202</C> with the first run&apos;s id, starts nothing and does not count toward the
          rate limit: a sender&apos;s retries of one delivery run the workflow once.
        </p>
        <div>
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="font-medium text-zinc-900 dark:text-zinc-100">Start a run with curl</span>
            <CopyButton text={WEBHOOK_CURL} what="the webhook curl example" />
          </div>
          <Pre label="Start a run with curl">{WEBHOOK_CURL}</Pre>
        </div>
        <p>
          A node reading that body, <C className="break-all">{JSON.stringify(TRIGGER_NODE.input)}</C>, is filled in as{" "}
          <C className="break-all">{JSON.stringify(triggers.webhook)}</C>.
        </p>
        <p>
          A <strong>Standard Webhooks</strong> sender (Svix, another Patchbay&apos;s webhook endpoints, any library of{" "}
          <a className={link} href="https://www.standardwebhooks.com">
            standardwebhooks.com
          </a>
          ) can post to the URL as it is. It signs with its own secret, which Patchbay does not check: the URL&apos;s
          token is what authenticates. Its <C>webhook-id</C> stays the same at every retry of a delivery, so its retries
          start one run; <C>webhook-timestamp</C> and <C>webhook-signature</C> are accepted and ignored.
        </p>
        <Pre label="A Standard Webhooks delivery to a webhook trigger">{triggers.standard}</Pre>

        <H3 id="api-trigger">API</H3>
        <p>
          <C>POST /v1/workflows/{"{workflow_id}"}/runs</C> with an API key starts a run of an active workflow of the
          key&apos;s team as the key&apos;s user, under the same rules as <strong>Run now</strong>. The body is
          optional: <C>{'{"input": {…}}'}</C>, read as <C>{"{{trigger.input…}}"}</C>. It answers{" "}
          <C>{'201 {"run_id", "status": "queued"}'}</C>; an instance starts the run within seconds. With an{" "}
          <C>Idempotency-Key</C> header (at most 255 characters), the same key for the same workflow within 24 hours
          answers the same 201 and body and starts nothing, so a request retried after a lost answer runs the workflow
          once. Errors: 404 for another team&apos;s workflow, 409 for an inactive one (or a node&apos;s connection
          deleted or waiting for re-authorization), 403 when the consent rules refuse the run to the key&apos;s user (a
          teammate&apos;s private connection; writes no owner activated).
        </p>
        <p>
          <C>
            GET /v1/workflows/{"{workflow_id}"}/runs/{"{run_id}"}
          </C>{" "}
          reads any run of the workflow:{" "}
          <C>
            {
              '{"run_id", "workflow_id", "version", "status", "trigger", "started_at", "completed_at", "credits", "replay_of"}'
            }
          </C>
          , <C>completed_at</C> and <C>credits</C> null until it ends, times in Unix seconds. Both are in the{" "}
          <Link className={link} href="/docs/api">
            API reference
          </Link>{" "}
          under <em>Workflows (extension)</em>.
        </p>
        <Pre label="Start and read a run with curl">{API_CURL}</Pre>
        <p>
          With <C>@patchbay/client</C>, <C>workflows.run</C> takes the input and the key, and{" "}
          <C>workflows.waitForRun</C> polls the run (after 250 ms, then twice as long each time, at most 5 s apart)
          until it ends, or until it waits for an approval (<C>waiting_approval</C>, which can take hours, so it returns
          then too). Its <C>timeoutMs</C> (default 300 000) bounds the whole wait and its <C>signal</C> cancels it.
        </p>
        <Pre label="Start a run with @patchbay/client">{triggers.client}</Pre>

        <H3 id="event-trigger">Events</H3>
        <p>
          <C>--trigger event --events TYPE,…</C> runs the workflow once per matching event of its team: the event types
          are those of the{" "}
          <Link className={link} href="/docs/webhooks">
            webhook catalogue
          </Link>
          , below. An event counts when it happened after the workflow was saved active on that type; each one starts
          the workflow exactly once across instances, within 15 seconds. A node reads <C>{"{{trigger.event.type}}"}</C>{" "}
          and <C>{"{{trigger.event.data…}}"}</C>, the event&apos;s <C>data</C> as its webhook carries it (also{" "}
          <C>{"{{trigger.event.id}}"}</C> and <C>{"{{trigger.event.created_at}}"}</C>).
        </p>
        <Table
          head={["Event type", "When"]}
          rows={WEBHOOK_EVENT_TYPES.map((type) => [
            <Link key="t" className={`${link} font-mono text-[0.9em]`} href={`/docs/webhooks#${type}`}>
              {type}
            </Link>,
            WEBHOOK_EVENT_DESCRIPTIONS[type],
          ])}
        />
        <p>
          On the <C>workflow.run_failed</C> event of the webhooks guide, the node{" "}
          <C className="break-all">{JSON.stringify(EVENT_NODE.input)}</C> is filled in as{" "}
          <C className="break-all">{JSON.stringify(triggers.event)}</C>.
        </p>
        <p>
          <strong>Chains stop.</strong> A run started by an event carries its chain: the workflows whose runs led to it.
          An event that run causes (its own <C>workflow.run_failed</C>, an approval it files, a connection it finds
          broken) starts no workflow already in the chain, and none at all once the chain holds {MAX_CHAIN} runs. So a
          workflow that reacts to failures cannot set itself off, and two workflows cannot feed each other forever.
        </p>
        <Pre label="Create a webhook and an event workflow" wrap>
          {CLI_TRIGGERS}
        </Pre>
      </Section>

      <Section id="replay" title="Replaying a failed run">
        <p>
          A run that ended <C>error</C> or <C>stopped</C> can be <strong>replayed</strong>: from the dashboard on the
          failed run (<em>Retry from this step</em>, <C>POST …/workflow-runs/{"{id}"}/replay</C>), or with{" "}
          <C>workflow replay --run RUN_ID [--from NODE_ID] [--wait]</C>. A replay is a new run (trigger <C>replay</C>,{" "}
          <C>replay_of</C> the original) of the definition the original ran (its snapshot and version, not
          today&apos;s), with its trigger data and its user. It starts at the node that failed or stopped (or at{" "}
          <C>--from</C>): the nodes before it are not run or logged again, their outputs are taken from the original
          run; the rest runs and is logged as usual. It is charged 1 + what it ran.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>A write is never sent twice.</strong> A replay may start only after the last node whose write
            succeeded in the original run; a loop replays whole, so a loop with a succeeded write iteration cannot be
            replayed from it or before it. The refusal names the node and where a replay may start.
          </li>
          <li>
            <strong>Each run once.</strong> A run is replayed at most once; a second replay, concurrent or later, is
            refused (the CLI prints <C>{'{"error"}'}</C> and exits 1). Replay the replay if it fails too.
          </li>
          <li>
            A node whose stored output was cut to <C>LOG_BODY_MAX_BYTES</C> cannot be handed on: replay from it or an
            earlier node.
          </li>
          <li>
            <strong>Bulk replay</strong>: the dashboard&apos;s <C>POST …/workflows/{"{id}"}/replays</C> with a period (
            <C>{'{"from", "to"}'}</C>, Unix ms) replays every run of the workflow queued in it that ended <C>error</C>{" "}
            or <C>stopped</C>, each once from its failed node, and lists the runs it could not replay with the reason.
          </li>
        </ul>
        <p>
          <C>workflow replay</C> prints <C>{'{"run_id", "replay_of"}'}</C>; with <C>--wait</C> the object of{" "}
          <C>workflow run --wait</C> plus <C>replay_of</C>.
        </p>
        <Pre label="workflow replay">{CLI_REPLAY}</Pre>
      </Section>

      <Section id="versions" title="Versions">
        <p>
          Every save that changes what a workflow runs — its nodes, its trigger, its schedule or time zone, a{" "}
          <strong>Rebind</strong> included — makes the next <strong>version</strong> (from 1); a rename or switching it
          on or off does not. Each run records the version it executed (<C>version</C> in the run and its API), so a
          run&apos;s page shows what it ran even after later edits.
        </p>
        <p>
          The dashboard lists a workflow&apos;s versions, newest first, with who saved each and when, and shows a
          version&apos;s definition and its difference from the current one. <strong>Restore</strong> saves that version
          as a new version, under the same rules as any save: a member cannot restore write nodes into an active
          workflow without an owner (see{" "}
          <a className={link} href="#writes">
            Writes and owners
          </a>
          ), and every check of a save applies.
        </p>
        <Pre label="workflow versions" wrap>
          {CLI_VERSIONS}
        </Pre>
      </Section>

      <Section id="runs" title="Runs, logs and credits">
        <Table head={["Status", "Meaning"]} rows={RUN_STATUS.map(([s, meaning]) => [<C key="s">{s}</C>, meaning])} />
        <p>
          Nodes run one after another, in order. A node whose operation fails for a reason that may pass — the provider
          unreachable or timing out, a 429, a 5xx — is retried up to {MAX_RETRIES} times: the first retry after{" "}
          <C>WORKFLOW_RETRY_BASE_MS</C> (1 s by default), each next one three times longer, each lengthened by up to 20
          % of jitter. Any other failure (a refusal by the provider, a connection that needs re-authorization, bad
          input) is not retried. A node that still fails ends the run: the nodes after it are logged <C>skipped</C> and
          the run is <C>error</C>, unless the node{" "}
          <a className={link} href="#errors">
            goes on after an error
          </a>
          .
        </p>
        <H3 id="logs">Logs</H3>
        <p>
          Every node is one operation log, written in node order (each node&apos;s <C>started_at</C> no earlier than the
          one before), and a loop one per item; the Logs page filtered by <C>source_run_id</C> shows a run. A node still
          running (or waiting for an approval) reads <C>start</C>; then <C>success</C>, <C>error</C> (after its
          retries), <C>skipped</C> (after a failure or a stop, by its condition, or for an empty list) or
          <C>stop</C> (a <C>{FLOW_STOP}</C> that ran, an approval step that was not approved). The log holds the input
          as filled in and the output (or the error).
        </p>
        <Table
          head={["Field", "Value"]}
          rows={[
            [<C key="f">source</C>, <C key="v">{'{"type": "workflow", "id": <workflow id>, "run_id", "name"}'}</C>],
            [<C key="f">operation_id</C>, "The node's operation."],
            [
              <C key="f">metadata</C>,
              <>
                <C>{'{"node_id", "node_label", "retry_attempts"}'}</C>, plus <C>connection_id</C> when the node has one,{" "}
                <C>iteration</C> and <C>iterations</C> in a loop, <C>approval_id</C> and <C>approved_by</C> after an
                approval step; <C>retry_attempts</C> counts the retries (0 to {MAX_RETRIES}).
              </>,
            ],
            [
              <C key="f">credits_used</C>,
              "The node's credits when it succeeded; 0 for a cache hit, a utility, a failed or a skipped node.",
            ],
          ]}
        />
        <H3 id="credits">Credits</H3>
        <p>
          A run is <strong>one ledger entry</strong>, service <C>{'{"type": "workflow", "id", "name"}'}</C>, dated when
          the run started: 1 credit for the run plus the credits of the nodes that succeeded. A node answered from the
          response cache costs 0, as an MCP call does; utilities cost 0. The worked example&apos;s run costs 1
          {EXAMPLE_NODES.map((n) => (
            <span key={n.id}>
              {" "}
              + {findOperation(n.operation_id)?.credits ?? 0} ({opLink(n.operation_id)})
            </span>
          ))}{" "}
          = {EXAMPLE_CREDITS} credits (the report costs 0 when it is answered from the cache).
        </p>
        <p>
          A run that starts while the team&apos;s <C>credits_remaining</C> is 0 or less is <C>refused</C>: it writes no
          log and no ledger entry, and shows as refused in the run history. A run that started{" "}
          <a className={link} href="#credit-holds">
            holds credits
          </a>{" "}
          as it goes: a node it cannot pay for fails with out of credits.
        </p>
        <p>
          A run that ends in <C>error</C> sends the{" "}
          <Link className={link} href="/docs/webhooks#workflow.run_failed">
            <C>workflow.run_failed</C>
          </Link>{" "}
          webhook: <C>{'{"workflow": {"id", "name"}, "run_id", "failed_node_id", "error"}'}</C>.
        </p>
      </Section>

      <Section id="reliability" title="Reliability across instances">
        <p>
          Every instance of Patchbay runs the workflow runner in a worker process beside its server, at a lower CPU
          priority, so runs never hold up the requests it serves. Each turn of the worker's job loop starts the runs of
          due slots, then claims queued runs, and runs whose instance died, up to <C>WORKFLOW_CONCURRENCY</C> at once,
          fairly across teams: every team's oldest due run first, and at most <C>WORKFLOW_TEAM_CONCURRENCY</C> of one
          team's at once across instances. A claim is one statement (<C>FOR UPDATE SKIP LOCKED</C> on PostgreSQL, a
          conditional update on SQLite), so one run is executed by one instance at a time. The claim is a lease of{" "}
          <C>WORKFLOW_LEASE_SECONDS</C> (30 s by default), renewed every third of it while the run goes on.
        </p>
        <p>
          If an instance dies mid-run (<C>kill -9</C>, a lost machine), another one takes the run over once the lease
          has lapsed and continues at the node it was on, with the outputs of the nodes already done read back from
          their logs. Every write of a run is conditional on its claim, so an instance that lost its lease cannot write
          over the one that took over. The node that was in flight is run again only if that is safe:
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>a read or a utility;</li>
          <li>
            a write that sets a state (a status, a budget, a note), where sending it twice leaves the account as sending
            it once:{" "}
            {repeatable.map((op, i) => (
              <span key={op.id}>
                {i > 0 && ", "}
                {opLink(op.id)}
              </span>
            ))}
            .
          </li>
        </ul>
        <p>
          Any other write (
          {notRepeatable.map((op, i) => (
            <span key={op.id}>
              {i > 0 && ", "}
              {opLink(op.id)}
            </span>
          ))}
          ) may have reached its provider, so it is never sent a second time: the node fails, saying that the instance
          stopped while it was being sent and that the account should be checked before running the workflow again. The
          run&apos;s detail in the dashboard shows it was taken over.
        </p>
      </Section>

      <Section id="writes" title="Writes and owners">
        <p>
          A workflow&apos;s write nodes run without an approval request: approval happened once, when a{" "}
          <strong>team owner activated</strong> the workflow. So only an owner can activate a workflow with write nodes
          — create it active, switch it on, or change the nodes of an active one; a member who tries is told which nodes
          write and can save it inactive for an owner to activate. An inactive workflow with write nodes can be run by
          hand (Run now) only by an owner; the operator&apos;s <C>workflow run</C> is not limited. A workflow with reads
          and utilities only, or whose every write node has an{" "}
          <a className={link} href="#approval-step">
            approval step
          </a>
          , can be activated and run by any member: each of its writes waits for a person&apos;s yes. (Agents&apos;
          writes through MCP follow the{" "}
          <Link className={link} href="/docs/operations#write-policies">
            write policies
          </Link>{" "}
          instead.)
        </p>
      </Section>

      <Section id="connections" title="When a connection changes">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Deleted</strong>: the active workflows that use it are deactivated in the same change (the
            delete&apos;s confirmation names them, and the{" "}
            <Link className={link} href="/docs/webhooks#connection.deleted">
              <C>connection.deleted</C>
            </Link>{" "}
            event lists them in <C>deactivated_workflow_ids</C>). A node on a deleted connection fails, saying to rebind
            the workflow.
          </li>
          <li>
            <strong>Replaced</strong>: posting an API-key type&apos;s credentials creates a new connection each time, so
            workflows keep the old one. Point their nodes at the new one with <strong>Rebind</strong> on the
            workflow&apos;s page or <C>workflow rebind --id … --from … --to …</C>; the new connection must be of a type
            every rebound node runs on. Rebinding does not switch a deactivated workflow back on.
          </li>
          <li>
            <strong>Needs re-authorization</strong> (the provider no longer accepts its access): its nodes fail with
            that reason, without retries, and the workflow list shows the problem. Connecting the same account again
            through a new auth link repairs the connection in place (same id), so the workflows need no change.
          </li>
        </ul>
      </Section>

      <Section id="templates" title="Ready-made templates">
        <p>
          <strong>New from a template</strong> on the Workflows page fills these in with the team&apos;s connections and
          a few values (the <C>{"<<field>>"}</C> markers), then saves them like any workflow.
        </p>
        {WORKFLOW_TEMPLATES.map((t) => (
          <div key={t.id}>
            <H3 id={`template-${t.id}`}>{t.name}</H3>
            <p className="mt-1">{t.description}</p>
            <p className="mt-2 text-sm">
              Schedule{" "}
              {t.schedule ? (
                <>
                  <C>{t.schedule}</C> in <C>{t.timezone ?? "UTC"}</C>
                </>
              ) : (
                "none (by hand)"
              )}{" "}
              · Connections:{" "}
              {t.connections.map((c, i) => (
                <span key={c.key}>
                  {i > 0 && "; "}
                  {c.label} (<C>{c.key}</C>: {c.types.map(typeName).join(" or ")})
                </span>
              ))}
              {t.fields.length > 0 && (
                <>
                  {" "}
                  · Values:{" "}
                  {t.fields.map((f, i) => (
                    <span key={f.key}>
                      {i > 0 && ", "}
                      {f.label} (<C>{`<<${f.key}>>`}</C>)
                    </span>
                  ))}
                </>
              )}
            </p>
            <Table
              head={["Node", "Operation", "Connection", "Input", "when, for_each, …"]}
              rows={t.nodes.map((n) => [
                <span key="n">
                  <C>{n.id}</C>
                  <span className="block text-xs text-zinc-500 dark:text-zinc-400">{n.label}</span>
                </span>,
                opLink(n.operation_id),
                n.connection_id ? <C key="c">{n.connection_id}</C> : "—",
                <code key="i" className="block min-w-72 break-all font-mono text-xs">
                  {JSON.stringify(n.input)}
                </code>,
                Object.keys(nodeControls(n)).length ? (
                  <code key="w" className="block min-w-56 break-all font-mono text-xs">
                    {JSON.stringify(nodeControls(n))}
                  </code>
                ) : (
                  "—"
                ),
              ])}
            />
          </div>
        ))}
      </Section>

      <Section id="cli" title="Command line">
        <p>
          <C>npm run --silent cli -- &lt;command&gt;</C> prints one JSON object; bad input (bad JSON, an unknown
          operation, a connection of another team or of the wrong type, a forward reference, a bad cron expression) is{" "}
          <C>{'{"error": "..."}'}</C> and exit 1.
        </p>
        <H3 id="cli-create">workflow create</H3>
        <p>
          Saves a workflow as that user (the owner rules above apply):{" "}
          <C>
            workflow create --team ID --user ID --name N --nodes JSON [--schedule CRON --timezone TZ | --trigger webhook
            | --trigger event --events TYPE,…] [--inactive]
          </C>
          . It prints <C>{'{"id", "name", "active", "next_run_at", "version", "trigger"}'}</C> (plus <C>webhook_url</C>,
          once, for a webhook trigger: see{" "}
          <a className={link} href="#triggers">
            Triggers
          </a>
          ), <C>next_run_at</C> in Unix seconds or null. <C>--nodes</C> is a JSON array of{" "}
          <C>{'{"id", "label", "operation_id", "connection_id"?, "input"}'}</C>. The worked example:
        </p>
        <Pre label="workflow create" wrap>
          {CLI_CREATE}
        </Pre>
        <H3 id="cli-run">workflow run</H3>
        <p>
          <C>workflow run --id ID [--wait]</C> queues a run and prints <C>{'{"run_id"}'}</C>. With <C>--wait</C> it
          waits for the end (running the run itself when no instance has taken it, so it works with no server up) and
          prints <C>{'{"run_id", "status", "logs", "credits"}'}</C>: status <C>success</C>, <C>error</C>, <C>stopped</C>{" "}
          or <C>refused</C>, <C>logs</C> the number of logs the run wrote, <C>credits</C> its ledger entry&apos;s
          credits (0 when refused). A run that parks at an approval step returns at once with{" "}
          <C>&quot;status&quot;: &quot;waiting_approval&quot;</C>.
        </p>
        <Pre label="workflow run">{CLI_RUN}</Pre>
        <H3 id="cli-list">workflow list</H3>
        <p>
          <C>workflow list --team ID</C> prints{" "}
          <C>{'{"workflows": [{"id", "name", "active", "schedule", "timezone", "next_run_at"}]}'}</C>; <C>schedule</C>,{" "}
          <C>timezone</C> and <C>next_run_at</C> are null for a manual workflow.
        </p>
        <Pre label="workflow list" wrap>
          {CLI_LIST}
        </Pre>
        <H3 id="cli-rebind">workflow rebind</H3>
        <p>
          <C>workflow rebind --id ID --from CONN --to CONN</C> points every node on <C>CONN</C> (which may already be
          deleted) at the other one and prints <C>{'{"id", "nodes_rebound"}'}</C>.
        </p>
        <Pre label="workflow rebind">{CLI_REBIND}</Pre>
      </Section>

      <Section id="dashboard-api" title="Dashboard API">
        <p>
          The dashboard&apos;s Workflows pages use these routes. They take the signed-in session only (an API key is
          refused) and name the team in the <C>{TEAM_HEADER}</C> header; errors are <C>{'{"detail"}'}</C> with the
          status, like the public API.
        </p>
        <Table
          head={["Method", "Path", "What it does"]}
          rows={DASHBOARD_ROUTES.map(([method, path, what]) => [<C key="m">{method}</C>, <C key="p">{path}</C>, what])}
        />
      </Section>

      <Section id="configuration" title="Configuration">
        <Table
          head={["Variable", "Default", "Meaning"]}
          rows={[
            [<C key="v">WORKFLOW_CONCURRENCY</C>, "16", "Runs one instance executes at once."],
            [
              <C key="v">WORKFLOW_WEBHOOK_PER_MINUTE</C>,
              String(WEBHOOK_PER_MINUTE_DEFAULT),
              "Runs one workflow's webhook URL may start a minute; past it, 429 with Retry-After. 0: no limit.",
            ],
            [
              <C key="v">WORKFLOW_MAX_ITERATIONS</C>,
              "500",
              "The most items a for_each node runs; a longer list fails the node before any item runs.",
            ],
            [
              <C key="v">WORKFLOW_MISSED_SLOTS</C>,
              "run_once",
              "A slot missed while no instance ran (found more than a minute late): run_once runs the oldest one once when an instance is back; skip runs none. Either way the schedule resumes at its next slot after now.",
            ],
            [
              <C key="v">WORKFLOW_TEAM_CONCURRENCY</C>,
              "8",
              "Runs of one team going at once across all instances; the rest of a team's burst waits its turn.",
            ],
            [
              <C key="v">WORKFLOW_WORKER_NICE</C>,
              "10",
              "The worker process's CPU niceness (0–19; 0 turns it off): requests come first on a busy machine.",
            ],
            [
              <C key="v">WORKFLOW_RUNNER</C>,
              "process",
              "process: runs go in a worker process beside the server; inline: in the server's own process.",
            ],
            [
              <C key="v">WORKFLOW_LEASE_SECONDS</C>,
              "30",
              "How long a claimed run belongs to its instance; renewed every third of it. A run whose instance died is taken over after this.",
            ],
            [
              <C key="v">WORKFLOW_RETRY_BASE_MS</C>,
              "1000",
              `The delay before a node's first retry; each next one waits three times as long (+ up to 20 % jitter), ${MAX_RETRIES} retries at most.`,
            ],
          ]}
        />
      </Section>
    </main>
  );
}
