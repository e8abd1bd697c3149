import type { PartitionInterval } from "@/lib/config/retention";

// Partition bounds in Unix seconds, on UTC calendar boundaries: a month starts on its 1st, a week
// on Monday, a day at midnight.

const DAY = 86_400;

/** The start of the interval that holds `t`. */
export function intervalStart(t: number, interval: PartitionInterval): number {
  const d = new Date(t * 1000);
  if (interval === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const day = Math.floor(t / DAY) * DAY;
  // 1970-01-01 was a Thursday: Monday is 3 days before a multiple of 7 days.
  return interval === "day" ? day : day - ((Math.floor(t / DAY) + 3) % 7) * DAY;
}

/** The first boundary after `t`: where the partition that starts at (or holds) `t` ends. */
export function nextBoundary(t: number, interval: PartitionInterval): number {
  const start = intervalStart(t, interval);
  if (interval === "month") {
    const d = new Date(start * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  }
  return start + (interval === "day" ? DAY : 7 * DAY);
}

/** A partition's name: its table and the UTC date it starts (`OperationLog_p20261201`). */
export function partitionName(table: string, from: number): string {
  return `${table}_p${new Date(from * 1000).toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/** The partition for rows older than every dated one (bounded below by MINVALUE; not a DEFAULT). */
export const beforePartitionName = (table: string) => `${table}_p_before`;
