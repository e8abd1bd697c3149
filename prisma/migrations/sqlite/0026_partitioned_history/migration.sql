-- PostgreSQL only: operation logs, ledger entries and usage attribution become partitioned by
-- month there. SQLite stays one file; its retention deletes in bounded batches (lib/db/partitions.ts).
SELECT 1;
