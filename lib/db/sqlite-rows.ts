import "server-only";
import type Database from "better-sqlite3";
import { utcMs } from "@/lib/db/instants";
import { reusedStatement } from "@/lib/db/reused-statements";
import { UniqueViolation, type TxRunner } from "@/lib/db/tx-connection";

// Rows come from better-sqlite3 as arrays and are made objects here: its own row objects cost a
// third more on a page of logs. Integers are numbers, as on PostgreSQL's read path. Columns
// declared DATETIME are decoded to milliseconds, as PostgreSQL's are by its type parser
// (lib/db/instants.ts).

type Statement = Database.Statement<unknown[]>;
const described = new WeakMap<Statement, { columns: string[]; instants: boolean[] }>();

/** The rows `stmt` returns for `parameters`, as objects with instants in milliseconds. */
export function sqliteRows(stmt: Statement, parameters: readonly unknown[]): Record<string, unknown>[] {
  let d = described.get(stmt);
  if (!d) {
    const columns = stmt.columns();
    d = { columns: columns.map((c) => c.name), instants: columns.map((c) => c.type?.toUpperCase() === "DATETIME") };
    described.set(stmt, d);
  }
  const { columns, instants } = d;
  return (stmt.raw(true).all(parameters as unknown[]) as unknown[][]).map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) {
      const v = values[i];
      // Prisma's connection reads integers as BigInt (safe integers); the reads see numbers.
      row[columns[i]] = instants[i] && typeof v === "string" ? utcMs(v) : typeof v === "bigint" ? Number(v) : v;
    }
    return row;
  });
}

const UNIQUE = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY"]);

/**
 * Statements run directly on the connection Prisma's open transaction holds (lib/db/tx-connection.ts):
 * the driver is synchronous and the connection is this transaction's until it ends, so each one is
 * part of it. Booleans are stored as 1/0, as Prisma stores them.
 */
export const sqliteRunner =
  (client: Database.Database): TxRunner =>
  async (sql, parameters) =>
    runOnSqlite(client, sql, parameters);

/** One statement on `client` now (the driver is synchronous), as `sqliteRunner` runs it. */
export function runOnSqlite(
  client: Database.Database,
  sql: string,
  parameters: readonly unknown[],
): Record<string, unknown>[] {
  const args = parameters.map((p) => (typeof p === "boolean" ? Number(p) : p));
  try {
    const stmt = reusedStatement(client, sql);
    if (stmt.reader) return sqliteRows(stmt, args);
    stmt.run(args);
    return [];
  } catch (e) {
    throw UNIQUE.has((e as { code?: string }).code ?? "") ? new UniqueViolation(e as Error) : e;
  }
}
