import type { z } from "zod";

// An operation input's problems in a person's words ("note is too long (612 characters; the limit
// is 500)"), not zod's ("Too big: expected string to have <=500 characters"): the agent's answer,
// an MCP tool error and the workflow editor all show them to someone who typed the value.

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

const countOf = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

/**
 * What is wrong with the value at the issue's path, without the path: "is too long (612
 * characters; the limit is 500)".
 */
export function inputIssueText(issue: z.core.$ZodIssue, input: unknown): string {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case "too_big":
      if (typeof value === "string")
        return `is too long (${countOf(value.length, "character", "characters")}; the limit is ${issue.maximum})`;
      if (Array.isArray(value)) return `has too many items (${value.length}; at most ${issue.maximum})`;
      return `is too large (at most ${issue.maximum})`;
    case "too_small":
      if (typeof value === "string")
        return value.length === 0
          ? "is empty"
          : `is too short (${countOf(value.length, "character", "characters")}; at least ${issue.minimum})`;
      if (Array.isArray(value)) return `needs at least ${countOf(issue.minimum, "item", "items")}`;
      return `is too small (at least ${issue.minimum})`;
    case "invalid_type":
      return value === undefined
        ? "is required"
        : `must be ${issue.expected === "int" ? "a whole number" : `a ${issue.expected}`}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `has no field ${issue.keys.join(", ")}`;
    default:
      return `is not valid: ${issue.message}`;
  }
}

/** Every problem of an input, each named by its field: "note is too long (…); days must be a number". */
export function describeInputIssues(error: z.ZodError, input: unknown): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${path || "the input"} ${inputIssueText(issue, input)}`;
  });
}
