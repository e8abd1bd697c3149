import "server-only";
import Database from "better-sqlite3";
import { Pool, types, type PoolClient } from "pg";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "@/lib/db/generated/sqlite/client";
import { PrismaClient as PostgresClient } from "@/lib/db/generated/postgresql/client";
import { databaseTarget } from "@/lib/db/engine";
import { oneStatementAtATime, sqliteBatches, sqliteTurns, type BatchStatement } from "@/lib/db/one-statement-at-a-time";
import { statementsReused } from "@/lib/db/reused-statements";
import { transactionsReleaseTheirConnection } from "@/lib/db/pg-transaction-ends";
import {
  beginLazily,
  checkedIn,
  connectionLost,
  NamedStatementsClient,
  pipelinedOn,
} from "@/lib/db/pg-named-statements";
import { encodeParameter, utcMs } from "@/lib/db/instants";
import { sqliteRows } from "@/lib/db/sqlite-rows";
import type { ReadDb } from "@/lib/db/read-types";

// Both generated clients expose the same model API (one schema source); the SQLite client's
// type stands for both.
export type Db = SqliteClient;
export type { Prisma, Approval, AgentConversation, AgentTurn } from "@/lib/db/generated/sqlite/client";

/** How PostgreSQL values reach the reads (Prisma's adapter sets its own per query); instants: lib/db/instants.ts. */
// pg hands a parser plain oids; its builtins are a numeric enum of the same oids.
const OID: Record<keyof typeof types.builtins, number> = types.builtins;
const PG_READ_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    // int8 (the Unix-second and -millisecond columns) as a number.
    if (oid === OID.INT8) return (text: string) => Number(text);
    if (oid === OID.TIMESTAMP || oid === OID.TIMESTAMPTZ) return utcMs;
    // pg's own parser for every other oid, which @types/pg types `any` (its result depends on the oid).
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- see the line above
    return types.getTypeParser(oid, format);
  },
};

/** Runs one SQL statement compiled for this engine (lib/db/read.ts) and returns its rows. */
export type RunRead = (sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;

/**
 * Statements sent together: each one's rows, in order. PostgreSQL: in one round trip. SQLite: a
 * transaction (BEGIN … COMMIT) run at once in the connection's turn, where a statement marked
 * `mustMatch` that returns no row undoes it all (lib/db/one-statement-at-a-time.ts).
 */
export type RunPipelined = (statements: BatchStatement[]) => Promise<unknown[][]>;

type Clients = { db: Db; builder: Kysely<ReadDb>; run: RunRead; pipelined: RunPipelined; pool?: Pool };

/** Kysely as a compiler only: it turns typed queries into this engine's SQL; `run` executes them. */
const compilerFor = (engine: "sqlite" | "postgresql") =>
  new Kysely<ReadDb>({
    dialect:
      engine === "sqlite"
        ? {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (k) => new SqliteIntrospector(k),
            createQueryCompiler: () => new SqliteQueryCompiler(),
          }
        : {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (k) => new PostgresIntrospector(k),
            createQueryCompiler: () => new PostgresQueryCompiler(),
          },
  });

function createClients(): Clients {
  const target = databaseTarget();
  if (target.engine === "postgresql") {
    const pool = new Pool({
      connectionString: target.url,
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      connectionTimeoutMillis: 5_000,
      types: PG_READ_TYPES,
      // No parallel workers: every statement of the product is an index-bounded read or write
      // that a worker's start costs more than it saves. A Clients page's sums, planned over nine
      // small stretches of the ledger, started two and took 100 ms instead of 20 (2 cores).
      options: "-c TimeZone=UTC -c max_parallel_workers_per_gather=0",
      // Statements with parameters are prepared once per connection (lib/db/pg-named-statements.ts).
      Client: NamedStatementsClient,
    });
    // Without a listener an idle client's error (the database restarting) would crash the process.
    pool.on("error", () => {});
    // Prisma's connections begin their transactions lazily (lib/db/pg-named-statements.ts): the
    // same pool, whose connect() marks each connection it hands to Prisma until it is released.
    pool.on("release", (_err: unknown, client: PoolClient) => checkedIn(client));
    const prismaPool = new Proxy(pool, {
      get(target, property) {
        if (property !== "connect") return Reflect.get(target, property, target) as unknown;
        // pool.query's own checkout passes a callback: that connection runs one statement.
        return (...args: unknown[]) =>
          args.length
            ? (target.connect as (...a: unknown[]) => unknown)(...args)
            : target.connect().then((client) => {
                beginLazily(client);
                return client;
              });
      },
    });
    const db = new PostgresClient({
      adapter: transactionsReleaseTheirConnection(new PrismaPg(prismaPool, { disposeExternalPool: true })),
    }) as unknown as Db;
    return {
      db,
      pool,
      builder: compilerFor("postgresql"),
      run: async (sql, parameters) =>
        (await pool.query<Record<string, unknown>>({ text: sql, values: parameters as unknown[] })).rows,
      pipelined: async (statements) => {
        // Sent at once: a statement's answer cannot stop the ones behind it.
        if (statements.some((st) => st.mustMatch)) throw new Error("mustMatch is for SQLite's batches only.");
        const client = await pool.connect();
        let lost: Error | undefined;
        try {
          return await pipelinedOn(client, statements);
        } catch (e) {
          // A statement the server refused leaves the connection usable; a lost one does not.
          if (connectionLost(e)) lost = e as Error;
          throw e;
        } finally {
          client.release(lost);
        }
      },
    };
  }
  // timeout = SQLite busy timeout: writers from several processes wait instead of failing.
  // Past it, the database counts as unavailable (a 503 with Retry-After).
  const busyTimeout = Number(process.env.SQLITE_BUSY_TIMEOUT_MS ?? 10_000);
  const db = new SqliteClient({
    // The busy wait is a timer in oneStatementAtATime, not SQLite's sleep inside the synchronous driver.
    adapter: oneStatementAtATime(
      statementsReused(new PrismaBetterSQLite3({ url: target.url, timeout: 0 })),
      busyTimeout,
    ),
  });
  // The reads' own read-only connection, opened on first use (the file exists once migrated);
  // each distinct SQL text is prepared once (the hot reads are a handful of shapes).
  let conn: Database.Database | undefined;
  const prepared = new Map<string, Database.Statement<unknown[]>>();
  const run: RunRead = async (sql, parameters) => {
    conn ??= new Database(target.file, { readonly: true, fileMustExist: true, timeout: busyTimeout });
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = conn.prepare<unknown[]>(sql)));
    return sqliteRows(stmt, parameters);
  };
  const pipelined: RunPipelined = async (statements) => {
    if (!sqliteBatches.run) await db.$connect(); // the adapter, with its connection, is made on connect
    return sqliteBatches.run!(statements);
  };
  return { db, builder: compilerFor("sqlite"), run, pipelined };
}

