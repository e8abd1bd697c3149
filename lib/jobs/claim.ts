import "server-only";
import { dbEngine, runStatement } from "@/lib/db/client";

// Claiming due jobs, the same way for every job table: one atomic statement that moves up to
// `limit` rows matching `where` (due, or with an expired lease) to their claimed state and returns
// them. PostgreSQL: the inner SELECT takes the rows FOR UPDATE SKIP LOCKED, so two instances never
// claim the same row and never wait on each other. SQLite: the same conditional UPDATE, which the
// database serializes; the condition is checked again on the outer UPDATE.

export type ClaimSpec = {
  table: string;
  /** SET clause, with `?` placeholders for `setParams`. */
  set: string;
  setParams: unknown[];
  /** What makes a row claimable, with `?` placeholders for `whereParams`. */
  where: string;
  whereParams: unknown[];
  orderBy: string;
  limit: number;
  /** RETURNING list. */
  returning: string;
};

const isPostgres = () => dbEngine() === "postgresql";

/** `?` placeholders as the engine wants them ($1, $2 … on PostgreSQL). */
export function placeholders(sql: string): string {
  if (!isPostgres()) return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export async function claimRows<T>(spec: ClaimSpec): Promise<T[]> {
  const t = `"${spec.table}"`;
  const pg = isPostgres();
  const sql = `UPDATE ${t} SET ${spec.set}
     WHERE "id" IN (SELECT "id" FROM ${t} WHERE ${spec.where} ORDER BY ${spec.orderBy} LIMIT ?${pg ? " FOR UPDATE SKIP LOCKED" : ""})
     ${pg ? "" : `AND ${spec.where}`}
     RETURNING ${spec.returning}`;
  const params = [...spec.setParams, ...spec.whereParams, spec.limit, ...(pg ? [] : spec.whereParams)];
  return (await runStatement(placeholders(sql), params)) as T[];
}
