// The Prisma 6.19 CLI looks for native engine binaries and downloads them when absent. We use
// the JS engine with driver adapters, so the binaries are never run: point the CLI at
// placeholder files so it does not try to reach the network.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function prismaEngineEnv() {
  const dir = join(root, "node_modules", ".cache", "prisma-placeholders");
  mkdirSync(dir, { recursive: true });
  const lib = join(dir, "libquery_engine-placeholder.so.node");
  const bin = join(dir, "schema-engine-placeholder");
  for (const f of [lib, bin]) if (!existsSync(f)) writeFileSync(f, "");
  return {
    ...process.env,
    PRISMA_QUERY_ENGINE_LIBRARY: lib,
    PRISMA_SCHEMA_ENGINE_BINARY: bin,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
    PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
  };
}

/** The schema for one engine, derived from the single source `prisma/schema.prisma`. */
export function schemaFor(engine, source) {
  if (engine === "sqlite") return source;
  return source
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace('url      = "file:./unused.db"', 'url      = "postgresql://localhost/unused"')
    .replace('output     = "../lib/db/generated/sqlite"', 'output     = "../../lib/db/generated/postgresql"');
}

/** Runs the Prisma CLI offline for one engine's schema; returns stdout. */
export function runPrisma(engine, args, options = {}) {
  return execFileSync(
    process.execPath,
    [
      join(root, "node_modules", "prisma", "build", "index.js"),
      ...args,
      "--config",
      join(root, "prisma", "prisma.config.ts"),
    ],
    { cwd: root, env: { ...prismaEngineEnv(), PRISMA_SCHEMA_FOR: engine }, encoding: "utf8", ...options },
  );
}
