import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { test, expect, baseURL } from "../../../e2e/fixtures";
import { root } from "../../../e2e/support/server";
import { isPostgres } from "../../../e2e/support/instances";

// Drift can't happen: the client's committed types are exactly what `npm run client:generate`
// makes of the document the running server serves.

test.skip(isPostgres(), "the document does not depend on the database, so this runs in the SQLite pass");

test("the committed generated types equal a fresh generation from the running server's /v1/openapi.json", async () => {
  const out = join(process.env.DATA_DIR!, `openapi-${Date.now()}.ts`);
  await promisify(execFile)("npm", ["run", "--silent", "client:generate", "--", "--url", baseURL(), "--out", out], {
    cwd: root,
  });
  const fresh = readFileSync(out, "utf8");
  const committed = readFileSync(join(root, "packages", "client", "src", "generated", "openapi.ts"), "utf8");
  expect(fresh).toContain('"/v1/logs/{log_id}"');
  expect(fresh).toContain('"auth_link.connected"');
  // A diff here means the API changed: run `npm run client:generate` and commit the result.
  expect(committed).toBe(fresh);
});
