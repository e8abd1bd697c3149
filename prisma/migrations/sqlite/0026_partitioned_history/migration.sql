-- PostgreSQL only: operation logs, ledger entries and usage attribution become partitioned by
-- month there. SQLite stays one file; its retention deletes in bounded batches (lib/history/maintain-history.ts).
SELECT 1;
