import { test, expect } from "@playwright/test";
import { nextRunAfter, nextRuns, planDueSlot, scheduleProblem, timezoneProblem } from "@/lib/workflows/schedule";
import { resolveInput, templateProblems, TemplateError } from "@/lib/workflows/templates";

// Schedules across daylight-saving changes in America/New_York (2026: spring forward on 8 March
// at 02:00 EST → 03:00 EDT; fall back on 1 November at 02:00 EDT → 01:00 EST), and the template
// syntax of node inputs.

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const NY = "America/New_York";

test("a daily time the spring-forward skips runs once that day, an hour later by the clock", () => {
  expect(iso(nextRuns("30 2 * * *", NY, new Date("2026-03-06T12:00:00Z"), 4))).toEqual([
    "2026-03-07T07:30:00.000Z", // 02:30 EST
    "2026-03-08T07:30:00.000Z", // 02:30 does not exist: 03:30 EDT
    "2026-03-09T06:30:00.000Z", // 02:30 EDT
    "2026-03-10T06:30:00.000Z",
  ]);
});

test("a daily time the fall-back repeats runs once that day", () => {
  expect(iso(nextRuns("30 1 * * *", NY, new Date("2026-10-30T12:00:00Z"), 4))).toEqual([
    "2026-10-31T05:30:00.000Z", // 01:30 EDT
    "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT) only
    "2026-11-02T06:30:00.000Z", // 01:30 EST
    "2026-11-03T06:30:00.000Z",
  ]);
  // Asked from inside the repeated hour, after that day's run: the next day's.
  expect(nextRunAfter("30 1 * * *", NY, new Date("2026-11-01T06:10:00Z"))!.toISOString()).toBe(
    "2026-11-02T06:30:00.000Z",
  );
});

test("an hourly schedule runs every real hour: 23 runs on the spring-forward day, 25 on the fall-back day", () => {
  const day = (from: string, to: string) =>
    nextRuns("0 * * * *", NY, new Date(from), 30).filter((d) => d < new Date(to));
  const spring = day("2026-03-08T04:59:00Z", "2026-03-09T04:00:00Z"); // midnight EST to midnight EDT
  expect(spring).toHaveLength(23);
  const fall = day("2026-11-01T03:59:00Z", "2026-11-02T05:00:00Z"); // midnight EDT to midnight EST
  expect(fall).toHaveLength(25);
  expect(iso(fall.slice(0, 4))).toEqual([
    "2026-11-01T04:00:00.000Z",
    "2026-11-01T05:00:00.000Z",
    "2026-11-01T06:00:00.000Z",
    "2026-11-01T07:00:00.000Z",
  ]);
  // Every run one hour after the one before: nothing skipped, nothing twice.
  for (const runs of [spring, fall])
    for (let i = 1; i < runs.length; i++) expect(runs[i].getTime() - runs[i - 1].getTime()).toBe(3_600_000);
  const halfHourly = nextRuns("*/30 * * * *", NY, new Date("2026-11-01T04:45:00Z"), 6);
  expect(iso(halfHourly)).toEqual([
    "2026-11-01T05:00:00.000Z",
    "2026-11-01T05:30:00.000Z",
    "2026-11-01T06:00:00.000Z",
    "2026-11-01T06:30:00.000Z",
    "2026-11-01T07:00:00.000Z",
    "2026-11-01T07:30:00.000Z",
  ]);
});

test("east of UTC too: an hourly schedule runs in both repeated hours, a daily one once", () => {
  for (const [zone, from, to] of [
    ["Europe/London", "2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z"], // BST midnight to GMT midnight
    ["Europe/Paris", "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"],
    ["Australia/Sydney", "2026-04-04T13:00:00Z", "2026-04-05T14:00:00Z"], // AEDT → AEST on 5 April
  ]) {
    const runs = nextRuns("0 * * * *", zone, new Date(new Date(from).getTime() - 1), 40).filter(
      (d) => d < new Date(to),
    );
    expect(runs, zone).toHaveLength(25);
    for (let i = 1; i < runs.length; i++) expect(runs[i].getTime() - runs[i - 1].getTime(), zone).toBe(3_600_000);
  }
  // London's 01:30 happens twice on 25 October: one run.
  const daily = iso(nextRuns("30 1 * * *", "Europe/London", new Date("2026-10-24T12:00:00Z"), 3));
  expect(daily.filter((d) => d.startsWith("2026-10-25"))).toHaveLength(1);
  expect(daily.slice(1)).toEqual(["2026-10-26T01:30:00.000Z", "2026-10-27T01:30:00.000Z"]);
});

