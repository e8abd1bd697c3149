import { addDays, calendarDate } from "@/lib/workflows/schedule";
import { bytes, jsonBytesWithin, templateMaxBytes, utf8Bytes } from "@/lib/config/limits";
import { isTruncatedBody } from "@/lib/logs/stored-body";

// The template syntax of node inputs (CONTRACT §9), checked when a workflow is saved and filled
// in when a node runs. Inside any string of a node's input:
//   {{nodes.<id>.output}} / {{nodes.<id>.output.<path>}}  an earlier node's output, or a field of
//       it (path segments split by dots; a number indexes a list: rows.0.date)
//   {{run.date.today}} / {{run.date.yesterday}}           ISO dates in the workflow's time zone
//   {{run.date.last_7_days_start}}                        the first of the 7 days ending yesterday
//   {{run.started_at}}                                    when the run started, ISO 8601 (UTC)
// A string that is exactly one reference takes the referenced value as it is (a list of rows
// stays a list); elsewhere the value is written into the text (JSON for lists and objects).
// Anything else between {{ and }} is refused when the workflow is saved.
// Pure: the editor lists the same variables.

export const RUN_VARIABLES: Record<string, string> = {
  "run.date.today": "The run's date, YYYY-MM-DD, in the workflow's time zone.",
  "run.date.yesterday": "The day before the run's date.",
  "run.date.last_7_days_start": "Seven days before the run's date: with run.date.yesterday, the last 7 full days.",
  "run.started_at": "When the run started, ISO 8601 in UTC.",
};

const EXPRESSION = /\{\{([^{}]*)\}\}/g;
const NODE_REF = /^nodes\.([a-z0-9_]{1,40})\.output((?:\.[A-Za-z0-9_-]+)*)$/;

type Reference = { kind: "run"; name: string } | { kind: "node"; nodeId: string; path: string[] };

/** The reference an expression names, or why it names none. */
function parseReference(expression: string): Reference | string {
  const text = expression.trim();
  if (text in RUN_VARIABLES) return { kind: "run", name: text };
  const m = NODE_REF.exec(text);
  if (m) return { kind: "node", nodeId: m[1], path: m[2] ? m[2].slice(1).split(".") : [] };
  const shown = JSON.stringify(`{{${expression.length > 80 ? `${expression.slice(0, 80)}…` : expression}}}`);
  return `${shown} is not a reference: use {{nodes.<id>.output.<path>}} for an earlier node's output or one of ${Object.keys(
    RUN_VARIABLES,
  )
    .map((k) => `{{${k}}}`)
    .join(", ")}`;
}

/** Every string in a JSON value, with its path (e.g. `rows.0.text`). */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}.${i}`);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* strings(v, path ? `${path}.${k}` : k);
}

/** The top-level input fields that hold a reference (their type is only known at run time). */
export function templatedFields(input: Record<string, unknown>): Set<string> {
  const fields = new Set<string>();
  for (const [path, text] of strings(input, "")) if (/\{\{/.test(text)) fields.add(path.split(".")[0]);
  return fields;
}

/**
 * What is wrong with the references of a workflow's nodes, each as "nodes[i].input.<field>: why":
 * an unknown expression, an unknown node, the node itself or one after it, an unclosed {{.
 */
export function templateProblems(nodes: { id: string; input: Record<string, unknown> }[]): string[] {
  const problems: string[] = [];
  const position = new Map(nodes.map((n, i) => [n.id, i]));
  for (const [i, node] of nodes.entries()) {
    for (const [path, text] of strings(node.input ?? {}, "")) {
      const where = `nodes[${i}].input.${path}`;
      const stripped = text.replace(EXPRESSION, "");
      if (stripped.includes("{{") || stripped.includes("}}"))
        problems.push(`${where}: has an unclosed {{ or a stray }}`);
      for (const [, expression] of text.matchAll(EXPRESSION)) {
        const ref = parseReference(expression);
        if (typeof ref === "string") problems.push(`${where}: ${ref}`);
        else if (ref.kind === "node") {
          const at = position.get(ref.nodeId);
          if (at === undefined)
            problems.push(`${where}: refers to node ${ref.nodeId}, which this workflow does not have`);
          else if (at === i)
            problems.push(`${where}: refers to its own node ${ref.nodeId}; only earlier nodes' outputs can be used`);
          else if (at > i)
            problems.push(
              `${where}: refers to node ${ref.nodeId}, which runs after this one; only earlier nodes' outputs can be used`,
            );
        }
      }
    }
  }
  return problems;
}

/** The ids of the nodes whose output `input` refers to. */
export function referencedNodes(input: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  for (const [, text] of strings(input ?? {}, ""))
    for (const [, expression] of text.matchAll(EXPRESSION)) {
      const ref = parseReference(expression);
      if (typeof ref !== "string" && ref.kind === "node") ids.add(ref.nodeId);
    }
  return ids;
}

export class TemplateError extends Error {}

export type RunContext = { startedAt: Date; timezone: string | null; outputs: Record<string, unknown> };

