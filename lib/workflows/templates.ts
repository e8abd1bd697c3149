import { addDays, calendarDate } from "@/lib/workflows/schedule";
import { bytes, jsonBytesWithin, templateMaxBytes, utf8Bytes } from "@/lib/config/limits";
import { isTruncatedBody } from "@/lib/logs/stored-body";

// The template syntax of workflows (CONTRACT §9, §13), checked when a workflow is saved and filled
// in when a node runs. Inside any string of a node's input, its `when` and its `for_each`:
//   {{nodes.<id>.output}} / {{nodes.<id>.output.<path>}}  an earlier node's output, or a field of
//       it (path segments split by dots; a number indexes a list: rows.0.date); a skipped node's
//       output, and any path inside it, reads null
//   {{run.date.today}} / {{run.date.yesterday}}           ISO dates in the workflow's time zone
//   {{run.date.last_7_days_start}}                        the first of the 7 days ending yesterday
//   {{run.started_at}}                                    when the run started, ISO 8601 (UTC)
//   {{trigger.body…}} / {{trigger.input…}} / {{trigger.event…}}  what started the run (null when none)
//   {{item}} / {{item.<path>}} / {{item_index}}           in a `for_each` node's input and `when` only
// A string that is exactly one reference takes the referenced value as it is (a list of rows
// stays a list, a number a number); elsewhere the value is written into the text (a string as
// it is, anything else as its JSON). Anything else between {{ and }} is refused when the workflow
// is saved. Pure: the editor lists the same variables.

export const RUN_VARIABLES: Record<string, string> = {
  "run.date.today": "The run's date, YYYY-MM-DD, in the workflow's time zone.",
  "run.date.yesterday": "The day before the run's date.",
  "run.date.last_7_days_start": "Seven days before the run's date: with run.date.yesterday, the last 7 full days.",
  "run.started_at": "When the run started, ISO 8601 in UTC.",
};

/** What started a run, as its nodes read it (`{{trigger.…}}`); a part the run has none of reads null. */
export type TriggerData = { body?: unknown; input?: unknown; event?: unknown };

const EXPRESSION = /\{\{([^{}]*)\}\}/g;
const NODE_REF = /^nodes\.([a-z0-9_]{1,40})\.output((?:\.[A-Za-z0-9_-]+)*)$/;
const TRIGGER_REF = /^trigger\.(body|input|event)((?:\.[A-Za-z0-9_-]+)*)$/;
const ITEM_REF = /^item((?:\.[A-Za-z0-9_-]+)*)$/;

type Reference =
  | { kind: "run"; name: string }
  | { kind: "node"; nodeId: string; path: string[] }
  | { kind: "trigger"; part: keyof TriggerData; path: string[] }
  | { kind: "item"; path: string[] }
  | { kind: "item_index" };

const pathOf = (tail: string | undefined) => (tail ? tail.slice(1).split(".") : []);

