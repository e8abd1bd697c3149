import { CONDITION_MAX_DEPTH, CONDITION_OPS, type Condition } from "@/lib/schemas/workflows";
import { resolveConditionValue, type RunContext } from "@/lib/workflows/templates";

// A node's `when` (CONTRACT §13): checked when the workflow is saved, evaluated when the node is
// reached. A missing field is never an error here: it reads as missing, which `exists` tells apart
// and every comparison treats as null. Pure, so the editor's preview and the runner agree.

const NO_RIGHT = new Set(["exists", "not_exists"]);

/** What is wrong with a condition beyond its shape (which zod checks): its depth, a missing `right`. */
export function conditionProblems(condition: Condition, where: string, depth = 0): string[] {
  if ("all" in condition || "any" in condition || "not" in condition) {
    if (depth >= CONDITION_MAX_DEPTH)
      return [
        `${where}: nests all/any/not more than ${CONDITION_MAX_DEPTH} levels deep above a comparison; flatten it`,
      ];
    if ("not" in condition) return conditionProblems(condition.not, `${where}.not`, depth + 1);
    const [key, list] = "all" in condition ? ["all", condition.all] : ["any", condition.any];
    return list.flatMap((c, i) => conditionProblems(c, `${where}.${key}[${i}]`, depth + 1));
  }
  if (!CONDITION_OPS.includes(condition.op)) return [`${where}.op: is not an operator`];
  if (!NO_RIGHT.has(condition.op) && condition.right === undefined)
    return [`${where}.right: ${condition.op} compares with a value; give "right"`];
  if (NO_RIGHT.has(condition.op) && condition.right !== undefined)
    return [`${where}.right: ${condition.op} takes no "right"; leave it out`];
  return [];
}

/** JSON values equal exactly: types included (1 is not "1"), object keys in any order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((v, i) => jsonEqual(v, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  return keys.length === Object.keys(bo).length && keys.every((k) => k in bo && jsonEqual(ao[k], bo[k]));
}

const NUMBER_TEXT = /^\s*-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?\s*$/;

/** A number, or a string that is a JSON number (spaces around it allowed); anything else null. */
function numeric(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && NUMBER_TEXT.test(v)) return Number(v);
  return null;
}

function contains(left: unknown, right: unknown): boolean | null {
  if (typeof left === "string") return typeof right === "string" && left.includes(right);
  if (Array.isArray(left)) return left.some((m) => jsonEqual(m, right));
  return null;
}

/** Whether one comparison holds for the values its sides stand for. */
function compare(op: (typeof CONDITION_OPS)[number], left: unknown, right: unknown): boolean {
  switch (op) {
    case "eq":
      return jsonEqual(left, right);
    case "ne":
      return !jsonEqual(left, right);
    case "exists":
      return left !== undefined && left !== null;
    case "not_exists":
      return left === undefined || left === null;
    case "contains":
      return contains(left, right) === true;
    case "not_contains":
      return contains(left, right) === false;
    default: {
      const l = numeric(left);
      const r = numeric(right);
      if (l === null || r === null) return false;
      return op === "gt" ? l > r : op === "gte" ? l >= r : op === "lt" ? l < r : l <= r;
    }
  }
}

/** Whether `condition` holds in the run as it stands (its references filled in from `ctx`). */
export function evaluateCondition(condition: Condition, ctx: RunContext): boolean {
  if ("all" in condition) return condition.all.every((c) => evaluateCondition(c, ctx));
  if ("any" in condition) return condition.any.some((c) => evaluateCondition(c, ctx));
  if ("not" in condition) return !evaluateCondition(condition.not, ctx);
  const left = resolveConditionValue(condition.left, ctx);
  const right = NO_RIGHT.has(condition.op) ? undefined : resolveConditionValue(condition.right, ctx);
  return compare(condition.op, left, right);
}
