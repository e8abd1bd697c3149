import { test, expect } from "@playwright/test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { plural } from "@/lib/text/plural";
import { relativeTo, runWhen } from "@/components/workflows/relative-time";
import { formatShare } from "@/components/overview/format";
import { problemsByField, readableProblem } from "@/components/workflows/editor-model";
import { formatTime } from "@/components/time/local-time";

// What the dashboard says in words (issue 33): counts agree with their nouns through one helper,
// a run that has started never reads as if it were still to come, and one date format.

const root = resolve(__dirname, "..", "..");

test("plural: one noun agrees with its count, grouped in thousands, verbs included", () => {
  expect(plural(0, "row")).toBe("0 rows");
  expect(plural(1, "row")).toBe("1 row");
  expect(plural(1234, "row")).toBe("1,234 rows");
  expect(plural(1, "node fails", "nodes fail")).toBe("1 node fails");
  expect(plural(2, "node fails", "nodes fail")).toBe("2 nodes fail");
  expect(plural(1, "key")).toBe("1 key");
});

test("no page counts by hand: every count-and-noun goes through plural()", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) files.push(path);
    }
  };
  walk(join(root, "components"));
  walk(join(root, "app"));
  // `n === 1 ? "…" : "…"` beside a count is the helper written out again.
  const handmade = files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) =>
        /\b\w+(\.length)? === 1 \? `?"?(1 |\$\{)/.test(line) || /=== 1 \? "[a-z ]+" : "[a-z ]+s"/.test(line)
          ? [`${file.slice(root.length + 1)}:${i + 1}: ${line.trim()}`]
          : [],
      ),
  );
  expect(handmade).toEqual([]);
});

test("a run that started is 'just now' even when the page's clock is a tick behind; one still due is 'in …'", () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  // The clock ticks every 15 s: a run that started 1 s ago can be 14 s ahead of it.
  expect(relativeTo(now + 14_000, now, true)).toBe("just now");
  expect(relativeTo(now + 14_000, now)).toBe("in a few seconds");
  expect(relativeTo(now - 5 * 60_000, now, true)).toBe("5 min. ago");
  expect(relativeTo(now + 10 * 60_000, now)).toBe("in 10 min.");
});

test("a run that has not started says when it starts, never 'started' or 'in …' under Started", () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  // Just queued (Run now): due now, or a tick ahead of the page's clock.
  expect(runWhen({ started_at: null, due_at: now + 14_000 }, now)).toBe("starts in a moment");
  expect(runWhen({ started_at: null, due_at: now - 5_000 }, now)).toBe("starts in a moment");
  expect(runWhen({ started_at: null, due_at: now + 10 * 60_000 }, now)).toBe("starts in 10 min.");
  expect(runWhen({ started_at: null, due_at: now - 5 * 60_000 }, now)).toBe("waiting to start");
  expect(runWhen({ started_at: now + 14_000, due_at: now }, now)).toBe("just now");
  expect(runWhen({ started_at: now - 5 * 60_000, due_at: now - 5 * 60_000 }, now)).toBe("5 min. ago");
});

test("the share of credits used is never 0% once credits are used, nor 100% before the limit", () => {
  expect(formatShare(0, 100_000)).toBe("0%");
  expect(formatShare(191, 100_000)).toBe("0.2%");
  expect(formatShare(3, 100_000)).toBe("<0.1%");
  expect(formatShare(800, 10_000)).toBe("8%");
  expect(formatShare(400, 1_000)).toBe("40%");
  expect(formatShare(99_990, 100_000)).toBe("99.9%");
  expect(formatShare(100, 100)).toBe("100%");
  expect(formatShare(150, 100)).toBe("150%");
  expect(formatShare(5, 0)).toBe("100%");
});

test("the editor names the step and the field of every problem, whichever form the server wrote it in", () => {
  const ids = ["report", "note"];
  expect(readableProblem("nodes.0.label: is empty", ids)).toBe("Node 1 (report) · Label: is empty");
  expect(readableProblem("nodes[0].label: is empty", ids)).toBe("Node 1 (report) · Label: is empty");
  expect(readableProblem("nodes[1].input.template: refers to node nope", ids)).toBe(
    "Node 2 (note) · input.template: refers to node nope",
  );
  expect(readableProblem('schedule: "0 25 * * *" is not a valid cron expression', ids)).toBe(
    'Schedule: "0 25 * * *" is not a valid cron expression',
  );
  expect(readableProblem("Only a team owner can activate a workflow with write nodes: x.", ids)).toBe(
    "Only a team owner can activate a workflow with write nodes: x.",
  );
  // Each problem on its field: a deep input path is its field's; a form-wide reason on none.
  expect([
    ...problemsByField([
      "name: is empty",
      "nodes[1].connection_id: is required: choose a connection",
      "nodes[1].input.rows.0.t: refers to node c",
      "Only a team owner can activate it.",
    ]),
  ]).toEqual([
    ["name", "is empty"],
    ["node:1:connection_id", "is required: choose a connection"],
    ["node:1:input.rows", "refers to node c"],
  ]);
});

test("one date format: day month year, 24-hour time to the second", () => {
  expect(formatTime(Date.UTC(2026, 10, 26, 0, 37, 14) / 1000, "UTC")).toBe("26 Nov 2026, 00:37:14");
});