/** The reference an expression names, or why it names none. */
function parseReference(expression: string): Reference | string {
  const text = expression.trim();
  if (text in RUN_VARIABLES) return { kind: "run", name: text };
  const m = NODE_REF.exec(text);
  if (m) return { kind: "node", nodeId: m[1], path: pathOf(m[2]) };
  const t = TRIGGER_REF.exec(text);
  if (t) return { kind: "trigger", part: t[1] as keyof TriggerData, path: pathOf(t[2]) };
  if (text === "item_index") return { kind: "item_index" };
  const it = ITEM_REF.exec(text);
  if (it) return { kind: "item", path: pathOf(it[1]) };
  const shown = JSON.stringify(`{{${expression.length > 80 ? `${expression.slice(0, 80)}…` : expression}}}`);
  return `${shown} is not a reference: use {{nodes.<id>.output.<path>}} for an earlier node's output, {{trigger.body…}}, {{trigger.input…}} or {{trigger.event…}} for what started the run, {{item…}} or {{item_index}} in a node with for_each, or one of ${Object.keys(
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

/** The one reference a string is made of (`{{…}}` and nothing else), or null. */
const wholeReference = (value: string) => /^\{\{([^{}]*)\}\}$/.exec(value)?.[1] ?? null;

type TemplatedNode = { id: string; input: Record<string, unknown>; when?: unknown; for_each?: string };

/**
 * What is wrong with the references of a workflow's nodes, each as "nodes[i].<where>: why": an
 * unknown expression, an unknown node, the node itself or one after it, {{item…}} outside a
 * for_each node, a for_each that is not exactly one reference, an unclosed {{.
 */
export function templateProblems(nodes: TemplatedNode[]): string[] {
  const problems: string[] = [];
  const position = new Map(nodes.map((n, i) => [n.id, i]));
  const check = (i: number, where: string, text: string, itemAllowed: boolean) => {
    const stripped = text.replace(EXPRESSION, "");
    if (stripped.includes("{{") || stripped.includes("}}")) problems.push(`${where}: has an unclosed {{ or a stray }}`);
    for (const [, expression] of text.matchAll(EXPRESSION)) {
      const ref = parseReference(expression);
      if (typeof ref === "string") problems.push(`${where}: ${ref}`);
      else if ((ref.kind === "item" || ref.kind === "item_index") && !itemAllowed)
        problems.push(
          `${where}: {{${expression.trim()}}} stands only in the input or condition of a node with for_each (the loop's current item)`,
        );
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
  };
  for (const [i, node] of nodes.entries()) {
    const loop = node.for_each !== undefined;
    for (const [path, text] of strings(node.input ?? {}, "")) check(i, `nodes[${i}].input.${path}`, text, loop);
    if (node.when !== undefined)
      for (const [path, text] of strings(node.when, "")) check(i, `nodes[${i}].when.${path}`, text, loop);
    if (node.for_each !== undefined) {
      if (wholeReference(node.for_each.trim()) === null)
        problems.push(
          `nodes[${i}].for_each: must be exactly one {{…}} reference to a list, such as {{nodes.<id>.output.rows}}; got ${JSON.stringify(node.for_each.slice(0, 80))}`,
        );
      else check(i, `nodes[${i}].for_each`, node.for_each.trim(), false);
    }
  }
  return problems;
}

/** The ids of the nodes whose output `value` (a node's input, condition or list) refers to. */
export function referencedNodes(value: unknown): Set<string> {
  const ids = new Set<string>();
  for (const [, text] of strings(value ?? {}, ""))
    for (const [, expression] of text.matchAll(EXPRESSION)) {
      const ref = parseReference(expression);
      if (typeof ref !== "string" && ref.kind === "node") ids.add(ref.nodeId);
    }
  return ids;
}

export class TemplateError extends Error {}

/**
 * What a run's references read: its outputs so far (a skipped node's is null), what started it,
 * and, in a for_each node, the current item. `lenient` (conditions): a missing field reads
 * undefined instead of failing the node.
 */
export type RunContext = {
  startedAt: Date;
  timezone: string | null;
  outputs: Record<string, unknown>;
  trigger?: TriggerData;
  item?: { value: unknown; index: number };
  lenient?: boolean;
};

function runVariable(name: string, ctx: RunContext): string {
  const today = calendarDate(ctx.startedAt, ctx.timezone);
  if (name === "run.date.today") return today;
  if (name === "run.date.yesterday") return addDays(today, -1);
  if (name === "run.date.last_7_days_start") return addDays(today, -7);
  return ctx.startedAt.toISOString();
}

/** A field of `value` along `path`, or undefined when a segment is missing. */
function walk(value: unknown, path: string[]): { value: unknown; missingAt: number | null } {
  for (const [i, key] of path.entries()) {
    const next = Array.isArray(value)
      ? /^\d+$/.test(key)
        ? (value as unknown[])[Number(key)]
        : undefined
      : value && typeof value === "object"
        ? (value as Record<string, unknown>)[key]
        : undefined;
    if (next === undefined) return { value: undefined, missingAt: i };
    value = next;
  }
  return { value, missingAt: null };
}

