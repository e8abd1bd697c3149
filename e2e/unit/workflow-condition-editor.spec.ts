import { test, expect } from "@playwright/test";
import {
  conditionDraftOf,
  conditionOf,
  conditionWords,
  type ConditionDraft,
} from "@/components/workflows/condition-model";
import {
  blankDraft,
  draftOf,
  nodeFields,
  nodeOf,
  problemsByField,
  readableProblem,
  type NodeDraft,
} from "@/components/workflows/editor-model";
import { evaluateCondition } from "@/lib/workflows/conditions";
import { groupSteps, stepNote } from "@/components/workflows/run-steps";
import type { RunNode } from "@/lib/queries/workflows";
import type { CatalogueOperation } from "@/lib/queries/operations";
import type { Condition, ConditionOp } from "@/lib/schemas/workflows";

// The editor's condition builder and loop picker (issue 48) as pure functions: the fields it
// offers from an operation's output_schema, the `when` it writes (which the runner's evaluator
// reads as the preview says), a saved condition read back unchanged, a save's problems under
// `when` and `for_each` placed on their fields; and the run view's rows and reasons.

const REPORT_SCHEMA = {
  type: "object",
  properties: {
    total: { type: "number", description: "Total sessions. The sum of the rows." },
    rows: {
      type: "array",
      description: "Daily values",
      items: {
        type: "object",
        properties: {
          date: { type: "string", description: "Day" },
          value: { type: "number", description: "Sessions that day" },
        },
      },
    },
    note: { anyOf: [{ type: "string" }, { type: "null" }], description: "The account's note" },
    account: { type: "object", properties: { id: { type: "string", description: "Account id" } } },
  },
};

const op = (id: string, output_schema: unknown) =>
  ({ id, kind: "read", fields: [], example: {}, connection_types: [], output_schema }) as unknown as CatalogueOperation;
const OPS = new Map([
  ["sandbox.report", op("sandbox.report", REPORT_SCHEMA)],
  ["utility.format_text", op("utility.format_text", null)],
]);

const node = (patch: Partial<NodeDraft>): NodeDraft => ({ ...blankDraft([]), ...patch });

test("the pickers offer an earlier node's output fields by their descriptions, its lists, and in a loop the row's fields", () => {
  const drafts = [
    node({ id: "report", label: "Sessions", operation_id: "sandbox.report" }),
    node({
      id: "each",
      label: "Each day",
      operation_id: "utility.format_text",
      forEach: "{{nodes.report.output.rows}}",
    }),
    node({ id: "after", operation_id: "utility.format_text" }),
  ];
  const first = nodeFields(drafts, 0, (id) => OPS.get(id));
  expect(first.earlier).toEqual([]);

  const loop = nodeFields(drafts, 1, (id) => OPS.get(id));
  expect(loop.earlier.map((f) => [f.ref, f.name, f.kind])).toEqual([
    ["nodes.report.output.total", "Total sessions", "number"],
    ["nodes.report.output.rows", "Daily values", "list"],
    ["nodes.report.output.note", "The account's note", "string"],
    ["nodes.report.output.account", "account", "object"],
    ["nodes.report.output.account.id", "Account id", "string"],
  ]);
  expect(loop.lists.map((f) => f.ref)).toEqual(["nodes.report.output.rows"]);
  expect(loop.item.map((f) => [f.ref, f.name, f.kind])).toEqual([
    ["item.date", "Day", "string"],
    ["item.value", "Sessions that day", "number"],
    ["item_index", "The row's position (0 for the first)", "number"],
  ]);

  // A node that looped outputs the list of its rows' outputs: that list is what later nodes see of it.
  const after = nodeFields(drafts, 2, (id) => OPS.get(id));
  expect(after.lists.map((f) => f.ref)).toEqual(["nodes.report.output.rows", "nodes.each.output"]);
  expect(after.item).toEqual([]);
});

