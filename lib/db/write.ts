import "server-only";
import type { Compilable, Insertable } from "kysely";
import { dbEngine, encodeReadParameter, readBuilder } from "@/lib/db/client";
import type { ReadDb } from "@/lib/db/read-types";
import { compiledByShape } from "@/lib/db/read";
import { capturing, deferInTx, runnerOf } from "@/lib/db/tx-connection";
import type { Tx } from "@/lib/db/transaction";

export { readBuilder as write };

/**
 * A hot statement of a transaction (an insert or update the workflow runner, the webhook outbox or the audit log makes
 * on every change) compiled once per shape like the reads (lib/db/read.ts) and run on the driver
 * connection of the transaction `tx` (lib/db/tx-connection.ts), in that transaction: Prisma's
 * per-statement work cost several times these indexed writes. Returns the rows of a
 * select or of RETURNING, instants in milliseconds. A broken unique key throws `code: "P2002"`, as
 * Prisma's writes do. Every column Prisma would fill itself (an id, `createdAt`, `@updatedAt`)
 * is given here.
 */
export function preparedInTx<Args extends Record<string, unknown>, Row = never>(
  build: (args: Args) => Compilable<Row>,
  /**
   * A SELECT, or an UPDATE of another table, that reads none of the rows the transaction's
   * deferred writes make: they ride in it (lib/db/tx-connection.ts).
   */
  options: { carriesDeferred?: boolean } = {},
) {
  const compiled = compiledByShape(build);
  return async (tx: Tx, args: Args): Promise<Row[]> => {
    const [sql, values] = compiled(args);
    return (await runnerOf(tx, options)(sql, values)) as Row[];
  };
}

/** Whether writes whose answer nobody needs ride with the transaction's next statement (lib/db/tx-connection.ts). */
const deferring = dbEngine() === "postgresql";

/**
 * A write of a transaction whose result nobody reads (an INSERT of an audit event, a webhook
 * event, a log; an UPDATE of a log's end), as `preparedInTx`; on PostgreSQL it is sent with the
 * transaction's next statement or at its end (`deferInTx`), not in a round trip of its own. A
 * broken key is reported then.
 */
export function deferredInTx<Args extends Record<string, unknown>>(build: (args: Args) => Compilable<unknown>) {
  const compiled = compiledByShape(build);
  return async (tx: Tx, args: Args): Promise<void> => {
    const [sql, values] = compiled(args);
    if (deferring || capturing(tx)) await deferInTx(tx, { sql, values });
    else await runnerOf(tx)(sql, values);
  };
}

/**
 * A multi-row INSERT into `table` in the transaction `tx` (as `preparedInTx`): every row gives the
 * same columns; compiled once per row count and column list. One statement instead of one per row:
 * on PostgreSQL each statement is a round trip to the server. `deferred`: as `deferredInTx`.
 */
export function insertRowsInTx<T extends keyof ReadDb>(table: T, { deferred = false } = {}) {
  const compiled = new Map<string, string>();
  return async (tx: Tx, rows: Insertable<ReadDb[T]>[]): Promise<void> => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]) as (keyof Insertable<ReadDb[T]> & string)[];
    const key = `${rows.length}:${columns.join(",")}`;
    let sql = compiled.get(key);
    if (sql === undefined) {
      const blank = Object.fromEntries(columns.map((c) => [c, null])) as Insertable<ReadDb[T]>;
      sql = readBuilder
        .insertInto(table)
        .values(rows.map(() => blank))
        .compile().sql;
      compiled.set(key, sql);
    }
    const values = rows.flatMap((row) => columns.map((c) => encodeReadParameter(row[c])));
    if (deferred && (deferring || capturing(tx))) await deferInTx(tx, { sql, values });
    else await runnerOf(tx)(sql, values);
  };
}
