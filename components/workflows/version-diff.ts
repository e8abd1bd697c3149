import { describeSchedule } from "@/components/workflows/schedule-words";
import type { WorkflowTrigger, WorkflowVersion } from "@/components/workflows/trigger-api";
import type { WorkflowNode } from "@/lib/queries/workflows";

// What restoring a version would change in the current one (CONTRACT §13 versions): each node
// (by id) it would add back, remove or change and in which fields (old → new), and the trigger.
// A version records nodes and trigger only: the name and activation are not restored.

export type VersionDiffLine = { kind: "added" | "removed" | "changed"; text: string; details: string[] };

/** JSON with object keys sorted, so the same value compares equal whatever its field order. */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(",")}]`
    : v && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(v);

const MAX = 80;
/** A value as it reads in one line of a diff: JSON, cut at 80 characters; "none" when absent. */
const shown = (v: unknown) => {
  if (v === undefined || v === null) return "none";
  const text = JSON.stringify(v);
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
};

/** A trigger in words: "Manual", "Schedule 0 9 * * 1 (Europe/Paris)", "Events: a, b". */
export function triggerWords(t: WorkflowTrigger | undefined): string {
  if (!t || t.type === "manual") return "Manual";
  if (t.type === "webhook") return "Webhook";
  if (t.type === "event") return `Events: ${(t.events ?? []).join(", ") || "none"}`;
  const cron = t.schedule ?? "";
  return `Schedule ${cron} (${describeSchedule(cron)}, ${t.timezone ?? "UTC"})`;
}

const FIELDS: (keyof WorkflowNode)[] = [
  "label",
  "operation_id",
  "connection_id",
  "when",
  "for_each",
  "continue_on_error",
  "approval",
];

/** Each field of a node that differs, "field: old → new"; input fields one by one. */
function nodeChanges(was: WorkflowNode, now: WorkflowNode): string[] {
  const lines: string[] = [];
  for (const f of FIELDS)
    if (canonical(was[f] ?? null) !== canonical(now[f] ?? null))
      lines.push(`${f}: ${shown(was[f])} → ${shown(now[f])}`);
  const a = was.input ?? {};
  const b = now.input ?? {};
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (canonical(a[k] ?? null) !== canonical(b[k] ?? null)) lines.push(`input.${k}: ${shown(a[k])} → ${shown(b[k])}`);
  return lines;
}

const nodeName = (n: WorkflowNode) => `${n.id} (${n.label})`;

/** What going from `current` to `target` changes: the lines restoring `target` would make true. */
export function versionDiff(
  current: Pick<WorkflowVersion, "nodes" | "trigger">,
  target: Pick<WorkflowVersion, "nodes" | "trigger">,
): VersionDiffLine[] {
  const lines: VersionDiffLine[] = [];
  const before = new Map(current.nodes.map((n) => [n.id, n]));
  const after = new Map(target.nodes.map((n) => [n.id, n]));
  for (const n of target.nodes) {
    const was = before.get(n.id);
    if (!was) lines.push({ kind: "added", text: `Node ${nodeName(n)} is added`, details: [] });
    else {
      const details = nodeChanges(was, n);
      if (details.length) lines.push({ kind: "changed", text: `Node ${nodeName(n)} changes`, details });
    }
  }
  for (const n of current.nodes)
    if (!after.has(n.id)) lines.push({ kind: "removed", text: `Node ${nodeName(n)} is removed`, details: [] });
  const kept = (ids: string[]) => ids.filter((id) => before.has(id) && after.has(id));
  const order = (nodes: WorkflowNode[]) => kept(nodes.map((n) => n.id)).join(",");
  if (order(current.nodes) !== order(target.nodes))
    lines.push({
      kind: "changed",
      text: "The nodes run in another order",
      details: [
        `${kept(current.nodes.map((n) => n.id)).join(" → ")}  becomes  ${kept(target.nodes.map((n) => n.id)).join(" → ")}`,
      ],
    });
  const was = triggerWords(current.trigger);
  const now = triggerWords(target.trigger);
  if (was !== now) lines.push({ kind: "changed", text: "Trigger changes", details: [`${was} → ${now}`] });
  return lines;
}
