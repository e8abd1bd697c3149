-- CreateTable
CREATE TABLE "LogHour" (
    "teamId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "connectionId" TEXT NOT NULL DEFAULT '',
    "batch" BIGINT NOT NULL DEFAULT 0,
    "operations" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    CONSTRAINT "LogHour_pkey" PRIMARY KEY ("teamId","hour","connectionId","batch")
);

-- AddForeignKey
ALTER TABLE "LogHour" ADD CONSTRAINT "LogHour_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Every log counted in its team's UTC hour and connection (lib/logs/log-hours.ts reads them),
-- whatever writes it: an insert, a status change (a workflow's `start` log updated to how it
-- ended), a key change, a delete (a team's cascade, the "before" partition's batches). One
-- statement-level trigger per kind of change, over the statement's transition tables: a
-- statement's logs make one row per (team, hour, connection), under the writing transaction's
-- id as `batch`, so concurrent writers never wait on (or deadlock over) one counter row. The
-- history job (lib/history/maintain-history.ts) merges committed batches into batch 0, and
-- deletes the counts of partitions it drops (no trigger fires for a dropped partition).

-- Counts added per team, hour and connection: each log's `sign` (+1 a new row, -1 an old one)
-- and `error` (1 when its status is error), in the calling transaction's batch. A team being
-- deleted takes its counts with it: its logs' cascade adds none.
CREATE FUNCTION "patchbay_count_logs"("teams" text[], "started" bigint[], "connections" text[], "error" int[], "sign" int[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
  SELECT d."t", (d."s" / 3600)::int, COALESCE(d."c", ''), txid_current(), SUM(d."g"), SUM(d."e" * d."g")
  FROM unnest("teams", "started", "connections", "error", "sign") AS d("t", "s", "c", "e", "g")
  WHERE EXISTS (SELECT 1 FROM "Team" x WHERE x."id" = d."t")
  GROUP BY d."t", (d."s" / 3600)::int, COALESCE(d."c", '')
  HAVING SUM(d."g") <> 0 OR SUM(d."e" * d."g") <> 0
  ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
    SET "operations" = "LogHour"."operations" + excluded."operations",
        "errors" = "LogHour"."errors" + excluded."errors"
$$;

-- A statement's logs counted in (its new rows) and out (its old rows: an UPDATE has both, and
-- counts only where it moved a log's hour, connection or error-ness). Each branch sees only its
-- own transition tables.
CREATE FUNCTION "patchbay_log_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "patchbay_count_logs"(array_agg("teamId"), array_agg("startedAt"), array_agg("connectionId"),
      array_agg(("status" = 'error')::int), array_agg(1)) FROM "new_logs";
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "patchbay_count_logs"(array_agg("teamId"), array_agg("startedAt"), array_agg("connectionId"),
      array_agg(("status" = 'error')::int), array_agg("sign"))
    FROM (SELECT *, 1 AS "sign" FROM "new_logs" UNION ALL SELECT *, -1 FROM "old_logs") d;
  ELSE
    PERFORM "patchbay_count_logs"(array_agg("teamId"), array_agg("startedAt"), array_agg("connectionId"),
      array_agg(("status" = 'error')::int), array_agg(-1)) FROM "old_logs";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "OperationLog_hours_insert" AFTER INSERT ON "OperationLog"
  REFERENCING NEW TABLE AS "new_logs" FOR EACH STATEMENT EXECUTE FUNCTION "patchbay_log_hours"();
CREATE TRIGGER "OperationLog_hours_update" AFTER UPDATE ON "OperationLog"
  REFERENCING OLD TABLE AS "old_logs" NEW TABLE AS "new_logs" FOR EACH STATEMENT EXECUTE FUNCTION "patchbay_log_hours"();
CREATE TRIGGER "OperationLog_hours_delete" AFTER DELETE ON "OperationLog"
  REFERENCING OLD TABLE AS "old_logs" FOR EACH STATEMENT EXECUTE FUNCTION "patchbay_log_hours"();

-- The logs so far, merged (batch 0).
INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "batch", "operations", "errors")
SELECT "teamId", ("startedAt" / 3600)::int, COALESCE("connectionId", ''), 0, COUNT(*), COUNT(*) FILTER (WHERE "status" = 'error')
FROM "OperationLog"
GROUP BY "teamId", ("startedAt" / 3600)::int, COALESCE("connectionId", '');
