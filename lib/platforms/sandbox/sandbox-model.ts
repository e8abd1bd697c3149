import "server-only";
import { randomToken } from "@/lib/security/ids";
import { readBoundedText } from "@/lib/http/parse";
import { timeZonesNamed } from "@/lib/text/time-zones-named";
import { COPILOT_CURRENT_PREFIX } from "@/lib/schemas/workflows";
import { FLOW_STOP } from "@/lib/platforms/utility/utility-operations";

// The sandbox model (CONTRACT §11): a model inside Patchbay that speaks OpenAI's Chat Completions
// format, streaming or not, and follows a fixed script, so a conversation runs through the real
// agent loop (its model client, tools, approvals, logs and ledger) without a model key. It reads
// the member's last message and what happened since: find the operation, run it on the first
// connection that can, answer with what came back. Offered propose_workflow, it follows the
// workflow Copilot's script instead (sandboxCopilotMove).

type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
type ChatMessage = {
  role: "system" | "user" | "assistant" | "tool";
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
};

type Plan = { operationId: string; tool: "run_operation" | "run_write_operation"; input: Record<string, unknown> };
type Move = { text: string } | { call: { name: string; arguments: Record<string, unknown> } };

const SANDBOX_MODEL_PLAIN_ANSWER =
  "I am the sandbox model. Ask me for a report (I run sandbox.report and tell you the sessions of the last 7 days), or write “note: …” and I ask to save that note on the sandbox account: a write, so a person approves it first.";

const textOf = (m: ChatMessage | undefined) =>
  typeof m?.content === "string"
    ? m.content
    : Array.isArray(m?.content)
      ? m.content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("")
      : "";

const parse = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** What the script does for this message: a `note:` (it wins), a report, or nothing to run. */
function planFor(message: string): Plan | null {
  const at = message.indexOf("note:");
  if (at !== -1)
    return {
      operationId: "sandbox.set_note",
      tool: "run_write_operation",
      input: { note: message.slice(at + "note:".length).trim() },
    };
  if (/report/i.test(message))
    return { operationId: "sandbox.report", tool: "run_operation", input: { metric: "sessions", days: 7 } };
  return null;
}

/** The script's next move, from the conversation so far (the member's last message and what followed it). */
function sandboxModelMove(messages: ChatMessage[]): Move {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const plan = planFor(textOf(messages[lastUser]));
  if (!plan) return { text: SANDBOX_MODEL_PLAIN_ANSWER };
  const since = messages.slice(lastUser + 1);
  const calls = since.flatMap((m) => m.tool_calls ?? []);
  const last = calls.at(-1);
  if (!last) return { call: { name: "find_operations", arguments: { query: plan.operationId } } };
  const result = parse(textOf(since.find((m) => m.role === "tool" && m.tool_call_id === last.id)));
  const error = typeof result.error === "string" ? result.error : null;
  if (last.function.name === "find_operations") {
    if (error) return { text: `I could not search the catalogue: ${error}` };
    const ops = Array.isArray(result.operations)
      ? (result.operations as { id?: unknown; connection_ids?: unknown }[])
      : [];
    const ids = ops.find((o) => o.id === plan.operationId)?.connection_ids;
    const connectionId = Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : null;
    if (!connectionId)
      return {
        text: `No connection of this conversation can run ${plan.operationId}: add a sandbox connection to it and ask again.`,
      };
    return {
      call: {
        name: plan.tool,
        arguments: { operation_id: plan.operationId, connection_id: connectionId, input: plan.input },
      },
    };
  }
  if (plan.operationId === "sandbox.set_note") {
    // What was wrong with the note, field by field, when the tool says; never its hint for a model.
    const problems = Array.isArray(result.problems) ? result.problems.map(String) : [];
    if (problems.length) return { text: `The note was not saved: ${problems.join("; ")}.` };
    if (error) return { text: `The note was not saved: ${error}` };
    const previous = typeof result.previous_note === "string" ? ` (it replaced “${result.previous_note}”)` : "";
    return { text: `Saved the note “${String(result.note)}” on the sandbox account${previous}.` };
  }
  if (error) return { text: `The report failed: ${error}` };
  return { text: `The sandbox account had ${String(result.total)} sessions over the last 7 days.` };
}

// ---- The Copilot's script ----

const METRICS = ["sessions", "users", "signups", "revenue"] as const;
type Metric = (typeof METRICS)[number];
const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

