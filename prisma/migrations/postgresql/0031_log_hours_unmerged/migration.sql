-- The hourly history job merges the committed transactions' rows of log counts (batch <> 0) into
-- one per team, hour and connection (batch 0): lib/history/maintain-history.ts, MERGE_LOG_HOURS.
-- Its DELETE found them by reading the whole table: 14,500,000 rows and 1.1-1.9 s at 20,000,000
-- logs, every hour, for the few thousand rows written since the last turn. This index holds only
-- those, so the merge reads what it merges.
CREATE INDEX "LogHour_unmerged_idx" ON "LogHour" ("batch") WHERE "batch" <> 0;