function lookup(ref: Extract<Reference, { kind: "node" }>, ctx: RunContext): unknown {
  if (!(ref.nodeId in ctx.outputs)) {
    if (ctx.lenient) return undefined;
    throw new TemplateError(`{{nodes.${ref.nodeId}.output}}: node ${ref.nodeId} has no output in this run`);
  }
  const output = ctx.outputs[ref.nodeId];
  // A skipped node's output is null, and so is any path inside it (CONTRACT §13).
  if (output === null) return null;
  // Read back from its log after a takeover (lib/workflows/run-workflow.ts outputsOf): only its beginning was kept.
  if (isTruncatedBody(output)) {
    if (ctx.lenient) return undefined;
    throw new TemplateError(
      `{{nodes.${ref.nodeId}.output}}: node ${ref.nodeId}'s output (${bytes(output.original_bytes)}) was larger than its log keeps (LOG_BODY_MAX_BYTES), and this run was taken over by another instance, which reads outputs back from the logs; run the workflow again`,
    );
  }
  const found = walk(output, ref.path);
  if (found.missingAt !== null && !ctx.lenient)
    throw new TemplateError(
      `{{nodes.${ref.nodeId}.output.${ref.path.join(".")}}}: node ${ref.nodeId}'s output has no ${ref.path.slice(0, found.missingAt + 1).join(".")}`,
    );
  return found.value;
}

function resolveOne(ref: Reference, ctx: RunContext): unknown {
  if (ref.kind === "run") return runVariable(ref.name, ctx);
  if (ref.kind === "node") return lookup(ref, ctx);
  if (ref.kind === "trigger") {
    // A run has no such part (a manual run has no body): null, as is a field it lacks.
    const found = walk(ctx.trigger?.[ref.part] ?? null, ref.path);
    return found.missingAt !== null ? (ctx.lenient ? undefined : null) : (found.value ?? null);
  }
  if (!ctx.item) throw new TemplateError(`{{item…}} is used outside a for_each node`);
  if (ref.kind === "item_index") return ctx.item.index;
  const found = walk(ctx.item.value, ref.path);
  if (found.missingAt !== null && !ctx.lenient)
    throw new TemplateError(
      `{{item.${ref.path.join(".")}}}: item ${ctx.item.index} has no ${ref.path.slice(0, found.missingAt + 1).join(".")}`,
    );
  return found.value;
}

/**
 * The value a string stands for in a condition (`left`, `right`): a string that is one reference
 * takes its value, a longer one is filled in as text; a missing field is undefined, never an error.
 */
export function resolveConditionValue(value: unknown, ctx: RunContext): unknown {
  const lenient = { ...ctx, lenient: true };
  if (typeof value !== "string") return resolveInput(value, lenient, new ExpansionBudget(), "when");
  const whole = wholeReference(value);
  if (whole !== null) {
    const ref = parseReference(whole);
    if (typeof ref === "string") throw new TemplateError(ref);
    return resolveOne(ref, lenient);
  }
  return fillText(value, lenient, new ExpansionBudget(), "when");
}

/** The list a for_each node loops over: the value of its one reference (checked to be a list by the runner). */
export function resolveList(reference: string, ctx: RunContext): unknown {
  const whole = wholeReference(reference.trim());
  const ref = whole === null ? whole : parseReference(whole);
  if (ref === null || typeof ref === "string")
    throw new TemplateError(`for_each ${JSON.stringify(reference.slice(0, 80))} is not one {{…}} reference`);
  return resolveOne(ref, { ...ctx, item: undefined });
}

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
    const whole = wholeReference(value);
    if (whole !== null) {
      const ref = parseReference(whole);
      if (typeof ref === "string") throw new TemplateError(ref);
      const v = resolveOne(ref, ctx);
      // Taken as it is (no copy), but counted: the input is written whole into the node's log.
      budget.spend(jsonBytesWithin(v ?? null, budget.max - budget.used), field, `with ${value}`);
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
    else budget.spend(jsonBytesWithin(v ?? null, budget.max - budget.used), field, progress);
    parts.push(literal, typeof v === "string" ? v : JSON.stringify(v ?? null));
    last = m.index + m[0].length;
  }
  const tail = text.slice(last);
  budget.spend(utf8Bytes(tail), field, `after all ${matches.length.toLocaleString("en-US")} of its references`);
  parts.push(tail);
  return parts.join("");
}
