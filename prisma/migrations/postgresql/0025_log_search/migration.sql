-- Full-text search of operation logs: GET /v1/logs?q=… (lib/logs/log-search.ts says how a q
-- becomes a query; SQLite's twin is its migration 0025_log_search, which must tokenise alike).
--
-- A log's words: its operation id, its recorded source name and the first 2,000 characters of
-- its input and of its output (the JSON text as stored; an error's message is in its output),
-- split at every ASCII character that is not a letter or digit (any other character belongs to
-- a word), ASCII letters lower-cased, JSON's \n \r \t escapes read as spaces, each word cut to
-- its first 100 characters (a lexeme has a size limit; a search word is cut alike, and every
-- word is matched as a prefix, so the cut changes no answer). No parser and no dictionary: the
-- result does not depend on the server's locale or text-search configuration. Plus one lexeme
-- '#<teamId>' (no search word can hold '#'), so the index finds one team's matches without
-- reading every team's.
--
-- Not in prisma/schema.prisma (Prisma cannot declare a generated tsvector, and never reads it):
-- a table rebuilt from the schema must add the column and index again, exactly as below.
CREATE FUNCTION "patchbay_search_words"(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT array_to_tsvector(array_remove(string_to_array(
    regexp_replace(
      regexp_replace(
        translate(
          replace(replace(replace(t, E'\\n', ' '), E'\\r', ' '), E'\\t', ' '),
          'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
        E'[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g'),
      E'([^ ]{100})[^ ]+', E'\\1', 'g'),
    ' '), ''))
$$;

ALTER TABLE "OperationLog" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  array_to_tsvector(ARRAY['#' || "teamId"])
  || "patchbay_search_words"(
    "operationId" || ' ' || coalesce("sourceName", '') || ' '
    || coalesce(substr("input", 1, 2000), '') || ' ' || coalesce(substr("output", 1, 2000), ''))
) STORED;

CREATE INDEX "OperationLog_searchVector_idx" ON "OperationLog" USING gin ("searchVector");
