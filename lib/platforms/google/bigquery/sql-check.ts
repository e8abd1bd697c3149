import { OperationInputError } from "@/lib/platforms/kit/operation-types";

// The first, friendly refusal of bigquery.query: one GoogleSQL statement that starts with SELECT
// or WITH (after comments and opening parentheses), checked on the text before BigQuery is called.
// It is not what keeps the query read-only: a text check is always one lexer rule behind
// BigQuery's, so the operation also dry-runs the query and runs it only when BigQuery itself
// reports one SELECT statement (statement-type.ts).
//
// The lexer follows GoogleSQL's lexical structure
// (https://cloud.google.com/bigquery/docs/reference/standard-sql/lexical): a `--` or `#` comment
// ends at a line break (\n, \r or \r\n); a `/* … */` comment does not nest; strings ('…', "…",
// '''…''', """…""", with an r/b prefix or not) and quoted identifiers (`…`) take backslash
// escapes, so \' \" \` do not end them (a raw string keeps the backslash, but the quote after it
// still does not end the string: "a raw string can't end with an odd number of backslashes");
// only triple-quoted strings may hold a line break.

/** `refusal`: why GoogleSQL would not read the text (an unclosed string …), else null. */
type Lexed = { code: string; refusal: string | null };

const isLineBreak = (c: string | undefined) => c === "\n" || c === "\r";

/** Where the comment starting at `i` (`--` or `#`) ends: at the first line break, \r included. */
function lineCommentEnd(sql: string, i: number): number {
  for (let j = i; j < sql.length; j++) if (isLineBreak(sql[j])) return j;
  return sql.length;
}

/**
 * Where the string or quoted identifier starting at `i` ends (the index after it); "unclosed" when
 * it never does, "line break" when a one-line one ('…', "…", `…`) holds one, which GoogleSQL refuses.
 */
function quotedEnd(sql: string, i: number): number | "unclosed" | "line break" {
  const c = sql[i];
  const close = c !== "`" && sql.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
  const oneLine = close.length === 1;
  let j = i + close.length;
  while (j < sql.length) {
    const escaped = sql[j] === "\\";
    if (oneLine && isLineBreak(escaped ? sql[j + 1] : sql[j])) return "line break";
    if (escaped) j += 2;
    else if (sql.startsWith(close, j)) return j + close.length;
    else j++;
  }
  return "unclosed";
}

/** The statement with comments blanked and quoted text replaced by '', so keywords and `;` can be looked for. */
function lex(sql: string): Lexed {
  let code = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if ((c === "-" && sql[i + 1] === "-") || c === "#") {
      i = lineCommentEnd(sql, i);
      code += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return { code, refusal: "a /* comment is never closed" };
      i = end + 2;
      code += " ";
    } else if (c === "'" || c === '"' || c === "`") {
      const end = quotedEnd(sql, i);
      const what = c === "`" ? "a `quoted identifier`" : "a string";
      if (end === "unclosed") return { code, refusal: `${what} is never closed` };
      if (end === "line break")
        return { code, refusal: `${what} holds a line break (only a '''triple-quoted''' string may)` };
      i = end;
      code += " '' ";
    } else {
      code += c;
      i++;
    }
  }
  return { code, refusal: null };
}

/** Refuses anything but one SELECT / WITH query (a trailing `;` is allowed). */
export function assertReadOnlyQuery(sql: string): void {
  const { code, refusal } = lex(sql);
  if (refusal) throw new OperationInputError(`bigquery.query could not read the query: ${refusal}.`);
  const bare = code.trim().replace(/;\s*$/, "");
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
