// How long history is kept (README "Running at scale"). Read at each use, like lib/config/limits.ts.

function days(name: string, fallback: number | null): number | null {
  const raw = process.env[name];
  const v = Number(raw);
  return raw !== undefined && raw !== "" && Number.isFinite(v) && v >= 1 ? Math.floor(v) : fallback;
}

/** Operation logs older than this many days are deleted (default 400: longer than every plan's history window). */
export const logRetentionDays = () => days("LOG_RETENTION_DAYS", 400) ?? 400;

/** Ledger entries (and their usage attribution): kept for good unless LEDGER_RETENTION_DAYS is set. */
export const ledgerRetentionDays = () => days("LEDGER_RETENTION_DAYS", null);

const PARTITION_INTERVALS = ["month", "week", "day"] as const;
export type PartitionInterval = (typeof PARTITION_INTERVALS)[number];

/** PostgreSQL: the span of one partition of the history tables (LOG_PARTITION_INTERVAL, default month). */
export function partitionInterval(): PartitionInterval {
  const raw = process.env.LOG_PARTITION_INTERVAL;
  return (PARTITION_INTERVALS as readonly string[]).includes(raw ?? "") ? (raw as PartitionInterval) : "month";
}
