// Writes the next migration for both engines: `npm run db:new-migration -- <name>`.
// SQL comes from `prisma migrate diff` between the schema as of the last migration
// (prisma/migrations/schema.snapshot.prisma) and the current prisma/schema.prisma; lib/db/migrate.ts applies it.
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { root, runPrisma, schemaFor } from "./engine-env.mjs";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:new-migration -- <name>");
  process.exit(1);
}
const migrations = join(root, "prisma", "migrations");
const snapshot = join(migrations, "schema.snapshot.prisma");
const current = readFileSync(join(root, "prisma", "schema.prisma"), "utf8");
const previous = existsSync(snapshot) ? readFileSync(snapshot, "utf8") : null;

const existing = existsSync(join(migrations, "sqlite")) ? readdirSync(join(migrations, "sqlite")).length : 0;
const folder = `${String(existing + 1).padStart(4, "0")}_${name}`;
let wrote = false;
for (const engine of ["sqlite", "postgresql"]) {
  const tmp = join(tmpdir(), `patchbay-${engine}-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  const to = join(tmp, "to.prisma");
  writeFileSync(to, schemaFor(engine, current));
  const from = previous ? ["--from-schema-datamodel", join(tmp, "from.prisma")] : ["--from-empty"];
  if (previous) writeFileSync(join(tmp, "from.prisma"), schemaFor(engine, previous));
  const sql = runPrisma(engine, ["migrate", "diff", ...from, "--to-schema-datamodel", to, "--script"]);
  if (/^-- This is an empty migration/m.test(sql) || !sql.trim()) continue;
  mkdirSync(join(migrations, engine, folder), { recursive: true });
  writeFileSync(join(migrations, engine, folder, "migration.sql"), sql);
  wrote = true;
}
if (wrote) {
  writeFileSync(snapshot, current);
  console.log(`wrote prisma/migrations/{sqlite,postgresql}/${folder}`);
} else {
  console.log("schema unchanged: no migration written");
}
