import { test, expect } from "@playwright/test";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";
import { buildDoors } from "../fuzz/doors";
import type { DoorWorld } from "../fuzz/doors-world";
import { enumerateRoutes, methodsOf, templateOf, type Route } from "../fuzz/routes";

// `npm run fuzz` aims a generator at every route the product serves, read from app/**/route.ts
// (e2e/fuzz/routes.ts, doors.ts); a route with none, or only a family's generic one, fails the
// run. This checks the same without a server: every route file is found with its methods, and
// each (route, method) has a generator of its own today.

const root = resolve(__dirname, "..", "..");

const world: DoorWorld = {
  teamId: "team_a",
  otherTeamId: "team_b",
  ownerCookie: "next-auth.session-token=a",
  memberCookie: "next-auth.session-token=b",
  victim: { email: "v@example.com" },
  key: "pb_live_x",
  mcpToken: "pbm_x",
  tools: [{ name: "find_operations", inputSchema: { type: "object", properties: { query: { type: "string" } } } }],
  oauth: { clientId: "client", redirectUri: "http://127.0.0.1:9/cb" },
  modelConnectionId: "conn_model",
  conversationId: "conv_x",
  linkTokens: ["tok"],
  inviteTokens: ["inv"],
  ids: { webhooks: ["wh_1"], connections: ["conn_1"] },
  anyIds: ["wh_1", "conn_1"],
  kept: [],
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "route.ts" ? [join(dir, e.name)] : [],
  );
}

const v1Operations = () => {
  const doc = buildOpenApiDocument("http://localhost:3000") as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => item[m.toLowerCase()]).map((m) => `${m} ${path}`),
  );
};

test.beforeAll(() => {
  process.env.BASE_URL ??= "http://127.0.0.1:3000";
});

test("every app/**/route.ts is enumerated with the methods it exports", () => {
  const routes = enumerateRoutes(root);
  expect(routes.map((r) => r.file).sort()).toEqual(
    routeFiles(join(root, "app"))
      .map((f) => f.slice(root.length + 1))
      .sort(),
  );
  for (const r of routes) expect(r.methods.length, r.file).toBeGreaterThan(0);
  const webhooks = routes.find((r) => r.template === "/api/dashboard/webhooks/{id}")!;
  expect(webhooks.methods.map((m) => `${m.method}:${m.kind}`)).toEqual([
    "GET:handler",
    "POST:405",
    "PUT:405",
    "PATCH:handler",
    "DELETE:handler",
  ]);
});

test("every route method has a fuzz generator of its own", async () => {
  const { doors, coverage } = await buildDoors(root, enumerateRoutes(root), world, v1Operations());
  expect(coverage).toEqual([]);
  expect(doors.some((d) => d.template === "/mcp" && d.methods.includes("POST"))).toBe(true);
});

test("a new route with no generator, or one only a generic generator fits, is named", async () => {
  const route = (file: string, text: string): Route => ({
    file,
    template: templateOf(file),
    methods: methodsOf(text),
    text,
  });
  const routes = [
    route("app/brand-new/[id]/route.ts", "export async function GET() {}\n"),
    route(
      "app/api/dashboard/(settings)/gadgets/route.ts",
      "export const POST = withSession(async ({ req }) => {\n  return req.json();\n});\n",
    ),
  ];
  expect(routes.map((r) => r.template)).toEqual(["/brand-new/{id}", "/api/dashboard/gadgets"]);
  const { coverage } = await buildDoors(root, routes, world, []);
  expect(coverage.filter((c) => !c.problem.startsWith("a generator for"))).toEqual([
    { route: "/brand-new/{id}", method: "GET", problem: "no generator" },
    { route: "/api/dashboard/gadgets", method: "POST", problem: "only a generic generator" },
  ]);
});
