-- Full-text search of operation logs: GET /v1/logs?q=… (lib/logs/log-search.ts says how a q
-- becomes a query; PostgreSQL's twin is its migration 0025_log_search, which tokenises alike).
--
-- One FTS5 row per log, under the log's rowid: `team` its team id without '_' (one token, so
-- a search reads one team's matches only), `op` its operation id, `name` its recorded source
-- name, `body` the first 2,000 characters of its input and of its output (the JSON text as
-- stored; an error's message is in its output). The `ascii` tokenizer splits at every ASCII
-- character that is not a letter or digit (any other character belongs to a word) and
-- lower-cases ASCII letters: PostgreSQL's patchbay_search_words does the same. JSON's \n \r \t
-- escapes read as spaces on both.
--
-- Contentless (the text stays in "OperationLog" only) with contentless_delete, detail=column
-- (column filters, no positions: search has no phrases). Triggers keep it in step with every
-- insert, update (a workflow's `start` log is updated to its outcome) and delete (a team's
-- cascade, retention). A migration that redefines "OperationLog" (Prisma's copy-and-rename)
-- drops these triggers and may renumber rowids: it must create them again and rebuild this
-- table (DELETE FROM "OperationLogSearch", then the INSERT … SELECT at the end of this file).
CREATE VIRTUAL TABLE "OperationLogSearch" USING fts5(
  "team", "op", "name", "body",
  content='', contentless_delete=1, tokenize='ascii', detail='column'
);

CREATE TRIGGER "OperationLog_search_insert" AFTER INSERT ON "OperationLog" BEGIN
  INSERT INTO "OperationLogSearch" (rowid, "team", "op", "name", "body") VALUES (
    new.rowid,
    replace(new."teamId", '_', ''),
    replace(replace(replace(new."operationId", '\n', ' '), '\r', ' '), '\t', ' '),
    replace(replace(replace(coalesce(new."sourceName", ''), '\n', ' '), '\r', ' '), '\t', ' '),
    replace(replace(replace(
      coalesce(substr(new."input", 1, 2000), '') || ' ' || coalesce(substr(new."output", 1, 2000), ''),
      '\n', ' '), '\r', ' '), '\t', ' ')
  );
END;

CREATE TRIGGER "OperationLog_search_update"
AFTER UPDATE OF "teamId", "operationId", "sourceName", "input", "output" ON "OperationLog" BEGIN
  DELETE FROM "OperationLogSearch" WHERE rowid = old.rowid;
  INSERT INTO "OperationLogSearch" (rowid, "team", "op", "name", "body") VALUES (
    new.rowid,
    replace(new."teamId", '_', ''),
    replace(replace(replace(new."operationId", '\n', ' '), '\r', ' '), '\t', ' '),
    replace(replace(replace(coalesce(new."sourceName", ''), '\n', ' '), '\r', ' '), '\t', ' '),
    replace(replace(replace(
      coalesce(substr(new."input", 1, 2000), '') || ' ' || coalesce(substr(new."output", 1, 2000), ''),
      '\n', ' '), '\r', ' '), '\t', ' ')
  );
END;

CREATE TRIGGER "OperationLog_search_delete" AFTER DELETE ON "OperationLog" BEGIN
  DELETE FROM "OperationLogSearch" WHERE rowid = old.rowid;
END;

INSERT INTO "OperationLogSearch" (rowid, "team", "op", "name", "body")
SELECT
  rowid,
  replace("teamId", '_', ''),
  replace(replace(replace("operationId", '\n', ' '), '\r', ' '), '\t', ' '),
  replace(replace(replace(coalesce("sourceName", ''), '\n', ' '), '\r', ' '), '\t', ' '),
  replace(replace(replace(
    coalesce(substr("input", 1, 2000), '') || ' ' || coalesce(substr("output", 1, 2000), ''),
    '\n', ' '), '\r', ' '), '\t', ' ')
FROM "OperationLog";