const globalForDb = globalThis as unknown as { __patchbayDb?: Clients };
const clients = (globalForDb.__patchbayDb ??= createClients());

/** The process-wide Prisma client for the engine DATABASE_URL selects: schema, writes, transactions. */
export const db: Db = clients.db;

/**
 * The hot reads (every request's key or session lookup, the lists and lookups of logs, ledger,
 * connections and auth links) skip Prisma, whose per-query work costs more than these indexed
 * reads themselves: `readBuilder` compiles typed queries (row types from Prisma's generated
 * models, lib/db/read-types.ts) and `runRead` runs them on the same driver and pool. Use them
 * through `prepared` (lib/db/read.ts).
 */
export const readBuilder: Kysely<ReadDb> = clients.builder;
export const runRead: RunRead = clients.run;

/**
 * One statement outside any transaction (a claim, which may write), without Prisma on
 * PostgreSQL: on the pool, as `runRead`, with the same decoding (int8 and instants as numbers),
 * since Prisma's per-statement work cost more than the dispatcher's and runner's claims
 * themselves. On SQLite through Prisma, whose adapter serializes the writes
 * (lib/db/one-statement-at-a-time.ts); its raw rows give int8 as bigint.
 */
export const runStatement: RunRead =
  databaseTarget().engine === "postgresql"
    ? clients.run
    : (sql, parameters) => clients.db.$queryRawUnsafe<unknown[]>(sql, ...parameters);

export const dbEngine = () => databaseTarget().engine;

/**
 * Statements of one transaction (BEGIN, its statements, COMMIT) when no statement needs an earlier
 * one's answer. PostgreSQL: written to one connection at once and run by the server in order, one
 * round trip for all. SQLite: run one after another without yielding, so the write lock is held
 * for SQLite's work alone (lib/db/one-statement-at-a-time.ts).
 */
export const runPipelined: RunPipelined = clients.pipelined;

/** A read's parameter as this engine's driver must receive it (a Date as UTC text: lib/db/instants.ts). */
export const encodeReadParameter = encodeParameter(databaseTarget().engine);

/**
 * What this process's database connections are doing, for an operator chasing a request or run
 * that does not end (`kill -USR2`, lib/server/state-on-signal.ts): on PostgreSQL the pool's
 * counts and, per connection, its backend, transaction status and statements in flight; on SQLite
 * the statement or transaction holding the process's connection, for how long, and how many wait.
 */
export function describeConnections(): Record<string, unknown> {
  const pool = clients.pool;
  if (!pool)
    return {
      engine: "sqlite",
      holder: sqliteTurns.holder?.replace(/\s+/g, " ").slice(0, 160) ?? null,
      held_ms: sqliteTurns.heldSince === null ? null : Date.now() - sqliteTurns.heldSince,
      waiting: sqliteTurns.waiting,
    };
  type Inside = {
    processID?: number;
    pipeline?: boolean;
    beginLazily?: boolean;
    beginHeld?: boolean;
    readyForQuery?: boolean;
    _txStatus?: string | null;
    _queryQueue: { text?: string }[];
    _sentQueryQueue: { text?: string }[];
    _activeQuery?: { text?: string } | null;
  };
  const text = (q?: { text?: string } | null) => q?.text?.replace(/\s+/g, " ").slice(0, 160);
  const all = (pool as unknown as { _clients: Inside[] })._clients;
  const idle = new Set((pool as unknown as { _idle: { client: Inside }[] })._idle.map((i) => i.client));
  return {
    engine: "postgresql",
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    connections: all.map((c) => ({
      backend: c.processID,
      checked_out: !idle.has(c),
      tx_status: c._txStatus,
      pipeline: c.pipeline,
      begin_lazily: c.beginLazily,
      begin_held: c.beginHeld,
      ready: c.readyForQuery,
      active: text(c._activeQuery),
      sent: c._sentQueryQueue.map(text),
      queued: c._queryQueue.map(text),
    })),
  };
}
