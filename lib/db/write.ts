import "server-only";
import type { Compilable } from "kysely";
import { readBuilder } from "@/lib/db/client";
import { compiledByShape } from "@/lib/db/read";
import { runnerOf } from "@/lib/db/tx-connection";
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
) {
  const compiled = compiledByShape(build);
  return async (tx: Tx, args: Args): Promise<Row[]> => {
    const [sql, values] = compiled(args);
    return (await runnerOf(tx)(sql, values)) as Row[];
  };
}
