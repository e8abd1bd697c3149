import type { CatalogueOperation } from "@/lib/queries/operations";
import type { WorkflowNode } from "@/lib/queries/workflows";
import {
  conditionDraftOf,
  conditionOf,
  conditionProblemField,
  noCondition,
  type ConditionDraft,
} from "@/components/workflows/condition-model";
import {
  itemFields,
  kindOf,
  nodeOutputFields,
  referenceOf,
  type PickableField,
  type ValueKind,
} from "@/components/workflows/output-fields";

// The editor's form state and its conversion to and from the nodes the API saves. A node's input
// is edited field by field, each as text: the text becomes the field's type when saved, and a
// field holding a reference ({{nodes.report.output.rows}}) is saved as that text, whatever its
// type (the server checks it when the node runs).

export type Field = CatalogueOperation["fields"][number];
export type FieldKind = "text" | "longtext" | "number" | "boolean" | "choice" | "json";

export type NodeDraft = {
  /** Stable across reordering and renaming: React's key and the focus target after a move. */
  key: string;
  id: string;
  label: string;
  operation_id: string;
  /** "" for none. */
  connection_id: string;
  /** The operation's fields as typed, by name; an empty text leaves the field out. */
  values: Record<string, string>;
  /** Input keys that are not fields of the operation: kept as they are (saving reports them). */
  extra: Record<string, unknown>;
  /** "Run only when…": no rows, the node always runs. */
  condition: ConditionDraft;
  /** "For each row of…": the list's {{reference}}, or null when the node runs once. */
  forEach: string | null;
  continueOnError: boolean;
  /** A write that waits for a person's approval before it writes (each row apart). */
  approval: boolean;
};

const LONG_TEXT_FIELDS = new Set(["template", "query", "text", "note", "body", "message", "description"]);

export function fieldKind(field: Field, example: unknown): FieldKind {
  if (field.type === "choice" && field.options?.length) return "choice";
  if (field.type === "boolean") return "boolean";
  if (field.type === "number" || field.type === "integer") return "number";
  if (field.type === "string")
    return LONG_TEXT_FIELDS.has(field.name) || (typeof example === "string" && example.length > 50)
      ? "longtext"
      : "text";
  return "json";
}

/** What a field's input shows as an example: the operation's example value, else its default. */
export function exampleOf(op: CatalogueOperation, field: Field): string {
  const example = (op.example as Record<string, unknown> | null)?.[field.name] ?? field.default;
  if (example === undefined) return "";
  return typeof example === "string" ? example : JSON.stringify(example);
}

