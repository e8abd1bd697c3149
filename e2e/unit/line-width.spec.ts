import { test, expect } from "@playwright/test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

// The width the team reads side by side (Prettier's printWidth in .prettierrc.json). Prettier
// breaks code, but not a string, a template, a regular expression or a comment; this holds the
// rest. A line of app/, components/ or lib/ past the width is allowed only where what overflows
// cannot break: the line is too long only by the literals (or an address in a comment) on it.

const WIDTH = 120;
const root = resolve(__dirname, "..", "..");
// A template counts whole, its \${…} parts included: Prettier never breaks one.
const LITERALS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateExpression,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|mjs)$/.test(name) ? [path] : [];
  });
}

/** The lines of `text` past the width by more than the literals and addresses on them. */
function overlong(fileName: string, text: string): { line: number; length: number; text: string }[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const unbreakable = new Uint8Array(text.length);
  const visit = (node: ts.Node) => {
    if (LITERALS.has(node.kind)) unbreakable.fill(1, node.getStart(source), node.getEnd());
    node.forEachChild(visit);
  };
  visit(source);
  for (const m of text.matchAll(/https?:\/\/\S+/g)) unbreakable.fill(1, m.index, m.index + m[0].length);
  const found: { line: number; length: number; text: string }[] = [];
  let start = 0;
  text.split("\n").forEach((line, i) => {
    if (line.length > WIDTH) {
      let breakable = 0;
      for (let c = start; c < start + line.length; c++) breakable += unbreakable[c] ? 0 : 1;
      if (breakable > WIDTH) found.push({ line: i + 1, length: line.length, text: line });
    }
    start += line.length + 1;
  });
  return found;
}

test("the check itself: a long string, template, regular expression or address may overflow; a long comment or code may not", () => {
  const long = "x".repeat(200);
  expect(
    overlong(
      "a.ts",
      `const a = "${long}";\nconst b = \`\n${long}\n\`;\nconst r = /${long}/;\n// see https://example.com/${long}\n`,
    ),
  ).toEqual([]);
  expect(overlong("a.ts", `// ${"word ".repeat(40)}\nconst c = [${"1, ".repeat(60)}];\n`).map((f) => f.line)).toEqual([
    1, 2,
  ]);
});

test(`no line of app/, components/ or lib/ runs past ${WIDTH} columns but strings and addresses`, () => {
  const long = ["app", "components", "lib"]
    .flatMap((d) => sourceFiles(join(root, d)))
    .flatMap((file) =>
      overlong(file, readFileSync(file, "utf8")).map(
        (f) => `${relative(root, file)}:${f.line} (${f.length}): ${f.text.trim().slice(0, 80)}…`,
      ),
    );
  expect(long).toEqual([]);
});
