import { ledgerRetentionDays, logRetentionDays } from "@/lib/config/retention";

/**
 * The tables that grow with every operation and charge, each with the Unix-seconds column that
 * partitions it on PostgreSQL (prisma/migrations/postgresql/0026_partitioned_history) and decides
 * its retention. Usage attribution goes with its ledger entries.
 */
export const HISTORY_TABLES = [
  { table: "OperationLog", key: "startedAt", retentionDays: logRetentionDays },
  { table: "CreditLedgerEntry", key: "createdAt", retentionDays: ledgerRetentionDays },
  { table: "UsageAttribution", key: "createdAt", retentionDays: ledgerRetentionDays },
] as const;

export type HistoryTable = (typeof HISTORY_TABLES)[number];
