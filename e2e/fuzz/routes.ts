import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

// The routes the product serves, read from the file system: every app/**/route.ts, its URL
// template and the HTTP methods it exports, each with how it is written (a handler of its own,
// or the shared 405 of lib/api/method-not-allowed.ts). The fuzzer aims a generator at each one
// (e2e/fuzz/doors.ts); a route no generator knows fails the run, so a new route cannot go unfuzzed.

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export type RouteMethod = {
  method: string;
  /** `405`: the shared methodNotAllowed; `handler`: anything else. */
  kind: "handler" | "405";
  /** The exported handler's own source (its `export const GET = …` statement), for the schemas it parses with. */
  source: string;
};

export type Route = {
  /** app/…/route.ts, relative to the repository. */
  file: string;
  /** The URL with Next's segments as `{name}` (and `{...name}` for a catch-all); route groups dropped. */
  template: string;
  methods: RouteMethod[];
  /** The whole file, for the imports of the schemas a handler names. */
  text: string;
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return routeFiles(path);
    return /^route\.(ts|tsx|js)$/.test(e.name) ? [path] : [];
  });
}

/** `app/api/dashboard/webhooks/[id]/route.ts` → `/api/dashboard/webhooks/{id}`. */
export function templateOf(file: string): string {
  const segments = file.split(/[\\/]/).slice(1, -1); // without app/ and route.ts
  const url = segments
    .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"))
    .map((s) =>
      s.replace(
        /^\[\[?(\.\.\.)?([^\]]+)\]\]?$/,
        (_, dots: string | undefined, name: string) => `{${dots ?? ""}${name}}`,
      ),
    )
    .join("/");
  return `/${url}`;
}

/** The statement that defines `name` at the top level (`export const GET = …;`, `export async function GET…}`). */
function statementOf(text: string, name: string): string {
  const start = new RegExp(`^(export )?(const|let) ${name}\\b|^(export )?(async )?function ${name}\\b`, "m").exec(text);
  if (!start) return "";
  // Up to the next top-level statement (a line that starts at column 0 and is not a closing bracket).
  const rest = text.slice(start.index);
  const next = /\n(?=[A-Za-z/])/g;
  next.lastIndex = 1;
  const end = next.exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

/** The methods a route file exports, and whether each is the shared 405. */
export function methodsOf(text: string): RouteMethod[] {
  const out: RouteMethod[] = [];
  const local = (name: string): RouteMethod["kind"] =>
    new RegExp(`const ${name}\\s*=\\s*methodNotAllowed\\(`).test(text) ? "405" : "handler";
  for (const m of HTTP_METHODS) {
    if (new RegExp(`^export (const|let) ${m}\\b|^export (async )?function ${m}\\b`, "m").test(text)) {
      out.push({ method: m, kind: local(m), source: statementOf(text, m) });
      continue;
    }
    // export { x as GET }, export { GET } (from "…")
    for (const block of text.matchAll(/^export \{([^}]*)\}/gm)) {
      const spec = block[1]
        .split(",")
        .map((s) => s.trim())
        .find((s) => s === m || s.endsWith(` as ${m}`));
      if (!spec) continue;
      const name = spec.split(/\s+as\s+/)[0];
      out.push({ method: m, kind: local(name), source: statementOf(text, name) });
    }
  }
  return out;
}

export function enumerateRoutes(root: string): Route[] {
  const app = join(root, "app");
  return routeFiles(app)
    .map((path) => {
      const file = relative(root, path).split(sep).join("/");
      const text = readFileSync(path, "utf8");
      return { file, template: templateOf(file), methods: methodsOf(text), text };
    })
    .sort((a, b) => a.template.localeCompare(b.template));
}
