-- CreateTable
CREATE TABLE "LogHour" (
    "teamId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "connectionId" TEXT NOT NULL DEFAULT '',
    "batch" BIGINT NOT NULL DEFAULT 0,
    "operations" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,

    PRIMARY KEY ("teamId", "hour", "connectionId", "batch"),
    CONSTRAINT "LogHour_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- Every log counted in its team's UTC hour and connection (lib/logs/log-hours.ts reads them),
-- whatever writes it: an insert, a status change (a workflow's `start` log updated to how it
-- ended), a key change, a delete (retention's batches, a team's cascade). SQLite has one writer,
-- so every row is batch 0. A migration that redefines "OperationLog" (Prisma's copy-and-rename)
-- drops these triggers: it must create them again and recount (the INSERT … SELECT below).
CREATE TRIGGER "OperationLog_hours_insert" AFTER INSERT ON "OperationLog" BEGIN
  INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "operations", "errors")
  VALUES (new."teamId", new."startedAt" / 3600, coalesce(new."connectionId", ''), 1, new."status" = 'error')
  ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
    SET "operations" = "operations" + 1, "errors" = "errors" + excluded."errors";
END;

CREATE TRIGGER "OperationLog_hours_update"
AFTER UPDATE OF "teamId", "startedAt", "connectionId", "status" ON "OperationLog"
WHEN old."teamId" IS NOT new."teamId"
  OR old."startedAt" / 3600 IS NOT new."startedAt" / 3600
  OR old."connectionId" IS NOT new."connectionId"
  OR (old."status" = 'error') IS NOT (new."status" = 'error')
BEGIN
  UPDATE "LogHour" SET "operations" = "operations" - 1, "errors" = "errors" - (old."status" = 'error')
  WHERE "teamId" = old."teamId" AND "hour" = old."startedAt" / 3600
    AND "connectionId" = coalesce(old."connectionId", '') AND "batch" = 0;
  INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "operations", "errors")
  VALUES (new."teamId", new."startedAt" / 3600, coalesce(new."connectionId", ''), 1, new."status" = 'error')
  ON CONFLICT ("teamId", "hour", "connectionId", "batch") DO UPDATE
    SET "operations" = "operations" + 1, "errors" = "errors" + excluded."errors";
END;

CREATE TRIGGER "OperationLog_hours_delete" AFTER DELETE ON "OperationLog" BEGIN
  UPDATE "LogHour" SET "operations" = "operations" - 1, "errors" = "errors" - (old."status" = 'error')
  WHERE "teamId" = old."teamId" AND "hour" = old."startedAt" / 3600
    AND "connectionId" = coalesce(old."connectionId", '') AND "batch" = 0;
END;

-- The logs so far.
INSERT INTO "LogHour" ("teamId", "hour", "connectionId", "operations", "errors")
SELECT "teamId", "startedAt" / 3600, coalesce("connectionId", ''), COUNT(*), SUM("status" = 'error')
FROM "OperationLog"
GROUP BY "teamId", "startedAt" / 3600, coalesce("connectionId", '');