function toText(value: unknown, kind: FieldKind): string {
  if (value === undefined || value === null) return value === null && kind === "json" ? "null" : "";
  // A text saved in a JSON field reads back in quotes, or it would not parse as JSON when saved
  // again; a {{reference}} stays as typed.
  if (typeof value === "string") return kind === "json" && !value.includes("{{") ? JSON.stringify(value) : value;
  if (kind === "json") return JSON.stringify(value, null, 2);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

let counter = 0;
const newKey = () => `n${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A node as the form edits it. */
export function draftOf(node: WorkflowNode, op: CatalogueOperation | undefined): NodeDraft {
  const values: Record<string, string> = {};
  const extra: Record<string, unknown> = {};
  const fields = new Map((op?.fields ?? []).map((f) => [f.name, f]));
  for (const [name, value] of Object.entries(node.input ?? {})) {
    const field = fields.get(name);
    if (field && op)
      values[name] = toText(value, fieldKind(field, (op.example as Record<string, unknown> | null)?.[name]));
    else extra[name] = value;
  }
  return {
    key: newKey(),
    id: node.id,
    label: node.label,
    operation_id: node.operation_id,
    connection_id: node.connection_id ?? "",
    values,
    extra,
    condition: conditionDraftOf(node.when),
    forEach: node.for_each ?? null,
    continueOnError: node.continue_on_error === true,
    approval: node.approval === "required",
  };
}

/** An empty node with an id no other node has. */
export function blankDraft(taken: string[]): NodeDraft {
  let n = taken.length + 1;
  while (taken.includes(`node_${n}`)) n++;
  return {
    key: newKey(),
    id: `node_${n}`,
    label: "",
    operation_id: "",
    connection_id: "",
    values: {},
    extra: {},
    condition: noCondition(),
    forEach: null,
    continueOnError: false,
    approval: false,
  };
}

/**
 * The node with another operation: same-named fields keep their text; the connection stays if the
 * new operation can use it.
 */
export function withOperation(draft: NodeDraft, op: CatalogueOperation | undefined): NodeDraft {
  const names = new Set((op?.fields ?? []).map((f) => f.name));
  const values = Object.fromEntries(Object.entries(draft.values).filter(([name]) => names.has(name)));
  const connections = op?.connections ?? [];
  const connection_id =
    !op || op.connection_types.length === 0
      ? ""
      : connections.some((c) => c.id === draft.connection_id)
        ? draft.connection_id
        : (connections[0]?.id ?? "");
  // Only a write asks for approval: a read keeps no such setting.
  const approval = op?.kind === "write" ? draft.approval : false;
  return { ...draft, operation_id: op?.id ?? "", connection_id, values, extra: {}, approval };
}

/**
 * What a node's condition, loop and references can use: the fields of the earlier nodes' outputs
 * (from their operations' output schemas), the lists among them, and, when the node loops over a
 * list whose rows' shape is known, the row's fields.
 */
export type NodeFields = {
  earlier: PickableField[];
  lists: PickableField[];
  /** The current row's fields ({{item…}}); empty when the node does not loop. */
  item: PickableField[];
  byRef: (ref: string) => PickableField | undefined;
  /** A value's kind for a comparison with the field `left` ({{reference}} text): a list's rows' kind for contains. */
  compareKind: (left: string) => ValueKind;
};

export function nodeFields(
  drafts: Pick<NodeDraft, "id" | "label" | "operation_id" | "forEach">[],
  index: number,
  operation: (id: string) => CatalogueOperation | undefined,
): NodeFields {
  const earlier = drafts
    .slice(0, index)
    .flatMap((d) =>
      nodeOutputFields(
        { id: d.id, label: d.label, operation_id: d.operation_id, loops: d.forEach !== null },
        operation(d.operation_id),
      ),
    );
  const lists = earlier.filter((f) => f.kind === "list");
  const draft = drafts[index];
  const loopRef = draft?.forEach === null || draft === undefined ? null : referenceOf(draft.forEach);
  const list = loopRef === null ? undefined : lists.find((f) => f.ref === loopRef);
  const item = draft?.forEach != null ? itemFields(list?.items) : [];
  const all = new Map([...earlier, ...item].map((f) => [f.ref, f]));
  const byRef = (ref: string) => all.get(ref);
  return {
    earlier,
    lists,
    item,
    byRef,
    compareKind: (left) => {
      const ref = referenceOf(left);
      const f = ref === null ? undefined : byRef(ref);
      if (!f) return "any";
      return f.kind === "list" ? kindOf(f.items) : f.kind;
    },
  };
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * One field's text as the value saved; a text that is not JSON where JSON is wanted is a problem,
 * unless it holds a reference.
 */
function valueOf(text: string, kind: FieldKind, field: Field): { value: unknown } | { problem: string } {
  if (kind === "text" || kind === "longtext") return { value: text };
  const t = text.trim();
  if (kind === "number") return { value: NUMBER.test(t) ? Number(t) : t };
  if (kind === "boolean") return { value: t === "true" ? true : t === "false" ? false : t };
  if (kind === "choice") return { value: field.options?.find((o) => String(o) === t) ?? t };
  try {
    return { value: JSON.parse(t) };
  } catch {
    if (t.includes("{{")) return { value: t };
    return {
      problem: `is not valid JSON (a list is written [ … ], an object { … }, a text in "quotes"), nor a {{reference}}`,
    };
  }
}

/** The node the API saves, or what is wrong with the form's text. */
export function nodeOf(
  draft: NodeDraft,
  op: CatalogueOperation | undefined,
  index: number,
  compareKind: (left: string) => ValueKind = () => "any",
): { node: WorkflowNode; problems: string[] } {
  const input: Record<string, unknown> = { ...draft.extra };
  const problems: string[] = [];
  for (const field of op?.fields ?? []) {
    const text = draft.values[field.name];
    if (text === undefined || text.trim() === "") continue;
    const result = valueOf(
      text,
      fieldKind(field, (op!.example as Record<string, unknown> | null)?.[field.name]),
      field,
    );
    if ("problem" in result) problems.push(`nodes[${index}].input.${field.name}: ${result.problem}`);
    else input[field.name] = result.value;
  }
  // What must be filled in before the server is asked: every such problem at once, each on its field.
  if (!draft.label.trim()) problems.push(`nodes[${index}].label: is required: say what this node does`);
  if (!draft.operation_id) problems.push(`nodes[${index}].operation_id: is required: choose an operation`);
  else if (op && op.connection_types.length > 0 && !draft.connection_id)
    problems.push(`nodes[${index}].connection_id: is required: choose a connection`);
  for (const field of op?.fields ?? [])
    if (field.required && !(draft.values[field.name] ?? "").trim())
      problems.push(`nodes[${index}].input.${field.name}: is required`);
  const condition = conditionOf(draft.condition, `nodes[${index}].when`, compareKind);
  problems.push(...condition.problems);
  if (draft.forEach !== null && !draft.forEach.trim())
    problems.push(`nodes[${index}].for_each: is required: choose the list to go through, or run the node once`);
  const needsConnection = op ? op.connection_types.length > 0 : draft.connection_id !== "";
  const node: WorkflowNode = {
    id: draft.id.trim(),
    label: draft.label.trim(),
    operation_id: draft.operation_id,
    ...(needsConnection && draft.connection_id && { connection_id: draft.connection_id }),
    input,
    ...(condition.when !== undefined && { when: condition.when }),
    ...(draft.forEach !== null && draft.forEach.trim() && { for_each: draft.forEach.trim() }),
    ...(draft.continueOnError && { continue_on_error: true }),
    ...(draft.approval && (!op || op.kind === "write") && { approval: "required" as const }),
  };
  return { node, problems };
}

/** Where a problem belongs in the form: a workflow field, or one node's field (input fields by name). */
type ProblemPlace = { node: number | null; field: string | null; message: string };

/** The words a field is shown with; input fields keep their own names (input.template). */
const FIELD_WORDS: Record<string, string> = {
  name: "Name",
  nodes: "Nodes",
  schedule: "Schedule",
  timezone: "Time zone",
  id: "ID",
  label: "Label",
  operation_id: "Operation",
  connection_id: "Connection",
  when: "Run only when",
  for_each: "For each row of",
  continue_on_error: "Continue if this step fails",
  approval: "Ask for approval",
};

const CONDITION_PART: Record<string, string> = { left: "field", op: "operator", right: "value" };

/** A field's words: "Label", "input.template", "Run only when, condition 2 · value". */
function fieldWords(field: string): string {
  const row = /^when\.(\d+)\.(left|op|right)$/.exec(field);
  if (row) return `Run only when, condition ${Number(row[1]) + 1} · ${CONDITION_PART[row[2]]}`;
  return FIELD_WORDS[field] ?? field;
}

/**
 * Where a problem of the API's 400 (or of the form) belongs: "nodes[1].input.template: …" (the
 * checks' form) and "nodes.1.label: …" (the schema's, before it named items in brackets) are node
 * 2's template and label; "schedule: …" is the schedule. A problem with no field (a 403's reason)
 * belongs to the form.
 */
function problemPlace(problem: string): ProblemPlace {
  const m = /^(?:nodes(?:\[(\d+)\]|\.(\d+))\.?)?([A-Za-z_][\w]*(?:\.[\w]+|\[\d+\])*|\(input\))?: ([\s\S]*)$/.exec(
    problem,
  );
  if (!m || (m[1] === undefined && m[2] === undefined && !m[3])) return { node: null, field: null, message: problem };
  const node = m[1] ?? m[2];
  let field = m[3] ?? null;
  // An input's problem is its field's, however deep inside the field's value it lies.
  if (field?.startsWith("input.")) field = `input.${field.split(".")[1].replace(/\[.*$/, "")}`;
  if (field === "(input)") field = "input";
  // A condition's problem is its row's field (when.0.right), or the condition's as a whole.
  if (field === "when" || field?.startsWith("when.")) field = conditionProblemField(field);
  return { node: node === undefined ? null : Number(node), field, message: m[4] };
}

/** The key of a problem's field in the form: "name", "schedule", "node:1:input.template". */
const problemKey = (p: ProblemPlace) =>
  p.field === null ? null : p.node === null ? p.field : `node:${p.node}:${p.field}`;

/**
 * A problem of the API's 400 (or of the form) as a person reads it, naming the node and the
 * field: "nodes[1].input.template: …" becomes "Node 2 (message) · input.template: …", and
 * "nodes.0.label: is empty" "Node 1 (node_1) · Label: is empty".
 */
export function readableProblem(problem: string, ids: string[]): string {
  const p = problemPlace(problem);
  if (p.field === null && p.node === null) return problem;
  const field = p.field === null ? "" : `${fieldWords(p.field)}: `;
  if (p.node === null) return `${field}${p.message}`;
  return `Node ${p.node + 1}${ids[p.node] ? ` (${ids[p.node]})` : ""} · ${field}${p.message}`;
}

/** Each field's problems, by problemKey, for the field to show beside it. */
export function problemsByField(problems: string[]): Map<string, string> {
  const byField = new Map<string, string>();
  for (const problem of problems) {
    const key = problemKey(problemPlace(problem));
    if (key) {
      const message = problemPlace(problem).message;
      byField.set(key, byField.has(key) ? `${byField.get(key)}; ${message}` : message);
    }
  }
  return byField;
}
