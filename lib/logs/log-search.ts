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
  const inTeam = `{team} : (${team.join(" AND ")})`;
  return {
    searchAll: `${inTeam} AND {op name body} : (${terms})`,
    searchOp: `${inTeam} AND {op} : (${terms})`,
    searchOpName: `${inTeam} AND {op name} : (${terms})`,
    searchOpBody: `${inTeam} AND {op body} : (${terms})`,
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
export function logSearchCondition(
  s: LogSearchArgs<unknown>,
  viewerId: unknown,
  /**
   * A bounded scan (newestLogs) drives the page: the index's answer is only looked in (SQLite) or
   * not read (PostgreSQL).
   */
  scan = false,
): Expression<SqlBool> {
  // Another member's private connection: input and output hidden (logJsonText).
  const bodyShown = sql<SqlBool>`(l."privateToUserId" IS NULL OR l."privateToUserId" = ${viewerId})`;
  // Another member's unshared (or deleted) conversation: its title hidden (agentSourceName).
  const nameShown = sql<SqlBool>`(l."sourceType" <> 'agent' OR c."shared" = TRUE OR c."userId" = ${viewerId})`;
  if (databaseTarget().engine === "postgresql") {
    // In the bounded scan, the function rather than its operator: the planner then cannot answer it
    // from the GIN index (all of the team's matches, to be sorted), only check it on the rows walked.
    const match = scan
      ? sql<SqlBool>`ts_match_vq(l."searchVector", ${s.searchAll}::tsquery)`
      : sql<SqlBool>`l."searchVector" @@ ${s.searchAll}::tsquery`;
    return sql<SqlBool>`(${match} AND ((${bodyShown} AND ${nameShown})
      OR "patchbay_search_words"(${pgVisibleText(nameShown, bodyShown)}) @@ ${s.searchOp}::tsquery))`;
  }
  // Candidates by rowid from the FTS table (one team's matches); a row with a hidden field must
  // also be in the team's matches on the columns shown.
  // `+` keeps the bounded scan (newestLogs) driving, the index's answer only a set to look in.
  const rowid = scan ? sql`+l.rowid` : sql`l.rowid`;
  const inIndex = (match: unknown) =>
    sql<SqlBool>`l.rowid IN (SELECT rowid FROM "OperationLogSearch" WHERE "OperationLogSearch" MATCH ${match})`;
  // Each set is one FTS query for the whole page (a prefix term costs a merge of its doclists,
  // far too much to repeat per row), read only when a row needs it.
  return sql<SqlBool>`(${rowid} IN (SELECT rowid FROM "OperationLogSearch" WHERE "OperationLogSearch" MATCH ${s.searchAll})
    AND ((${bodyShown} AND ${nameShown})
      OR (${nameShown} AND ${inIndex(s.searchOpName)})
      OR (${bodyShown} AND ${inIndex(s.searchOpBody)})
      OR ${inIndex(s.searchOp)}))`;
}

/**
 * How many of the newest logs (under the page's other filters) a search looks at first. A word in
 * a tenth of a big team's logs fills a page within them, where the index's whole answer is tens of
 * thousands of rows to fetch and sort (SQLite: 0.37 s at 500,000 logs, against 0.04 s). Only when
 * they hold fewer matches than a page does the search read the index's answer, which is small
 * then; PostgreSQL is made to (its planner, which cannot know that a word common in other teams is
 * rare in this one, would walk the team's whole history instead).
 */
export const SEARCH_SCAN = 1000;

/**
 * The bounded scan of SEARCH_SCAN as a condition on `l`: logs no older than the `skip + 1`-th
 * newest under `filters` (the same conditions as the page itself, as SQL on `l`), or every log of
 * the window (`from`) when there are fewer. One probe of the keyset index gives the bound, so the
 * page is an ordered walk of at most that many rows; an id list instead would be probed in every
 * partition on PostgreSQL (the primary key is (id, startedAt)), 27,000 probes for a page.
 */
export function newestLogs(filters: Expression<SqlBool>[], skip: unknown, from: unknown): Expression<SqlBool> {
  return sql<SqlBool>`l."startedAt" >= COALESCE((SELECT l."startedAt" FROM "OperationLog" AS l
    WHERE ${sql.join(filters, sql` AND `)} ORDER BY l."startedAt" DESC, l."id" DESC LIMIT 1 OFFSET ${skip}), ${from})`;
}
