import "server-only";
import Database from "better-sqlite3";
import { Pool } from "pg";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/lib/db/generated/sqlite/client";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgresql/client";
import { databaseTarget } from "@/lib/db/engine";

// Both generated clients expose the same model API (one schema source); the SQLite client's
// type stands for both.
export type Db = SqliteClient;
export type { Prisma } from "@/lib/db/generated/sqlite/client";

/**
 * One read through the driver under Prisma, for the lookup every request makes (the API key):
 * Prisma's per-query work (plan, adapter round, row mapping) costs more than the indexed read
 * itself there. SQL uses $1, $2 … placeholders on both engines.
 */
export type DriverRead = <T>(sql: string, params: unknown[]) => Promise<T[]>;

function createClient(): { db: Db; read: DriverRead } {
  const target = databaseTarget();
  if (target.engine === "postgresql") {
    const pool = new Pool({ connectionString: target.url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10), connectionTimeoutMillis: 5_000 });
    // Without a listener an idle client's error (the database restarting) would crash the process.
    pool.on("error", () => {});
    const db = new PostgresClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as unknown as Db;
    return { db, read: async (sql, params) => (await pool.query({ text: sql, values: params })).rows };
  }
  // timeout = SQLite busy timeout: writers from several processes wait instead of failing.
  const db = new SqliteClient({ adapter: new PrismaBetterSQLite3({ url: target.url, timeout: 10_000 }) });
  let reader: Database.Database | undefined;
  const statements = new Map<string, { stmt: Database.Statement; order: number[] }>();
  const read: DriverRead = async <T,>(sql: string, params: unknown[]) => {
    reader ??= new Database(target.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
    let prepared = statements.get(sql);
    if (!prepared) {
      // $n → ? in order of appearance, with the argument order that goes with it.
      const order = [...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]) - 1);
      prepared = { stmt: reader.prepare(sql.replace(/\$\d+/g, "?")), order };
      statements.set(sql, prepared);
    }
    return prepared.stmt.all(...prepared.order.map((i) => params[i])) as T[];
  };
  return { db, read };
}

const globalForDb = globalThis as unknown as { __patchbayDb?: { db: Db; read: DriverRead } };
const client = (globalForDb.__patchbayDb ??= createClient());

/** The process-wide Prisma client for the engine DATABASE_URL selects. */
export const db: Db = client.db;
export const driverRead: DriverRead = client.read;

export const dbEngine = () => databaseTarget().engine;
