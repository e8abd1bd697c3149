import { test, expect } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve, relative } from "node:path";

// The repository stands on its own: whoever clones it has no sibling folders, so no document of
// it may point outside it, and every relative link must reach a file it holds.

const root = resolve(__dirname, "..", "..");

for (const file of ["README.md"]) {
  test(`${file}: every relative link resolves inside the repository`, () => {
    const text = readFileSync(join(root, file), "utf8");
    const problems: string[] = [];
    // Markdown link targets and code spans that name a path.
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/`(\.{1,2}\/[^`\s]+)`/g)].map((m) => m[1]);
    for (const target of targets) {
      if (/^(https?:|mailto:|#|<)/.test(target)) continue;
      const path = resolve(dirname(join(root, file)), target.split("#")[0]);
      if (relative(root, path).startsWith("..")) problems.push(`${target} leaves the repository`);
      else if (!existsSync(path)) problems.push(`${target} does not exist`);
    }
    expect(problems).toEqual([]);
  });
}