function runVariable(name: string, ctx: RunContext): string {
  const today = calendarDate(ctx.startedAt, ctx.timezone);
  if (name === "run.date.today") return today;
  if (name === "run.date.yesterday") return addDays(today, -1);
  if (name === "run.date.last_7_days_start") return addDays(today, -7);
  return ctx.startedAt.toISOString();
}

function lookup(ref: Extract<Reference, { kind: "node" }>, ctx: RunContext): unknown {
  if (!(ref.nodeId in ctx.outputs))
    throw new TemplateError(`{{nodes.${ref.nodeId}.output}}: node ${ref.nodeId} has no output in this run`);
  let value = ctx.outputs[ref.nodeId];
  // Read back from its log after a takeover (lib/workflows/run-workflow.ts outputsOf): only its beginning was kept.
  if (isTruncatedBody(value))
    throw new TemplateError(
      `{{nodes.${ref.nodeId}.output}}: node ${ref.nodeId}'s output (${bytes(value.original_bytes)}) was larger than its log keeps (LOG_BODY_MAX_BYTES), and this run was taken over by another instance, which reads outputs back from the logs; run the workflow again`,
    );
  for (const [i, key] of ref.path.entries()) {
    const next = Array.isArray(value)
      ? /^\d+$/.test(key)
        ? (value as unknown[])[Number(key)]
        : undefined
      : value && typeof value === "object"
        ? (value as Record<string, unknown>)[key]
        : undefined;
    if (next === undefined)
      throw new TemplateError(
        `{{nodes.${ref.nodeId}.output.${ref.path.join(".")}}}: node ${ref.nodeId}'s output has no ${ref.path.slice(0, i + 1).join(".")}`,
      );
    value = next;
  }
  return value;
}

const resolveOne = (ref: Reference, ctx: RunContext) =>
  ref.kind === "run" ? runVariable(ref.name, ctx) : lookup(ref, ctx);

/**
 * What a node's input may grow to while its references are filled in (WORKFLOW_TEMPLATE_MAX_BYTES):
 * every string that holds a reference is counted as it is written, and a value taken whole as its
 * JSON, so a template that repeats a large value is stopped at the cap, never built whole.
 */
export class ExpansionBudget {
  used = 0;
  constructor(readonly max = templateMaxBytes()) {}

  /** Counts `n` more bytes of `field`; over the cap, the node fails with how far it got. */
  spend(n: number, field: string, progress: string) {
    this.used += n;
    if (this.used > this.max) {
      throw new TemplateError(
        `${field}: filling in its references makes the input larger than ${bytes(this.max)}, the limit of a node's filled-in input (WORKFLOW_TEMPLATE_MAX_BYTES); it had reached ${bytes(this.used)} ${progress} when it was stopped`,
      );
    }
  }
}

/**
 * A node's input with its references filled in from the run; TemplateError names what is missing or
 * what grew too large.
 */
export function resolveInput(
  value: unknown,
  ctx: RunContext,
  budget = new ExpansionBudget(),
  field = "input",
): unknown {
  if (typeof value === "string") {
    const whole = /^\{\{([^{}]*)\}\}$/.exec(value);
    if (whole) {
      const ref = parseReference(whole[1]);
      if (typeof ref === "string") throw new TemplateError(ref);
      const v = resolveOne(ref, ctx);
      // Taken as it is (no copy), but counted: the input is written whole into the node's log.
      budget.spend(jsonBytesWithin(v, budget.max - budget.used), field, `with ${value}`);
      return v;
    }
    return fillText(value, ctx, budget, field);
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveInput(v, ctx, budget, `${field}.${i}`));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolveInput(v, ctx, budget, `${field}.${k}`)]),
    );
  return value;
}

/**
 * A string with its references written in, counted piece by piece (a string without one costs
 * nothing: it was saved as it is).
 */
function fillText(text: string, ctx: RunContext, budget: ExpansionBudget, field: string): string {
  const matches = [...text.matchAll(EXPRESSION)];
  if (!matches.length) return text;
  const parts: string[] = [];
  let last = 0;
  for (const [k, m] of matches.entries()) {
    const ref = parseReference(m[1]);
    if (typeof ref === "string") throw new TemplateError(ref);
    const v = resolveOne(ref, ctx);
    const progress = `at reference ${k + 1} of its ${matches.length.toLocaleString("en-US")}`;
    const literal = text.slice(last, m.index);
    budget.spend(utf8Bytes(literal), field, progress);
    // Measured before it is written: a large value stops the node without being turned into text.
    if (typeof v === "string")
      budget.spend(v.length > budget.max - budget.used ? v.length : utf8Bytes(v), field, progress);
    else budget.spend(jsonBytesWithin(v, budget.max - budget.used), field, progress);
    parts.push(literal, typeof v === "string" ? v : JSON.stringify(v));
    last = m.index + m[0].length;
  }
  const tail = text.slice(last);
  budget.spend(utf8Bytes(tail), field, `after all ${matches.length.toLocaleString("en-US")} of its references`);
  parts.push(tail);
  return parts.join("");
}
