-- Every operation log's insert and completion cost PostgreSQL about twice what the row itself did
-- (pgbench, one log per statement: 0.40-0.47 ms of server CPU without the 0029 trigger, 0.80-0.90
-- with it). Two changes, neither of which changes a result.
--
-- 1. Search words (0025_log_search): the same words for every text, in about a third of the time. 0025_log_search lower-cased
-- ASCII letters with translate(), which looks every character up in its 26-letter list: on a
-- 3 KB log body that was two thirds of "patchbay_search_words" (0.4 of 0.6 ms, PostgreSQL 15),
-- and every log's insert and completion computes it. lower() under the "C" collation changes
-- exactly the ASCII letters A-Z and nothing else, whatever the database's locale, as translate()
-- did: the function's result is unchanged for every input (checked on every code point to
-- U+3000 and a sample above, alone and mixed), so the vectors already stored and their index stay
-- right.
CREATE OR REPLACE FUNCTION "patchbay_search_words"(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT array_to_tsvector(array_remove(string_to_array(
    regexp_replace(
      regexp_replace(
        lower(replace(replace(replace(t, E'\\n', ' '), E'\\r', ' '), E'\\t', ' ') COLLATE "C"),
        E'[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g'),
      E'([^ ]{100})[^ ]+', E'\\1', 'g'),
    ' '), ''))
$$;

-- 2. Hour counts (0029_log_hours): the trigger called a SQL function with its rows as arrays, and
-- PostgreSQL plans a SQL function's INSERT again at every call (about 0.25 ms a statement). The
-- INSERT is now the trigger's own statement, whose plan PL/pgSQL keeps for the session; it adds
-- exactly what patchbay_count_logs added: per (team, UTC hour, connection) each log's +1 (new row)
-- or -1 (old row), and the same for its error-ness, under the writing transaction's batch; only
-- the changes that move a count (an UPDATE's unchanged logs cancel out); nothing for a team
-- being deleted.
CREATE OR REPLACE FUNCTION "patchbay_log_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
    SELECT d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", ''), txid_current(),
           COUNT(*), COUNT(*) FILTER (WHERE d."status" = 'error')
    FROM "new_logs" d
    WHERE EXISTS (SELECT 1 FROM "Team" x WHERE x."id" = d."teamId")
    GROUP BY d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", '')
    ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
      SET "operations" = "LogHour"."operations" + excluded."operations",
          "errors" = "LogHour"."errors" + excluded."errors";
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
    SELECT d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", ''), txid_current(),
           SUM(d."sign"), SUM(CASE WHEN d."status" = 'error' THEN d."sign" ELSE 0 END)
    FROM (SELECT "teamId", "startedAt", "connectionId", "status", 1 AS "sign" FROM "new_logs"
          UNION ALL
          SELECT "teamId", "startedAt", "connectionId", "status", -1 FROM "old_logs") d
    WHERE EXISTS (SELECT 1 FROM "Team" x WHERE x."id" = d."teamId")
    GROUP BY d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", '')
    HAVING SUM(d."sign") <> 0 OR SUM(CASE WHEN d."status" = 'error' THEN d."sign" ELSE 0 END) <> 0
    ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
      SET "operations" = "LogHour"."operations" + excluded."operations",
          "errors" = "LogHour"."errors" + excluded."errors";
  ELSE
    INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
    SELECT d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", ''), txid_current(),
           -COUNT(*), -COUNT(*) FILTER (WHERE d."status" = 'error')
    FROM "old_logs" d
    WHERE EXISTS (SELECT 1 FROM "Team" x WHERE x."id" = d."teamId")
    GROUP BY d."teamId", (d."startedAt" / 3600)::int, COALESCE(d."connectionId", '')
    ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
      SET "operations" = "LogHour"."operations" + excluded."operations",
          "errors" = "LogHour"."errors" + excluded."errors";
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION "patchbay_count_logs"(text[], bigint[], text[], int[], int[]);
