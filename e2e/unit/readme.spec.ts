import { test, expect } from "@playwright/test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve, relative } from "node:path";

// The repository stands on its own: whoever clones it has no sibling folders, so no document of
// it may point outside it, and every relative link must reach a file it holds.

const root = resolve(__dirname, "..", "..");

for (const file of ["README.md", "CONFIGURATION.md"]) {
  test(`${file}: every relative link resolves inside the repository`, () => {
    const text = readFileSync(join(root, file), "utf8");
    const problems: string[] = [];
    const inside = (target: string) =>
      !relative(root, resolve(dirname(join(root, file)), target.split("#")[0])).startsWith("..");
    // Link targets must be files the repository holds.
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#|<)/.test(target)) continue;
      if (!inside(target)) problems.push(`link ${target} leaves the repository`);
      else if (!existsSync(resolve(dirname(join(root, file)), target.split("#")[0])))
        problems.push(`link ${target} does not exist`);
    }
    // A path in code (`../x`, `./data/…`) may name a file made at run time, but never one outside.
    for (const [, path] of text.matchAll(/`(\.{1,2}\/[^`\s]+)`/g))
      if (!inside(path)) problems.push(`${path} leaves the repository`);
    expect(problems).toEqual([]);
  });
}
