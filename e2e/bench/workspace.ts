import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { root } from "../support/server";

/**
 * The settings every bench starts its server with: its database and folder, new secrets, sandbox
 * on, no demo, and the per-key rate limits off (a benchmark's one key sends far more than a
 * client may).
 */
export function benchServerEnv(databaseUrl: string, dir: string) {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    SANDBOX_PROVIDERS: "1",
    DEMO: "0",
    RATE_LIMIT_API_PER_MINUTE: "0",
    RATE_LIMIT_MCP_PER_MINUTE: "0",
  };
}

/**
 * A fresh folder under e2e/.artifacts for one benchmark run, with its SQLite file (or the given
 * database) and benchServerEnv. The environment is also applied to this process, so the lib
 * functions that seed see the same database.
 */
export function benchWorkspace(name: string, databaseUrl?: string) {
  const dir = join(root, "e2e", ".artifacts", `${name}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const dbFile = join(dir, "bench.db");
  const env = { ...process.env, ...benchServerEnv(databaseUrl ?? `file:${dbFile}`, dir) };
  Object.assign(process.env, env);
  return { dir, dbFile, env };
}