test("the builder writes a leaf, or all/any of leaves, typed by the field; the runner's evaluator agrees with the preview", () => {
  const drafts = [
    node({ id: "report", label: "Sessions", operation_id: "sandbox.report" }),
    node({ id: "each", operation_id: "utility.format_text", forEach: "{{nodes.report.output.rows}}" }),
  ];
  const fields = nodeFields(drafts, 1, (id) => OPS.get(id));
  const rows = (join: "all" | "any", ...r: [string, ConditionOp, string][]) =>
    ({
      mode: "rows",
      join,
      rows: r.map(([left, op, right], i) => ({ key: `k${i}`, left, op, right })),
    }) as ConditionDraft;

  const one = rows("all", ["{{nodes.report.output.total}}", "lt", "1000"]);
  expect(conditionOf(one, "nodes[1].when", fields.compareKind)).toEqual({
    when: { left: "{{nodes.report.output.total}}", op: "lt", right: 1000 },
    problems: [],
  });
  expect(conditionWords(one, fields.byRef)).toEqual([{ name: "Total sessions", rest: "is less than 1000" }]);

  // A text field keeps "2026" as text (1 is not "1"); a number field takes it as a number.
  const two = rows(
    "any",
    ["{{item.date}}", "eq", "2026"],
    ["{{item.value}}", "gte", "500"],
    ["{{nodes.report.output.note}}", "exists", ""],
  );
  const built = conditionOf(two, "nodes[1].when", fields.compareKind);
  expect(built).toEqual({
    when: {
      any: [
        { left: "{{item.date}}", op: "eq", right: "2026" },
        { left: "{{item.value}}", op: "gte", right: 500 },
        { left: "{{nodes.report.output.note}}", op: "exists" },
      ],
    },
    problems: [],
  });
  const ctx = (value: number, note: string | null) => ({
    startedAt: new Date(),
    timezone: null,
    outputs: { report: { total: 1, rows: [], note } },
    item: { value: { date: "2026-01-01", value }, index: 0 },
  });
  expect(evaluateCondition(built.when!, ctx(499, null))).toBe(false);
  expect(evaluateCondition(built.when!, ctx(500, null))).toBe(true);
  expect(evaluateCondition(built.when!, ctx(1, "hello"))).toBe(true);

  // What is missing is named on its place, as the server would name it.
  expect(
    conditionOf(rows("all", ["", "eq", ""], ["{{item.value}}", "gt", ""]), "nodes[1].when", fields.compareKind)
      .problems,
  ).toEqual([
    "nodes[1].when.all[0].left: is required: choose a field to compare",
    "nodes[1].when.all[0].right: is required: type the value to compare with (or choose “has a value”)",
    "nodes[1].when.all[1].right: is required: type the value to compare with (or choose “has a value”)",
  ]);
});

test("a saved condition reads back unchanged; one the rows cannot show stays as its JSON", () => {
  const saved: Condition[] = [
    { left: "{{nodes.report.output.total}}", op: "gt", right: "5" },
    {
      all: [
        { left: "{{item.value}}", op: "ne", right: 3 },
        { left: "{{item.date}}", op: "not_exists" },
      ],
    },
    { any: [{ left: "{{item.flag}}", op: "eq", right: true }] },
  ];
  for (const when of saved) {
    const draft = conditionDraftOf(when);
    expect(draft.mode).toBe("rows");
    expect(conditionOf(draft, "w", () => "any").when).toEqual(when);
  }
  for (const when of [
    { not: { left: "{{item}}", op: "eq", right: 1 } },
    { all: [{ any: [{ left: "{{item}}", op: "eq", right: 1 }] }] },
    { left: "{{item}}", op: "eq", right: [1, 2] },
  ] as Condition[]) {
    const draft = conditionDraftOf(when);
    expect(draft.mode).toBe("json");
    expect(conditionOf(draft, "w", () => "any").when).toEqual(when);
  }

  // The node as saved again: the same controls, nothing added.
  const report = OPS.get("sandbox.report")!;
  const n = {
    id: "n",
    label: "N",
    operation_id: "sandbox.report",
    input: {},
    when: saved[1],
    for_each: "{{nodes.x.output.rows}}",
    continue_on_error: true,
  };
  expect(nodeOf(draftOf(n, report), report, 1).node).toEqual(n);
});

