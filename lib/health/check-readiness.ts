import "server-only";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { dbEngine } from "@/lib/db/client";
import { prepared, read } from "@/lib/db/read";

const TIMEOUT_MS = 3_000;

export type Readiness = { ready: true } | { ready: false; detail: string };

let expected: string[] | undefined;

/** The migrations this build ships (prisma/migrations/<engine>/), read once. */
function expectedMigrations(): string[] {
  const dir = join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations", dbEngine());
  return (expected ??= readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort());
}

// Not a table of the schema (lib/db/migrate.ts keeps it), so not in the builder's types.
const appliedMigrations = prepared(() => ({
  compile: () => sql<{ name: string }>`SELECT name FROM "_patchbay_migrations"`.compile(read),
}));

/**
 * Ready to serve: the database answers (within a few seconds) and has every migration this
 * build ships, as recorded by lib/db/migrate.ts in `_patchbay_migrations`.
 */
export async function checkReadiness(): Promise<Readiness> {
  const migrations = expectedMigrations();
  let applied: Set<string>;
  try {
    const rows = await Promise.race([
      appliedMigrations({}),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS),
      ),
    ]);
    applied = new Set(rows.map((r) => r.name));
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    // No migrations table: the database answers but was never migrated.
    if (/_patchbay_migrations/.test(message) && /no such table|does not exist/i.test(message)) {
      return {
        ready: false,
        detail: `The database has no migrations applied; missing: ${migrations.join(", ")}. Run \`npm run db:migrate\`.`,
      };
    }
    console.warn(JSON.stringify({ level: "warn", msg: "readiness: database check failed", error: message }));
    // The reason (hosts, ports) stays in the server log: this endpoint answers anyone.
    return {
      ready: false,
      detail: `The ${dbEngine() === "sqlite" ? "SQLite" : "PostgreSQL"} database does not answer; the server log has the reason.`,
    };
  }
  const missing = migrations.filter((m) => !applied.has(m));
  if (missing.length)
    return {
      ready: false,
      detail: `The database is missing ${missing.length} migration(s): ${missing.join(", ")}. Run \`npm run db:migrate\`.`,
    };
  return { ready: true };
}
