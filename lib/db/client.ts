import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/lib/db/generated/sqlite/client";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgresql/client";
import { databaseTarget } from "@/lib/db/engine";

// Both generated clients expose the same model API (one schema source); the SQLite client's
// type stands for both.
export type Db = SqliteClient;
export type { Prisma } from "@/lib/db/generated/sqlite/client";

function createClient(): Db {
  const target = databaseTarget();
  if (target.engine === "postgresql") {
    const adapter = new PrismaPg({
      connectionString: target.url,
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      connectionTimeoutMillis: 5_000,
    });
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  // timeout = SQLite busy timeout: writers from several processes wait instead of failing.
  const adapter = new PrismaBetterSQLite3({ url: target.url, timeout: 10_000 });
  return new SqliteClient({ adapter });
}

const globalForDb = globalThis as unknown as { __patchbayDb?: Db };

/** The process-wide Prisma client for the engine DATABASE_URL selects. */
export const db: Db = (globalForDb.__patchbayDb ??= createClient());

export const dbEngine = () => databaseTarget().engine;