test("a save's problems under when and for_each sit on their fields and read in words", () => {
  const problems = [
    'nodes[1].when.right: gt compares with a value; give "right"',
    "nodes[1].when.all[2].op: is not an operator",
    "nodes[1].when.any.1.left: refers to node nope, which this workflow does not have",
    "nodes[1].when: must be a condition",
    "nodes[1].for_each: must be exactly one {{…}} reference to a list",
    "nodes[0].input.rows[0]: is not a number",
  ];
  expect(Object.fromEntries(problemsByField(problems))).toEqual({
    "node:1:when.0.right": 'gt compares with a value; give "right"',
    "node:1:when.2.op": "is not an operator",
    "node:1:when.1.left": "refers to node nope, which this workflow does not have",
    "node:1:when": "must be a condition",
    "node:1:for_each": "must be exactly one {{…}} reference to a list",
    "node:0:input.rows": "is not a number",
  });
  const ids = ["report", "note"];
  expect(readableProblem(problems[1], ids)).toBe(
    "Node 2 (note) · Run only when, condition 3 · operator: is not an operator",
  );
  expect(readableProblem(problems[4], ids)).toBe(
    "Node 2 (note) · For each row of: must be exactly one {{…}} reference to a list",
  );
});

test("the run view groups a loop's rows under its node and says why each step was skipped or stopped", () => {
  const step = (patch: Partial<RunNode>): RunNode => ({
    node_id: "n",
    label: "N",
    operation_id: null,
    log_id: `log_${Math.random()}`,
    status: "success",
    started_at: 0,
    completed_at: 0,
    duration_ms: 0,
    retry_attempts: 0,
    credits: 0,
    cache_hit: false,
    error: null,
    iteration: null,
    iterations: null,
    reason: null,
    approval_id: null,
    ...patch,
  });
  const nodes = [
    step({ node_id: "report", label: "Sessions" }),
    step({ node_id: "each", label: "Note each day", iteration: 0, iterations: 3, approval_id: "apr_1" }),
    step({
      node_id: "each",
      label: "Note each day",
      iteration: 1,
      iterations: 3,
      status: "skipped",
      reason: "condition",
    }),
    step({ node_id: "none", label: "Nothing to do", status: "skipped", reason: "empty" }),
    step({ node_id: "halt", label: "Stop when quiet", status: "stop", reason: "Sessions did not drop." }),
    step({ node_id: "post", label: "Post it", status: "skipped" }),
  ];
  const run = { nodes, failed_node_id: null };
  const groups = groupSteps(nodes);
  expect(groups.map((g) => [g.node_id, g.steps.length, g.loops, g.iterations])).toEqual([
    ["report", 1, false, null],
    ["each", 2, true, 3],
    ["none", 1, true, 0],
    ["halt", 1, false, null],
    ["post", 1, false, null],
  ]);
  expect(nodes.map((s) => stepNote(s, run))).toEqual([
    null,
    null,
    "Skipped: the condition did not hold.",
    "Skipped: the list was empty.",
    "Stopped the run: Sessions did not drop.",
    "Skipped: the run stopped at Stop when quiet.",
  ]);
  expect(stepNote(step({ status: "stop", reason: "rejected", iteration: 2, iterations: 3 }), run)).toBe(
    "Stopped: the approval was rejected; nothing was written.",
  );
  expect(stepNote(step({ status: "start", approval_id: "apr_2" }), run)).toBe(
    "Waiting for approval: a team member decides on the Approvals page.",
  );
  expect(stepNote(step({ status: "skipped" }), { nodes: [step({ status: "error" })], failed_node_id: "n" })).toBe(
    "Skipped: an earlier step failed.",
  );
});
