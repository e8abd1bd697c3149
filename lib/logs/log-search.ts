import "server-only";
import { sql, type Expression, type SqlBool } from "kysely";
import { databaseTarget } from "@/lib/db/engine";
import { searchWords } from "@/lib/text/search-words";

// GET /v1/logs?q=… (CONTRACT §12) on either engine's full-text index (migration 0025_log_search).
// q is never handed to the database as query syntax: it is cut into words (lib/text/search-words.ts,
// the indexes' own rule, so only letters, digits and non-ASCII characters remain) and each word is
// quoted into a query built here, so no operator, quote or bracket of q can change its meaning.
//
// What a member may read decides what is searched for them: a log of another member's private
// connection shows them neither input nor output, and another member's unshared agent
// conversation not its title (the log's recorded source name). The index holds every field, so
// it gives the candidates; a candidate with a hidden field is kept only if q's words all occur
// in the fields the viewer reads.

/** The query texts of one search, bound as parameters of the page's SQL (see `prepared`). */
export type LogSearchArgs<T = string> = {
  /** Every field, this team: what the index answers. */
  searchAll: T;
  /** Only what a viewer reads, for a log with a hidden field: operation id, plus name, plus body. */
  searchOp: T;
  searchOpName: T;
  searchOpBody: T;
};

// A word holds only letters, digits and non-ASCII characters (no quote, backslash or space), yet
// each is escaped for the syntax it lands in all the same.
const ftsWord = (w: string) => `"${w.replace(/"/g, '""')}"*`;
const tsLexeme = (w: string) => `'${w.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;

/** The texts of a search for `q` in `teamId`'s logs (q already checked by the schema). */
export function logSearchArgs(teamId: string, q: string): LogSearchArgs {
  const words = searchWords(q);
  if (databaseTarget().engine === "postgresql") {
    const terms = words.map((w) => `${tsLexeme(w)}:*`).join(" & ");
    return {
      searchAll: `${tsLexeme(`#${teamId}`)} & ${terms}`,
      searchOp: terms,
      searchOpName: terms,
      searchOpBody: terms,
    };
  }
  const terms = words.map(ftsWord).join(" AND ");
  // The FTS row's team column holds the team id without '_' (one token, or a few if it held other punctuation).
  const team = searchWords(teamId.replace(/_/g, "")).map((t) => `"${t}"`);
  return {
    searchAll: `{team} : (${team.join(" AND ")}) AND {op name body} : (${terms})`,
    searchOp: `{op} : (${terms})`,
    searchOpName: `{op name} : (${terms})`,
    searchOpBody: `{op body} : (${terms})`,
  };
}

// A log's text, as the generated column of PostgreSQL's migration 0025 assembles it, with each
// field present only when the viewer reads it.
const pgVisibleText = (nameShown: Expression<SqlBool>, bodyShown: Expression<SqlBool>) => sql<string>`
  l."operationId" || ' ' || CASE WHEN ${nameShown} THEN coalesce(l."sourceName", '') ELSE '' END || ' ' ||
  CASE WHEN ${bodyShown}
    THEN coalesce(substr(l."input", 1, 2000), '') || ' ' || coalesce(substr(l."output", 1, 2000), '')
    ELSE '' END`;

/**
 * The condition a page's rows meet for a search (`l` the log, `c` its agent conversation, as
 * lib/logs/log-to-json.ts joins them): the index's candidates, each with a hidden field checked
 * again on what `viewerId` reads.
 */
export function logSearchCondition(s: LogSearchArgs<unknown>, viewerId: unknown): Expression<SqlBool> {
  // Another member's private connection: input and output hidden (logJsonText).
  const bodyShown = sql<SqlBool>`(l."privateToUserId" IS NULL OR l."privateToUserId" = ${viewerId})`;
  // Another member's unshared (or deleted) conversation: its title hidden (agentSourceName).
  const nameShown = sql<SqlBool>`(l."sourceType" <> 'agent' OR c."shared" = TRUE OR c."userId" = ${viewerId})`;
  if (databaseTarget().engine === "postgresql") {
    return sql<SqlBool>`(l."searchVector" @@ ${s.searchAll}::tsquery AND ((${bodyShown} AND ${nameShown})
      OR "patchbay_search_words"(${pgVisibleText(nameShown, bodyShown)}) @@ ${s.searchOp}::tsquery))`;
  }
  // Candidates by rowid from the FTS table (one team's matches); a hidden field: the same row
  // matched again on the columns shown, one FTS probe by rowid.
  return sql<SqlBool>`(l.rowid IN (SELECT rowid FROM "OperationLogSearch" WHERE "OperationLogSearch" MATCH ${s.searchAll})
    AND ((${bodyShown} AND ${nameShown}) OR EXISTS (
      SELECT 1 FROM "OperationLogSearch" f WHERE f."OperationLogSearch" MATCH (
        CASE WHEN ${nameShown} THEN ${s.searchOpName} WHEN ${bodyShown} THEN ${s.searchOpBody} ELSE ${s.searchOp} END
      ) AND f.rowid = l.rowid)))`;
}
