import { test, expect } from "@playwright/test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { plural } from "@/lib/text/plural";
import { relativeTo } from "@/components/workflows/relative-time";
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

test("one date format: day month year, 24-hour time to the second", () => {
  expect(formatTime(Date.UTC(2026, 10, 26, 0, 37, 14) / 1000, "UTC")).toBe("26 Nov 2026, 00:37:14");
});
