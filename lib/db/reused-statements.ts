import "server-only";
import type Database from "better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { wrapAdapterFactory } from "@/lib/db/wrap-adapter";

// Prisma's SQLite adapter compiles every statement anew (`client.prepare(sql).bind(args)`, then
// `reader`, `run()`, `columns()`, `raw().all()`): compiling the SQL and building its statement
// object took 7 % of the workflow worker's CPU in bench:workflows, for the few dozen texts the
// product sends. Here each text is compiled once per connection, and each use binds its own
// arguments to the compiled statement (a statement runs to its end before the next use: the
// driver is synchronous).

/** Distinct statement texts kept per connection; past it the cache starts again. */
const MAX_STATEMENTS = 1_000;

type Statement = Database.Statement<unknown[]>;

/** The part of a bound statement the adapter uses, with `args` bound on each call. */
const bound = (stmt: Statement, args: unknown[]) => ({
  reader: stmt.reader,
  run: () => stmt.run(args),
  columns: () => stmt.columns(),
  raw: () => ({ all: () => stmt.raw(true).all(args) }),
});

/** Each patched connection's cache, for statements run on it directly (lib/db/sqlite-rows.ts). */
const caches = new WeakMap<Database.Database, (sql: string) => Statement>();

/** `sql` compiled once on `client`: the statement Prisma's statements of the same text reuse. */
export const reusedStatement = (client: Database.Database, sql: string): Statement =>
  caches.get(client)?.(sql) ?? client.prepare(sql);

function reuse(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const client = (adapter as unknown as { client?: Database.Database }).client;
  if (!client || typeof client.prepare !== "function") return adapter;
  const prepare = client.prepare.bind(client) as (sql: string) => Statement;
  const compiled = new Map<string, Statement>();
  const statement = (sql: string) => {
    let stmt = compiled.get(sql);
    if (!stmt) {
      if (compiled.size >= MAX_STATEMENTS) compiled.clear();
      stmt = prepare(sql);
      compiled.set(sql, stmt);
    }
    return stmt;
  };
  caches.set(client, statement);
  (client as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const stmt = statement(sql);
    return { reader: stmt.reader, bind: (args: unknown[]) => bound(stmt, args), run: () => stmt.run() };
  };
  return adapter;
}

/** The SQLite adapter with each statement text compiled once per connection. */
export const statementsReused = (factory: SqlMigrationAwareDriverAdapterFactory) => wrapAdapterFactory(factory, reuse);
