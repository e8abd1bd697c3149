import { CONDITION_OPS, type Condition, type ConditionOp } from "@/lib/schemas/workflows";
import { referenceOf, type PickableField, type ValueKind } from "@/components/workflows/output-fields";

// A node's "Run only when…" as the editor builds it: rows of field, operator and value, joined by
// all or any, written as the node's `when` (CONTRACT §13). A condition the rows cannot show (nested
// groups, a `not`, a value that is a list) is kept as its JSON and edited as such.

/** The operators in the words the builder and its preview use. */
export const OP_WORDS: Record<ConditionOp, string> = {
  eq: "is",
  ne: "is not",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  contains: "contains",
  not_contains: "does not contain",
  exists: "has a value",
  not_exists: "has no value",
};

export const NO_VALUE_OPS = new Set<ConditionOp>(["exists", "not_exists"]);
const NUMBER_OPS = new Set<ConditionOp>(["gt", "gte", "lt", "lte"]);

/** The operators that make sense for a field of this kind, in the order the picker lists them. */
export function opsFor(kind: ValueKind): ConditionOp[] {
  switch (kind) {
    case "number":
      return ["eq", "ne", "gt", "gte", "lt", "lte", "exists", "not_exists"];
    case "boolean":
      return ["eq", "ne", "exists", "not_exists"];
    case "string":
      return ["eq", "ne", "contains", "not_contains", "exists", "not_exists"];
    case "list":
      return ["contains", "not_contains", "exists", "not_exists"];
    case "object":
      return ["exists", "not_exists"];
    default:
      return [...CONDITION_OPS];
  }
}

/** One row of the builder: `left` is the field's {{reference}} as text, `right` the value as typed. */
export type ConditionRow = {
  key: string;
  left: string;
  op: ConditionOp;
  right: string;
  /** The saved value and the text it was shown as: kept as it was while that text is unchanged. */
  kept?: { text: string; value: unknown };
};

/** `group`: written as all/any even with one row (it was saved so). */
export type ConditionDraft =
  { mode: "rows"; join: "all" | "any"; rows: ConditionRow[]; group?: boolean } | { mode: "json"; text: string };

let counter = 0;
const newRowKey = () => `c${Date.now().toString(36)}${(counter++).toString(36)}`;

export const noCondition = (): ConditionDraft => ({ mode: "rows", join: "all", rows: [] });

export const blankRow = (left = ""): ConditionRow => ({ key: newRowKey(), left, op: "eq", right: "" });

type Leaf = { left: unknown; op: ConditionOp; right?: unknown };
const isLeaf = (c: Condition): c is Leaf => "op" in c;

