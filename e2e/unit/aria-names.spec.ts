import { test, expect } from "@playwright/test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

// A name (aria-label, aria-labelledby) on a div, span or p with no role is prohibited ARIA: a
// screen reader ignores it, and axe reports it as serious. The browser's accessibility check saw
// one only when a loading skeleton happened to be on screen (a busy machine); this finds every
// one in the source, whatever is on screen.

const root = resolve(__dirname, "..", "..");
const GENERIC = new Set(["div", "span", "p"]);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return name.endsWith(".tsx") ? [path] : [];
  });
}

/** `file:line` of each generic element named without a role. */
function namedWithoutRole(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) && GENERIC.has(node.tagName.getText())) {
      const names = node.attributes.properties.filter(ts.isJsxAttribute).map((a) => a.name.getText());
      if (names.some((n) => n === "aria-label" || n === "aria-labelledby") && !names.includes("role"))
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("no div, span or p in app/ or components/ carries a name without a role", () => {
  const found = ["app", "components"]
    .flatMap((dir) => tsxFiles(join(root, dir)))
    .flatMap((path) => namedWithoutRole(relative(root, path), readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});

test("the check itself finds a named div without a role, and passes one with a role or a named button", () => {
  const sample = `export const A = () => (
  <>
    <div aria-label="Loading">x</div>
    <div role="status" aria-label="Loading">x</div>
    <button aria-label="Close">x</button>
    <span aria-labelledby="t" />
  </>
);`;
  expect(namedWithoutRole("sample.tsx", sample)).toEqual(["sample.tsx:3", "sample.tsx:6"]);
});