const REPORT_WORDS =
  /\breport|\bsessions?\b|\busers?\b|\bsign-?ups?\b|\brevenue\b|\bmetrics?\b|\btraffic\b|\bnumbers\b/i;
const NOTE_WORDS = /\bnotes?\b/i;
const SUMMARY_WORDS = /\bsummar(y|ise|ize)\b|\bwrite (it|them|that|a message)\b|\bformat\b/i;
const DAILY = /\bdaily\b|\bevery ?day\b|\beach day\b/i;
const HOURLY = /\bhourly\b|\bevery hour\b/i;
const WEEKDAYS = /\bweekdays?\b|\bmonday (to|through|-) friday\b/i;
const DAY_NAME = new RegExp(`\\b(?:every|on|each) (${DAYS.join("|")})s?\\b|\\b(${DAYS.join("|")})s\\b`, "i");
const TIME = /\bat (\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b|\b(\d{1,2}):(\d{2})\b|\b(\d{1,2})\s*(am|pm)\b/i;
const WEEKLY = /\bweekly\b|\b(?:every|each|once a) week\b/i;
const BY_HAND = /\bwhen i run it\b|\bby hand\b|\bmanually\b|\bon demand\b/i;
// The shapes of CONTRACT §13 the script builds (issue 48): act on each row over a threshold, stop
// unless a metric dropped, a write per row; and an approval on every write when asked for one.
const DROP =
  /\b(?:drops?|dropped|dropping|falls?|fell|falling|declines?|declined|decreases?|decreased|goes down|went down)\b/i;
const OVER =
  /\boverspend\w*|\bover-?budget\b|\bover (?:a |the |its |their |my |our )?(?:cost |spend |revenue |budget )?(?:threshold|limit|target|cap|budget)\b|\bexceed\w*|\bcost(?:s|ing)? (?:more|too much|over|above)\b|\b(?:above|over|more than|passed|past|beyond) [€$£]?\s?\d/i;
const PER_ROW =
  /\b(?:per|for each|for every)\s+(?:client|account|customer|campaign|row|item|day)s?\b|\beach\s+(?:client|account|customer|campaign|row|item)s?\b/i;
const APPROVAL = /\bapprov\w*|\bmy (?:yes|ok|okay)\b|\bsign[- ]?off\b|\bconfirm\w*/i;
const AMOUNT = /\b(?:over|above|more than|exceeds?|exceeding|passed|past|beyond)\s*(?:[€$£]\s*)?(\d+(?:[.,]\d+)?)/i;
const PERCENT = /(\d+(?:\.\d+)?)\s*(?:%|percent\b)/i;
const SLACK = /\bslack\b/i;
const PAUSE = /\bpause\w*/i;
const SHEET = /\b(?:google )?sheets?\b|\bspreadsheets?\b/i;
/** The threshold of "over a threshold" when the member names no amount: about a sandbox day's median revenue. */
const DEFAULT_THRESHOLD = 25000;

type Shape =
  | { kind: "over_threshold"; threshold: number; chosen: boolean }
  | { kind: "alert_on_drop"; percent: string | null }
  | { kind: "row_per_item" };
const ACTIVATE =
  /\bactivate\b|\bturn (?:it )?on\b|\bswitch (?:it )?on\b|\benable\b|\bmake it live\b|\bstart (?:it|running)\b/i;
/** Words that ask for nothing by themselves ("create a workflow that…", "please"). */
const FILLER = new Set(
  "please create make build set up i want would like can you could a an the workflow that which to me it for of my our us with in on every each and then also so time zone sandbox account accounts data last week days day its their this from get fetch pull read run runs give show is are be will should at by".split(
    " ",
  ),
);

type CurrentNode = {
  operation_id?: unknown;
  input?: { metric?: unknown };
  when?: { right?: unknown };
  for_each?: unknown;
  approval?: unknown;
};
type Current = {
  name?: string;
  nodes?: CurrentNode[];
  schedule?: string | null;
  timezone?: string | null;
};

/** The shape the member's words ask for; else the one the editor's draft has (a later message keeps it). */
function shapeOf(message: string, nodes: CurrentNode[]): Shape | null {
  if (DROP.test(message)) return { kind: "alert_on_drop", percent: PERCENT.exec(message)?.[1] ?? null };
  const amount = AMOUNT.exec(message)?.[1];
  if (OVER.test(message))
    return amount
      ? { kind: "over_threshold", threshold: Number(amount.replace(",", ".")), chosen: false }
      : { kind: "over_threshold", threshold: DEFAULT_THRESHOLD, chosen: true };
  if (PER_ROW.test(message)) return { kind: "row_per_item" };
  if (nodes.some((n) => n?.operation_id === FLOW_STOP)) return { kind: "alert_on_drop", percent: null };
  const loop = nodes.find((n) => typeof n?.for_each === "string");
  if (loop?.when) {
    const right = Number(loop.when.right);
    return { kind: "over_threshold", threshold: Number.isFinite(right) ? right : DEFAULT_THRESHOLD, chosen: false };
  }
  if (loop) return { kind: "row_per_item" };
  return null;
}

/** What the member asked for, read from their words; what the script cannot build is in `leftOut`. */
function readRequest(message: string, current: Current | null, zones: string[]) {
  // What the member's words do not name stays as the editor has it ("change what the member asks, keep the rest").
  const nodes = Array.isArray(current?.nodes) ? current.nodes : [];
  const shape = shapeOf(message, nodes);
  const currentMetric = nodes.find((n) => n?.operation_id === "sandbox.report")?.input?.metric;
  const metric: Metric =
    METRICS.find((m) => new RegExp(`\\b${m === "signups" ? "sign-?ups?" : m}\\b`, "i").test(message)) ??
    METRICS.find((m) => m === currentMetric) ??
    // Money is what overspends: of the sandbox's metrics, revenue (USD).
    (shape?.kind === "over_threshold" ? "revenue" : "sessions");
  // Every shape writes (the note stands in for the pause, the Slack post, the sheet row).
  const note = !!shape || NOTE_WORDS.test(message) || nodes.some((n) => n?.operation_id === "sandbox.set_note");
  const approval = APPROVAL.test(message) || nodes.some((n) => n?.approval === "required");
  const time = TIME.exec(message);
  let hour = 9;
  let minute = 0;
  if (time) {
    const [h, m, ampm] =
      time[1] !== undefined
        ? [time[1], time[2], time[3]]
        : time[4] !== undefined
          ? [time[4], time[5], undefined]
          : [time[6], undefined, time[7]];
    hour = Number(h) % 24;
    minute = Math.min(59, Number(m ?? 0));
    if (ampm?.toLowerCase() === "pm" && hour < 12) hour += 12;
    if (ampm?.toLowerCase() === "am" && hour === 12) hour = 0;
  }
  const dayName = DAY_NAME.exec(message);
  const day = dayName ? DAYS.indexOf((dayName[1] ?? dayName[2]).toLowerCase()) : -1;
  let schedule: string | null;
  let when: string;
  const at = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
  if (BY_HAND.test(message)) [schedule, when] = [null, "when you run it"];
  else if (HOURLY.test(message)) [schedule, when] = [`${minute} * * * *`, "every hour"];
  else if (WEEKDAYS.test(message)) [schedule, when] = [`${minute} ${hour} * * 1-5`, `every weekday at ${at}`];
  else if (day < 0 && WEEKLY.test(message)) [schedule, when] = [`${minute} ${hour} * * 1`, `every Monday at ${at}`];
  else if (day >= 0)
    [schedule, when] = [
      `${minute} ${hour} * * ${day}`,
      `every ${DAYS[day][0].toUpperCase()}${DAYS[day].slice(1)} at ${at}`,
    ];
  else if (DAILY.test(message) || time) [schedule, when] = [`${minute} ${hour} * * *`, `every day at ${at}`];
  else [schedule, when] = [current?.schedule ?? null, current?.schedule ? "on its schedule" : "when you run it"];
  const timezone = schedule ? (zones[0] ?? (BY_HAND.test(message) ? null : current?.timezone) ?? "UTC") : null;

  // Each part of the request is covered by something the draft does, or named as left out.
  const leftOut = message
    .split(/[,;.!?]|\b(?:and then|then|and|also)\b/i)
    .map((part) => part.trim())
    .filter((part) => {
      if (!part) return false;
      const covered =
        [
          REPORT_WORDS,
          NOTE_WORDS,
          DAILY,
          HOURLY,
          WEEKDAYS,
          WEEKLY,
          DAY_NAME,
          TIME,
          BY_HAND,
          ACTIVATE,
          APPROVAL,
          ...(shape ? [DROP, OVER, PER_ROW] : []),
        ].some((re) => re.test(part)) || timeZonesNamed(part).length > 0;
      if (covered || (note && SUMMARY_WORDS.test(part))) return false;
      return part
        .toLowerCase()
        .split(/[^a-z']+/)
        .some((w) => w && !FILLER.has(w));
    });

  const cadence = !schedule
    ? ""
    : HOURLY.test(message)
      ? "Hourly "
      : WEEKDAYS.test(message)
        ? "Weekday "
        : day >= 0
          ? `${DAYS[day][0].toUpperCase()}${DAYS[day].slice(1)} `
          : WEEKLY.test(message)
            ? "Weekly "
            : "Daily ";
  const named =
    shape?.kind === "over_threshold"
      ? `${cadence}${metric} over ${shape.threshold}${approval ? ", each with approval" : ""}`
      : shape?.kind === "alert_on_drop"
        ? `${cadence}alert when ${metric} drop`
        : shape?.kind === "row_per_item"
          ? `${cadence}${metric} row per day`
          : `${cadence}${metric} report${note ? " to a note" : ""}`;
  return {
    shape,
    metric,
    note,
    approval,
    schedule,
    timezone,
    when: schedule && timezone ? `${when} (${timezone})` : when,
    activate: ACTIVATE.test(message),
    leftOut,
    // Named for what it does; a workflow that already has a name keeps it.
    name: current?.name?.trim() || `${named[0].toUpperCase()}${named.slice(1)}`,
  };
}

/** The editor's workflow as the Copilot's instructions carry it (lib/agents/copilot.ts), or null for a new one. */
function currentOf(messages: ChatMessage[]): Current | null {
  const system = messages.find((m) => m.role === "system");
  const line = textOf(system)
    .split("\n")
    .find((l) => l.startsWith(COPILOT_CURRENT_PREFIX));
  if (!line) return null;
  const current = parse(line.slice(COPILOT_CURRENT_PREFIX.length)) as Current;
  return current.name?.trim() || current.nodes?.length ? current : null;
}

type Ask = ReturnType<typeof readRequest>;
type DraftNode = Record<string, unknown> & { id: string; operation_id: string };

const capital = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

/**
 * The nodes of the draft: the metric's report, then what the shape does with it (each write with
 * an approval step when the member asked to approve), the write left out when no connection of
 * the member writes a note.
 */
function draftNodes(ask: Ask, report: string, noteConnection: string | undefined): DraftNode[] {
  const metric = ask.metric;
  const approval = ask.approval ? { approval: "required" } : {};
  // In the order the editor shows a node's fields: what it is, where it writes, then how it runs.
  const write = ({ id, label, ...rest }: { id: string; label: string } & Record<string, unknown>): DraftNode[] =>
    noteConnection
      ? [{ id, label, operation_id: "sandbox.set_note", connection_id: noteConnection, ...rest, ...approval }]
      : [];
  const shape = ask.shape;
  if (shape?.kind === "alert_on_drop")
    return [
      {
        id: "report",
        label: `${capital(metric)}, yesterday and the day before`,
        operation_id: "sandbox.report",
        connection_id: report,
        input: { metric, days: 2, end_date: "{{run.date.yesterday}}" },
      },
      {
        id: "no_drop",
        label: `Stop unless ${metric} dropped`,
        operation_id: FLOW_STOP,
        when: {
          left: "{{nodes.report.output.rows.1.value}}",
          op: "gte",
          right: "{{nodes.report.output.rows.0.value}}",
        },
        input: { reason: `${capital(metric)} did not drop: nothing to report.` },
      },
      ...write({
        id: "alert",
        label: "Write the alert as the account's note",
        input: {
          note: `${capital(metric)} dropped on {{nodes.report.output.rows.1.date}}: {{nodes.report.output.rows.1.value}}, down from {{nodes.report.output.rows.0.value}} the day before.`,
        },
      }),
    ];
  const reportNode: DraftNode = {
    id: "report",
    label: `${capital(metric)} report`,
    operation_id: "sandbox.report",
    connection_id: report,
    input: { metric, days: 7 },
  };
  if (shape?.kind === "over_threshold")
    return [
      reportNode,
      ...write({
        id: "flag",
        label: `Note each day over ${shape.threshold}`,
        for_each: "{{nodes.report.output.rows}}",
        when: { left: "{{item.value}}", op: "gt", right: shape.threshold },
        input: { note: `{{item.date}}: {{item.value}} ${metric}, over ${shape.threshold}` },
      }),
    ];
  if (shape?.kind === "row_per_item")
    return [
      reportNode,
      ...write({
        id: "row",
        label: "Write each day's row as the note",
        for_each: "{{nodes.report.output.rows}}",
        continue_on_error: true,
        input: { note: `{{item.date}}: {{item.value}} ${metric}` },
      }),
    ];
  return [
    reportNode,
    ...write({
      id: "note",
      label: "Save it as the account's note",
      input: { note: `{{nodes.report.output.total}} ${metric} in the last 7 days` },
    }),
  ];
}

/** What the draft runs, in words, for the reply. */
function describeSteps(ask: Ask, writes: boolean): string {
  const approved = ask.approval ? ", each write waiting for your approval" : "";
  const shape = ask.shape;
  if (shape?.kind === "alert_on_drop")
    return `sandbox.report (${ask.metric} yesterday and the day before), then stops with “nothing to report” unless ${ask.metric} dropped${writes ? `, then sandbox.set_note (writes the alert as the account's note${approved})` : ""}`;
  const report = `sandbox.report (${ask.metric} over the last 7 days)`;
  if (!writes) return report;
  if (shape?.kind === "over_threshold")
    return `${report}, then sandbox.set_note for each day whose ${ask.metric} is over ${shape.threshold} (notes it on the account${approved})`;
  if (shape?.kind === "row_per_item")
    return `${report}, then sandbox.set_note for each day (its row as the account's note; a row that fails does not stop the others${approved})`;
  return `${report}, then sandbox.set_note (saves the total as the account's note${approved})`;
}

/**
 * What stands in for what the member asked, where the sandbox has no such thing (campaigns, a
 * pause, Slack, a sheet), and what a condition cannot do: said, never left out silently.
 */
function standIns(ask: Ask, message: string, writes: boolean): string[] {
  const said: string[] = [];
  const shape = ask.shape;
  if (shape?.kind === "over_threshold") {
    if (/\bcampaigns?\b/i.test(message) || PAUSE.test(message))
      said.push(
        `No operation you can use lists or pauses campaigns: in the draft each day of the sandbox's ${ask.metric} report stands for a campaign${writes ? ", and a note on the account for pausing it" : ""}.`,
      );
    if (shape.chosen)
      said.push(`You named no amount, so the threshold is ${shape.threshold}: change it in the node's condition.`);
  }
  if (shape?.kind === "alert_on_drop") {
    if (SLACK.test(message) && writes)
      said.push("No operation you can use posts to Slack: the alert is written as the account's note instead.");
    if (shape.percent)
      said.push(
        `I left out “by more than ${shape.percent}%”: a condition compares two values and no operation computes a percentage, so the draft alerts on any drop from the day before.`,
      );
  }
  if (shape?.kind === "row_per_item" && (SHEET.test(message) || /\b(?:client|customer|account)s?\b/i.test(message)))
    said.push(
      `No operation you can use lists client accounts or appends to a sheet: each day of the sandbox's ${ask.metric} report stands for a row${writes ? ", written as the account's note" : ""}.`,
    );
  return said;
}

/**
 * The Copilot script, for a request that offers propose_workflow: search the catalogue with the
 * member's words (then the whole catalogue in scope, if they did not find every operation
 * needed), propose a workflow of what it can build from them (the metric's report; saving it as
 * the account's note when asked; acting on each day over a threshold, stopping unless the metric
 * dropped, or a write per day, with an approval step on the writes when asked; the schedule and
 * time zone asked for, 09:00 UTC when a schedule names no time or zone), active only when asked
 * to switch it on, named for what it does; then say what the draft does, what stands in for what
 * the sandbox lacks, and what it left out.
 */
function sandboxCopilotMove(messages: ChatMessage[]): Move {
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const message = textOf(messages[lastUser]).replace(/\s+/g, " ").trim();
  const current = currentOf(messages);
  const ask = readRequest(message, current, timeZonesNamed(message));
  const since = messages.slice(lastUser + 1);
  const calls = since.flatMap((m) => m.tool_calls ?? []);
  const resultOf = (call: ToolCall) =>
    parse(textOf(since.find((m) => m.role === "tool" && m.tool_call_id === call.id)));
  const leftOutText = (extra: string[]) => {
    const all = [...ask.leftOut.map((p) => `“${p}”`), ...extra];
    return all.length ? ` I left out ${all.join(" and ")}: none of the operations you can use does that.` : "";
  };
  const proposed = calls.filter((c) => c.function.name === "propose_workflow").at(-1);
  if (proposed) {
    const result = resultOf(proposed);
    const draft = parse(proposed.function.arguments) as {
      name?: unknown;
      nodes?: { operation_id?: unknown }[];
      active?: unknown;
    };
    if (result.valid === true) {
      const writesNote = draft.nodes?.some((n) => n.operation_id === "sandbox.set_note") ?? false;
      const state =
        draft.active === true
          ? " It is active: once saved, it runs on its own."
          : ask.schedule
            ? " It is not active: switch Active on when it should run on its schedule."
            : "";
      const said = standIns(ask, message, writesNote)
        .map((s) => ` ${s}`)
        .join("");
      const missedNote = ask.note && !writesNote ? ["saving it as a note (no connection you can use writes one)"] : [];
      return {
        text: `Here is a draft: “${String(draft.name)}” runs ${describeSteps(ask, writesNote)} ${ask.when}.${state}${said}${leftOutText(missedNote)}`,
      };
    }
    const problems = Array.isArray(result.problems) ? result.problems.map(String).join("; ") : String(result.error);
    return { text: `The draft still has problems: ${problems}` };
  }
  const searches = calls.filter((c) => c.function.name === "find_operations");
  if (!searches.length) return { call: { name: "find_operations", arguments: { query: message } } };
  const found = new Map<string, string>();
  for (const search of searches) {
    const ops = resultOf(search).operations;
    for (const op of Array.isArray(ops) ? (ops as { id?: unknown; connection_ids?: unknown }[]) : []) {
      const ids = op.connection_ids;
      if (typeof op.id === "string" && Array.isArray(ids) && typeof ids[0] === "string" && !found.has(op.id))
        found.set(op.id, ids[0]);
    }
  }
  const needed = ["sandbox.report", ...(ask.note ? ["sandbox.set_note"] : [])];
  // Everything this conversation may run, when the member's words did not find all it needs.
  if (needed.some((id) => !found.has(id)) && searches.length === 1)
    return { call: { name: "find_operations", arguments: {} } };
  const report = found.get("sandbox.report");
  if (!report)
    return { text: "No connection you can use runs sandbox.report: connect a sandbox account and ask again." };
  return {
    call: {
      name: "propose_workflow",
      arguments: {
        name: ask.name,
        nodes: draftNodes(ask, report, ask.note ? found.get("sandbox.set_note") : undefined),
        schedule: ask.schedule,
        timezone: ask.timezone,
        // Left out unless asked: the Copilot's default keeps a new workflow inactive.
        ...(ask.activate && { active: true }),
      },
    },
  };
}

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** POST /sandbox/model/v1/chat/completions: the script's move as a Chat Completions answer or stream. */
export async function sandboxChatCompletions(req: Request): Promise<Response> {
  const body = parse(await readBoundedText(req, 16 * 1024 * 1024)) as {
    model?: unknown;
    messages?: unknown;
    tools?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown };
  };
  if (!Array.isArray(body.messages))
    return Response.json(
      {
        error: {
          message: "messages is required: an array of chat messages.",
          type: "invalid_request_error",
          param: "messages",
          code: null,
        },
      },
      { status: 400 },
    );
  const copilot =
    Array.isArray(body.tools) &&
    body.tools.some((t: { function?: { name?: unknown } }) => t?.function?.name === "propose_workflow");
  const move = (copilot ? sandboxCopilotMove : sandboxModelMove)(body.messages as ChatMessage[]);
  const id = `chatcmpl-${randomToken(24)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === "string" ? body.model : "sandbox-script-1";
  const toolCall: ToolCall | null =
    "call" in move
      ? {
          id: `call_${randomToken(24)}`,
          type: "function",
          function: { name: move.call.name, arguments: JSON.stringify(move.call.arguments) },
        }
      : null;
  const text = "text" in move ? move.text : null;
  const usage = {
    prompt_tokens: tokens(JSON.stringify(body.messages)),
    completion_tokens: tokens(text ?? toolCall!.function.arguments),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const finish = toolCall ? "tool_calls" : "stop";
  if (body.stream !== true)
    return Response.json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: text, ...(toolCall && { tool_calls: [toolCall] }) },
          finish_reason: finish,
          logprobs: null,
        },
      ],
      usage,
    });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (text) for (const piece of text.match(/\S+\s*/g) ?? [text]) events.push(chunk({ content: piece }));
  if (toolCall) {
    events.push(
      chunk({ tool_calls: [{ index: 0, ...toolCall, function: { name: toolCall.function.name, arguments: "" } }] }),
    );
    events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }));
  }
  events.push(chunk({}, finish));
  if (body.stream_options?.include_usage === true) events.push({ ...chunk({}), choices: [], usage });
  const sse = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(sse, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
