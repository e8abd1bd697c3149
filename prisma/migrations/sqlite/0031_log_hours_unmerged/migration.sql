-- Nothing to change on SQLite. PostgreSQL's 0031 indexes the rows of log counts its hourly job
-- merges (one per writing transaction); SQLite's triggers (0029_log_hours) add to one row per
-- team, hour and connection, and there is nothing to merge. The folder keeps both engines'
-- migrations numbered alike.
SELECT 1;
