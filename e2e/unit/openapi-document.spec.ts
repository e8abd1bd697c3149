import { test, expect } from "@playwright/test";
import { resolve } from "node:path";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

// Next bundles the schema modules once per layer (route handlers, pages), so the server holds
// several copies of each registered schema, evaluated in whatever order requests arrive. The
// document must come out the same whichever copy was evaluated last.

test("the OpenAPI document builds the same after another copy of the schema modules has registered itself", () => {
  const before = JSON.stringify(buildOpenApiDocument("http://localhost:3000"));
  // A second, later evaluation of lib/schemas/connections.ts, as another layer's first request makes.
  const file = require.resolve(resolve(__dirname, "..", "..", "lib", "schemas", "connections.ts"));
  delete require.cache[file];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second evaluation through require's cache is what the test makes
  const copy = require(file) as typeof import("@/lib/schemas/connections");
  expect(copy.ConnectionSchema).toBeTruthy();
  expect(JSON.stringify(buildOpenApiDocument("http://localhost:3000"))).toBe(before);
});
