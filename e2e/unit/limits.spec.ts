import { test, expect } from "@playwright/test";
import { jsonBytesWithin } from "@/lib/config/limits";
import { isTruncatedBody, jsonPrefix, storedBodyText } from "@/lib/logs/stored-body";
import { ExpansionBudget, resolveInput, TemplateError } from "@/lib/workflows/templates";

// The pure parts of bounded work per request (README "Limits"): measuring JSON without building
// it, the truncation marker of a stored log body, and the cap on a node's filled-in input. The
// HTTP behaviour is in e2e/api/workflow-limits.spec.ts.

const SAMPLES: unknown[] = [
  { a: 1, b: 'x"y\\é😀\n', c: [1, null, true, { d: undefined, e: new Date(0) }], f: undefined, g: () => 1 },
  [undefined, () => 1, -0, 1e21, 0.1, NaN, Infinity],
  "plain",
  42,
  null,
  {},
  [],
  { nested: { deeper: [[["x"]]] } },
];

test("jsonBytesWithin is the UTF-8 size of JSON.stringify, and stops early once past its limit", () => {
  for (const value of SAMPLES) expect(jsonBytesWithin(value, Infinity)).toBe(Buffer.byteLength(JSON.stringify(value)));
  const huge = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, name: `row ${i}` })) };
  const exact = Buffer.byteLength(JSON.stringify(huge));
  expect(jsonBytesWithin(huge, exact)).toBe(exact);
  expect(jsonBytesWithin(huge, 1000)).toBeGreaterThan(1000);
  expect(jsonBytesWithin({ a: "x".repeat(2000), b: huge }, 1000)).toBeGreaterThan(1000);
  // A list far longer than the limit is refused before it is walked.
  const long = new Array(10_000_000).fill({ row: "of something" });
  const started = Date.now();
  expect(jsonBytesWithin(long, 100)).toBeGreaterThan(100);
  expect(Date.now() - started).toBeLessThan(500);
});

test("jsonPrefix is the beginning of JSON.stringify, whatever the cut", () => {
  for (const value of SAMPLES) {
    const full = JSON.stringify(value) ?? "";
    for (const n of [0, 1, 5, 17, full.length, full.length + 10]) expect(jsonPrefix(value, n)).toBe(full.slice(0, n));
  }
});

test("a stored body within the limit is its JSON; past it, a valid JSON marker of at most the limit with the original size and beginning", () => {
  expect(storedBodyText(undefined, 100)).toBeNull();
  expect(storedBodyText({ a: "é" }, 100)).toBe('{"a":"é"}');
  const value = { rows: Array.from({ length: 5000 }, (_, i) => ({ i, name: `row "${i}" é` })) };
  const full = JSON.stringify(value);
  for (const limit of [300, 4096, 65_536]) {
    const text = storedBodyText(value, limit)!;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
    const marker = JSON.parse(text);
    expect(isTruncatedBody(marker)).toBe(true);
    expect(marker).toEqual({
      truncated: true,
      original_bytes: Buffer.byteLength(full),
      limit_bytes: limit,
      preview: expect.any(String),
    });
    expect(full.startsWith(marker.preview)).toBe(true);
    expect(marker.preview.length).toBeGreaterThan(limit / 3);
  }
  // A cut never leaves half of a surrogate pair.
  const emoji = storedBodyText({ e: "😀".repeat(1000) }, 301)!;
  expect(JSON.parse(emoji).preview).not.toMatch(/[\ud800-\udbff]$/);
  expect(isTruncatedBody({ truncated: true, original_bytes: 1, limit_bytes: 1, preview: "", extra: 1 })).toBe(false);
});

const ctx = (outputs: Record<string, unknown>) => ({
  startedAt: new Date("2026-03-08T12:00:00Z"),
  timezone: null,
  outputs,
});

test("filling in references stops at the cap while it expands, naming the field, the setting and how far it got", () => {
  const outputs = { a: { text: "x".repeat(30_000), rows: [{ n: 1 }] } };
  const started = Date.now();
  // The finding: 13,333 references to a 30,000-character text would be 400 MB.
  let error: unknown;
  try {
    resolveInput({ template: "{{nodes.a.output.text}}".repeat(13_333) }, ctx(outputs));
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(TemplateError);
  expect((error as Error).message).toBe(
    "input.template: filling in its references makes the input larger than 1,048,576 bytes (1 MiB), the limit of a node's filled-in input (WORKFLOW_TEMPLATE_MAX_BYTES); it had reached 1,050,000 bytes at reference 35 of its 13,333 when it was stopped",
  );
  expect(Date.now() - started).toBeLessThan(2000);
  // A value taken whole counts too: its JSON is what the node's log would hold.
  const whole = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, "{{nodes.a.output}}"]));
  expect(() => resolveInput({ values: whole }, ctx(outputs), new ExpansionBudget(100_000))).toThrow(
    /^input\.values\.k3: .*larger than 100,000 bytes.* with \{\{nodes\.a\.output\}\} when it was stopped$/,
  );
  // Under the cap the input is filled in as before; strings without a reference are not counted.
  expect(
    resolveInput(
      { t: "{{nodes.a.output.rows.0.n}} rows", big: "y".repeat(500) },
      ctx(outputs),
      new ExpansionBudget(10),
    ),
  ).toEqual({ t: "1 rows", big: "y".repeat(500) });
  expect(() => resolveInput({ t: "{{nodes.a.output.rows}}!" }, ctx(outputs), new ExpansionBudget(5))).toThrow(
    /input\.t: .*larger than 5 bytes/,
  );
});

test("an output read back truncated after a takeover is named, not filled in as the marker", () => {
  const marker = JSON.parse(storedBodyText({ text: "x".repeat(5000) }, 1000)!);
  expect(() => resolveInput({ t: "{{nodes.a.output.text}}" }, ctx({ a: marker }))).toThrow(
    /node a's output \(5,011 bytes\) was larger than its log keeps \(LOG_BODY_MAX_BYTES\)/,
  );
});