test("schedules and zones are checked with a reason", () => {
  expect(scheduleProblem("0 9 * * 1")).toBeNull();
  expect(scheduleProblem("61 * * * *")).toMatch(/minute/);
  expect(scheduleProblem("* * * * * *")).toMatch(/five fields/);
  expect(timezoneProblem("Europe/Paris")).toBeNull();
  expect(timezoneProblem("Nowhere/Land")).toMatch(/not an IANA time zone/);
});

test("references: only earlier nodes and run variables; whole strings keep their type; missing fields fail with the path", () => {
  const nodes = [
    { id: "a", input: { x: "{{run.date.today}}" } },
    {
      id: "b",
      input: { rows: "{{nodes.a.output.rows}}", deep: [{ t: "{{nodes.c.output}}" }], bad: "{{nodes.a.output.rows}" },
    },
    { id: "c", input: {} },
  ];
  expect(templateProblems(nodes)).toEqual([
    "nodes[1].input.deep.0.t: refers to node c, which runs after this one; only earlier nodes' outputs can be used",
    "nodes[1].input.bad: has an unclosed {{ or a stray }}",
  ]);
  const ctx = {
    startedAt: new Date("2026-03-08T03:30:00Z"),
    timezone: NY,
    outputs: { a: { rows: [{ n: 1 }, { n: 2 }], total: 3 } },
  };
  expect(
    resolveInput(
      {
        rows: "{{nodes.a.output.rows}}",
        text: "Total {{nodes.a.output.total}} on {{run.date.today}}, first {{nodes.a.output.rows.0}}",
        y: "{{run.date.yesterday}}",
        w: "{{run.date.last_7_days_start}}",
      },
      ctx,
    ),
  ).toEqual({
    rows: [{ n: 1 }, { n: 2 }],
    text: 'Total 3 on 2026-03-07, first {"n":1}',
    y: "2026-03-06",
    w: "2026-02-28",
  });
  expect(resolveInput({ d: "{{run.date.today}}" }, { ...ctx, timezone: null })).toEqual({ d: "2026-03-08" });
  expect(() => resolveInput({ x: "{{nodes.a.output.rows.5.n}}" }, ctx)).toThrow(TemplateError);
  expect(() => resolveInput({ x: "{{nodes.a.output.rows.5.n}}" }, ctx)).toThrow(/node a's output has no rows.5/);
});

test("a due slot: a late poll still runs it; one missed while no instance ran follows WORKFLOW_MISSED_SLOTS", () => {
  const slot = Date.parse("2026-12-02T09:00:00Z");
  const after = (ms: number, rule: "run_once" | "skip") => {
    const plan = planDueSlot("0 9 * * *", "UTC", slot, slot + ms, rule, 60_000);
    return { run: plan.run, missed: plan.missed, next: plan.next?.toISOString() };
  };
  // Picked up within a minute: on time, whatever the rule.
  expect(after(2_000, "skip")).toEqual({ run: true, missed: false, next: "2026-12-03T09:00:00.000Z" });
  // Found 13 hours late (the server was down): run once, or skipped; either way the next slot is after now.
  expect(after(13 * 3_600_000, "run_once")).toEqual({ run: true, missed: true, next: "2026-12-03T09:00:00.000Z" });
  expect(after(13 * 3_600_000, "skip")).toEqual({ run: false, missed: true, next: "2026-12-03T09:00:00.000Z" });
  // Three days late: one run at most, not three; the schedule resumes the next morning.
  expect(after(3 * 86_400_000 + 3_600_000, "run_once")).toEqual({
    run: true,
    missed: true,
    next: "2026-12-06T09:00:00.000Z",
  });
});
