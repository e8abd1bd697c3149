import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { test, expect, baseURL } from "../../../e2e/fixtures";
import { root } from "../../../e2e/support/server";
import { isPostgres } from "../../../e2e/support/instances";

// The generated types reach the integrator: a wrong parameter name or enum value does not compile.

test.skip(
  isPostgres(),
  "compiles against the package: the same whichever database the server runs on, so it runs in the SQLite pass",
);

const tsc = (project: string) =>
  promisify(execFile)(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project], {
    cwd: root,
  }).then(
    () => ({ code: 0, output: "" }),
    (e: { code: number; stdout: string }) => ({ code: e.code, output: e.stdout }),
  );

const typesDir = join(root, "packages", "client", "test", "types");

test("tsc --noEmit: the right calls compile and every line marked @ts-expect-error fails to", async () => {
  const result = await tsc(join(typesDir, "tsconfig.json"));
  expect(result.output).toBe("");
  expect(result.code).toBe(0);
});

test("without the markers, each marked line is an error for the reason it is there", async () => {
  const source = readFileSync(join(typesDir, "usage.ts"), "utf8").split("\n");
  const marked = source.flatMap((line, i) => (line.trim().startsWith("// @ts-expect-error") ? [i + 1] : []));
  expect(marked.length).toBe(9);
  // The same file with the markers blanked (line numbers kept), compiled the same way.
  const dir = join(process.env.DATA_DIR!, `types-${Date.now()}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, "usage.ts"),
    source.map((l) => (l.trim().startsWith("// @ts-expect-error") ? "" : l)).join("\n"),
  );
  writeFileSync(join(dir, "tsconfig.json"), readFileSync(join(typesDir, "tsconfig.json"), "utf8"));
  const { code, output } = await tsc(join(dir, "tsconfig.json"));
  expect(code).not.toBe(0);
  const errorLines = [...output.matchAll(/usage\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1]));
  expect(
    [...new Set(errorLines)].sort((a, b) => a - b),
    output,
  ).toEqual(marked.map((n) => n + 1));
  expect(output).toContain("'state' does not exist in type");
  expect(output).toContain(`Type '"failed"' is not assignable`);
  expect(output).toContain(`Type '"cron"' is not assignable`);
  expect(output).toContain(`Type '"name"' is not assignable`);
});

test("the README's quick start compiles against the package, in ten lines", async () => {
  const readme = readFileSync(join(root, "packages", "client", "README.md"), "utf8");
  const quickStart = /## Quick start\s+```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(quickStart).toBeTruthy();
  expect(quickStart!.trim().split("\n")).toHaveLength(10);
  const dir = join(process.env.DATA_DIR!, `quick-start-${Date.now()}`);
  mkdirSync(dir);
  // Where it runs, `process` is Node's; the package itself needs no Node types.
  writeFileSync(
    join(dir, "usage.ts"),
    `declare const process: { env: Record<string, string | undefined> };\n${quickStart}`,
  );
  writeFileSync(join(dir, "tsconfig.json"), readFileSync(join(typesDir, "tsconfig.json"), "utf8"));
  const result = await tsc(join(dir, "tsconfig.json"));
  expect(result.output).toBe("");
});

test("every operation's @patchbay/client sample in the live document (x-codeSamples) compiles", async () => {
  const doc = await (await fetch(`${baseURL()}/v1/openapi.json`)).json();
  const samples: { label: string; source: string }[] = Object.entries(
    doc.paths as Record<string, Record<string, { "x-codeSamples"?: { label: string; source: string }[] }>>,
  ).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      (op["x-codeSamples"] ?? []).map((s) => ({
        label: `${method.toUpperCase()} ${path} (${s.label})`,
        source: s.source,
      })),
    ),
  );
  expect(samples).toHaveLength(19);
  const dir = join(process.env.DATA_DIR!, `samples-${Date.now()}`);
  mkdirSync(dir);
  const files = samples.map((s, i) => {
    writeFileSync(
      join(dir, `sample-${i}.ts`),
      `// ${s.label}\ndeclare const process: { env: Record<string, string | undefined> };\n${s.source}\nexport {};\n`,
    );
    return `sample-${i}.ts`;
  });
  const config = JSON.parse(readFileSync(join(typesDir, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ ...config, files }));
  const result = await tsc(join(dir, "tsconfig.json"));
  expect(result.output).toBe("");
});
