import { test, expect } from "@playwright/test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The architecture the folders promise: lib/<domain> modules that can be read and changed one
// at a time. Static imports only (`import … from`, `export … from`, type imports included); a
// deferred `await import()` is a deliberate late binding, not part of the module graph.

const root = resolve(__dirname, "..", "..");
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? join(root, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e)]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** file (relative to the repository) → the project files it imports statically. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(join(root, d)))) {
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["']/gm)].map((m) => m[1]);
    const targets = specs.map((s) => resolveImport(file, s)).filter((t): t is string => t !== null);
    graph.set(relative(root, file), [...new Set(targets.map((t) => relative(root, t)))]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

const graph = importGraph(["lib", "app", "components"]);

test("the graph is read: lib/ files import each other", () => {
  expect(graph.size).toBeGreaterThan(200);
  expect(graph.get("lib/connections/fresh-credentials.ts")).toContain("lib/providers/registry.ts");
});

test("no import circle anywhere in lib/, app/ or components/", () => {
  expect(circles(graph)).toEqual([]);
});

test("the provider layer sits below connections, auth links and the rest: lib/providers imports none of them", () => {
  const above = /^lib\/(connections|auth-links|mcp|logs|credits|members|teams|api-keys|workflows|activity|demo|cli)\//;
  const violations = [...graph].filter(([file]) => file.startsWith("lib/providers/")).flatMap(([file, targets]) => targets.filter((t) => above.test(t)).map((t) => `${file} → ${t}`));
  expect(violations).toEqual([]);
});