/** A saved right-hand value as the text box shows it, or null when only JSON can show it. */
function rightText(value: unknown): string | null {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

function rowOf(leaf: Leaf): ConditionRow | null {
  if (typeof leaf.left !== "string" || !CONDITION_OPS.includes(leaf.op)) return null;
  const text = rightText(leaf.right);
  if (text === null) return null;
  return {
    key: newRowKey(),
    left: leaf.left,
    op: leaf.op,
    right: text,
    ...(leaf.right !== undefined && { kept: { text, value: leaf.right } }),
  };
}

/** A saved `when` as the builder's rows, or as JSON when the rows cannot show it. */
export function conditionDraftOf(when: Condition | undefined): ConditionDraft {
  if (when === undefined) return noCondition();
  const asJson = (): ConditionDraft => ({ mode: "json", text: JSON.stringify(when, null, 2) });
  if (isLeaf(when)) {
    const row = rowOf(when);
    return row ? { mode: "rows", join: "all", rows: [row] } : asJson();
  }
  if ("all" in when || "any" in when) {
    const join = "all" in when ? "all" : "any";
    const list = "all" in when ? when.all : when.any;
    const rows = list.map((c) => (isLeaf(c) ? rowOf(c) : null));
    return rows.every((r): r is ConditionRow => r !== null) && rows.length > 0
      ? { mode: "rows", join, rows, group: rows.length === 1 }
      : asJson();
  }
  return asJson();
}

const NUMBER = /^\s*-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\s*$/;

/**
 * The value a row's text stands for: a number where the field is a number (or the operator
 * compares numbers), true or false for a yes/no field, else the text; a {{reference}} stays text
 * (it is filled in when the node runs). A field of unknown kind takes a number or true/false as
 * such: a comparison is exact about types (1 is not "1").
 */
function rightValue(row: ConditionRow, kind: ValueKind): unknown {
  if (row.kept && row.kept.text === row.right) return row.kept.value;
  const text = row.right;
  if (text.includes("{{")) return text;
  const numeric = NUMBER.test(text);
  if (NUMBER_OPS.has(row.op)) return numeric ? Number(text) : text;
  if ((kind === "number" || kind === "any") && numeric) return Number(text);
  if (kind === "boolean" || kind === "any") {
    if (text.trim() === "true") return true;
    if (text.trim() === "false") return false;
  }
  return text;
}

/** The `when` the builder stands for (undefined: the node always runs), and what must be fixed first. */
export function conditionOf(
  draft: ConditionDraft,
  where: string,
  kindOfRef: (left: string) => ValueKind,
): { when: Condition | undefined; problems: string[] } {
  if (draft.mode === "json") {
    if (!draft.text.trim()) return { when: undefined, problems: [] };
    try {
      return { when: JSON.parse(draft.text) as Condition, problems: [] };
    } catch {
      return { when: undefined, problems: [`${where}: is not valid JSON; fix it, or clear it and use the builder`] };
    }
  }
  const problems: string[] = [];
  const grouped = draft.rows.length > 1 || draft.group === true;
  const leaves = draft.rows.map((row, i) => {
    const at = grouped ? `${where}.${draft.join}[${i}]` : where;
    if (!row.left.trim()) problems.push(`${at}.left: is required: choose a field to compare`);
    const leaf: Leaf = { left: row.left.trim(), op: row.op };
    if (!NO_VALUE_OPS.has(row.op)) {
      if (row.right === "" && !row.kept)
        problems.push(`${at}.right: is required: type the value to compare with (or choose “has a value”)`);
      leaf.right = rightValue(row, kindOfRef(row.left.trim()));
    }
    return leaf;
  });
  if (!leaves.length) return { when: undefined, problems };
  return { when: grouped ? ({ [draft.join]: leaves } as Condition) : leaves[0], problems };
}

/**
 * A problem's place in the builder from its path under `when`: "when.right" and
 * "when.all[2].op" are row 1's value and row 3's operator (as `when.0.right`, `when.2.op`); a
 * reference's problem inside a value ("when.any.1.right") is that row's too;
 * anything else is the condition's as a whole ("when").
 */
export function conditionProblemField(path: string): string {
  // The save checks write a list's item in brackets (when.all[2]), the reference checks with a dot (when.all.2).
  const m = /^when(?:\.(?:all|any)(?:\[(\d+)\]|\.(\d+)))?\.(left|op|right)$/.exec(path);
  return m ? `when.${m[1] ?? m[2] ?? 0}.${m[3]}` : "when";
}

/** How a value reads in the preview: a number as it is, a text in quotes, a reference by its field's name. */
function valueWords(row: ConditionRow, fieldByRef: (ref: string) => PickableField | undefined): string {
  const ref = referenceOf(row.right);
  if (ref !== null) return fieldByRef(ref)?.name ?? row.right;
  const v = rightValue(row, "any");
  return typeof v === "string" ? `“${v}”` : String(v);
}

/** One row in words: "Total sessions is less than 1000"; null while it is not filled in. */
function rowWords(row: ConditionRow, fieldByRef: (ref: string) => PickableField | undefined) {
  const ref = referenceOf(row.left);
  if (!row.left.trim()) return null;
  const name = (ref !== null && fieldByRef(ref)?.name) || row.left.trim();
  if (NO_VALUE_OPS.has(row.op)) return { name, rest: OP_WORDS[row.op] };
  if (row.right === "") return null;
  return { name, rest: `${OP_WORDS[row.op]} ${valueWords(row, fieldByRef)}` };
}

/** The builder's condition in words, part by part (names to emphasise); null when there is none to read yet. */
export function conditionWords(
  draft: ConditionDraft,
  fieldByRef: (ref: string) => PickableField | undefined,
): { name: string; rest: string }[] | null {
  if (draft.mode !== "rows" || !draft.rows.length) return null;
  const parts = draft.rows.map((r) => rowWords(r, fieldByRef));
  if (parts.some((p) => p === null)) return null;
  return parts as { name: string; rest: string }[];
}
