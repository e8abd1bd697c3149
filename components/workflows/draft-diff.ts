import { scheduleSummary } from "@/components/workflows/schedule-words";
import type { WorkflowDraft, WorkflowNode } from "@/lib/queries/workflows";

// What a Copilot draft changes in the editor's workflow, line by line, for the member to read
// before applying it: the name, each node (by id) added, removed or changed and in what, the
// schedule and activation.

export type DiffLine = { kind: "added" | "removed" | "changed"; text: string };

/** JSON with object keys sorted, so the same input compares equal whatever its field order. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : v && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(v);

const scheduleText = (schedule: string | null, timezone: string | null) => {
  const s = scheduleSummary(schedule, timezone);
  return s.zone ? `${s.words} (${s.zone})` : "run by hand";
};

export function draftDiff(
  before: WorkflowDraft,
  after: WorkflowDraft,
  describeNode: (node: WorkflowNode) => string,
): DiffLine[] {
  const lines: DiffLine[] = [];
  if (before.name.trim() !== after.name.trim())
    lines.push({
      kind: before.name.trim() ? "changed" : "added",
      text: before.name.trim() ? `Name: “${before.name}” → “${after.name}”` : `Name: “${after.name}”`,
    });
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const kept = new Set<string>();
  for (const node of after.nodes) {
    const was = old.get(node.id);
    if (!was) {
      lines.push({ kind: "added", text: `Node ${describeNode(node)}` });
      continue;
    }
    kept.add(node.id);
    const what = [
      was.label !== node.label && "label",
      was.operation_id !== node.operation_id && "operation",
      (was.connection_id ?? null) !== (node.connection_id ?? null) && "connection",
      canonical(was.input ?? {}) !== canonical(node.input ?? {}) && "input",
    ].filter(Boolean);
    if (what.length) lines.push({ kind: "changed", text: `Node ${describeNode(node)}: ${what.join(", ")}` });
  }
  for (const node of before.nodes)
    if (!kept.has(node.id)) lines.push({ kind: "removed", text: `Node ${describeNode(node)}` });
  const was = scheduleText(before.schedule, before.timezone);
  const now = scheduleText(after.schedule, after.timezone);
  if (was !== now) lines.push({ kind: "changed", text: `Schedule: ${was} → ${now}` });
  if (before.active !== after.active)
    lines.push({ kind: "changed", text: `Active: ${before.active ? "yes" : "no"} → ${after.active ? "yes" : "no"}` });
  return lines;
}
