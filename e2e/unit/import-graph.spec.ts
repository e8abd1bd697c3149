import { test, expect } from "@playwright/test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The architecture the folders promise: lib/<domain> modules that can be read and changed one
// at a time, in one-way layers (README, "Architecture"). Every import counts: `import … from`,
// `export … from`, type imports, and a deferred `import()` (late binding hides a circle, it does
// not remove it).

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
  const base = spec.startsWith("@/")
    ? join(root, spec.slice(2))
    : spec.startsWith(".")
      ? resolve(dirname(from), spec)
      : null;
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e)])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** file (relative to the repository) → the project files it imports statically. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(join(root, d)))) {
    const text = readFileSync(file, "utf8");
    const specs = [
      ...text.matchAll(/^\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["']/gm),
      ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ].map((m) => m[1]);
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
  expect(graph.get("lib/connections/fresh-credentials.ts")).toContain("lib/platforms/registry.ts");
  // A deferred import is an edge too.
  expect(graph.get("lib/server/start.ts")).toContain("lib/demo/ensure-demo.ts");
});

test("no import circle anywhere in lib/, app/ or components/", () => {
  expect(circles(graph)).toEqual([]);
});

// lib/'s folders, bottom to top. A folder imports only from its own layer or the ones below it,
// and no two folders import each other, directly or through others. A new folder takes its
// place here.
const LAYERS: [string, string[]][] = [
  ["foundation", ["config", "errors", "text", "security", "observability", "http", "schemas"]],
  ["storage", ["db", "jobs"]],
  [
    "domains",
    [
      "audit",
      "teams",
      "users",
      "api-keys",
      "rate-limit",
      "auth",
      "webhooks",
      "credits",
      "logs",
      "platforms",
      "connections",
      "operations",
      "mcp-tokens",
      "mcp-oauth",
      "approvals",
      "mcp-servers",
      "workflows",
      "agents",
      "health",
      "history",
    ],
  ],
  ["use cases", ["connection-changes", "connection-pages", "auth-links", "members", "activity", "clients"]],
  ["edges", ["api", "mcp", "server", "cli", "openapi", "queries", "demo"]],
];
const layerOf = new Map(LAYERS.flatMap(([, folders], rank) => folders.map((f) => [f, rank] as const)));
const folderOf = (file: string) => (file.startsWith("lib/") ? file.split("/")[1] : null);

/** lib/ folder → the other lib/ folders its files import, each with one file-level example. */
const folderGraph = new Map<string, Map<string, string>>();
for (const [file, targets] of graph) {
  const from = folderOf(file);
  if (!from || !file.slice(4).includes("/")) continue;
  const edges = folderGraph.get(from) ?? new Map<string, string>();
  folderGraph.set(from, edges);
  for (const target of targets) {
    const to = folderOf(target);
    if (to && to !== from && !edges.has(to)) edges.set(to, `${file} → ${target}`);
  }
}

test("every lib/ folder has its layer", () => {
  expect([...folderGraph.keys()].filter((f) => !layerOf.has(f))).toEqual([]);
});

test("no two lib/ folders import each other, directly or through others", () => {
  const asLists = new Map([...folderGraph].map(([f, edges]) => [f, [...edges.keys()]]));
  expect(circles(asLists)).toEqual([]);
});

test("lib/ folders import only from their own layer or the layers below", () => {
  const upward = [...folderGraph].flatMap(([from, edges]) =>
    [...edges]
      .filter(([to]) => (layerOf.get(to) ?? 0) > (layerOf.get(from) ?? 0))
      .map(
        ([to, example]) =>
          `${from} (${LAYERS[layerOf.get(from)!][0]}) → ${to} (${LAYERS[layerOf.get(to)!][0]}): ${example}`,
      ),
  );
  expect(upward).toEqual([]);
});

test("the check itself sees a folder loop and an upward import", () => {
  expect(
    circles(
      new Map([
        ["a", ["b"]],
        ["b", ["c"]],
        ["c", ["a"]],
        ["d", ["a"]],
      ]),
    ),
  ).toEqual([["a", "b", "c"]]);
  expect(layerOf.get("api")! > layerOf.get("db")!).toBe(true);
});

test("a platform is one folder: lib/platforms/<platform>/ imports only the platform kit and its own folder", () => {
  const own = /^lib\/platforms\/([^/]+)\//;
  const violations = [...graph]
    .filter(([file]) => own.test(file) && !file.startsWith("lib/platforms/kit/"))
    .flatMap(([file, targets]) => {
      const platform = file.match(own)![1];
      return targets
        .filter(
          (t) =>
            t.startsWith("lib/platforms/") &&
            !t.startsWith(`lib/platforms/${platform}/`) &&
            !t.startsWith("lib/platforms/kit/"),
        )
        .map((t) => `${file} → ${t}`);
    });
  expect(violations).toEqual([]);
});
