import { OperationInputError } from "@/lib/platforms/kit/operation-types";

// The read-only gate of bigquery.query: one GoogleSQL statement that starts with SELECT or WITH
// (after comments and opening parentheses). jobs.query runs scripts and DML too, and the scope
// that allows jobs.query (bigquery) allows them, so anything else is refused before any call.

/** Where the quoted text, comment or identifier starting at `i` ends (the index after it). */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "`") {
    const end = sql.indexOf("`", i + 1);
    return end < 0 ? sql.length : end + 1;
  }
  const triple = sql.startsWith(c.repeat(3), i);
  const close = triple ? c.repeat(3) : c;
  let j = i + close.length;
  while (j < sql.length) {
    if (sql[j] === "\\") j += 2;
    else if (sql.startsWith(close, j)) return j + close.length;
    else j++;
  }
  return sql.length;
}

/** The statement with comments and string contents blanked, so keywords and `;` can be looked for. */
function code(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      out += " ";
    } else if (c === "#") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      out += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      out += " ";
    } else if (c === "'" || c === '"' || c === "`") {
      i = skipQuoted(sql, i);
      out += " '' ";
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Refuses anything but one SELECT / WITH query (a trailing `;` is allowed). */
export function assertReadOnlyQuery(sql: string): void {
  const bare = code(sql).trim().replace(/;\s*$/, "");
  const first = /^[(\s]*([A-Za-z]+)/.exec(bare)?.[1]?.toUpperCase();
  if (first !== "SELECT" && first !== "WITH")
    throw new OperationInputError(
      `bigquery.query runs read-only queries: the statement must start with SELECT or WITH${first ? `, not ${first}` : ""}.`,
    );
  if (bare.includes(";"))
    throw new OperationInputError(
      "bigquery.query runs one statement: the query holds a ';' that would start another (a script).",
    );
}
